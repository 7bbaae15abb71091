// compareRuns over 10,000 cases x 5 runs a side (issue 27's target: well under a second), beside
// a reference in the same run: the same comparison in Python with json + numpy + scipy +
// statsmodels (tools/compare-oracle/oracle.py's implementation of COMPARE.md) on the same files.
//
//   node benches/compare_runs.mjs [--cases 10000] [--runs 5] [--repeat 7]
//
// Data (seeded): per case three scored metrics (a continuous one, a trajectory in thirds, a
// binary judge verdict) and two informational ones, about 2% of metric results NOT_EVALUATED,
// the candidate slightly worse on one metric. Two workloads:
//   objects  results in the package's model, as evaluate() returns them and the viewer holds
//            them: what compareRuns reads as they are
//   files    the same results as ADK 2.x writes its result files (integer statuses, every
//            field), one file per run, as bytes: each read by the core first
// Python (the reference) reads the files. It needs a Python with scipy and statsmodels:
// EVALCORE_PYTHON, tools/compare-oracle/.venv or benches/.venv (run.sh installs them there);
// without one its column is n/a. The numbers of both are checked to agree.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { formatEvalSetResult } from '../pkg/lib/node/history.js';
import { compareRuns } from '../pkg/lib/report/reports_node.js';

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = join(HERE, '..');
const arg = (name, dflt) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : dflt;
};
const CASES = arg('cases', 10_000);
const RUNS = arg('runs', 5);
const REPEAT = arg('repeat', 7);

// A small seeded generator (mulberry32): the same data every run.
function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function metric(name, threshold, score, random, criterion) {
  if (random() < 0.02) {
    return { metric_name: name, threshold, criterion, score: null, eval_status: 'NOT_EVALUATED', details: { reason: 'judge_error', error: 'HTTP 503 from the judge' } };
  }
  return { metric_name: name, threshold, criterion, score, eval_status: score >= threshold ? 'PASSED' : 'FAILED', details: {} };
}

/** One side: `RUNS` results of `CASES` cases; `shift` lowers the continuous metric. */
function side(seed, shift) {
  const quality = rng(1234);
  const q = Array.from({ length: CASES }, () => 0.5 + 0.5 * quality());
  const random = rng(seed);
  return Array.from({ length: RUNS }, (_, run) => ({
    eval_set_result_id: `bench_${seed}_${run}`, eval_set_result_name: `bench_${seed}_${run}`, eval_set_id: 'bench', creation_timestamp: 1.7e9 + run,
    eval_case_results: q.map((quality, i) => {
      const rouge = Math.min(1, Math.max(0, quality - shift + (random() - 0.5) * 0.3));
      const steps = Math.floor(Math.min(0.999, quality + (random() - 0.5) * 0.4) * 4) / 3;
      const metrics = [
        metric('response_match_score', 0.8, Number(rouge.toFixed(4)), random, { threshold: 0.8 }),
        metric('tool_trajectory_avg_score', 1, Math.min(1, steps), random, { threshold: 1, match_type: 'EXACT' }),
        metric('final_response_match_v2', 0.5, random() < quality ? 1 : 0, random, { threshold: 0.5, judge_model_options: { judge_model: 'gemini-2.5-flash', num_samples: 1 } }),
        { metric_name: 'token_usage_v1', threshold: null, criterion: null, score: 300 + Math.floor(random() * 400), eval_status: 'INFORMATIONAL', details: {} },
        { metric_name: 'invocation_duration_v1', threshold: null, criterion: null, score: Number((random() * 3).toFixed(3)), eval_status: 'INFORMATIONAL', details: {} },
      ];
      const statuses = metrics.map((m) => m.eval_status);
      const final = statuses.includes('FAILED') ? 'FAILED' : statuses.includes('NOT_EVALUATED') ? 'NOT_EVALUATED' : 'PASSED';
      return {
        eval_set_file: 'bench', eval_set_id: 'bench', eval_id: `case_${String(i).padStart(5, '0')}`, final_eval_status: final,
        eval_metric_results: null, overall_eval_metric_results: metrics, session_id: `s-${run}-${i}`, session_details: null, user_id: 'user', run,
      };
    }),
  }));
}

const time = (fn) => {
  const t = [];
  let out;
  for (let i = 0; i < REPEAT; i++) {
    const t0 = performance.now();
    out = fn();
    t.push(performance.now() - t0);
  }
  t.sort((a, b) => a - b);
  return { min: t[0], median: t[Math.floor(t.length / 2)], out };
};

function python() {
  const cands = [process.env.EVALCORE_PYTHON, join(ROOT, 'tools', 'compare-oracle', '.venv', 'bin', 'python'), join(HERE, '.venv', 'bin', 'python')].filter(Boolean);
  return cands.find((py) => existsSync(py) && spawnSync(py, ['-c', 'import scipy, statsmodels, mpmath'], { stdio: 'ignore' }).status === 0) ?? null;
}

const baseline = side(1, 0);
const candidate = side(2, 0.01);
const dir = join(tmpdir(), `evalcore-bench-compare-${process.pid}`);
mkdirSync(dir, { recursive: true });
const files = { baseline: [], candidate: [] };
let bytes = 0;
for (const [name, list] of [['baseline', baseline], ['candidate', candidate]]) {
  list.forEach((r, i) => {
    const path = join(dir, `${name}_${i}.evalset_result.json`);
    const text = formatEvalSetResult(r);
    writeFileSync(path, text);
    files[name].push(path);
    bytes += Buffer.byteLength(text);
  });
}

const objects = time(() => compareRuns(baseline, candidate));
const fileBytes = { baseline: files.baseline.map((p) => readFileSync(p)), candidate: files.candidate.map((p) => readFileSync(p)) };
const fromFiles = time(() => compareRuns(fileBytes.baseline, fileBytes.candidate));

let reference = null;
const py = python();
if (py) {
  const script = join(HERE, 'compare_runs_ref.py');
  const r = spawnSync(py, [script, '--repeat', String(Math.min(REPEAT, 3)), '--baseline', ...files.baseline, '--candidate', ...files.candidate],
    { encoding: 'utf8', maxBuffer: 512 * 1024 * 1024, env: { ...process.env, PYTHONPATH: join(ROOT, 'tools', 'compare-oracle') } });
  if (r.status !== 0) {
    console.error(r.stderr);
    process.exitCode = 1;
  } else {
    reference = JSON.parse(r.stdout);
  }
}
rmSync(dir, { recursive: true, force: true });

// The numbers agree with the reference's (and the two evalcore paths with each other).
const agree = (x, y) => x.verdict === y.verdict && x.metrics.length === y.metrics.length
  && x.metrics.every((m, i) => m.metric_name === y.metrics[i].metric_name && m.n === y.metrics[i].n
    && Math.abs(m.mean_delta - y.metrics[i].mean_delta) <= 1e-12 && Math.abs(m.p_value - y.metrics[i].p_value) <= 1e-12 * Math.max(1e-300, y.metrics[i].p_value) + 1e-300)
  && x.pass_fail.b === y.pass_fail.b && x.pass_fail.c === y.pass_fail.c;
const sameBoth = agree(objects.out, fromFiles.out);
const sameRef = reference ? agree(fromFiles.out, reference.comparison) : null;

const ms = (x) => (x === null || x === undefined ? 'n/a' : x >= 1000 ? `${(x / 1000).toFixed(2)} s` : `${x.toFixed(0)} ms`);
const ratio = (a, b) => (a && b ? `${(a / b).toFixed(1)}x` : 'n/a');
const m = objects.out.metrics;
console.log(`compareRuns: ${CASES.toLocaleString('en-US')} cases x ${RUNS} runs a side (${(2 * CASES * RUNS).toLocaleString('en-US')} case results, ${(bytes / 1e6).toFixed(1)} MB as ADK files); best of ${REPEAT}`);
console.log(`  verdict ${objects.out.verdict}; ${m.map((x) => `${x.metric_name} delta ${x.mean_delta.toFixed(4)} p ${x.p_adjusted.toExponential(1)}`).join('; ')}`);
const rows = [
  ['workload', 'evalcore', 'python + scipy', 'ratio', 'target'],
  ['objects in the package\'s model (evaluate\'s results, the viewer\'s)', ms(objects.min), ms(reference?.times.compare_min), ratio(reference?.times.compare_min, objects.min),
    objects.min < 1000 ? 'well under 1 s: ok' : 'MISS (well under 1 s)'],
  ['ADK result files as bytes (read by the core, then compared)', ms(fromFiles.min), ms(reference?.times.total_min), ratio(reference?.times.total_min, fromFiles.min), ''],
];
const w = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
for (const r of rows) console.log(`  ${r.map((x, i) => (i === 0 ? x.padEnd(w[i]) : x.padStart(w[i]))).join('  ')}`);
console.log(`  python: ${reference ? `json.load ${ms(reference.times.load_min)} + comparison ${ms(reference.times.compare_min)} (${py})` : 'n/a (no Python with scipy and statsmodels: set EVALCORE_PYTHON or run tools/compare-oracle/refresh.sh)'}`);
console.log(`  numbers agree: objects vs files ${sameBoth ? 'yes' : 'NO'}; evalcore vs python ${sameRef === null ? 'n/a' : sameRef ? 'yes' : 'NO'}`);
if (!sameBoth || sameRef === false) process.exitCode = 1;

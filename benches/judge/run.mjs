// Judge-call throughput: evalcore's final_response_match_v2 against the loopback judge server
// (tests/js/support/judge-server.mjs, scripted mode, a fixed latency per call), compared with
// the ideal (calls x latency / concurrency) and with google-adk 2.13, whose default
// parallelism_limit of 1 makes every judge call of a case wait for the previous one.
//
//   node benches/judge/run.mjs [--cases 200] [--invocations 3] [--samples 5] [--latency 100]
//                              [--concurrency 8,16,32] [--adk-cases N]
//
// All cases are evaluated at once (Promise.all); the host's fetch is limited to C requests in
// flight and `judge.concurrency` is C too, so at most C calls are in flight whatever the scope
// of the package's own limit (per call of evaluateInvocations or shared). The server's own
// count of requests in flight is printed, and every case's score is checked (2/3: invocations 0
// and 2 are judged valid, 1 invalid), so a run that made no judge calls cannot pass for fast.
//
// google-adk: by default its time is computed (calls x latency: sequential, no overhead). With
// --adk-cases N, ADK itself is timed on the first N cases (benches/judge/adk_judge.py in
// benches/.venv, its Gemini client pointed at the same server through GOOGLE_GEMINI_BASE_URL)
// and the time is extrapolated to all cases; the output says which.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(HERE, '..', '..');
const { startJudgeServer, requestText } = await import(join(ROOT, 'tests', 'js', 'support', 'judge-server.mjs'));
const ec = await import(join(ROOT, 'pkg', 'index.js'));

const opt = (name, dflt) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 && process.argv[i + 1] !== undefined ? process.argv[i + 1] : dflt;
};
const CASES = Number(opt('cases', 200));
const INVOCATIONS = Number(opt('invocations', 3));
const SAMPLES = Number(opt('samples', 5));
const LATENCY = Number(opt('latency', 100));
const LEVELS = String(opt('concurrency', '8,16,32')).split(',').map(Number);
const ADK_CASES = opt('adk-cases', null) === null ? null : Number(opt('adk-cases', 0));
const CALLS = CASES * INVOCATIONS * SAMPLES;

const VALID = '{"reasoning": "Same answer.", "is_the_agent_response_valid": "valid"}';
const INVALID = '{"reasoning": "Different answer.", "is_the_agent_response_valid": "invalid"}';
const hex = (n, width) => n.toString(16).padStart(width, '0');
const text = (role, t) => ({ role, parts: [{ text: t }] });

/** Case c: invocation i carries the marker [inv-<case><i>]; the judge says invalid for i = 1. */
function makeCases() {
  return Array.from({ length: CASES }, (_, c) => {
    const turns = Array.from({ length: INVOCATIONS }, (_, i) => {
      const m = `${hex(c, 6)}${hex(i, 2)}`;
      const user = text('user', `[inv-${m}] What is ${c} plus ${i}? [q-${m}]`);
      return {
        expected: { invocation_id: `e-${m}`, user_content: user, final_response: text('model', `${c + i}`) },
        actual: { invocation_id: `a-${m}`, user_content: user, final_response: text('model', `[inv-${m}] ${c} plus ${i} is ${c + i}.`) },
      };
    });
    return {
      evalCase: { eval_id: `case-${c}`, conversation: turns.map((t) => t.expected) },
      actual: turns.map((t) => t.actual),
      expected: turns.map((t) => t.expected),
    };
  });
}

function answer(req) {
  const wire = req.wire ?? 'openai';
  const m = /\[inv-[0-9a-f]{6}([0-9a-f]{2})\]/.exec(req.body ? requestText(wire, req.body) : '');
  return m && parseInt(m[1], 16) === 1 ? INVALID : VALID;
}

/** A host fetch admitting at most `limit` requests at once, shared by every case. */
function limitedFetch(limit) {
  let active = 0;
  const waiting = [];
  return async (url, init) => {
    if (active < limit) active++;
    else await new Promise((r) => waiting.push(r));
    try {
      return await fetch(url, init);
    } finally {
      const next = waiting.shift();
      if (next) next();
      else active--;
    }
  };
}

const want = (INVOCATIONS - (INVOCATIONS > 1 ? 1 : 0)) / INVOCATIONS;

async function runEvalcore(server, cases, concurrency) {
  server.reset();
  const config = { criteria: { final_response_match_v2: { threshold: 0.5, judge_model_options: { num_samples: SAMPLES } } } };
  const judge = { provider: 'openai', model: 'judge', baseUrl: `${server.baseUrl}/v1`, concurrency, fetch: limitedFetch(concurrency) };
  const t0 = performance.now();
  const results = await Promise.all(cases.map((c) => ec.evaluateInvocations({
    evalCase: c.evalCase, actual: c.actual, config, judge, includeInvocations: false, efficiencyMetrics: false,
  })));
  const wall = (performance.now() - t0) / 1000;
  const bad = results.filter((r) => r.overall_eval_metric_results[0]?.score !== want);
  return { wall, requests: server.requests.length, maxInFlight: server.maxInFlight, bad, sample: results[0]?.overall_eval_metric_results[0] };
}

function runAdk(server, cases, n) {
  const work = mkdtempSync(join(tmpdir(), 'evalcore-judge-bench-'));
  const data = join(work, 'cases.json');
  writeFileSync(data, JSON.stringify(cases.slice(0, n).map((c) => ({ actual: c.actual, expected: c.expected }))));
  const python = join(ROOT, 'benches', '.venv', 'bin', 'python');
  return new Promise((resolveRun, reject) => {
    const child = spawn(python, [join(HERE, 'adk_judge.py'), '--data', data, '--samples', String(SAMPLES)], {
      env: { ...process.env, GOOGLE_GEMINI_BASE_URL: server.baseUrl, GOOGLE_API_KEY: 'bench', GOOGLE_GENAI_USE_VERTEXAI: 'false' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => { out += d; });
    child.stderr.on('data', (d) => { err += d; });
    child.on('error', reject);
    child.on('close', (code) => {
      rmSync(work, { recursive: true, force: true });
      if (code === 0) resolveRun(JSON.parse(out));
      else reject(new Error(`adk_judge.py exited with ${code}:\n${err.slice(-3000)}`));
    });
  });
}

const cases = makeCases();
const server = await startJudgeServer({ latencyMs: LATENCY });
server.script(answer);
let failed = false;
const f = (x, d = 1) => x.toFixed(d).padStart(9);
try {
  console.log(`judge bench: ${CASES} cases x ${INVOCATIONS} invocations x ${SAMPLES} samples of final_response_match_v2 = ${CALLS} judge calls, ${LATENCY} ms each (loopback server, OpenAI wire format), node ${process.version}`);
  console.log('concurrency   wall (s)  ideal (s)  wall/ideal  max in flight  requests');
  for (const c of LEVELS) {
    const r = await runEvalcore(server, cases, c);
    const ideal = (CALLS * LATENCY) / c / 1000;
    console.log(`${String(c).padStart(11)}  ${f(r.wall, 2)}  ${f(ideal, 2)}  ${f(r.wall / ideal, 2).padStart(10)}  ${String(r.maxInFlight).padStart(13)}  ${String(r.requests).padStart(8)}`);
    if (r.requests !== CALLS || r.bad.length > 0) {
      failed = true;
      console.log(`  !! expected ${CALLS} requests and every case scoring ${want}; got ${r.requests} requests, ${r.bad.length} cases off (first: ${JSON.stringify(r.sample)})`);
    }
  }
  const sequential = (CALLS * LATENCY) / 1000;
  if (ADK_CASES) {
    server.reset();
    const adk = await runAdk(server, cases, ADK_CASES);
    const perCase = adk.seconds / adk.cases;
    const badAdk = adk.scores.filter((s) => s !== want).length;
    console.log(`google-adk ${adk.version} (parallelism_limit 1): measured ${adk.seconds.toFixed(2)} s for ${adk.cases} cases (${server.requests.length} calls, max in flight ${server.maxInFlight}), extrapolated to ${CASES} cases: ${(perCase * CASES).toFixed(1)} s; computed lower bound ${sequential.toFixed(1)} s`);
    if (badAdk > 0 || server.requests.length !== adk.cases * INVOCATIONS * SAMPLES) {
      failed = true;
      console.log(`  !! google-adk: ${badAdk} cases did not score ${want}, ${server.requests.length} requests`);
    }
  } else {
    console.log(`google-adk 2.13 (parallelism_limit 1, sequential): ${sequential.toFixed(1)} s computed (calls x latency, not measured; --adk-cases N measures it)`);
  }
} finally {
  await server.close();
}
process.exit(failed ? 1 : 0);

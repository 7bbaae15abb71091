// A structure-aware fuzzer over the built package (issue 9 item 7, the JS half).
//
//   node tests/fuzz/fuzz.mjs [--iterations N] [--seconds S] [--seed S] [--only I] [--target NAME]
//                            [--cap-pages P]
//   (or EVALCORE_FUZZ_ITERATIONS / EVALCORE_FUZZ_SECONDS / EVALCORE_FUZZ_SEED)
//
// `--cap-pages P` caps every wasm memory at P pages of 64 KiB (V8's --wasm-max-mem-pages), so the
// size-amplifying inputs meet real out-of-memory traps: the recovery paths get fuzzed, and a trap
// is then an answer, not a finding (an uncaught one still is: it crashes the worker).
//
// Each input is generated from (seed, iteration) alone, so any finding replays with
// `--seed S --only I`. Inputs run in a worker thread; this thread is the watchdog: an input still
// running after 5 s is a hang (the worker is terminated and a fresh one goes on). A finding is a
// trap (the skin survives it, but the core should not trap), an error thrown by the public API
// that is not an EvalError, a rejection or exception nobody catches (it would end a process), a
// hang, or memory that does not come back: the instance above its ceiling when idle, or process
// RSS still growing far above where it started.
// Prints `fuzz: N passed, N failed` and exits 1 when anything was found.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { parseArgs } from 'node:util';

const HANG_MS = 5000;
const { values: opt } = parseArgs({
  options: {
    iterations: { type: 'string' }, seconds: { type: 'string' }, seed: { type: 'string' },
    only: { type: 'string' }, target: { type: 'string' }, quiet: { type: 'boolean' }, 'cap-pages': { type: 'string' },
  },
});
const capPages = opt['cap-pages'] === undefined ? null : Number(opt['cap-pages']);
if (capPages !== null && !(Number.isInteger(capPages) && capPages > 0)) { console.error('fuzz: --cap-pages must be an integer > 0'); process.exit(2); }

// V8 flags are per process: the memory checks collect garbage first (--expose-gc), and a cap
// needs --wasm-max-mem-pages; run again with them.
if (typeof globalThis.gc !== 'function') {
  const flags = ['--expose-gc', ...(capPages === null ? [] : [`--wasm-max-mem-pages=${capPages}`])];
  const r = spawnSync(process.execPath, [...flags, fileURLToPath(import.meta.url), ...process.argv.slice(2)], { stdio: 'inherit' });
  process.exit(r.status ?? 1);
}
const env = process.env;
const iterations = Number(opt.iterations ?? env.EVALCORE_FUZZ_ITERATIONS ?? 500);
const seconds = Number(opt.seconds ?? env.EVALCORE_FUZZ_SECONDS ?? 50);
const seed = Number(opt.seed ?? env.EVALCORE_FUZZ_SEED ?? 1);
const only = opt.only === undefined ? null : Number(opt.only);
for (const [k, v] of [['iterations', iterations], ['seconds', seconds], ['seed', seed]]) {
  if (!Number.isFinite(v) || v < 0) { console.error(`fuzz: --${k} must be a number >= 0`); process.exit(2); }
}

const findings = [];
const outcomes = new Map();
let passed = 0;
let next = only ?? 0;
const last = only === null ? iterations : only + 1;
const deadline = Date.now() + seconds * 1000;

function startWorker() {
  return new Worker(new URL('./worker.mjs', import.meta.url), {
    workerData: { seed, target: opt.target ?? null, trapsExpected: capPages !== null },
    resourceLimits: { maxOldGenerationSizeMb: 3072 },
  });
}

await new Promise((resolveAll) => {
  let worker;
  let timer = null;
  let current = null;
  let currentTarget = '?';
  const finish = () => { clearTimeout(timer); if (worker) worker.terminate(); resolveAll(); };
  const feed = () => {
    if (next >= last || Date.now() > deadline) { finish(); return; }
    current = next++;
    currentTarget = '?';
    timer = setTimeout(() => {
      findings.push({ i: current, target: currentTarget, kind: 'hang', error: `still running after ${HANG_MS} ms` });
      const w = worker;
      worker = null;
      // The fresh worker's ready message feeds it the next input.
      w.terminate().then(() => { worker = launch(); });
    }, HANG_MS);
    worker.postMessage({ i: current });
  };
  const launch = () => {
    const w = startWorker();
    w.on('message', (m) => {
      if (w !== worker) return;
      if (m.type === 'ready') { feed(); return; }
      if (m.type === 'start') { currentTarget = m.target; return; }
      clearTimeout(timer);
      const key = `${m.target}: ${m.outcome}`;
      outcomes.set(key, (outcomes.get(key) ?? 0) + 1);
      if (m.finding) findings.push({ i: m.i, target: m.target, ...m.finding });
      else passed++;
      if (m.finding) console.log(`  finding: --seed ${seed} --only ${m.i} [${m.target}] ${m.finding.kind}: ${m.finding.error}`);
      feed();
    });
    w.on('error', (e) => {
      if (w !== worker) return;
      clearTimeout(timer);
      findings.push({ i: current, target: currentTarget, kind: 'worker_crash', error: String(e && e.stack ? e.stack : e).slice(0, 500) });
      worker = launch();
    });
    return w;
  };
  worker = launch();
});

for (const f of findings.filter((x) => x.kind === 'hang' || x.kind === 'worker_crash')) {
  console.log(`  finding: --seed ${seed} --only ${f.i} [${f.target}] ${f.kind}: ${f.error}`);
}
if (!opt.quiet) {
  console.log('  outcomes (target: value or EvalError code):');
  for (const [k, n] of [...outcomes].sort()) console.log(`    ${k} x${n}`);
}
const ran = passed + findings.length;
console.log(`fuzz: ${passed} passed, ${findings.length} failed (seed ${seed}${capPages === null ? '' : `, wasm memory capped at ${capPages} pages`}, ${ran} inputs${ran < (last - (only ?? 0)) ? ', stopped at the time budget' : ''})`);
process.exit(findings.length > 0 ? 1 : 0);

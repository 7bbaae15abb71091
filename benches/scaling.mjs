// Scaling: each workload timed at N and 2N through the built package, printed as the ratio
// t(2N) / t(N). Linear work gives about 2; quadratic work gives about 4. A ratio over 3 is
// flagged (and the exit code is 1), so a path that goes quadratic again is seen at once.
//
//   node benches/scaling.mjs [--runs 3] [--scale 1]
//
// --scale multiplies every N (0.25 for a quick look). Builds nothing: run scripts/build.sh first.
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

const here = path.dirname(fileURLToPath(import.meta.url));
const api = await import(path.join(here, '..', 'pkg', 'index.js'));
const opt = (name, dflt) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 && process.argv[i + 1] !== undefined ? Number(process.argv[i + 1]) : dflt;
};
const runs = opt('runs', 3);
const scale = opt('scale', 1);
const LIMIT = 3;

const turn = (i) => ({
  invocation_id: `t${i}`,
  user_content: { role: 'user', parts: [{ text: `What is the weather in city number ${i}?` }] },
  final_response: { role: 'model', parts: [{ text: `It is sunny in city number ${i}.` }] },
  intermediate_data: { tool_uses: [{ name: 'get_weather', args: { city: `c${i}` } }] },
});
const reply = (t) => ({ finalResponse: `It is sunny in city number ${t.turnIndex}.`, toolCalls: [{ name: 'get_weather', args: { city: `c${t.turnIndex}` } }] });

const workloads = [
  {
    name: 'validateEvalSet: one case, N broken invocations',
    n: 50_000,
    setup: (n) => `{"eval_set_id":"s","eval_cases":[{"eval_id":"c","conversation":[${Array(n).fill('{}').join(',')}]}]}`,
    run: (text) => api.validateEvalSet(text),
  },
  {
    name: 'loadEvalSet: N cases',
    n: 5_000,
    setup: (n) => JSON.stringify({ eval_set_id: 's', eval_cases: Array.from({ length: n }, (_, i) => ({ eval_id: `c${i}`, conversation: [turn(i)] })) }),
    run: (text) => api.loadEvalSet(text),
  },
  {
    name: 'PreparedCase.evaluate: trajectory, one call with N arg keys',
    n: 8_000,
    setup: (n) => {
      const args = Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, i]));
      const inv = { user_content: { parts: [{ text: 'q' }] }, intermediate_data: { tool_uses: [{ name: 'f', args }] } };
      return { evalCase: { eval_id: 'c', conversation: [inv] }, actual: [inv] };
    },
    run: (args) => {
      const p = api.prepareCase(args);
      try {
        return p.evaluate({ criteria: { tool_trajectory_avg_score: 1 } }, { perInvocation: false });
      } finally {
        p.free();
      }
    },
  },
  {
    name: 'evaluate(): one conversation of N turns',
    n: 1_000,
    setup: (n) => ({ eval_set_id: 's', eval_cases: [{ eval_id: 'long', conversation: Array.from({ length: n }, (_, i) => turn(i)) }] }),
    run: (evalSet) => api.evaluate({ evalSet, agent: reply }),
  },
  {
    name: 'evaluate(): N one-turn cases',
    n: 1_000,
    setup: (n) => ({ eval_set_id: 's', eval_cases: Array.from({ length: n }, (_, i) => ({ eval_id: `c${i}`, conversation: [turn(i)] })) }),
    run: (evalSet) => api.evaluate({ evalSet, agent: (t) => reply({ turnIndex: Number(t.evalId.slice(1)) }) }),
  },
];

async function best(fn, input) {
  let min = Infinity;
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    await fn(input);
    min = Math.min(min, performance.now() - t0);
  }
  return min;
}

let flagged = 0;
const rows = [];
for (const w of workloads) {
  const n = Math.max(10, Math.round(w.n * scale));
  const small = w.setup(n);
  const large = w.setup(2 * n);
  await best(w.run, small); // warm up: the first call grows the wasm memory
  const t1 = await best(w.run, small);
  const t2 = await best(w.run, large);
  const ratio = t2 / t1;
  const bad = ratio > LIMIT;
  if (bad) flagged += 1;
  rows.push({ name: w.name, n, t1, t2, ratio, bad });
}
const pad = (s, w) => String(s).padEnd(w);
console.log(`${pad('workload', 62)} ${pad('N', 8)} ${pad('t(N) ms', 10)} ${pad('t(2N) ms', 10)} ratio`);
for (const r of rows) {
  console.log(`${pad(r.name, 62)} ${pad(r.n, 8)} ${pad(r.t1.toFixed(1), 10)} ${pad(r.t2.toFixed(1), 10)} ${r.ratio.toFixed(2)}${r.bad ? `  <- over ${LIMIT}: superlinear` : ''}`);
}
console.log(`scaling: ${rows.length - flagged} linear, ${flagged} superlinear (ratio t(2N)/t(N) over ${LIMIT})`);
process.exitCode = flagged ? 1 : 0;

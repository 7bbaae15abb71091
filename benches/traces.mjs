// OTLP/JSON import speed and memory through the package (issue 26): `loadTraces` of ~50 MB of
// traces as google-adk 2.13 exports them, made by repeating the real exports in tests/data/traces
// (schema 1 with content, whose `call_llm` spans carry each request's whole history, and schema 2
// with content on spans) under new trace, span, session and invocation ids. Prints MB/s (target
// >= 50) and the trace module's peak linear memory against the input (target < 3x).
//
//   node benches/traces.mjs [--mb 50] [--runs 5] [--json]
//
// Each measurement runs in a fresh Node process (wasm memory only grows, so its size after the
// call is the call's peak). Needs `bash scripts/build.sh` first.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..');
const opt = (name, dflt) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 && process.argv[i + 1] !== undefined ? process.argv[i + 1] : dflt;
};
const MB = Number(opt('mb', '50'));
const RUNS = Number(opt('runs', '5'));

/** ~`mb` MB of OTLP/JSON lines: the fixtures' requests again and again, every id made new. */
function makeTraces(mb) {
  const files = ['adk-py-v1.otlp.jsonl', 'adk-py-v2-span.otlp.jsonl'];
  const lines = files.flatMap((f) => readFileSync(path.join(root, 'tests/data/traces', f), 'utf8').split('\n').filter(Boolean));
  const out = [];
  let size = 0;
  for (let copy = 0; size < mb * 1e6; copy++) {
    const hex = copy.toString(16).padStart(8, '0');
    for (const line of lines) {
      const text = line
        .replace(/"(traceId|spanId|parentSpanId)":"([0-9a-f]{8})/g, `"$1":"${hex}`)
        .replace(/session-v[12][a-z-]*/g, `session-${copy}`)
        .replace(/e-[0-9a-f]{8}-/g, `e-${hex}-`);
      out.push(text);
      size += text.length + 1;
    }
  }
  return Buffer.from(`${out.join('\n')}\n`);
}

if (process.argv[2] === '--child') {
  const ec = await import(path.join(root, 'pkg', 'index.js'));
  const { extrasMemory: tracesMemory } = await import(path.join(root, 'pkg', 'lib', 'wasm', 'extras.js'));
  ec.setMemoryCeiling(Infinity); // keep the extras module's instance (and its memory) to read it
  const input = makeTraces(MB);
  ec.loadTraces(readFileSync(path.join(root, 'tests/data/traces/adk-js.otlp.json'))); // compile + warm
  const before = tracesMemory();
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  const out = ec.loadTraces(input);
  const cpu = process.cpuUsage(c0);
  const ms = performance.now() - t0;
  console.log(JSON.stringify({ input: input.length, ms, cpuMs: (cpu.user + cpu.system) / 1000, before, after: tracesMemory(), sessions: out.sessions.length,
    invocations: out.sessions.reduce((n, s) => n + s.invocations.length, 0) }));
  process.exit(0);
}

const runs = [];
for (let i = 0; i < RUNS; i++) {
  runs.push(JSON.parse(execFileSync(process.execPath, [fileURLToPath(import.meta.url), '--child', '--mb', String(MB)], { encoding: 'utf8', maxBuffer: 1 << 26 })));
}
const med = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const r = runs[0];
const mbps = r.input / 1e6 / (med(runs.map((x) => x.ms)) / 1000);
const grown = med(runs.map((x) => x.after - x.before));
// On a shared machine the wall clock counts other processes' turns too: CPU time does not.
const cpuMbps = r.input / 1e6 / (med(runs.map((x) => x.cpuMs)) / 1000);
const result = {
  input_mb: +(r.input / 1e6).toFixed(1), sessions: r.sessions, invocations: r.invocations,
  median_ms: +med(runs.map((x) => x.ms)).toFixed(0), mb_per_s: +mbps.toFixed(1),
  median_cpu_ms: +med(runs.map((x) => x.cpuMs)).toFixed(0), mb_per_cpu_s: +cpuMbps.toFixed(1),
  memory_growth_mb: +(grown / 1e6).toFixed(1), memory_over_input: +(grown / r.input).toFixed(2),
};
if (process.argv.includes('--json')) console.log(JSON.stringify(result));
else {
  console.log(`loadTraces: ${result.input_mb} MB of OTLP/JSON (${result.sessions} sessions, ${result.invocations} invocations), ${RUNS} runs`);
  console.log(`  speed   ${result.mb_per_s} MB/s (median ${result.median_ms} ms wall)   target >= 50 MB/s   ${mbps >= 50 ? 'ok' : 'MISSED'}`);
  console.log(`          ${result.mb_per_cpu_s} MB per CPU second (median ${result.median_cpu_ms} ms of CPU; wall time also counts other processes on a shared machine)`);
  console.log(`  memory  +${result.memory_growth_mb} MB linear memory = ${result.memory_over_input}x the input   target < 3x   ${result.memory_over_input < 3 ? 'ok' : 'MISSED'}`);
}

// The fuzzer's worker: generates input `i` from (seed, i), runs it, checks memory, reports.
import { parentPort, workerData } from 'node:worker_threads';
import { fileURLToPath } from 'node:url';
import { coreMemory } from '../../pkg/index.js';
import { TARGETS, loadCorpus, rng, runOne } from './targets.mjs';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const corpus = loadCorpus(ROOT);
const names = workerData.target ? [workerData.target] : Object.keys(TARGETS).filter((n) => !n.startsWith('__'));
const MiB = 2 ** 20;
const settle = async () => {
  for (let k = 0; k < 2; k++) { globalThis.gc?.(); await new Promise((r) => setTimeout(r, 10)); }
};
await settle();
const rssStart = process.memoryUsage().rss;

// A rejection nobody handles (it would end a Node process) is a finding of the input that made it.
let unhandled = null;
process.on('unhandledRejection', (e) => { unhandled ??= `unhandled rejection: ${e && e.stack ? e.stack.split('\n').slice(0, 3).join(' | ') : e}`; });
process.on('uncaughtException', (e) => { unhandled ??= `uncaught exception: ${e && e.stack ? e.stack.split('\n').slice(0, 3).join(' | ') : e}`; });

parentPort.on('message', async ({ i }) => {
  const r = rng((workerData.seed * 1_000_003 + i) >>> 0);
  const target = r.pick(names);
  parentPort.postMessage({ type: 'start', i, target });
  unhandled = null;
  let finding = await runOne(r, corpus, target);
  // Unhandled rejections are reported after the microtasks drain: let them surface first.
  await new Promise((resolve) => setImmediate(resolve));
  if (unhandled !== null) finding = { kind: 'uncaught', error: unhandled.slice(0, 500) };
  // Under a memory cap, traps are what the inputs are for: survived, they are answers.
  if (finding && finding.kind === 'trap' && workerData.trapsExpected) finding = null;
  const mem = coreMemory();
  if (finding === null && mem.bytes > mem.ceiling) {
    finding = { kind: 'memory', error: `the idle instance holds ${mem.bytes} bytes, above its ceiling ${mem.ceiling}` };
  }
  if (finding === null && i % 25 === 24) {
    await settle();
    const rss = process.memoryUsage().rss;
    if (rss > rssStart + 1024 * MiB) finding = { kind: 'memory', error: `RSS ${Math.round(rss / MiB)} MiB, ${Math.round(rssStart / MiB)} MiB at the start` };
  }
  parentPort.postMessage({ i, target, finding, outcome: runOne.outcome });
});
parentPort.postMessage({ type: 'ready' });

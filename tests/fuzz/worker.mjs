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

parentPort.on('message', async ({ i }) => {
  const r = rng((workerData.seed * 1_000_003 + i) >>> 0);
  const target = r.pick(names);
  parentPort.postMessage({ type: 'start', i, target });
  let finding = await runOne(r, corpus, target);
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

// What the runs tests share: the module worker with runs bound, run by miniflare on workerd
// (its R2, Durable Objects and Queues simulated by workerd itself, 4 queues so 4 consumer
// invocations run at once: miniflare hands one queue's batches to one consumer at a time),
// reading a run's events and result, and the judge calls a loopback judge saw, by case.
import { copyFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { requestText } from '../js/support/judge-server.mjs';
import { PKG, ROOT, workerFiles } from './support.mjs';

const TOOLS = process.env.MINIFLARE_TOOLS ?? join(ROOT, '.tools');
export const DLQ = 'evalcore-runs-dlq';

async function miniflareClass() {
  let entry;
  try {
    entry = createRequire(join(TOOLS, 'package.json')).resolve('miniflare');
  } catch {
    throw new Error(`miniflare not found in ${TOOLS}/node_modules: run scripts/setup.sh`);
  }
  return (await import(pathToFileURL(entry).href)).Miniflare;
}

/**
 * The example worker behind tests/server/runs-worker/index.js in miniflare, `env` as text
 * bindings, `queues` producer queues (each its own consumer), consumer settings as
 * wrangler.toml's. Resolves to `{url, mf, fetch(path, init), dispose()}`.
 */
export async function startRunsWorker(env, work, { queues = 4, maxBatchSize = 10, maxRetries = 2 } = {}) {
  const Miniflare = await miniflareClass();
  const server = JSON.parse(readFileSync(join(PKG, 'package.json'), 'utf8')).exports['./server'].workerd.replace(/^\.\//, '');
  const dir = join(work, 'runs-worker');
  const files = workerFiles(server);
  for (const f of files) {
    mkdirSync(dirname(join(dir, 'evalcore', f)), { recursive: true });
    copyFileSync(join(PKG, f), join(dir, 'evalcore', f));
  }
  copyFileSync(join(ROOT, 'tests', 'server', 'runs-worker', 'index.js'), join(dir, 'index.js'));
  copyFileSync(join(ROOT, 'examples', 'worker', 'src', 'index.js'), join(dir, 'example.js'));
  const modules = [
    { type: 'ESModule', path: join(dir, 'index.js') },
    { type: 'ESModule', path: join(dir, 'example.js') },
    { type: 'ESModule', path: join(dir, 'evalcore', 'server'), contents: `export * from './${server}';\nexport { default } from './${server}';\n` },
    ...files.map((f) => ({ type: f.endsWith('.wasm') ? 'CompiledWasm' : 'ESModule', path: join(dir, 'evalcore', f) })),
  ];
  for (const m of modules) if (m.contents === undefined && !existsSync(m.path)) throw new Error(`missing module ${m.path}`);
  const names = Array.from({ length: queues }, (_, i) => `evalcore-runs-${i}`);
  const bindings = Object.fromEntries(names.map((_, i) => [`RUNQ${i}`, names[i]]));
  const consumer = { maxBatchSize, maxBatchTimeout: 0, maxRetries, deadLetterQueue: DLQ, retryDelay: 0 };
  const mf = new Miniflare({
    modulesRoot: dir,
    modules,
    compatibilityDate: '2025-01-01',
    compatibilityFlags: ['enable_request_signal'],
    bindings: { EVALCORE_RUN_QUEUES: Object.keys(bindings).join(','), EVALCORE_RUN_DEAD_LETTER_QUEUE: DLQ, ...env },
    r2Buckets: ['EVALCORE_RUNS'],
    durableObjects: {
      EVALCORE_RUN: { className: 'EvalcoreRun', useSQLite: true },
      EVALCORE_JUDGE_PACE: { className: 'EvalcoreJudgePace', useSQLite: true },
    },
    queueProducers: bindings,
    queueConsumers: {
      ...Object.fromEntries(names.map((n) => [n, consumer])),
      [DLQ]: { maxBatchSize: 10, maxBatchTimeout: 0, maxRetries: 5 },
    },
  });
  const url = (await mf.ready).href.replace(/\/$/, '');
  return {
    mf,
    url,
    fetch: (path, init) => mf.dispatchFetch(new URL(path, `${url}/`), init),
    dispose: () => mf.dispose(),
  };
}

/** The case a judge call was about (its prompt names "order I-T"), or null. */
export function caseOfCall(rec) {
  const m = /order (\d+)-\d+/.exec(requestText(rec.wire ?? 'openai', rec.body ?? {}));
  return m ? Number(m[1]) : null;
}

/** A run's events as lines, read to the end (the summary), from `after`. */
export async function readEvents(fetchFn, id, after = 0, { signal, onLine } = {}) {
  const res = await fetchFn(`/v1/runs/${id}/events?after=${after}`, { signal });
  if (res.status !== 200) throw new Error(`events: HTTP ${res.status}: ${await res.text()}`);
  const lines = [];
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  let carry = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    carry += decoder.decode(value, { stream: true });
    let nl = carry.indexOf('\n');
    while (nl >= 0) {
      const line = carry.slice(0, nl);
      carry = carry.slice(nl + 1);
      if (line !== '') {
        const parsed = JSON.parse(line);
        lines.push(parsed);
        if (onLine?.(parsed, lines) === false) {
          await reader.cancel();
          return lines;
        }
      }
      nl = carry.indexOf('\n');
    }
  }
  return lines;
}

/** Starts of judge calls per window of `ms`: the most in any window (sliding over each start). */
export function maxInWindow(times, ms) {
  const sorted = [...times].sort((a, b) => a - b);
  let best = 0;
  let j = 0;
  for (let i = 0; i < sorted.length; i++) {
    while (sorted[i] - sorted[j] >= ms) j++;
    best = Math.max(best, i - j + 1);
  }
  return best;
}

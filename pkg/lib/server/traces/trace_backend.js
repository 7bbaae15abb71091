//! Where a server holds the sessions it receives at /v1/traces: in this process (memory and a
//! timer: `evalcore serve`, Deno, Node), or in a Durable Object (Workers, where one session's
//! spans reach many isolates). Both answer the route the same way: ingest a body, list the
//! session records, get one.
import { EvalError } from '../../errors.js';
import { loadEvalConfig } from '../../wasm/api.js';
import { traceAssembler } from './trace_sessions.js';
import { boundedMemoryStore, getRecord, listRecords, sessionScorer } from './trace_results.js';

/** The batches and the index in this process's memory; the wake-up a timer (that holds no process open). */
function memoryBacking(onWake) {
  const batches = new Map();
  let timer = null;
  return {
    load: () => null,
    save: () => {},
    putBatch: (seq, bytes) => { batches.set(seq, bytes.slice()); },
    getBatch: (seq) => batches.get(seq) ?? null,
    deleteBatches: (seqs) => { for (const s of seqs) batches.delete(s); },
    schedule(at) {
      if (timer !== null) clearTimeout(timer);
      timer = null;
      if (at === null) return;
      timer = setTimeout(onWake, Math.max(0, at - Date.now()));
      timer.unref?.();
    },
  };
}

/**
 * The `traces` option of createHandler checked: `{config, customMetrics, store}` (config: the
 * reference-free criteria sessions are scored with, as loadEvalConfig reads them; default none,
 * so only the always-on efficiency figures are given).
 */
export function tracesOptions(given) {
  const t = given ?? {};
  if (typeof t !== 'object' || Array.isArray(t)) throw new EvalError('config', 'traces', 'createHandler: traces must be an object {config?, customMetrics?, store?}');
  for (const k of Object.keys(t)) {
    if (!['config', 'customMetrics', 'store'].includes(k)) throw new EvalError('config', `traces.${k}`, `createHandler: unknown traces option "${k}" (known: config, customMetrics, store)`);
  }
  const config = t.config ?? { criteria: {} };
  try {
    loadEvalConfig(config);
  } catch (e) {
    if (!(e instanceof EvalError)) throw e;
    throw new EvalError('config', `traces.config${e.path.replace(/^\$/, '')}`, `createHandler: traces.config: ${e.message}`);
  }
  return { config, customMetrics: t.customMetrics, store: t.store ?? null };
}

/**
 * The sessions of this process: assembled in memory, scored once quiet, their records in
 * `store` (else in memory, the newest maxTraceSessions kept). `judgeFor()` gives a session's
 * judge (the server's, paced as its requests are).
 */
export function localTraces({ limits, options, judgeFor, log }) {
  const store = options.store ?? boundedMemoryStore(limits.maxTraceSessions);
  let wake = () => {};
  const assembler = traceAssembler({
    backing: memoryBacking(() => wake()),
    limits,
    score: sessionScorer({ store, config: options.config, judgeFor, customMetrics: options.customMetrics, concurrency: limits.caseConcurrency }),
    log,
  });
  wake = () => { assembler.runDue().catch((e) => log({ event: 'trace_scoring_failed', message: e?.message ?? String(e) })); };
  return {
    ingest: (bytes) => assembler.ingest(bytes),
    list: async (page) => ({ ...(await listRecords(store, page)), pending: await assembler.pending() }),
    get: (id) => getRecord(store, id),
    flush: () => assembler.flush(),
  };
}

/**
 * The sessions of a Workers deployment, held by the Durable Object `namespace` (the
 * TraceSessions class): one object holds them all, so spans of one session sent to any isolate
 * meet there. Its answers are passed on as they come.
 */
export function durableTraces(namespace) {
  const stub = () => namespace.get(namespace.idFromName('evalcore-traces'));
  const call = async (path, init) => {
    const res = await stub().fetch(`https://evalcore-traces${path}`, init);
    const body = await res.json();
    if (!res.ok) throw new EvalError(body?.error?.code ?? 'internal', body?.error?.path ?? '', body?.error?.message ?? `the trace sessions object answered ${res.status}`);
    return body;
  };
  return {
    ingest: (bytes) => call('/ingest', { method: 'POST', body: bytes }),
    list: ({ limit, after }) => call(`/list?limit=${limit}${after === null ? '' : `&after=${encodeURIComponent(after)}`}`),
    get: async (id) => (await call(`/get?id=${encodeURIComponent(id)}`)).record,
    flush: async () => (await call('/flush', { method: 'POST' })).scored,
  };
}

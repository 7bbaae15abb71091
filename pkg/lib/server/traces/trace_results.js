//! What becomes of a quiet session: built from its batches by the core (loadTraces), scored with
//! the server's reference-free criteria (evaluateInvocations without an eval case), and its
//! result kept in a Store under `traces/sessions/<name>.json`, one record per session with each
//! scoring (a session that resumes after being scored gets a second one); and the listing of
//! those records, a page at a time.
import { EvalError } from '../../errors.js';
import { evaluateInvocations } from '../../wasm/api.js';
import { createEvalSetResult } from '../../store/adk_layout.js';
import { loadTraces } from '../../wasm/traces.js';
import { checkedStore } from '../../store/store.js';

export const RESULTS_PREFIX = 'traces/sessions/';
/** The eval set id of an online session's result. */
export const ONLINE_SET_ID = 'traces';
/** The scorings a record keeps (the newest). */
const MAX_SCORINGS = 20;
const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** A session id as one store key segment: itself when plainly safe, else `~` and its SHA-256. */
export async function recordKey(sessionId) {
  if (/^[A-Za-z0-9_-][A-Za-z0-9._-]{0,150}$/.test(sessionId)) return `${RESULTS_PREFIX}${sessionId}.json`;
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', encoder.encode(sessionId)));
  return `${RESULTS_PREFIX}~${[...digest].map((b) => b.toString(16).padStart(2, '0')).join('')}.json`;
}

/** A case result for a session the core could not score (its error kept, never dropped). */
function failedCase(s, e) {
  return {
    eval_set_file: ONLINE_SET_ID, eval_set_id: ONLINE_SET_ID, eval_id: s.session_id, final_eval_status: 'FAILED',
    eval_metric_results: null, overall_eval_metric_results: [], eval_metric_result_per_invocation: [],
    session_id: s.session_id, session_details: null, user_id: s.user_id ?? null,
    error: { code: e instanceof EvalError ? e.code : 'internal', message: e?.message ?? String(e) },
  };
}

/**
 * The warnings of a loadTraces answer for each of its sessions (those about the input, with no
 * session's path, go to every one): one pass, however many sessions a request held.
 */
function warningsBySession(loaded) {
  const own = loaded.sessions.map(() => []);
  const common = [];
  for (const w of loaded.warnings) {
    const m = /^\$\.sessions\[(\d+)\]/.exec(w.path);
    if (m === null) common.push(w);
    else own[Number(m[1])]?.push(w);
  }
  return own.map((list) => [...common, ...list]);
}

/**
 * The scorer of a server: `score(bodies, traceIds)` builds the sessions of those traces (one
 * loadTraces of the bodies, however many sessions they hold), scores each with `config` (and
 * `judgeFor()`'s judge, `customMetrics`), `concurrency` at once, and appends its record to
 * `store`; resolves to the number of sessions scored.
 */
export function sessionScorer({ store, config, judgeFor, customMetrics, concurrency = 4 }) {
  return async function score(bodies, traceIds) {
    const loaded = loadTraces(bodies, { traceIds });
    const warnings = warningsBySession(loaded);
    const one = async (s, at) => {
      let r;
      try {
        r = await evaluateInvocations({
          session: { session_id: s.session_id, user_id: s.user_id, app_name: s.app_name },
          actual: s.invocations, missing: s.missing, config, judge: judgeFor(), customMetrics, evalSetId: ONLINE_SET_ID,
        });
      } catch (e) {
        if (e instanceof EvalError && e.code === 'trap') throw e;
        r = failedCase(s, e);
      }
      await appendRecord(store, s, {
        scored_at: new Date().toISOString(), invocations: s.invocations.length, warnings: warnings[at],
        result: createEvalSetResult(s.app_name ?? 'traces', ONLINE_SET_ID, [r]),
      });
    };
    let next = 0;
    await Promise.all(Array.from({ length: Math.min(Math.max(1, concurrency), loaded.sessions.length) }, async () => {
      while (next < loaded.sessions.length) {
        const at = next++;
        await one(loaded.sessions[at], at);
      }
    }));
    return loaded.sessions.length;
  };
}

async function readRecord(store, key) {
  const bytes = await store.get(key);
  if (bytes === null) return null;
  try {
    return JSON.parse(decoder.decode(bytes));
  } catch {
    return null;
  }
}

async function appendRecord(store, s, scoring) {
  const key = await recordKey(s.session_id);
  const old = await readRecord(store, key);
  const record = {
    session_id: s.session_id, app_name: s.app_name ?? null, user_id: s.user_id ?? null, source: s.source,
    updated_at: scoring.scored_at, scorings: [...(old?.scorings ?? []), scoring].slice(-MAX_SCORINGS),
  };
  await store.put(key, encoder.encode(JSON.stringify(record)));
}

/** A record's line in a listing: who, when, how it went (its newest scoring). */
function summaryOf(r) {
  const last = r.scorings?.at(-1);
  const c = last?.result?.eval_case_results?.[0];
  return {
    session_id: r.session_id, app_name: r.app_name, user_id: r.user_id, source: r.source, updated_at: r.updated_at,
    scorings: r.scorings?.length ?? 0, invocations: last?.invocations ?? 0, final_eval_status: c?.final_eval_status ?? null,
  };
}

/**
 * The first `n` record keys after the record `after` (null: from the first), in key order, by
 * listing the store (a store in memory, a folder): the default of listRecords.
 */
export async function keysAfter(store, after, n) {
  const from = after === null ? null : `${RESULTS_PREFIX}${after}`;
  return (await store.list(RESULTS_PREFIX)).filter((k) => k.endsWith('.json') && (from === null || k > from)).slice(0, n);
}

/**
 * One page of the session records: `{sessions, next}` (`next`: the `after` of the next page, or
 * null). `page(after, n)` gives the record keys of a page (keysAfter by default; a Durable Object
 * reads its own directory of them): only the page's records are read.
 */
export async function listRecords(store, { limit, after }, page = (a, n) => keysAfter(store, a, n)) {
  const keys = await page(after, limit + 1);
  const shown = keys.slice(0, limit);
  const sessions = [];
  for (const k of shown) {
    const r = await readRecord(store, k);
    if (r !== null) sessions.push(summaryOf(r));
  }
  return { sessions, next: keys.length > limit ? shown.at(-1).slice(RESULTS_PREFIX.length) : null };
}

/** The record of one session, or null. */
export async function getRecord(store, sessionId) {
  return readRecord(store, await recordKey(sessionId));
}

/**
 * A Store in memory holding at most `max` keys (the oldest written goes first): where a server
 * without a store keeps its session records.
 */
export function boundedMemoryStore(max) {
  const values = new Map();
  return checkedStore({
    get: (key) => values.get(key)?.slice() ?? null,
    put: (key, bytes) => {
      values.delete(key);
      values.set(key, bytes.slice());
      while (values.size > max) values.delete(values.keys().next().value);
    },
    delete: (key) => { values.delete(key); },
    list: () => [...values.keys()],
  });
}

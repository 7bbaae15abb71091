// A client of an endpoint's job API (`/v1/runs`, docs/runs.md), over fetch only: submit a run,
// ask its status, follow its events (re-attaching where a broken stream stopped), fetch its
// result (as ndjson, assembled here, so no answer limit binds), cancel it, list runs. The
// endpoint's errors become EvalErrors with its code, path and message.
import { EvalError } from '../errors.js';
import { lines } from './shard_wire.js';
import { parseJsonBytes } from '../wasm/wire.js';

const NDJSON = 'application/x-ndjson';
/** Waits between re-attaching a broken events stream: doubling from 0.5 s to at most 10 s. */
const REATTACH_MS = [500, 1000, 2000, 5000, 10_000];

/** The runs API of the endpoint at `base` (https://evals.example.com), with its bearer `token`. */
export function runsClient(base, { token = null, fetch: fetchFn = globalThis.fetch, sleep = (ms) => new Promise((r) => setTimeout(r, ms)) } = {}) {
  let root;
  try {
    root = new URL(base.endsWith('/') ? base : `${base}/`);
  } catch {
    root = null;
  }
  if (root === null || (root.protocol !== 'http:' && root.protocol !== 'https:')) {
    throw new EvalError('schema', '$.remote', `the endpoint must be an http(s) URL, found ${JSON.stringify(String(base))}`);
  }
  const url = (path) => new URL(path, root).href;
  const headers = (extra = {}) => ({ ...(token ? { authorization: `Bearer ${token}` } : {}), ...extra });

  async function call(method, path, { body, accept = 'application/json', extra = {}, signal } = {}) {
    let res;
    try {
      res = await fetchFn(url(path), {
        method, signal,
        headers: headers({ accept, ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...extra }),
        ...(body === undefined ? {} : { body }),
      });
    } catch (e) {
      if (signal?.aborted) throw e;
      throw new EvalError('remote_unavailable', '$.remote', `cannot reach ${root.origin}: ${e?.cause?.code ?? e?.cause?.message ?? e?.message ?? e}`);
    }
    if (res.ok) return res;
    throw await failure(res, `${method} ${new URL(url(path)).pathname}`);
  }

  async function failure(res, what) {
    let err = null;
    try {
      err = parseJsonBytes(new Uint8Array(await res.arrayBuffer()), 'the endpoint\'s answer')?.error ?? null;
    } catch {
      err = null;
    }
    const code = typeof err?.code === 'string' ? err.code : `http_${res.status}`;
    const e = new EvalError(code, typeof err?.path === 'string' ? err.path : '', `${what}: HTTP ${res.status}${typeof err?.message === 'string' ? `: ${err.message}` : ''}`);
    e.status = res.status;
    return e;
  }

  const json = async (res) => parseJsonBytes(new Uint8Array(await res.arrayBuffer()), 'the endpoint\'s answer');

  return {
    origin: root.origin,
    /**
     * `{id, status, replayed}` of a new run (or, for a known Idempotency-Key, that run). Sent as
     * ndjson (one case a line: the server parses one case at a time, so a run of any size fits
     * its memory); `{ndjson: false}` sends the one JSON object /v1/evaluate takes.
     */
    async submit(body, { idempotencyKey = null, ndjson = true } = {}) {
      const extra = { ...(idempotencyKey ? { 'idempotency-key': idempotencyKey } : {}), ...(ndjson ? { 'content-type': NDJSON } : {}) };
      const res = await call('POST', 'v1/runs', { body: ndjson ? ndjsonRun(body) : JSON.stringify(body), extra });
      return { ...(await json(res)), replayed: res.headers.get('idempotent-replayed') === 'true' };
    },
    status: async (id) => json(await call('GET', `v1/runs/${encodeURIComponent(id)}`)),
    cancel: async (id) => json(await call('DELETE', `v1/runs/${encodeURIComponent(id)}`)),
    list: async ({ limit = 20, cursor = null } = {}) => json(await call('GET', `v1/runs?limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`)),

    /**
     * Follows a run's events from `after` to its summary: `onEvent(line, n)` for each (a case
     * result, or `{dead_letter}`), `n` counting from 1. A stream that breaks is re-attached at
     * the last event read (`onReattach(attempt, error)` is told), up to `maxReattach` times in a
     * row. Resolves to the summary (the run's status).
     */
    async follow(id, { after = 0, onEvent = () => {}, onReattach = () => {}, signal, maxReattach = 20 } = {}) {
      let seen = after;
      let failures = 0;
      for (;;) {
        try {
          const res = await call('GET', `v1/runs/${encodeURIComponent(id)}/events?after=${seen}`, { accept: NDJSON, signal });
          const stop = new AbortController();
          signal?.addEventListener('abort', () => stop.abort(signal.reason), { once: true });
          for await (const bytes of lines(res.body, stop.signal)) {
            const line = parseJsonBytes(bytes, 'a line of the run\'s events');
            if (line?.summary) return line.summary;
            if (line?.error) throw new EvalError(line.error.code ?? 'remote_failed', '', `the run's events: ${line.error.message}`);
            seen++;
            failures = 0;
            onEvent(line, seen);
          }
          throw new Error('the events stream ended before its summary');
        } catch (e) {
          if (signal?.aborted) throw e;
          if (e instanceof EvalError && e.status !== undefined && e.status < 500 && e.status !== 408 && e.status !== 429) throw e;
          failures++;
          if (failures > maxReattach) throw e instanceof EvalError ? e : new EvalError('remote_unavailable', '$.remote', `the run's events broke off ${failures} times in a row: ${e?.message ?? e}`);
          onReattach(failures, e);
          await sleep(REATTACH_MS[Math.min(failures - 1, REATTACH_MS.length - 1)]);
        }
      }
    },

    /** The run's EvalSetResult, read as ndjson (one case a line) and assembled. */
    async result(id) {
      const res = await call('GET', `v1/runs/${encodeURIComponent(id)}/result`, { accept: NDJSON });
      const cases = [];
      for await (const bytes of lines(res.body)) {
        const line = parseJsonBytes(bytes, 'a line of the run\'s result');
        if (line?.result) {
          const { eval_case_results: _none, ...fields } = line.result;
          const lead = Object.fromEntries(Object.entries(fields).filter(([k]) => !TRAILING.includes(k)));
          const trail = Object.fromEntries(TRAILING.filter((k) => k in fields).map((k) => [k, fields[k]]));
          return { ...lead, eval_case_results: cases, ...trail };
        }
        if (line?.error) throw new EvalError(line.error.code ?? 'remote_failed', '', `the run's result: ${line.error.message}`);
        cases.push(line);
      }
      throw new EvalError('remote_failed', '', 'the run\'s result ended before its last line');
    },
  };
}

/**
 * A run's body as ndjson: the request without its cases (`evalSet` without `eval_cases`, no
 * `actual` or `evalIds`), then `{"eval_case", "actual"}` for each case `evalIds` selects.
 */
export function ndjsonRun({ evalSet, actual, evalIds, ...rest }) {
  const { eval_cases: cases = [], ...setHead } = evalSet;
  const wanted = Array.isArray(evalIds) ? new Set(evalIds) : null;
  const lines = [JSON.stringify({ ...rest, evalSet: setHead })];
  for (const c of cases) {
    if (wanted !== null && !wanted.has(c.eval_id)) continue;
    lines.push(JSON.stringify(actual === undefined ? { eval_case: c } : { eval_case: c, actual: actual[c.eval_id] }));
  }
  return `${lines.join('\n')}\n`;
}

/** Fields a run's result carries after its cases (as the endpoint writes them). */
const TRAILING = ['run_summary', 'judge_stats', 'dead_letter'];

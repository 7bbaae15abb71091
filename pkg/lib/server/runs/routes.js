//! The job API over HTTP, the same on the module worker and on `evalcore serve --runs_dir`:
//!   POST   /v1/runs                 the body of /v1/evaluate (+ `name`), or ndjson -> 202 {id, status}
//!   GET    /v1/runs                 the runs, newest first (?limit=, ?cursor=)
//!   GET    /v1/runs/{id}            its status, counts and judge counters
//!   GET    /v1/runs/{id}/events     ndjson: each case result as it was scored, then the summary (?after=N)
//!   GET    /v1/runs/{id}/result     the EvalSetResult in the eval set's order (ndjson on request)
//!   DELETE /v1/runs/{id}            cancels it
//! Routes translate; a backend (node.js, workers.js) keeps the runs. Every answer is bounded as
//! the evaluate route's are: the body read under maxRunBodyBytes and bodyTimeoutMs, JSON answers
//! under maxAnswerBytes (else 413, ask for ndjson), streams written as fast as the client reads.
import { HttpError, json } from '../http.js';
import { NDJSON, ndjsonStream } from '../answer.js';
import { bodyTypeRefusal, fetchHeaders } from '../guard.js';
import { slots } from '../evaluate_route.js';
import { RUN_ID, idempotentRunId, newRunId } from './input.js';
import { readSubmission } from './upload.js';
import { resultStream } from './result.js';
import { EVENTS_PAGE } from './ledger.js';
import { abortableSleep } from './pace.js';

/** How long one wait for new events lasts before the stream sends a keep-alive (an empty line). */
export const EVENTS_WAIT_MS = 15_000;
/** After a short page the stream waits this long before it asks again. */
const EVENTS_LINGER_MS = 250;

const LIST_DEFAULT = 20;
const LIST_MAX = 100;
const decoder = new TextDecoder();

/** The routes and their methods (for 404/405 and CORS preflights). */
export function runsRouteOf(pathname) {
  if (pathname === '/v1/runs') return { methods: ['GET', 'POST'], id: null, sub: null };
  const m = /^\/v1\/runs\/([^/]*)(?:\/(events|result))?$/.exec(pathname);
  if (!m) return null;
  return { methods: m[2] ? ['GET'] : ['GET', 'DELETE'], id: m[1], sub: m[2] ?? null };
}

const quote = (s) => JSON.stringify(s.length > 40 ? `${s.slice(0, 40)}...` : s);

/**
 * The runs routes over `server` (the handler's: limits, redact, readJson...) and a backend per
 * request (`backendFor(env, ctx)`, null when this deployment keeps no runs).
 */
export function runsRoutes(server) {
  const { limits, redact } = server;
  const followers = slots(limits.maxConcurrent);

  return async function route(request, url, where, backend, entry) {
    if (backend === null) {
      throw new HttpError(404, 'runs_not_configured', '', 'this server keeps no runs: start it with `evalcore serve --runs_dir DIR`, or bind EVALCORE_RUNS (R2), EVALCORE_RUN (a Durable Object) and a queue in wrangler.toml (docs/runs.md)');
    }
    if (where.id === null) {
      return request.method === 'POST' ? submit(request, backend) : list(url, backend);
    }
    if (!RUN_ID.test(where.id)) throw new HttpError(404, 'not_found', '', `no run ${quote(where.id)} (a run id is r_ and 24 hex digits)`);
    const view = await backend.view(where.id);
    if (view === null) throw new HttpError(404, 'not_found', '', `no run ${where.id} here`);
    if (request.method === 'DELETE') return json(200, await backend.cancel(where.id), redact);
    if (where.sub === 'events') return events(request, url, where.id, backend, entry);
    if (where.sub === 'result') return result(request, where.id, view, backend);
    return json(200, view, redact);
  };

  async function submit(request, backend) {
    const refused = bodyTypeRefusal(fetchHeaders(request), ['application/json', NDJSON]);
    if (refused !== null) throw new HttpError(refused.status, refused.code, '', refused.message);
    const keyed = await idempotentRunId(request.headers.get('idempotency-key'));
    const id = keyed ?? newRunId();
    const { prepared, bodyHash, writer } = await readSubmission(request, server, backend.files, id);
    let made;
    try {
      // A key first used for another body is refused; the same body goes on, so a retry whose
      // first try died before its input was stored completes it.
      if (keyed !== null && (await backend.view(keyed)) !== null) await replay(keyed, null, bodyHash, backend);
      made = await backend.create(id, prepared, { bodyHash, created: Date.now() });
    } finally {
      if (!made?.used) await writer.discard();
    }
    if (!made.created) return replay(id, made.view, bodyHash, backend);
    return json(202, { id, status: made.view.status }, redact, { location: `/v1/runs/${id}` });
  }

  /** The answer to a second POST with an Idempotency-Key: the same run, or a 409 for another body. */
  async function replay(id, view, bodyHash, backend) {
    if ((await backend.bodyHash(id)) !== bodyHash) {
      throw new HttpError(409, 'idempotency_conflict', '', `the Idempotency-Key was first used for another request body (run ${id}); use a new key for a new run`);
    }
    return view === null ? null : json(202, { id, status: view.status }, redact, { location: `/v1/runs/${id}`, 'idempotent-replayed': 'true' });
  }

  async function list(url, backend) {
    const raw = url.searchParams.get('limit');
    const limit = raw === null ? LIST_DEFAULT : Number(raw);
    if (!Number.isInteger(limit) || limit < 1 || limit > LIST_MAX) throw new HttpError(400, 'schema', '$limit', `limit must be a whole number from 1 to ${LIST_MAX}`);
    const cursor = url.searchParams.get('cursor');
    if (cursor !== null && (cursor.length > 200 || !/^[\x21-\x7e]+$/.test(cursor))) throw new HttpError(400, 'schema', '$cursor', 'cursor must be the one a previous page gave');
    return json(200, await backend.list({ limit, cursor }), redact);
  }

  /** The case results as they were scored (dead-lettered cases as `{dead_letter}` lines), then `{summary}`. */
  async function events(request, url, id, backend, entry) {
    const raw = url.searchParams.get('after');
    const after = raw === null ? 0 : Number(raw);
    if (!Number.isSafeInteger(after) || after < 0) throw new HttpError(400, 'schema', '$after', 'after must be the number of events already read (a whole number >= 0)');
    const release = followers.take();
    const abort = new AbortController();
    const stop = () => abort.abort(new Error('the client went away'));
    request.signal?.addEventListener('abort', stop, { once: true });
    const out = ndjsonStream(limits.maxAnswerBytes, redact, stop);
    entry.defer();
    follow(id, after, backend, out, abort.signal).catch((e) => {
      if (!abort.signal.aborted) out.push({ error: { code: e.code ?? 'internal', path: '', message: redact(String(e.message ?? e)) } });
    }).finally(() => {
      request.signal?.removeEventListener('abort', stop);
      release();
      out.close();
      entry.end(200);
    });
    return out.response;
  }

  async function follow(id, after, backend, out, signal) {
    let seen = after;
    for (;;) {
      const { records, view } = await backend.waitEvents(id, seen, EVENTS_WAIT_MS, signal);
      if (signal.aborted || !out.open) return;
      // The page's results read side by side, written in order.
      const reads = records.map((r) => (r.key === null ? Promise.resolve(null) : backend.readCase(r.key)));
      for (const p of reads) p.catch(() => {});
      for (const [i, r] of records.entries()) {
        const bytes = await reads[i];
        if (r.status === 'DEAD') out.push({ dead_letter: { eval_id: r.eval_id, unit: r.unit, error: r.error } });
        else if (bytes === null) out.push({ error: { code: 'missing_result', path: '', message: `the stored result of case ${r.eval_id} (${r.unit}) is gone` } });
        else out.pushText(decoder.decode(bytes));
        seen = r.seq;
        await out.ready();
        if (!out.open) return;
      }
      if (isFinal(view) && seen >= view.events) {
        out.push({ summary: view });
        return;
      }
      if (records.length === 0) {
        // Nothing new in a while: an empty line keeps proxies from closing a quiet stream.
        out.keepAlive();
        await out.ready();
      } else if (records.length < EVENTS_PAGE) {
        // Results trickle in one by one: ask for them a few at a time (one request per wait on Workers).
        await abortableSleep(EVENTS_LINGER_MS, signal);
      }
    }
  }

  async function result(request, id, view, backend) {
    if (!isFinal(view)) {
      throw new HttpError(409, 'run_not_done', '', `run ${id} is ${view.status} (${view.counts.scored + view.counts.dead_letter} of ${view.counts.cases} cases in); follow /v1/runs/${id}/events, or ask again when it is done`, { 'retry-after': '5' });
    }
    const doc = await backend.resultDoc(id);
    const ndjson = (request.headers.get('accept') ?? '').includes(NDJSON);
    return resultStream(doc, (key) => backend.readCase(key), { ndjson, max: limits.maxAnswerBytes, redact });
  }
}

const isFinal = (view) => view.status === 'done' || view.status === 'failed' || view.status === 'cancelled';

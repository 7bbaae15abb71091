//! The OTLP/HTTP trace receiver and the session records: `POST /v1/traces` takes what an
//! OpenTelemetry exporter sends (ExportTraceServiceRequest as JSON or protobuf, gzip or not) and
//! answers ExportTraceServiceResponse in the request's encoding, with `partialSuccess` when spans
//! were refused (`POST /v1/logs` alike, for content on log records); `GET /v1/traces/sessions`
//! lists the scored sessions, `GET
//! /v1/traces/sessions/<id>` gives one, `POST /v1/traces/flush` scores every held session now.
import { EvalError } from '../../errors.js';
import { preflight } from '../cors.js';
import { bodyTypeRefusal, fetchHeaders, mediaType } from '../guard.js';
import { HttpError, badInput, checkToken, concatChunks, json, readBefore, readCapped } from '../http.js';
import { durableTraces } from './trace_backend.js';

export const TRACES_PATH = '/v1/traces';
/** OTLP's log records (where GenAI instrumentations may put content) join their spans. */
const LOGS_PATH = '/v1/logs';
const SESSIONS_PATH = '/v1/traces/sessions';
const PROTOBUF = ['application/x-protobuf', 'application/protobuf'];
const BODY_TYPES = ['application/json', ...PROTOBUF];
const MAX_PAGE = 100;

/** Whether the route answers `pathname`. */
export const isTracesPath = (pathname) => pathname === TRACES_PATH || pathname === LOGS_PATH || pathname.startsWith(`${TRACES_PATH}/`);

/** A protobuf varint. */
function varint(n, out) {
  let v = BigInt(n);
  do {
    let b = Number(v & 0x7fn);
    v >>= 7n;
    if (v > 0n) b |= 0x80;
    out.push(b);
  } while (v > 0n);
}

/** A length-delimited protobuf field. */
function field(num, bytes, out) {
  out.push((num << 3) | 2);
  varint(bytes.length, out);
  for (const b of bytes) out.push(b);
}

/**
 * ExportTraceServiceResponse (ExportLogsServiceResponse with `logs`): `{}` when everything was
 * taken, else `partial_success` {rejected_spans / rejected_log_records (int64), error_message}
 * (field 1: {1: varint, 2: string}).
 */
export function exportResponse(rejected, message, protobuf, logs = false) {
  if (!protobuf) {
    return rejected === 0 && message === '' ? {} : { partialSuccess: { [logs ? 'rejectedLogRecords' : 'rejectedSpans']: String(rejected), errorMessage: message } };
  }
  const out = [];
  if (rejected > 0 || message !== '') {
    const inner = [];
    if (rejected > 0) {
      inner.push(1 << 3);
      varint(rejected, inner);
    }
    if (message !== '') field(2, new TextEncoder().encode(message), inner);
    field(1, inner, out);
  }
  return new Uint8Array(out);
}

/** google.rpc.Status, the body OTLP/HTTP answers a failed request with: {1: code, 2: message, 3: details}. */
function statusBody(grpcCode, err, protobuf) {
  if (!protobuf) {
    return {
      code: grpcCode, message: err.message,
      details: [{ '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: err.code, domain: 'evalcore', metadata: err.path ? { path: err.path } : {} }],
      error: { code: err.code, path: err.path, message: err.message },
    };
  }
  const out = [1 << 3];
  varint(grpcCode, out);
  field(2, new TextEncoder().encode(err.message), out);
  return new Uint8Array(out);
}

/** HTTP status -> the gRPC code of OTLP's Status body. */
const GRPC = { 400: 3, 401: 16, 403: 7, 404: 5, 405: 12, 408: 4, 413: 8, 415: 3, 429: 8, 500: 13, 501: 12, 503: 14 };

function answer(status, body, protobuf, redact, headers) {
  if (!protobuf) return json(status, body, redact, headers);
  return new Response(body, { status, headers: { 'content-type': 'application/x-protobuf', 'cache-control': 'no-store', ...headers } });
}

/** The Content-Encoding of a trace request: gzip, or null for none; anything else a 415. */
function encodingOf(request) {
  const enc = (request.headers.get('content-encoding') ?? '').trim().toLowerCase();
  if (enc === '' || enc === 'identity') return null;
  if (enc === 'gzip') return enc;
  throw new HttpError(415, 'unsupported_media_type', '', `Content-Encoding ${JSON.stringify(enc.slice(0, 40))} is not taken: send the body as it is or gzip-compressed (OTLP/HTTP)`);
}

/**
 * `raw` decompressed, at most `max` bytes of it: a body that inflates past that (a zip bomb) is
 * cut there and refused with a 413.
 */
async function inflate(raw, max, deadline) {
  const stream = new Blob([raw]).stream().pipeThrough(new DecompressionStream('gzip'));
  const reader = stream.getReader();
  const chunks = [];
  let total = 0;
  try {
    for (;;) {
      const { done, value } = await readBefore(reader, deadline, 'the decompressed body');
      if (done) break;
      total += value.byteLength;
      if (total > max) {
        reader.cancel().catch(() => {});
        throw new HttpError(413, 'too_large', '', `the request body decompresses to more than ${max} bytes; the limit is ${max} (maxTraceBytes)`);
      }
      chunks.push(value);
    }
  } catch (e) {
    if (e instanceof HttpError) throw e;
    throw new HttpError(400, 'invalid_gzip', '', `the body is not valid gzip (Content-Encoding: gzip): ${e?.message ?? e}`);
  }
  return concatChunks(chunks, total);
}

/** gzip bodies that may wait for an inflation slot, per slot; past them a 429. */
const WAITING_PER_SLOT = 16;

/**
 * At most `max` gzip bodies inflated (each up to maxTraceBytes) and filed at once; more wait
 * their turn holding only their compressed bytes, at most WAITING_PER_SLOT a slot and until
 * `deadline`, else a 429. `take(deadline, signal)` resolves to a release function.
 */
function inflationSlots(max) {
  let free = max;
  const queue = [];
  const busy = () => new HttpError(429, 'too_many_requests', '', `this server inflates at most ${max} gzip trace requests at once, and keeps at most ${max * WAITING_PER_SLOT} waiting (maxTraceInflations); retry shortly`, { 'retry-after': '1' });
  const releaser = () => {
    let done = false;
    return () => {
      if (done) return;
      done = true;
      const next = queue.shift();
      if (next === undefined) free++;
      else next.go();
    };
  };
  return async function take(deadline, signal) {
    if (free > 0) {
      free--;
      return releaser();
    }
    if (queue.length >= max * WAITING_PER_SLOT) throw busy();
    await new Promise((resolve, reject) => {
      const leave = (e) => {
        const at = queue.indexOf(entry);
        if (at >= 0) queue.splice(at, 1);
        clearTimeout(timer);
        signal?.removeEventListener('abort', gone);
        reject(e);
      };
      const gone = () => leave(new Error('the client went away'));
      const entry = {
        go() {
          clearTimeout(timer);
          signal?.removeEventListener('abort', gone);
          resolve();
        },
      };
      const timer = setTimeout(() => leave(busy()), Math.max(0, (deadline?.at ?? Date.now() + 60_000) - Date.now()));
      signal?.addEventListener('abort', gone, { once: true });
      queue.push(entry);
    });
    return releaser();
  };
}

/** `?limit=&after=` of a listing, checked. */
function pageOf(url) {
  const l = url.searchParams.get('limit');
  const limit = l === null ? 50 : Number(l);
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_PAGE) throw new HttpError(400, 'schema', '$.limit', `limit must be a whole number from 1 to ${MAX_PAGE}`);
  const after = url.searchParams.get('after');
  if (after !== null && (after.length > 300 || !/^[A-Za-z0-9_.~-]+$/.test(after))) throw new HttpError(400, 'schema', '$.after', 'after must be the `next` of an earlier page');
  return { limit, after };
}

/**
 * The route over the server: `(request, url, env, deadline) => Response`. Its sessions are held
 * by `env.EVALCORE_TRACES` (a Durable Object namespace) when the worker has that binding, else by
 * `local` (this process), else nowhere (501: Workers without the binding).
 */
export function tracesRoute(server, local) {
  const { limits, redact } = server;
  const backendOf = (env) => {
    const ns = env?.EVALCORE_TRACES;
    if (ns && typeof ns.idFromName === 'function') return durableTraces(ns);
    if (local !== null) return local;
    throw new HttpError(501, 'not_configured', '', 'this worker holds no trace sessions: bind a Durable Object namespace EVALCORE_TRACES to the TraceSessions class (export it from evalcore/server/traces); docs/traces.md');
  };

  const inflating = inflationSlots(limits.maxTraceInflations);

  async function ingest(request, backend, deadline, protobuf, logs) {
    const wrongType = bodyTypeRefusal(fetchHeaders(request), BODY_TYPES);
    if (wrongType !== null) throw new HttpError(wrongType.status, wrongType.code, '', wrongType.message);
    const gzip = encodingOf(request);
    const raw = await readCapped(request.body, request.headers.get('content-length'), limits.maxBodyBytes, 'the request body', deadline);
    // A gzip body takes a slot once it is in (a client still sending holds none) until what it
    // inflated to is filed.
    const release = gzip === null ? () => {} : await inflating(deadline, request.signal);
    let r;
    try {
      r = await backend.ingest(gzip === null ? raw : await inflate(raw, limits.maxTraceBytes, deadline));
    } catch (e) {
      throw e instanceof EvalError ? badInput(e) : e;
    } finally {
      release();
    }
    if (r.full) {
      throw new HttpError(429, 'traces_full', '', `no span was taken: ${r.message}; retry once held sessions have been scored`, { 'retry-after': String(Math.max(1, Math.ceil(limits.traceIdleMs / 1000))) });
    }
    return answer(200, exportResponse(r.rejected, r.rejected > 0 ? r.message : '', protobuf, logs), protobuf, redact);
  }

  async function sessions(request, url, backend) {
    if (url.pathname === SESSIONS_PATH) return json(200, await backend.list(pageOf(url)), redact);
    let id;
    try {
      id = decodeURIComponent(url.pathname.slice(SESSIONS_PATH.length + 1));
    } catch {
      throw new HttpError(400, 'schema', '', 'the session id in the path is not valid percent-encoding');
    }
    if (id === '' || id.length > 1000) throw new HttpError(400, 'schema', '', 'give a session id: /v1/traces/sessions/<session id>');
    const record = await backend.get(id);
    if (record === null || record === undefined) throw new HttpError(404, 'not_found', '', `no scored session ${JSON.stringify(id.slice(0, 200))} (it may still be held: sessions are scored once quiet for ${limits.traceIdleMs} ms)`);
    return json(200, record, redact);
  }

  /** The methods a path takes, or null for no such path. */
  const methodsOf = (p) => (p === TRACES_PATH || p === LOGS_PATH || p === `${TRACES_PATH}/flush` ? ['POST']
    : p === SESSIONS_PATH || p.startsWith(`${SESSIONS_PATH}/`) ? ['GET', 'HEAD'] : null);

  return async function route(request, url, env, deadline) {
    const exporter = url.pathname === TRACES_PATH || url.pathname === LOGS_PATH;
    const protobuf = exporter && PROTOBUF.includes(mediaType(request.headers.get('content-type')));
    try {
      const methods = methodsOf(url.pathname);
      if (methods === null) throw new HttpError(404, 'not_found', '', `no route ${url.pathname} (trace routes: ${TRACES_PATH}, ${SESSIONS_PATH}, ${SESSIONS_PATH}/<id>, ${TRACES_PATH}/flush)`);
      if (request.method === 'OPTIONS' && server.cors !== null) return preflight(methods);
      if (!methods.includes(request.method)) {
        throw new HttpError(405, 'method_not_allowed', '', `${url.pathname} takes ${methods.join(' or ')}, not ${request.method}`, { allow: methods.join(', ') });
      }
      if (server.token !== null) await checkToken(request, server.token);
      const backend = backendOf(env);
      if (exporter) return await ingest(request, backend, deadline, protobuf, url.pathname === LOGS_PATH);
      if (url.pathname === `${TRACES_PATH}/flush`) return json(200, { scored: await backend.flush() }, redact);
      return await sessions(request, url, backend);
    } catch (e) {
      // A client that left (its body cut off) is the handler's to log: 499, not our 500.
      if (!exporter || request.signal?.aborted) throw e;
      // An exporter's request is answered as OTLP/HTTP answers a failure: a Status body.
      const err = e instanceof HttpError ? e : server.internal(e);
      return answer(err.status, statusBody(GRPC[err.status] ?? 2, err, protobuf), protobuf, redact, err.headers);
    }
  };
}

//! HTTP plumbing of the endpoint that knows nothing of evaluation: errors as
//! `{error: {code, path, message}}` responses, bodies read under a byte limit and a deadline,
//! the bearer token.
import { EvalError } from '../errors.js';

/** An error the endpoint answers with `status` and `{error: {code, path, message}}`. */
export class HttpError extends Error {
  constructor(status, code, path, message, headers) {
    super(message);
    this.status = status;
    this.code = code;
    this.path = path ?? '';
    this.headers = headers;
  }
}

/** An EvalError of the core as a 400, its path moved under `prefix` (`$` -> `$.evalSet`). */
export function badInput(e, prefix) {
  if (!(e instanceof EvalError)) return e;
  const path = prefix === undefined ? e.path
    : e.path === '' || e.path === '$' ? prefix : e.path.startsWith('$') ? prefix + e.path.slice(1) : `${prefix}.${e.path}`;
  // A trap (the instance died and was replaced) or the core's own bug is not the client's input.
  const status = e.code === 'too_large' ? 413 : e.code === 'trap' || e.code === 'internal' ? 500 : 400;
  return new HttpError(status, e.code, path, e.message);
}

/** A JSON response; `redact` takes secrets out of the text before it leaves. */
export function json(status, value, redact, headers) {
  return new Response(redact(JSON.stringify(value)), {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', ...headers },
  });
}

export function errorResponse(e, redact) {
  return json(e.status, { error: { code: e.code, path: e.path, message: e.message } }, redact, e.headers);
}

/** A body's deadline: `{at, ms}`, `ms` from now (none for 0 or null). */
export const deadlineIn = (ms) => (ms ? { at: Date.now() + ms, ms } : null);

/**
 * A reader's next chunk, or a 408 `body_timeout` (the reader cancelled) once `deadline`
 * (deadlineIn) has passed: a client that sends its body slowly, or not at all, holds nothing
 * past it.
 */
export function readBefore(reader, deadline, what = 'the request body') {
  if (deadline === null || deadline === undefined) return reader.read();
  let timer;
  const late = new Promise((_, reject) => {
    timer = setTimeout(() => {
      // Rejected before the cancel settles the pending read as done, so the race sees the 408.
      reject(new HttpError(408, 'body_timeout', '', `${what} did not arrive within ${deadline.ms / 1000} s (bodyTimeoutMs): a client must send its request at once`));
      reader.cancel().catch(() => {});
    }, Math.max(0, deadline.at - Date.now()));
  });
  return Promise.race([reader.read(), late]).finally(() => clearTimeout(timer));
}

/**
 * The bytes of a body, at most `max` of them: a declared length over it is refused before
 * anything is read, a body that grows past it is cancelled at that point. `what` names the
 * limit in the 413's message. With `deadline` (deadlineIn), a body that has not all arrived by
 * then is a 408 (readBefore).
 */
export async function readCapped(stream, declared, max, what, deadline = null) {
  const over = (n) => new HttpError(413, 'too_large', '', `${what} is ${n} bytes; the limit is ${max}`);
  if (declared !== null && declared !== undefined && /^\d+$/.test(declared) && Number(declared) > max) throw over(declared);
  if (stream === null || stream === undefined) return new Uint8Array(0);
  const reader = stream.getReader();
  const chunks = [];
  let total = 0;
  for (;;) {
    const { done, value } = await readBefore(reader, deadline, what);
    if (done) break;
    total += value.byteLength;
    if (total > max) {
      reader.cancel().catch(() => {});
      throw over(`more than ${max}`);
    }
    chunks.push(value);
  }
  return concatChunks(chunks, total);
}

/** The byte chunks of a body read in pieces as one array (`total`: their summed length). */
export function concatChunks(chunks, total) {
  if (chunks.length === 1) return chunks[0];
  const out = new Uint8Array(total);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.byteLength;
  }
  return out;
}

const digest = async (text) => new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text)));

/**
 * Checks `Authorization: Bearer <token>` against the configured token, comparing SHA-256
 * digests in constant time (neither the token's length nor a prefix leaks through timing).
 */
export async function checkToken(request, token) {
  const header = request.headers.get('authorization');
  const unauthorized = (message) => new HttpError(401, 'unauthorized', '', message, { 'www-authenticate': 'Bearer' });
  if (header === null) throw unauthorized('this endpoint needs `Authorization: Bearer <token>`');
  const m = /^Bearer\s+(.+)$/i.exec(header);
  if (!m) throw unauthorized('the Authorization header must be `Bearer <token>`');
  const [a, b] = await Promise.all([digest(m[1].trim()), digest(token)]);
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a[i] ^ b[i];
  if (diff !== 0) throw unauthorized('the bearer token is not the one this server was configured with');
}

/** `text` with every secret replaced, for whatever leaves the server. */
export function redactor(secrets) {
  if (secrets.length === 0) return (text) => text;
  return (text) => {
    let out = text;
    for (const s of secrets) if (out.includes(s)) out = out.split(s).join('[redacted]');
    return out;
  };
}

//! The pace of one endpoint instance's judge calls: every request's calls counted and bounded
//! (in flight, per minute), one back-off for the instance after a 429 (one key, one back-off),
//! and the control lines a sharded run's client sends on a streamed request body to make the
//! instance hold its judge calls when another instance of the run was told 429.
import { EvalError } from '../errors.js';
import { parseJsonBytes } from '../wasm/wire.js';
import { HttpError, concatChunks, readBefore } from './http.js';

/** The longest hold a 429 or a control line may ask for. */
const MAX_HOLD_MS = 60_000;
const CONTROL_KINDS = ['judge_throttled'];

/** The judge pace of one instance: `{judgeFor, hold, pausedUntil}` over the handler's judge and limits. */
export function instancePace(judge, limits) {
  // No judge call of this instance starts before this time.
  let pausedUntil = 0;
  const hold = (ms) => {
    pausedUntil = Math.max(pausedUntil, Date.now() + Math.min(ms, MAX_HOLD_MS));
  };

  /**
   * The server's judge for one request: its calls counted, none past maxCalls, at most
   * `pace.concurrency` in flight and (with `pace.perMinute`) started no closer together than a
   * minute allows; after a 429 from the judge (or a control line), no call of this instance
   * starts before its end, and `onThrottle(ms)` is told of a 429 (the stream reports it).
   */
  function judgeFor(signal, pace = { concurrency: limits.judgeConcurrency, perMinute: null }, onThrottle = () => {}) {
    if (judge === null) return { judge: undefined, calls: () => 0 };
    const send = judge.fetch ?? globalThis.fetch;
    let calls = 0;
    let running = 0;
    const waiting = [];
    let nextStart = 0;
    const spacing = pace.perMinute === null ? 0 : 60_000 / pace.perMinute;
    const refuse = (message) => Promise.resolve(new Response(JSON.stringify({ error: { message } }), { status: 400, headers: { 'content-type': 'application/json' } }));
    const fetchFn = async (input, init) => {
      calls++;
      if (calls > limits.maxCalls || signal?.aborted) {
        return refuse(signal?.aborted ? 'the request was cancelled' : `this request's ${limits.maxCalls} judge calls (maxCalls) are spent`);
      }
      // A slot is handed from the call that ends to the one that waited longest.
      if (running >= pace.concurrency) await new Promise((resolve) => waiting.push(resolve));
      else running++;
      try {
        for (;;) {
          const now = Date.now();
          const at = Math.max(pausedUntil, nextStart);
          if (at <= now) break;
          // Re-checked after the wait: a control line may have moved the hold on meanwhile.
          await new Promise((resolve) => setTimeout(resolve, at - now));
        }
        if (signal?.aborted) return await refuse('the request was cancelled');
        nextStart = Date.now() + spacing;
        const res = await send(input, init);
        if (res.status === 429) {
          const after = Number(res.headers.get('retry-after'));
          const ms = Number.isFinite(after) && after > 0 ? Math.min(after * 1000, MAX_HOLD_MS) : 1000;
          hold(ms);
          onThrottle(ms);
        }
        return res;
      } finally {
        const next = waiting.shift();
        if (next) next();
        else running--;
      }
    };
    return { judge: { ...judge, fetch: fetchFn, maxCalls: limits.maxCalls }, calls: () => Math.min(calls, limits.maxCalls) };
  }

  return { judgeFor, hold, get pausedUntil() { return pausedUntil; } };
}

/**
 * The first line of an ndjson request body (the request itself), at most `max` bytes and in by
 * `deadline` (deadlineIn), and a reader over the rest (the control lines, which have none), or
 * `{first, rest: null}` when the body ended.
 */
export async function firstLine(stream, max, deadline = null) {
  const over = () => new HttpError(413, 'too_large', '', `the request's first line is more than ${max} bytes; the limit is ${max} (maxBodyBytes)`);
  if (stream === null || stream === undefined) return { first: new Uint8Array(0), rest: null };
  const reader = stream.getReader();
  const chunks = [];
  let total = 0;
  for (;;) {
    const { done, value } = await readBefore(reader, deadline, "the request's first line");
    if (done) return { first: concatChunks(chunks, total), rest: null };
    const nl = value.indexOf(10);
    const head = nl < 0 ? value : value.subarray(0, nl);
    total += head.byteLength;
    if (total > max) {
      reader.cancel().catch(() => {});
      throw over();
    }
    chunks.push(head);
    if (nl >= 0) return { first: concatChunks(chunks, total), rest: { reader, carry: value.slice(nl + 1) } };
  }
}


/**
 * Follows the control lines of a request body until it ends or `signal` aborts:
 * `{"judge_throttled": {"retry_after_ms": N}}` holds this instance's judge calls for N ms (at
 * most a minute). A line that is not one of those calls `fail(HttpError)` and stops reading.
 * A line longer than `max` bytes is refused the same way.
 */
export async function followControl(rest, pace, signal, fail, max) {
  if (rest === null) return;
  const { reader } = rest;
  let carry = rest.carry;
  let n = 1;
  const stop = () => reader.cancel().catch(() => {});
  signal.addEventListener('abort', stop, { once: true });
  try {
    for (;;) {
      let nl = carry.indexOf(10);
      while (nl >= 0) {
        const line = carry.subarray(0, nl);
        carry = carry.slice(nl + 1);
        n++;
        if (line.byteLength > 0 && !applyControl(line, n, pace, fail)) return;
        nl = carry.indexOf(10);
      }
      if (carry.byteLength > max) return fail(new HttpError(413, 'too_large', `$control[${n}]`, `control line ${n} of the request body is more than ${max} bytes`));
      if (signal.aborted) return;
      let got;
      try {
        got = await reader.read();
      } catch {
        return; // the client went away: the request's signal ends the job
      }
      if (got.done) {
        n++;
        if (carry.byteLength > 0) applyControl(carry, n, pace, fail);
        return;
      }
      const joined = new Uint8Array(carry.byteLength + got.value.byteLength);
      joined.set(carry);
      joined.set(got.value, carry.byteLength);
      carry = joined;
    }
  } finally {
    signal.removeEventListener('abort', stop);
    stop();
  }
}

/** One control line applied; false (after `fail`) when it is not one. Lines count from 1 (the request). */
function applyControl(bytes, n, pace, fail) {
  const where = `$control[${n}]`;
  let line;
  try {
    line = parseJsonBytes(bytes, `control line ${n} of the request body`);
  } catch (e) {
    const why = e instanceof Error ? e.message : String(e);
    fail(new HttpError(400, e instanceof EvalError ? e.code : 'invalid_json', where, `control line ${n} of the request body is not JSON: ${why}`));
    return false;
  }
  const kind = line !== null && typeof line === 'object' && !Array.isArray(line) ? Object.keys(line) : [];
  if (kind.length !== 1 || !CONTROL_KINDS.includes(kind[0])) {
    fail(new HttpError(400, 'schema', where, `control line ${n} of the request body must be {"judge_throttled": {"retry_after_ms": N}}, found ${bytes.byteLength > 80 ? 'another value' : new TextDecoder().decode(bytes)}`));
    return false;
  }
  const ms = line.judge_throttled?.retry_after_ms;
  if (!Number.isFinite(ms) || ms < 0) {
    fail(new HttpError(400, 'schema', `${where}.judge_throttled.retry_after_ms`, `control line ${n}: retry_after_ms must be a number of milliseconds >= 0`));
    return false;
  }
  pace.hold(ms);
  return true;
}

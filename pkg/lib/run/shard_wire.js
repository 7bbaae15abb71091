// The wire of a sharded run, below its scheduler (shards.js): the `remote` option read, the
// shard's request body (one JSON object, or an ndjson stream: the request, then control lines
// while the shard runs), the endpoint's ndjson answer split into lines, and what a failed
// request means.
import { EvalError } from '../errors.js';
import { describe } from '../wasm/wire.js';

export const REMOTE_OPTIONS = ['endpoints', 'shards', 'token', 'fetch', 'perEndpoint', 'maxCasesPerShard', 'shardTimeoutMs', 'maxAttempts', 'judgeConcurrency', 'judgeCallsPerMinute', 'control', 'controlGraceMs'];
/** How running shards learn of a 429 another shard saw (see `control` in remoteOptions). */
const CONTROLS = ['stream', 'cancel'];
/** Server errors a retry elsewhere cannot fix: the request itself is wrong. */
export const RETRYABLE_STATUS = (status) => status === 408 || status >= 500;
/** 413s a smaller shard fixes. */
export const SPLITTABLE = new Set(['too_many_cases', 'too_large', 'too_many_judge_calls']);

/** The `remote` option checked, with its defaults. */
export function remoteOptions(remote, fn) {
  const where = '$.remote';
  if (remote === null || typeof remote !== 'object' || Array.isArray(remote)) {
    throw new EvalError('schema', where, `${fn}: remote must be {endpoints, shards?, token?}, found ${describe(remote)}`);
  }
  for (const k of Object.keys(remote)) {
    if (!REMOTE_OPTIONS.includes(k)) throw new EvalError('schema', `${where}.${k}`, `${fn}: unknown remote option "${k}" (known: ${REMOTE_OPTIONS.join(', ')})`);
  }
  const list = typeof remote.endpoints === 'string' ? remote.endpoints.split(',').map((u) => u.trim()).filter((u) => u !== '') : remote.endpoints;
  if (!Array.isArray(list) || list.length === 0) {
    throw new EvalError('schema', `${where}.endpoints`, `${fn}: remote.endpoints must be one or more endpoint URLs (https://evals.example.workers.dev), found ${describe(remote.endpoints)}`);
  }
  const endpoints = list.map((u, i) => {
    let url;
    try {
      url = new URL(String(u));
    } catch {
      url = null;
    }
    if (url === null || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
      throw new EvalError('schema', `${where}.endpoints[${i}]`, `${fn}: remote endpoint ${i} is not an http(s) URL: ${JSON.stringify(String(u))}`);
    }
    const base = url.href.endsWith('/') ? url.href : `${url.href}/`;
    return { url: base.replace(/\/$/, ''), evaluate: new URL('v1/evaluate', base).href, failures: 0, down: false, cases: 0, requests: 0 };
  });
  const int = (k, dflt, min = 1) => {
    const v = remote[k];
    if (v === undefined || v === null) return dflt;
    if (!Number.isInteger(v) || v < min) throw new EvalError('schema', `${where}.${k}`, `${fn}: remote.${k} must be an integer >= ${min}, found ${typeof v === 'number' ? v : describe(v)}`);
    return v;
  };
  if (remote.token !== undefined && remote.token !== null && typeof remote.token !== 'string') {
    throw new EvalError('schema', `${where}.token`, `${fn}: remote.token must be a string (the endpoints' EVALCORE_TOKEN)`);
  }
  const fetchFn = remote.fetch ?? globalThis.fetch;
  if (typeof fetchFn !== 'function') throw new EvalError('schema', `${where}.fetch`, `${fn}: remote.fetch must be a function (this runtime has no global fetch)`);
  const perEndpoint = int('perEndpoint', 2);
  // One provider key's allowance, split over the shard requests in flight: never more requests
  // at once than calls allowed, each asking its endpoint for its share.
  const judgeConcurrency = int('judgeConcurrency', null);
  const judgeCallsPerMinute = int('judgeCallsPerMinute', null);
  const maxRunning = Math.min(endpoints.length * perEndpoint, judgeConcurrency ?? Infinity, judgeCallsPerMinute ?? Infinity);
  // `stream`: each shard's request body stays open while it runs and carries control lines (a
  // 429 seen elsewhere holds the instance's judge calls); this needs a fetch that reads the
  // response while it still writes the body, as Node's and Deno's do (measured; Bun's is taken
  // to, and controlGraceMs catches a fetch or a proxy that does not). `cancel`
  // (browsers: their fetch sends a streamed body, if at all, before it reads the answer):
  // running shards are cancelled and their unscored rest re-sent after the back-off.
  const control = remote.control ?? (fullDuplexFetch() ? 'stream' : 'cancel');
  if (!CONTROLS.includes(control)) {
    throw new EvalError('schema', `${where}.control`, `${fn}: remote.control must be "stream" or "cancel", found ${typeof remote.control === 'string' ? JSON.stringify(remote.control) : describe(remote.control)}`);
  }
  return {
    control, controlGraceMs: int('controlGraceMs', 2_000),
    endpoints, fetch: fetchFn, token: remote.token || null, perEndpoint, maxRunning,
    judgeConcurrency: judgeConcurrency === null ? null : Math.floor(judgeConcurrency / maxRunning),
    judgeCallsPerMinute: judgeCallsPerMinute === null ? null : Math.floor(judgeCallsPerMinute / maxRunning),
    shards: int('shards', maxRunning),
    // The endpoint's own default maxCases: a shard larger than the server takes is split anyway.
    maxCasesPerShard: int('maxCasesPerShard', 100),
    shardTimeoutMs: int('shardTimeoutMs', 300_000),
    maxAttempts: int('maxAttempts', 3),
  };
}

/** `count` contiguous, near-equal slices of `items` (none empty). */
export function slices(items, count) {
  const n = Math.min(count, items.length);
  const out = [];
  for (let k = 0, from = 0; k < n; k++) {
    const to = Math.round(((k + 1) * items.length) / n);
    out.push(items.slice(from, to));
    from = to;
  }
  return out;
}

/**
 * Splits a byte stream into lines (without the newline); the last line may lack one. `signal`
 * aborting cancels the read: a fetch whose request body is still open (a control channel) does
 * not always end its answer's stream when aborted.
 */
export async function* lines(body, signal) {
  const reader = body.getReader();
  let carry = new Uint8Array(0);
  const stop = () => reader.cancel(signal.reason).catch(() => {});
  signal?.addEventListener('abort', stop, { once: true });
  if (signal?.aborted) stop();
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      let chunk = value;
      if (carry.byteLength > 0) {
        chunk = new Uint8Array(carry.byteLength + value.byteLength);
        chunk.set(carry);
        chunk.set(value, carry.byteLength);
      }
      let from = 0;
      for (let i = chunk.indexOf(10); i >= 0; i = chunk.indexOf(10, from)) {
        if (i > from) yield chunk.subarray(from, i);
        from = i + 1;
      }
      carry = chunk.slice(from);
    }
    if (carry.byteLength > 0) yield carry;
  } finally {
    signal?.removeEventListener('abort', stop);
    reader.releaseLock?.();
  }
}

/** A failure of one shard request: `retry` when another endpoint may succeed. */
export class ShardFailure extends Error {
  constructor(kind, message, { retry = true, error = null, retryAfterMs = 0 } = {}) {
    super(message);
    this.kind = kind;
    this.retry = retry;
    this.error = error;
    this.retryAfterMs = retryAfterMs;
  }
}


/** Whether this runtime's fetch reads an answer while it still sends a streamed body (Node, Deno; Bun taken to). */
function fullDuplexFetch() {
  return typeof globalThis.Deno === 'object' || typeof globalThis.process?.versions?.node === 'string';
}

/**
 * A shard's request body as a stream: `first` (the request) as its first line, then what
 * `send(value)` adds, one JSON line each, until `close()`. `send` answers false once the body is
 * closed or its reader went away (the request ended).
 */
export function openChannel(first) {
  const encoder = new TextEncoder();
  let controller;
  let open = true;
  const body = new ReadableStream({
    start(c) {
      controller = c;
      c.enqueue(encoder.encode(`${first}\n`));
    },
    cancel() {
      open = false;
    },
  });
  return {
    body,
    get open() {
      return open;
    },
    send(value) {
      if (!open) return false;
      try {
        controller.enqueue(encoder.encode(`${JSON.stringify(value)}\n`));
        return true;
      } catch {
        open = false;
        return false;
      }
    },
    close() {
      if (!open) return;
      open = false;
      try {
        controller.close();
      } catch {
        // Already errored by the request's end.
      }
    },
  };
}

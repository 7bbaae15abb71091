// The shards of a remote run: the `remote` option read, the cases cut into shards, each POSTed
// to an endpoint's `/v1/evaluate` with its recorded invocations and its ndjson read back. A
// failed shard keeps what it streamed and sends only the rest elsewhere; a case is counted once;
// one judge key's allowance is split over the requests and a reported 429 holds every start.
// Only fetch is used: it runs wherever evalcore runs.
import { EvalError } from './errors.js';
import { describe, parseJsonBytes } from './wire.js';

const REMOTE_OPTIONS = ['endpoints', 'shards', 'token', 'fetch', 'perEndpoint', 'maxCasesPerShard', 'shardTimeoutMs', 'maxAttempts', 'judgeConcurrency', 'judgeCallsPerMinute'];
/** Server errors a retry elsewhere cannot fix: the request itself is wrong. */
const RETRYABLE_STATUS = (status) => status === 408 || status >= 500;
/** 413s a smaller shard fixes. */
const SPLITTABLE = new Set(['too_many_cases', 'too_large', 'too_many_judge_calls']);

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
  return {
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
function slices(items, count) {
  const n = Math.min(count, items.length);
  const out = [];
  for (let k = 0, from = 0; k < n; k++) {
    const to = Math.round(((k + 1) * items.length) / n);
    out.push(items.slice(from, to));
    from = to;
  }
  return out;
}

/** Splits a byte stream into lines (without the newline); the last line may lack one. */
async function* lines(body) {
  const reader = body.getReader();
  let carry = new Uint8Array(0);
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
    reader.releaseLock?.();
  }
}

/** A failure of one shard request: `retry` when another endpoint may succeed. */
class ShardFailure extends Error {
  constructor(kind, message, { retry = true, error = null, retryAfterMs = 0 } = {}) {
    super(message);
    this.kind = kind;
    this.retry = retry;
    this.error = error;
    this.retryAfterMs = retryAfterMs;
  }
}

/**
 * The sharded scoring of `cases` ([{index, evalCase, actual}]): resolves to their results in the
 * same order. On a fatal error or an abort, throws with `partialResult` = `partial(scored so far)`.
 */
export async function shardRun({ fn, set, cases, configText, opts, args, partial, run = 0 }) {
  const { signal, onProgress, onCaseResult } = args;
  // Position of each selected case in `cases`: results land there, so the order is the set's.
  const results = new Array(cases.length);
  const tally = { casesDone: 0, casesTotal: cases.length, passed: 0, failed: 0, notEvaluated: 0 };
  const stats = { shardsTotal: 0, shardsDone: 0, shardsRunning: 0, requests: 0, retries: 0, duplicatesDropped: 0, judgeCalls: 0, throttled: 0 };
  const positions = cases.map((_, i) => i);
  // More shards than asked when they would pass maxCasesPerShard: then a whole number of rounds
  // of the asked count, so the last round keeps every request slot busy.
  const rounds = Math.ceil(cases.length / (opts.shards * opts.maxCasesPerShard));
  const queue = slices(positions, opts.shards * Math.max(1, rounds)).map((items) => ({ id: stats.shardsTotal++, items, attempts: 0, avoid: new Set(), notBefore: 0 }));
  const inFlight = new Set();
  let fatal = null;
  // The judge said 429 to some endpoint: no shard starts anywhere before this time.
  let pausedUntil = 0;
  let waiters = [];
  const notify = () => {
    const w = waiters;
    waiters = [];
    for (const f of w) f();
  };
  const changed = (ms) => new Promise((resolve) => {
    waiters.push(resolve);
    if (ms > 0) setTimeout(resolve, ms);
  });
  const progress = (phase, extra = {}) => {
    if (typeof onProgress !== 'function') return;
    try {
      onProgress({ phase, run, ...tally, ...stats, ...extra });
    } catch (e) {
      // A failing listener never stops the run; it is reported at its end.
      args.listenerErrors?.push(e);
    }
  };
  const stopAll = (reason) => {
    for (const c of inFlight) c.abort(reason);
  };
  const onAbort = () => {
    stopAll(signal.reason ?? new Error('aborted'));
    notify();
  };
  signal?.addEventListener?.('abort', onAbort, { once: true });

  const healthy = () => opts.endpoints.filter((e) => !e.down);
  /** The first queued shard this endpoint may take now, or null. */
  const take = (ep) => {
    const now = Date.now();
    if (stats.shardsRunning >= opts.maxRunning || pausedUntil > now) return null;
    const alive = healthy();
    for (let i = 0; i < queue.length; i++) {
      const s = queue[i];
      if (s.notBefore > now) continue;
      // A shard avoids the endpoints it failed on, while another healthy one is left.
      if (s.avoid.has(ep.url) && alive.some((e) => !s.avoid.has(e.url))) continue;
      queue.splice(i, 1);
      return s;
    }
    return null;
  };
  const fail = (err) => {
    fatal ??= err;
    stopAll(err);
    notify();
  };

  const record = (shard, line) => {
    const k = shard.byId.get(line.eval_id);
    if (k === undefined) {
      throw new ShardFailure('protocol', `the endpoint answered a case it was not sent: ${JSON.stringify(line.eval_id)}`);
    }
    if (results[k] !== undefined) {
      stats.duplicatesDropped++;
      return;
    }
    results[k] = line;
    tally.casesDone++;
    if (line.final_eval_status === 'PASSED') tally.passed++;
    else if (line.final_eval_status === 'FAILED') tally.failed++;
    else tally.notEvaluated++;
    shard.ep.cases++;
    if (typeof onCaseResult === 'function') {
      try {
        onCaseResult(line);
      } catch (e) {
        args.listenerErrors?.push(e);
      }
    }
    progress('case', { evalId: line.eval_id, shard: shard.id, endpoint: shard.ep.url });
  };

  /** The server's error, its path in terms of the whole eval set (the shard's case k is case items[k]). */
  const serverError = (shard, e, status) => {
    const code = typeof e?.code === 'string' ? e.code : `http_${status}`;
    let path = typeof e?.path === 'string' ? e.path : '';
    path = path.replace(/^\$\.evalSet\.eval_cases\[(\d+)\]/, (m, k) => {
      const pos = shard.sent[Number(k)];
      return pos === undefined ? m : `$.evalSet.eval_cases[${cases[pos].index}]`;
    });
    const message = typeof e?.message === 'string' ? e.message : `HTTP ${status}`;
    return new EvalError(code, path, `${fn}: endpoint ${shard.ep.url} refused shard ${shard.id}: ${message}`);
  };

  const bodyOf = (positionsLeft) => {
    const evalCases = positionsLeft.map((p) => cases[p].evalCase);
    const actual = {};
    for (const p of positionsLeft) actual[cases[p].evalCase.eval_id] = cases[p].actual;
    const members = [`"evalSet":${JSON.stringify({ eval_set_id: set.eval_set_id, eval_cases: evalCases })}`];
    if (configText !== null) members.push(`"config":${configText}`);
    members.push(`"actual":${JSON.stringify(actual)}`);
    if (opts.judgeConcurrency !== null) members.push(`"judgeConcurrency":${opts.judgeConcurrency}`);
    if (opts.judgeCallsPerMinute !== null) members.push(`"judgeCallsPerMinute":${opts.judgeCallsPerMinute}`);
    return `{${members.join(',')}}`;
  };

  async function runShard(shard, ep) {
    shard.sent = shard.items.filter((p) => results[p] === undefined);
    shard.ep = ep;
    shard.byId = new Map(shard.sent.map((p) => [cases[p].evalCase.eval_id, p]));
    if (shard.sent.length === 0) return;
    const controller = new AbortController();
    inFlight.add(controller);
    let idle = null;
    const arm = () => {
      clearTimeout(idle);
      idle = setTimeout(() => controller.abort(new ShardFailure('timeout', `no answer for ${opts.shardTimeoutMs} ms`)), opts.shardTimeoutMs);
    };
    ep.requests++;
    stats.requests++;
    try {
      arm();
      let res;
      try {
        res = await opts.fetch(ep.evaluate, {
          method: 'POST',
          headers: {
            'content-type': 'application/json', accept: 'application/x-ndjson',
            ...(opts.token === null ? {} : { authorization: `Bearer ${opts.token}` }),
          },
          body: bodyOf(shard.sent),
          signal: controller.signal,
        });
      } catch (e) {
        throw transportFailure(controller, e);
      }
      if (res.status !== 200) {
        let err = null;
        try {
          err = parseJsonBytes(new Uint8Array(await res.arrayBuffer()), 'the endpoint\'s answer')?.error ?? null;
        } catch {
          err = null;
        }
        if (res.status === 429) {
          const after = Number(res.headers.get('retry-after'));
          throw new ShardFailure('busy', 'the endpoint is busy (429)', { retryAfterMs: Number.isFinite(after) && after > 0 ? after * 1000 : 1000 });
        }
        if (res.status === 413 && SPLITTABLE.has(err?.code) && shard.sent.length > 1) {
          throw new ShardFailure('split', `the endpoint refused ${shard.sent.length} cases at once (${err.code})`, { retry: false });
        }
        if (RETRYABLE_STATUS(res.status)) throw new ShardFailure('http', `HTTP ${res.status}${err?.message ? `: ${err.message}` : ''}`);
        throw new ShardFailure('refused', `HTTP ${res.status}`, { retry: false, error: serverError(shard, err, res.status) });
      }
      let summary = false;
      try {
        for await (const bytes of lines(res.body)) {
          arm();
          const line = parseJsonBytes(bytes, 'a line of the endpoint\'s ndjson');
          if (line !== null && typeof line === 'object' && 'summary' in line) {
            summary = true;
            if (Number.isInteger(line.summary?.judge_calls)) stats.judgeCalls += line.summary.judge_calls;
          } else if (line !== null && typeof line === 'object' && 'error' in line) {
            if (line.error?.code === 'internal') throw new ShardFailure('http', `the endpoint failed: ${line.error.message}`);
            throw new ShardFailure('refused', 'error line', { retry: false, error: serverError(shard, line.error, 200) });
          } else if (line !== null && typeof line === 'object' && 'judge_throttled' in line) {
            const ms = Number(line.judge_throttled?.retry_after_ms);
            if (Number.isFinite(ms) && ms > 0) {
              pausedUntil = Math.max(pausedUntil, Date.now() + Math.min(ms, 60_000));
              stats.throttled++;
              progress('judge_backoff', { shard: shard.id, endpoint: ep.url, delayMs: ms });
            }
          } else if (line !== null && typeof line === 'object' && typeof line.eval_id === 'string') {
            record(shard, line);
          } else {
            throw new ShardFailure('protocol', 'the endpoint sent a line that is neither a case result, an error nor the summary');
          }
        }
      } catch (e) {
        if (e instanceof ShardFailure || e instanceof EvalError) throw e;
        throw transportFailure(controller, e);
      }
      if (!summary) throw new ShardFailure('cut', 'the answer ended before its summary line');
      const missing = shard.sent.filter((p) => results[p] === undefined);
      if (missing.length > 0) throw new ShardFailure('protocol', `the summary came without ${missing.length} of the cases sent`);
    } finally {
      clearTimeout(idle);
      inFlight.delete(controller);
      // A shard given up on mid-stream (a bad line, a protocol error) stops its endpoint's work too.
      controller.abort(new ShardFailure('stopped', 'the shard ended', { retry: false }));
    }
  }

  /** What a thrown fetch or read means: our own abort, the shard's idle timeout, or the network. */
  function transportFailure(controller, e) {
    const reason = controller.signal.reason;
    if (controller.signal.aborted && reason instanceof ShardFailure) return reason;
    if (controller.signal.aborted) return new ShardFailure('stopped', 'stopped', { retry: false });
    const cause = e?.cause?.code ?? e?.cause?.message ?? e?.message ?? String(e);
    return new ShardFailure('network', `network error: ${cause}`);
  }

  async function worker(ep) {
    for (;;) {
      if (fatal !== null || signal?.aborted || ep.down) return;
      const shard = take(ep);
      if (shard === null) {
        if (queue.length === 0 && stats.shardsRunning === 0) return;
        const soonest = Math.min(queue.reduce((m, s) => Math.min(m, s.notBefore), Infinity), pausedUntil > Date.now() ? pausedUntil : Infinity);
        await changed(Number.isFinite(soonest) ? Math.max(1, soonest - Date.now()) : 0);
        continue;
      }
      stats.shardsRunning++;
      progress('shard_start', { shard: shard.id, endpoint: ep.url, cases: shard.items.length });
      try {
        await runShard(shard, ep);
        ep.failures = 0;
        stats.shardsDone++;
        progress('shard_done', { shard: shard.id, endpoint: ep.url });
      } catch (e) {
        handleFailure(shard, ep, e);
      } finally {
        stats.shardsRunning--;
        notify();
      }
    }
  }

  function handleFailure(shard, ep, e) {
    if (fatal !== null || signal?.aborted) return;
    if (e instanceof EvalError) return fail(e);
    if (!(e instanceof ShardFailure)) {
      return fail(new EvalError('internal', '', `${fn}: shard ${shard.id} on ${ep.url}: ${e?.message ?? String(e)}`, { cause: e }));
    }
    if (e.kind === 'stopped') return undefined;
    if (e.kind === 'refused') return fail(e.error);
    const left = shard.items.filter((p) => results[p] === undefined);
    if (left.length === 0) {
      stats.shardsDone++;
      return undefined;
    }
    if (e.kind === 'split') {
      // Two halves, each a shard of its own: the endpoint takes fewer cases than we sent.
      const halves = slices(left, 2);
      stats.shardsTotal += halves.length - 1;
      queue.unshift(...halves.map((items, k) => ({ id: k === 0 ? shard.id : stats.shardsTotal - 1, items, attempts: shard.attempts, avoid: new Set(), notBefore: 0 })));
      progress('shard_retry', { shard: shard.id, endpoint: ep.url, why: e.message, casesLeft: left.length });
      return undefined;
    }
    if (e.kind === 'busy') {
      queue.unshift({ ...shard, items: left, notBefore: Date.now() + e.retryAfterMs });
      progress('shard_retry', { shard: shard.id, endpoint: ep.url, why: e.message, casesLeft: left.length, delayMs: e.retryAfterMs });
      return undefined;
    }
    shard.attempts++;
    ep.failures++;
    // Two failures in a row take an endpoint out of the run while another is left; the last one
    // stays (one Workers URL fronts many instances: a retry there may reach another).
    if (ep.failures >= 2 && healthy().some((o) => o !== ep)) ep.down = true;
    if (shard.attempts >= opts.maxAttempts) {
      const none = opts.endpoints.every((o) => o.down || o.failures >= 2);
      return fail(none
        ? new EvalError('remote_unavailable', '$.remote.endpoints', `${fn}: every endpoint failed (${left.length} case(s) of shard ${shard.id} left after ${shard.attempts} attempts); last ${ep.url}: ${e.message}`)
        : new EvalError('remote_failed', '$.remote.endpoints', `${fn}: shard ${shard.id} (${left.length} case(s) left) failed ${shard.attempts} times; last on ${ep.url}: ${e.message}`));
    }
    stats.retries++;
    shard.avoid.add(ep.url);
    // A re-send waits a little more each time (it may go back to the same endpoint).
    const delayMs = Math.min(250 * 2 ** (shard.attempts - 1), 5_000);
    queue.unshift({ ...shard, items: left, notBefore: Date.now() + delayMs });
    progress('shard_retry', { shard: shard.id, endpoint: ep.url, why: e.message, casesLeft: left.length, delayMs });
    return undefined;
  }

  progress('start', { endpoints: opts.endpoints.length });
  try {
    const workers = [];
    for (const ep of opts.endpoints) for (let k = 0; k < opts.perEndpoint; k++) workers.push(worker(ep));
    await Promise.all(workers);
  } finally {
    signal?.removeEventListener?.('abort', onAbort);
  }
  const scored = () => results.filter((r) => r !== undefined);
  if (signal?.aborted) {
    const err = new Error('evalcore: the evaluation was aborted; `partialResult` holds the cases that completed', { cause: signal.reason });
    err.name = 'AbortError';
    err.partialResult = partial(scored());
    throw err;
  }
  if (fatal === null && tally.casesDone < cases.length) {
    fatal = new EvalError('remote_unavailable', '$.remote.endpoints', `${fn}: ${cases.length - tally.casesDone} case(s) were not scored: every endpoint failed`);
  }
  if (fatal !== null) {
    fatal.partialResult = partial(scored());
    throw fatal;
  }
  progress('done', { endpoints: opts.endpoints.map((e) => ({ url: e.url, cases: e.cases, requests: e.requests, down: e.down })) });
  return results;
}

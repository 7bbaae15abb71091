// The shards of a remote run: the `remote` option read, the cases cut into shards, each POSTed
// to an endpoint's `/v1/evaluate` with its recorded invocations and its ndjson read back. A
// failed shard keeps what it streamed and sends only the rest elsewhere; a case is counted once;
// one judge key's allowance is split over the requests, and a 429 one endpoint reports holds
// every start and every running shard's judge calls (a control line on its request body, or
// the shard cancelled and its rest re-sent). Only fetch is used: it runs wherever evalcore runs.
import { EvalError } from './errors.js';
import { parseJsonBytes } from './wire.js';
import { addJudgeStats } from './health.js';
import { RETRYABLE_STATUS, SPLITTABLE, ShardFailure, lines, openChannel, slices } from './shard_wire.js';

export { remoteOptions } from './shard_wire.js';

/**
 * The sharded scoring of `cases` ([{index, evalCase, actual, run?}]): resolves to
 * `{results, judgeStats}`, the results at their cases' positions and the judge counters of the
 * cases kept (each streamed before its case; null when no endpoint has a judge). With `feed`,
 * `cases` starts empty and grows while the run goes on: `feed(add, stop)` calls `add(cases,
 * dropped?)` as it has them (each call one shard, or more of at most maxCasesPerShard; `dropped`
 * takes cases that will never come off `casesTotal`) and resolves when there are no more; `stop`
 * aborts when the run fails. On a fatal error or an abort, throws with `partialResult` =
 * `partial(results so far, judgeStats)`.
 */
export async function shardRun({ fn, set, cases, configText, opts, args, partial, run = 0, feed = null, casesTotal = cases.length }) {
  const { signal, onProgress, onCaseResult } = args;
  // Position of each case in `cases`: results land there (the caller knows its order).
  const results = new Array(cases.length);
  const tally = { casesDone: 0, casesTotal, passed: 0, failed: 0, notEvaluated: 0 };
  const stats = { shardsTotal: 0, shardsDone: 0, shardsRunning: 0, requests: 0, retries: 0, duplicatesDropped: 0, judgeCalls: 0, throttled: 0, heldBack: 0 };
  let judgeStats = null;
  const positions = cases.map((_, i) => i);
  // More shards than asked when they would pass maxCasesPerShard: then a whole number of rounds
  // of the asked count, so the last round keeps every request slot busy.
  const rounds = Math.ceil(cases.length / (opts.shards * opts.maxCasesPerShard));
  const queue = slices(positions, opts.shards * Math.max(1, rounds)).map((items) => ({ id: stats.shardsTotal++, items, attempts: 0, avoid: new Set(), notBefore: 0 }));
  // Every case is known (no feed, or the feed has ended).
  let fed = feed === null;
  const feedStop = new AbortController();
  const inFlight = new Set();
  // The shard requests running now: a 429 one of them reports is passed on to the others.
  const running = new Set();
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
  /** More cases from the feed, queued at once as shards. */
  const add = (more, dropped = 0) => {
    tally.casesTotal -= Number.isInteger(dropped) && dropped > 0 ? dropped : 0;
    if (fatal !== null || signal?.aborted || !Array.isArray(more) || more.length === 0) return;
    const from = cases.length;
    cases.push(...more);
    const items = more.map((_, k) => from + k);
    for (const part of slices(items, Math.ceil(items.length / opts.maxCasesPerShard))) {
      queue.push({ id: stats.shardsTotal++, items: part, attempts: 0, avoid: new Set(), notBefore: 0 });
    }
    notify();
  };
  /** The run a shard's cases belong to (a fed run mixes runs, one per shard). */
  const runOf = (shard) => cases[shard.items[0]]?.run ?? run;
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
    feedStop.abort(reason);
  };
  const onAbort = () => {
    stopAll(signal.reason ?? new Error('aborted'));
    notify();
  };
  signal?.addEventListener?.('abort', onAbort, { once: true });
  if (signal?.aborted) feedStop.abort(signal.reason);

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
    const counted = shard.caseStats.get(line.eval_id);
    if (counted !== undefined) judgeStats = addJudgeStats(judgeStats, counted);
    tally.casesDone++;
    if (line.final_eval_status === 'PASSED') tally.passed++;
    else if (line.final_eval_status === 'FAILED') tally.failed++;
    else tally.notEvaluated++;
    shard.ep.cases++;
    if (typeof onCaseResult === 'function') {
      try {
        onCaseResult(line, cases[k]);
      } catch (e) {
        args.listenerErrors?.push(e);
      }
    }
    progress('case', { run: runOf(shard), evalId: line.eval_id, shard: shard.id, endpoint: shard.ep.url });
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
    members.push(`"actual":${JSON.stringify(actual)}`, '"caseJudgeStats":true');
    if (opts.judgeConcurrency !== null) members.push(`"judgeConcurrency":${opts.judgeConcurrency}`);
    if (opts.judgeCallsPerMinute !== null) members.push(`"judgeCallsPerMinute":${opts.judgeCallsPerMinute}`);
    return `{${members.join(',')}}`;
  };

  /**
   * The judge told `from`'s endpoint 429 for `ms`: no shard starts before then, and every other
   * running shard holds its judge calls as long: told on its request body's control channel, or
   * (no channel) cancelled, what it streamed kept and its rest queued for after the back-off.
   */
  function throttled(from, ms) {
    stats.throttled++;
    const until = Date.now() + ms;
    let told = 0;
    let cancelled = 0;
    if (until > pausedUntil) {
      pausedUntil = until;
      for (const s of running) {
        if (s === from) continue;
        const left = pausedUntil - Date.now();
        if (s.channel?.open && s.channel.send({ judge_throttled: { retry_after_ms: left } })) {
          told++;
        } else {
          cancelled++;
          s.controller.abort(new ShardFailure('held', `held back: another shard's endpoint was told 429 (${ms} ms)`, { retryAfterMs: left }));
        }
      }
    }
    progress('judge_backoff', { run: runOf(from), shard: from.id, endpoint: from.ep.url, delayMs: ms, told, cancelled });
  }

  async function runShard(shard, ep) {
    shard.sent = shard.items.filter((p) => results[p] === undefined);
    shard.ep = ep;
    shard.byId = new Map(shard.sent.map((p) => [cases[p].evalCase.eval_id, p]));
    shard.caseStats = new Map();
    if (shard.sent.length === 0) return;
    const controller = new AbortController();
    inFlight.add(controller);
    shard.controller = controller;
    // With `control: stream`, the body stays open for control lines until the shard ends; if
    // the endpoint has not answered within controlGraceMs (something between buffers bodies),
    // it is closed and this shard is cancelled instead when it must hold.
    const body = bodyOf(shard.sent);
    shard.channel = opts.control === 'stream' ? openChannel(body) : null;
    // An aborted request's body ends too (fetch may otherwise hold the request open for it).
    controller.signal.addEventListener('abort', () => shard.channel?.close(), { once: true });
    const grace = shard.channel === null ? null : setTimeout(() => shard.channel.close(), opts.controlGraceMs);
    running.add(shard);
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
            'content-type': shard.channel === null ? 'application/json' : 'application/x-ndjson', accept: 'application/x-ndjson',
            ...(opts.token === null ? {} : { authorization: `Bearer ${opts.token}` }),
          },
          ...(shard.channel === null ? { body } : { body: shard.channel.body, duplex: 'half' }),
          signal: controller.signal,
        });
      } catch (e) {
        throw transportFailure(controller, e);
      } finally {
        clearTimeout(grace);
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
        for await (const bytes of lines(res.body, controller.signal)) {
          arm();
          const line = parseJsonBytes(bytes, 'a line of the endpoint\'s ndjson');
          if (line !== null && typeof line === 'object' && 'summary' in line) {
            summary = true;
            if (Number.isInteger(line.summary?.judge_calls)) stats.judgeCalls += line.summary.judge_calls;

          } else if (line !== null && typeof line === 'object' && 'error' in line) {
            if (line.error?.code === 'internal') throw new ShardFailure('http', `the endpoint failed: ${line.error.message}`);
            throw new ShardFailure('refused', 'error line', { retry: false, error: serverError(shard, line.error, 200) });
          } else if (line !== null && typeof line === 'object' && 'judge_stats' in line) {
            // The judge counters of the case line that follows: counted only if that case is kept.
            if (typeof line.judge_stats?.eval_id === 'string') shard.caseStats.set(line.judge_stats.eval_id, line.judge_stats);
          } else if (line !== null && typeof line === 'object' && 'judge_throttled' in line) {
            const ms = Number(line.judge_throttled?.retry_after_ms);
            if (Number.isFinite(ms) && ms > 0) throttled(shard, Math.min(ms, 60_000));
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
      // An abort cancels the read: the stream then ends as if the answer had.
      if (controller.signal.aborted) throw transportFailure(controller, null);
      if (!summary) throw new ShardFailure('cut', 'the answer ended before its summary line');
      const missing = shard.sent.filter((p) => results[p] === undefined);
      if (missing.length > 0) throw new ShardFailure('protocol', `the summary came without ${missing.length} of the cases sent`);
    } finally {
      clearTimeout(idle);
      clearTimeout(grace);
      shard.channel?.close();
      running.delete(shard);
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
        if (queue.length === 0 && stats.shardsRunning === 0 && fed) return;
        const soonest = Math.min(queue.reduce((m, s) => Math.min(m, s.notBefore), Infinity), pausedUntil > Date.now() ? pausedUntil : Infinity);
        await changed(Number.isFinite(soonest) ? Math.max(1, soonest - Date.now()) : 0);
        continue;
      }
      stats.shardsRunning++;
      progress('shard_start', { run: runOf(shard), shard: shard.id, endpoint: ep.url, cases: shard.items.length });
      try {
        await runShard(shard, ep);
        ep.failures = 0;
        stats.shardsDone++;
        progress('shard_done', { run: runOf(shard), shard: shard.id, endpoint: ep.url });
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
      progress('shard_retry', { run: runOf(shard), shard: shard.id, endpoint: ep.url, why: e.message, casesLeft: left.length });
      return undefined;
    }
    if (e.kind === 'held') {
      // Not the endpoint's fault: re-sent once the back-off has passed, wherever a slot is free.
      stats.heldBack++;
      queue.unshift({ ...shard, items: left, notBefore: pausedUntil });
      progress('shard_retry', { run: runOf(shard), shard: shard.id, endpoint: ep.url, why: e.message, casesLeft: left.length, delayMs: Math.max(0, pausedUntil - Date.now()) });
      return undefined;
    }
    if (e.kind === 'busy') {
      queue.unshift({ ...shard, items: left, notBefore: Date.now() + e.retryAfterMs });
      progress('shard_retry', { run: runOf(shard), shard: shard.id, endpoint: ep.url, why: e.message, casesLeft: left.length, delayMs: e.retryAfterMs });
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
    progress('shard_retry', { run: runOf(shard), shard: shard.id, endpoint: ep.url, why: e.message, casesLeft: left.length, delayMs });
    return undefined;
  }

  progress('start', { endpoints: opts.endpoints.length });
  // The feed runs beside the shards; what it throws ends the run (an abort is the signal's).
  const feeding = feed === null ? null : (async () => {
    try {
      await feed(add, feedStop.signal);
    } catch (e) {
      if (!signal?.aborted && fatal === null) fail(e !== null && typeof e === 'object' ? e : new EvalError('internal', '', `${fn}: ${String(e)}`));
    } finally {
      fed = true;
      notify();
    }
  })();
  try {
    const workers = [];
    for (const ep of opts.endpoints) for (let k = 0; k < opts.perEndpoint; k++) workers.push(worker(ep));
    await Promise.all(workers);
    // A run that failed stops its feed; nothing of it runs on after this returns.
    if (fatal !== null || signal?.aborted) feedStop.abort(fatal ?? signal.reason);
    await feeding;
  } finally {
    signal?.removeEventListener?.('abort', onAbort);
  }
  if (signal?.aborted) {
    const err = new Error('evalcore: the evaluation was aborted; `partialResult` holds the cases that completed', { cause: signal.reason });
    err.name = 'AbortError';
    err.partialResult = partial(results, judgeStats);
    throw err;
  }
  if (fatal === null && tally.casesDone < cases.length) {
    fatal = new EvalError('remote_unavailable', '$.remote.endpoints', `${fn}: ${cases.length - tally.casesDone} case(s) were not scored: every endpoint failed`);
  }
  if (fatal !== null) {
    fatal.partialResult = partial(results, judgeStats);
    throw fatal;
  }
  progress('done', { endpoints: opts.endpoints.map((e) => ({ url: e.url, cases: e.cases, requests: e.requests, down: e.down })) });
  return { results, judgeStats };
}

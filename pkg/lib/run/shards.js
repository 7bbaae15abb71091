// The shards of a remote run: the `remote` option read, the cases cut into shards, each POSTed
// to an endpoint's `/v1/evaluate` with its recorded invocations and its ndjson read back. A
// failed shard keeps what it streamed and sends only the rest elsewhere; a case is counted once;
// one judge key's allowance is split over the requests, and a 429 one endpoint reports holds
// every start and every running shard's judge calls (a control line on its request body, or
// the shard cancelled and its rest re-sent). Only fetch is used: it runs wherever evalcore runs.
// (Endpoints that keep runs carry a run themselves: runs_client.js, docs/runs.md.)
import { EvalError } from '../errors.js';
import { parseJsonBytes } from '../wasm/wire.js';
import { addJudgeStats } from '../health.js';
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
export function shardRun(args) {
  return new ShardRun(args).run();
}

/** One sharded run: its queue of shards, the workers taking them per endpoint, its tally. */
class ShardRun {
  constructor({ fn, set, cases, configText, opts, args, partial, run = 0, feed = null, casesTotal = cases.length }) {
    Object.assign(this, { fn, set, cases, configText, opts, args, partial, feed });
    // The run these cases belong to when they do not say (`run` of the method is the whole run).
    this.runIndex = run;
    this.signal = args.signal;
    // Position of each case in `cases`: results land there (the caller knows its order).
    this.results = new Array(cases.length);
    this.tally = { casesDone: 0, casesTotal, passed: 0, failed: 0, notEvaluated: 0 };
    this.stats = { shardsTotal: 0, shardsDone: 0, shardsRunning: 0, requests: 0, retries: 0, duplicatesDropped: 0, judgeCalls: 0, throttled: 0, heldBack: 0 };
    this.judgeStats = null;
    // More shards than asked when they would pass maxCasesPerShard: then a whole number of rounds
    // of the asked count, so the last round keeps every request slot busy.
    const rounds = Math.ceil(cases.length / (opts.shards * opts.maxCasesPerShard));
    this.queue = slices(cases.map((_, i) => i), opts.shards * Math.max(1, rounds)).map((items) => this.newShard(items));
    // Every case is known (no feed, or the feed has ended).
    this.fed = feed === null;
    this.feedStop = new AbortController();
    this.inFlight = new Set();
    // The shard requests running now: a 429 one of them reports is passed on to the others.
    this.running = new Set();
    this.fatal = null;
    // The judge said 429 to some endpoint: no shard starts anywhere before this time.
    this.pausedUntil = 0;
    this.waiters = [];
  }

  newShard(items, attempts = 0) {
    return { id: this.stats.shardsTotal++, items, attempts, avoid: new Set(), notBefore: 0 };
  }

  // ---- waking workers ----------------------------------------------------------------------

  notify() {
    const w = this.waiters;
    this.waiters = [];
    for (const f of w) f();
  }

  /** Resolves at the next notify(), or after `ms` (0: only at a notify). */
  changed(ms) {
    return new Promise((resolve) => {
      this.waiters.push(resolve);
      if (ms > 0) setTimeout(resolve, ms);
    });
  }

  // ---- the run's cases and its listeners ---------------------------------------------------

  /** More cases from the feed, queued at once as shards. */
  add(more, dropped = 0) {
    this.tally.casesTotal -= Number.isInteger(dropped) && dropped > 0 ? dropped : 0;
    if (this.fatal !== null || this.signal?.aborted || !Array.isArray(more) || more.length === 0) return;
    const from = this.cases.length;
    this.cases.push(...more);
    const items = more.map((_, k) => from + k);
    for (const part of slices(items, Math.ceil(items.length / this.opts.maxCasesPerShard))) this.queue.push(this.newShard(part));
    this.notify();
  }

  /** The run a shard's cases belong to (a fed run mixes runs, one per shard). */
  runOf(shard) {
    return this.cases[shard.items[0]]?.run ?? this.runIndex;
  }

  progress(phase, extra = {}) {
    if (typeof this.args.onProgress !== 'function') return;
    try {
      this.args.onProgress({ phase, run: this.runIndex, ...this.tally, ...this.stats, ...extra });
    } catch (e) {
      // A failing listener never stops the run; it is reported at its end.
      this.args.listenerErrors?.push(e);
    }
  }

  stopAll(reason) {
    for (const c of this.inFlight) c.abort(reason);
    this.feedStop.abort(reason);
  }

  fail(err) {
    this.fatal ??= err;
    this.stopAll(err);
    this.notify();
  }

  // ---- scheduling --------------------------------------------------------------------------

  healthy() {
    return this.opts.endpoints.filter((e) => !e.down);
  }

  /** The first queued shard this endpoint may take now, or null. */
  take(ep) {
    const now = Date.now();
    if (this.stats.shardsRunning >= this.opts.maxRunning || this.pausedUntil > now) return null;
    const alive = this.healthy();
    for (let i = 0; i < this.queue.length; i++) {
      const s = this.queue[i];
      if (s.notBefore > now) continue;
      // A shard avoids the endpoints it failed on, while another healthy one is left.
      if (s.avoid.has(ep.url) && alive.some((e) => !s.avoid.has(e.url))) continue;
      this.queue.splice(i, 1);
      return s;
    }
    return null;
  }

  async worker(ep) {
    for (;;) {
      if (this.fatal !== null || this.signal?.aborted || ep.down) return;
      const shard = this.take(ep);
      if (shard === null) {
        if (this.queue.length === 0 && this.stats.shardsRunning === 0 && this.fed) return;
        const soonest = Math.min(this.queue.reduce((m, s) => Math.min(m, s.notBefore), Infinity), this.pausedUntil > Date.now() ? this.pausedUntil : Infinity);
        await this.changed(Number.isFinite(soonest) ? Math.max(1, soonest - Date.now()) : 0);
        continue;
      }
      this.stats.shardsRunning++;
      this.progress('shard_start', { run: this.runOf(shard), shard: shard.id, endpoint: ep.url, cases: shard.items.length });
      try {
        await this.runShard(shard, ep);
        ep.failures = 0;
        this.stats.shardsDone++;
        this.progress('shard_done', { run: this.runOf(shard), shard: shard.id, endpoint: ep.url });
      } catch (e) {
        this.handleFailure(shard, ep, e);
      } finally {
        this.stats.shardsRunning--;
        this.notify();
      }
    }
  }

  /** What a failed shard becomes: the run's failure, or its unscored rest queued again. */
  handleFailure(shard, ep, e) {
    if (this.fatal !== null || this.signal?.aborted) return undefined;
    if (e instanceof EvalError) return this.fail(e);
    if (!(e instanceof ShardFailure)) {
      return this.fail(new EvalError('internal', '', `${this.fn}: shard ${shard.id} on ${ep.url}: ${e?.message ?? String(e)}`, { cause: e }));
    }
    if (e.kind === 'stopped') return undefined;
    if (e.kind === 'refused') return this.fail(e.error);
    const left = shard.items.filter((p) => this.results[p] === undefined);
    if (left.length === 0) {
      this.stats.shardsDone++;
      return undefined;
    }
    const retry = (s, extra) => {
      this.queue.unshift(s);
      this.progress('shard_retry', { run: this.runOf(shard), shard: shard.id, endpoint: ep.url, why: e.message, casesLeft: left.length, ...extra });
    };
    if (e.kind === 'split') {
      // Two halves, each a shard of its own: the endpoint takes fewer cases than we sent.
      const halves = slices(left, 2);
      this.stats.shardsTotal += halves.length - 1;
      this.queue.unshift(...halves.map((items, k) => ({ id: k === 0 ? shard.id : this.stats.shardsTotal - 1, items, attempts: shard.attempts, avoid: new Set(), notBefore: 0 })));
      this.progress('shard_retry', { run: this.runOf(shard), shard: shard.id, endpoint: ep.url, why: e.message, casesLeft: left.length });
      return undefined;
    }
    if (e.kind === 'held') {
      // Not the endpoint's fault: re-sent once the back-off has passed, wherever a slot is free.
      this.stats.heldBack++;
      return retry({ ...shard, items: left, notBefore: this.pausedUntil }, { delayMs: Math.max(0, this.pausedUntil - Date.now()) });
    }
    if (e.kind === 'busy') return retry({ ...shard, items: left, notBefore: Date.now() + e.retryAfterMs }, { delayMs: e.retryAfterMs });
    return this.retryElsewhere(shard, ep, e, left, retry);
  }

  /** A shard that failed on its endpoint: tried again (elsewhere if possible) or the run fails. */
  retryElsewhere(shard, ep, e, left, retry) {
    shard.attempts++;
    ep.failures++;
    // Two failures in a row take an endpoint out of the run while another is left; the last one
    // stays (one Workers URL fronts many instances: a retry there may reach another).
    if (ep.failures >= 2 && this.healthy().some((o) => o !== ep)) ep.down = true;
    if (shard.attempts >= this.opts.maxAttempts) {
      const none = this.opts.endpoints.every((o) => o.down || o.failures >= 2);
      return this.fail(none
        ? new EvalError('remote_unavailable', '$.remote.endpoints', `${this.fn}: every endpoint failed (${left.length} case(s) of shard ${shard.id} left after ${shard.attempts} attempts); last ${ep.url}: ${e.message}`)
        : new EvalError('remote_failed', '$.remote.endpoints', `${this.fn}: shard ${shard.id} (${left.length} case(s) left) failed ${shard.attempts} times; last on ${ep.url}: ${e.message}`));
    }
    this.stats.retries++;
    shard.avoid.add(ep.url);
    // A re-send waits a little more each time (it may go back to the same endpoint).
    const delayMs = Math.min(250 * 2 ** (shard.attempts - 1), 5_000);
    return retry({ ...shard, items: left, notBefore: Date.now() + delayMs }, { delayMs });
  }

  /**
   * The judge told `from`'s endpoint 429 for `ms`: no shard starts before then, and every other
   * running shard holds its judge calls as long: told on its request body's control channel, or
   * (no channel) cancelled, what it streamed kept and its rest queued for after the back-off.
   */
  throttled(from, ms) {
    this.stats.throttled++;
    const until = Date.now() + ms;
    let told = 0;
    let cancelled = 0;
    if (until > this.pausedUntil) {
      this.pausedUntil = until;
      for (const s of this.running) {
        if (s === from) continue;
        const left = this.pausedUntil - Date.now();
        if (s.channel?.open && s.channel.send({ judge_throttled: { retry_after_ms: left } })) {
          told++;
        } else {
          cancelled++;
          s.controller.abort(new ShardFailure('held', `held back: another shard's endpoint was told 429 (${ms} ms)`, { retryAfterMs: left }));
        }
      }
    }
    this.progress('judge_backoff', { run: this.runOf(from), shard: from.id, endpoint: from.ep.url, delayMs: ms, told, cancelled });
  }

  // ---- one shard request -------------------------------------------------------------------

  /** The request body of the cases at `positions`: one JSON object (a shard's first line). */
  bodyOf(positions) {
    const evalCases = positions.map((p) => this.cases[p].evalCase);
    const actual = {};
    for (const p of positions) actual[this.cases[p].evalCase.eval_id] = this.cases[p].actual;
    const members = [`"evalSet":${JSON.stringify({ eval_set_id: this.set.eval_set_id, eval_cases: evalCases })}`];
    if (this.configText !== null) members.push(`"config":${this.configText}`);
    members.push(`"actual":${JSON.stringify(actual)}`, '"caseJudgeStats":true');
    if (this.opts.judgeConcurrency !== null) members.push(`"judgeConcurrency":${this.opts.judgeConcurrency}`);
    if (this.opts.judgeCallsPerMinute !== null) members.push(`"judgeCallsPerMinute":${this.opts.judgeCallsPerMinute}`);
    return `{${members.join(',')}}`;
  }

  async runShard(shard, ep) {
    shard.sent = shard.items.filter((p) => this.results[p] === undefined);
    shard.ep = ep;
    shard.byId = new Map(shard.sent.map((p) => [this.cases[p].evalCase.eval_id, p]));
    shard.caseStats = new Map();
    if (shard.sent.length === 0) return;
    const controller = new AbortController();
    this.inFlight.add(controller);
    shard.controller = controller;
    // With `control: stream`, the body stays open for control lines until the shard ends; if
    // the endpoint has not answered within controlGraceMs (something between buffers bodies),
    // it is closed and this shard is cancelled instead when it must hold.
    const body = this.bodyOf(shard.sent);
    shard.channel = this.opts.control === 'stream' ? openChannel(body) : null;
    // An aborted request's body ends too (fetch may otherwise hold the request open for it).
    controller.signal.addEventListener('abort', () => shard.channel?.close(), { once: true });
    const grace = shard.channel === null ? null : setTimeout(() => shard.channel.close(), this.opts.controlGraceMs);
    this.running.add(shard);
    let idle = null;
    const arm = () => {
      clearTimeout(idle);
      idle = setTimeout(() => controller.abort(new ShardFailure('timeout', `no answer for ${this.opts.shardTimeoutMs} ms`)), this.opts.shardTimeoutMs);
    };
    ep.requests++;
    this.stats.requests++;
    try {
      arm();
      const res = await this.post(shard, ep, body, controller, grace);
      await this.readAnswer(shard, res, controller, arm);
    } finally {
      clearTimeout(idle);
      clearTimeout(grace);
      shard.channel?.close();
      this.running.delete(shard);
      this.inFlight.delete(controller);
      // A shard given up on mid-stream (a bad line, a protocol error) stops its endpoint's work too.
      controller.abort(new ShardFailure('stopped', 'the shard ended', { retry: false }));
    }
  }

  /** The shard's request sent: its 200 answer, or the ShardFailure its status means. */
  async post(shard, ep, body, controller, grace) {
    let res;
    try {
      res = await this.opts.fetch(ep.evaluate, {
        method: 'POST',
        headers: {
          'content-type': shard.channel === null ? 'application/json' : 'application/x-ndjson', accept: 'application/x-ndjson',
          ...(this.opts.token === null ? {} : { authorization: `Bearer ${this.opts.token}` }),
        },
        ...(shard.channel === null ? { body } : { body: shard.channel.body, duplex: 'half' }),
        signal: controller.signal,
      });
    } catch (e) {
      throw transportFailure(controller, e);
    } finally {
      clearTimeout(grace);
    }
    if (res.status === 200) return res;
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
    throw new ShardFailure('refused', `HTTP ${res.status}`, { retry: false, error: this.serverError(shard, err, res.status) });
  }

  /** The shard's ndjson answer read to its summary: each line's meaning applied. */
  async readAnswer(shard, res, controller, arm) {
    let summary = false;
    try {
      for await (const bytes of lines(res.body, controller.signal)) {
        arm();
        const line = parseJsonBytes(bytes, 'a line of the endpoint\'s ndjson');
        if (line !== null && typeof line === 'object' && 'summary' in line) {
          summary = true;
          if (Number.isInteger(line.summary?.judge_calls)) this.stats.judgeCalls += line.summary.judge_calls;
        } else if (line !== null && typeof line === 'object' && 'error' in line) {
          if (line.error?.code === 'internal') throw new ShardFailure('http', `the endpoint failed: ${line.error.message}`);
          throw new ShardFailure('refused', 'error line', { retry: false, error: this.serverError(shard, line.error, 200) });
        } else if (line !== null && typeof line === 'object' && 'judge_stats' in line) {
          // The judge counters of the case line that follows: counted only if that case is kept.
          if (typeof line.judge_stats?.eval_id === 'string') shard.caseStats.set(line.judge_stats.eval_id, line.judge_stats);
        } else if (line !== null && typeof line === 'object' && 'judge_throttled' in line) {
          const ms = Number(line.judge_throttled?.retry_after_ms);
          if (Number.isFinite(ms) && ms > 0) this.throttled(shard, Math.min(ms, 60_000));
        } else if (line !== null && typeof line === 'object' && typeof line.eval_id === 'string') {
          this.record(shard, line);
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
    const missing = shard.sent.filter((p) => this.results[p] === undefined);
    if (missing.length > 0) throw new ShardFailure('protocol', `the summary came without ${missing.length} of the cases sent`);
  }

  /** A case result a shard streamed: kept once, counted, told to the listeners. */
  record(shard, line) {
    const k = shard.byId.get(line.eval_id);
    if (k === undefined) {
      throw new ShardFailure('protocol', `the endpoint answered a case it was not sent: ${JSON.stringify(line.eval_id)}`);
    }
    if (this.results[k] !== undefined) {
      this.stats.duplicatesDropped++;
      return;
    }
    this.results[k] = line;
    const counted = shard.caseStats.get(line.eval_id);
    if (counted !== undefined) this.judgeStats = addJudgeStats(this.judgeStats, counted);
    this.tally.casesDone++;
    if (line.final_eval_status === 'PASSED') this.tally.passed++;
    else if (line.final_eval_status === 'FAILED') this.tally.failed++;
    else this.tally.notEvaluated++;
    shard.ep.cases++;
    if (typeof this.args.onCaseResult === 'function') {
      try {
        this.args.onCaseResult(line, this.cases[k]);
      } catch (e) {
        this.args.listenerErrors?.push(e);
      }
    }
    this.progress('case', { run: this.runOf(shard), evalId: line.eval_id, shard: shard.id, endpoint: shard.ep.url });
  }

  /** The server's error, its path in terms of the whole eval set (the shard's case k is case items[k]). */
  serverError(shard, e, status) {
    const code = typeof e?.code === 'string' ? e.code : `http_${status}`;
    let path = typeof e?.path === 'string' ? e.path : '';
    path = path.replace(/^\$\.evalSet\.eval_cases\[(\d+)\]/, (m, k) => {
      const pos = shard.sent[Number(k)];
      return pos === undefined ? m : `$.evalSet.eval_cases[${this.cases[pos].index}]`;
    });
    const message = typeof e?.message === 'string' ? e.message : `HTTP ${status}`;
    return new EvalError(code, path, `${this.fn}: endpoint ${shard.ep.url} refused shard ${shard.id}: ${message}`);
  }

  // ---- the whole run -----------------------------------------------------------------------

  /** The feed beside the shards; what it throws ends the run (an abort is the signal's). */
  async feeding() {
    if (this.feed === null) return;
    try {
      await this.feed((more, dropped) => this.add(more, dropped), this.feedStop.signal);
    } catch (e) {
      if (!this.signal?.aborted && this.fatal === null) this.fail(e !== null && typeof e === 'object' ? e : new EvalError('internal', '', `${this.fn}: ${String(e)}`));
    } finally {
      this.fed = true;
      this.notify();
    }
  }

  async run() {
    const { signal } = this;
    const onAbort = () => {
      this.stopAll(signal.reason ?? new Error('aborted'));
      this.notify();
    };
    signal?.addEventListener?.('abort', onAbort, { once: true });
    if (signal?.aborted) this.feedStop.abort(signal.reason);
    this.progress('start', { endpoints: this.opts.endpoints.length });
    const feeding = this.feeding();
    try {
      const workers = [];
      for (const ep of this.opts.endpoints) for (let k = 0; k < this.opts.perEndpoint; k++) workers.push(this.worker(ep));
      await Promise.all(workers);
      // A run that failed stops its feed; nothing of it runs on after this returns.
      if (this.fatal !== null || signal?.aborted) this.feedStop.abort(this.fatal ?? signal.reason);
      await feeding;
    } finally {
      signal?.removeEventListener?.('abort', onAbort);
    }
    return this.outcome();
  }

  /** `{results, judgeStats}`, or the error of a run that was aborted or failed (with its partial result). */
  outcome() {
    const { signal } = this;
    if (signal?.aborted) {
      const err = new Error('evalcore: the evaluation was aborted; `partialResult` holds the cases that completed', { cause: signal.reason });
      err.name = 'AbortError';
      err.partialResult = this.partial(this.results, this.judgeStats);
      throw err;
    }
    if (this.fatal === null && this.tally.casesDone < this.cases.length) {
      this.fatal = new EvalError('remote_unavailable', '$.remote.endpoints', `${this.fn}: ${this.cases.length - this.tally.casesDone} case(s) were not scored: every endpoint failed`);
    }
    if (this.fatal !== null) {
      this.fatal.partialResult = this.partial(this.results, this.judgeStats);
      throw this.fatal;
    }
    this.progress('done', { endpoints: this.opts.endpoints.map((e) => ({ url: e.url, cases: e.cases, requests: e.requests, down: e.down })) });
    return { results: this.results, judgeStats: this.judgeStats };
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

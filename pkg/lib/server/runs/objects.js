//! The two Durable Objects of runs on Workers, as mixins over the runtime's `DurableObject`
//! class (worker.js applies them; tests apply them to a stand-in):
//! - RunObject, one per run: its ledger (each unit's result kept once, whatever the queue
//!   redelivers), its progress, the queue fed a window of units at a time from an alarm, a
//!   watchdog that sends again what no consumer reported, and the result assembled at the end.
//! - JudgePaceObject, one per judge key: the pace every consumer of every run asks before a
//!   judge call (pace.js).
import { EVENTS_PAGE, Ledger, unitName } from './ledger.js';
import { JudgePace } from './pace.js';
import { assembleResult } from './result.js';
import { filesOf, runsConfig } from './workers_config.js';

/** Units one alarm sends at most (20 sendBatch calls). */
const FEED_PER_ALARM = 2000;
/** While units wait for the window, the alarm looks again this often (results coming in wake it sooner). */
const FEED_POLL_MS = 30_000;
/** Times the watchdog sends a unit again before it gives the unit up. */
const MAX_RESENDS = 3;
/** How long a created run waits for its input before it fails. */
const INPUT_WAIT_MS = 5 * 60_000;
/** Messages of one sendBatch call (the Queues limit). */
const SEND_BATCH = 100;

const decoder = new TextDecoder();

/** The units of a run's head, in the order they are sent: run after run, the eval set's order. */
export function unitsOf(head) {
  const out = [];
  for (let r = 0; r < head.numRuns; r++) for (const p of head.places) out.push({ unit: unitName(r, p.index), chunk: p.chunk });
  return out;
}

export const RunObject = (Base) => class extends Base {
  constructor(ctx, env) {
    super(ctx, env);
    this.state = ctx;
    this.env = env;
    this.cfg = runsConfig(env);
    this.ledger = null;
    this.waiters = new Set();
    this.loaded = ctx.blockConcurrencyWhile(() => this.load());
  }

  async load() {
    const saved = await this.state.storage.get('meta');
    if (!saved) return;
    const records = await this.state.storage.list({ prefix: 'u:' });
    this.ledger = new Ledger(saved.meta, [...records.values()]);
    this.bodyHashOf = saved.bodyHash;
    this.sent = saved.sent ?? 0;
    this.resends = saved.resends ?? 0;
    this.inputReady = saved.inputReady ?? true;
  }

  saveMeta() {
    return this.state.storage.put('meta', { meta: this.ledger.meta, bodyHash: this.bodyHashOf, sent: this.sent, resends: this.resends, inputReady: this.inputReady });
  }

  files() {
    return filesOf(this.cfg.bucket);
  }

  /**
   * Creates the run (once: a second init with the same id answers the run there is, and whether
   * its input was stored). The id is taken before the input is written, so two submissions with
   * one Idempotency-Key never write two inputs under it; `ready()` starts the run.
   */
  async init(meta, bodyHash) {
    await this.loaded;
    if (this.ledger !== null) return { created: false, ready: this.inputReady, bodyHash: this.bodyHashOf, view: this.ledger.view() };
    this.ledger = new Ledger(meta);
    this.bodyHashOf = bodyHash;
    this.sent = 0;
    this.resends = 0;
    this.inputReady = false;
    await this.saveMeta();
    // A submission that never stores its input (its request died) fails the run after a while.
    await this.state.storage.setAlarm(Date.now() + INPUT_WAIT_MS);
    return { created: true, ready: false, bodyHash, view: this.ledger.view() };
  }

  /** The input is stored: the queue is fed from now on. */
  async ready() {
    await this.loaded;
    if (this.inputReady) return;
    this.inputReady = true;
    await this.saveMeta();
    await this.state.storage.setAlarm(Date.now());
  }

  async view() {
    await this.loaded;
    return this.ledger?.view() ?? null;
  }

  async bodyHash() {
    await this.loaded;
    return this.bodyHashOf ?? null;
  }

  /** A consumer is about to work `units`: the run's status, and which of them have no result. */
  async claim(units) {
    await this.loaded;
    if (this.ledger.start(Date.now())) await this.saveMeta();
    return { status: this.ledger.status, pending: this.ledger.pending(units) };
  }

  /** A unit's result: kept if it is the first. */
  async record(entry) {
    await this.loaded;
    const before = this.ledger.status;
    const rec = this.ledger.record(entry, Date.now());
    if (rec === null) return { kept: false, status: this.ledger.status };
    await this.state.storage.put(`u:${rec.unit}`, rec);
    if (this.ledger.status !== before || this.ledger.final) await this.saveMeta();
    this.wake();
    // The run ended (assemble it), or half of the units sent ahead have results (send more).
    const outstanding = this.sent - this.ledger.units.size;
    if (this.ledger.final || (this.sent < this.ledger.meta.total && outstanding === Math.floor(this.cfg.feedWindow / 2))) {
      await this.state.storage.setAlarm(Date.now());
    }
    return { kept: true, status: this.ledger.status };
  }

  /** A failed attempt at a unit: its error kept for the dead letter it may become. */
  async failed(unit, error) {
    await this.state.storage.put(`x:${unit}`, error);
  }

  /** A unit given up on (the dead-letter queue's consumer, or a case the core refuses). */
  async deadLetter(unit, evalId, error) {
    await this.loaded;
    const last = error ?? (await this.state.storage.get(`x:${unit}`)) ?? null;
    const why = last === null
      ? { code: 'dead_letter', path: '', message: 'the case was moved to the dead-letter queue after the queue\'s retries' }
      : { ...last, message: error === null ? `moved to the dead-letter queue after the queue's retries; last error: ${last.message}` : last.message };
    const id = evalId ?? (await this.evalIdOf(unit));
    return this.record({ unit, eval_id: id, status: 'DEAD', key: null, bytes: 0, stats: null, error: why });
  }

  async evalIdOf(unit) {
    const head = await this.files().head(this.ledger.meta.id);
    const index = Number(unit.split('.')[1]);
    return head?.places.find((p) => p.index === index)?.eval_id ?? null;
  }

  async cancel() {
    await this.loaded;
    if (this.ledger.cancel(Date.now())) {
      await this.saveMeta();
      this.wake();
      await this.state.storage.setAlarm(Date.now());
    }
    return this.ledger.view();
  }

  /** The events after the `after`-th, waiting up to `waitMs` for one when there is none yet. */
  async events(after, waitMs) {
    await this.loaded;
    if (this.ledger.bySeq.length <= after && !this.ledger.final) {
      await new Promise((resolve) => {
        const done = () => {
          clearTimeout(t);
          this.waiters.delete(done);
          resolve();
        };
        const t = setTimeout(done, Math.min(Math.max(0, waitMs), 30_000));
        this.waiters.add(done);
      });
    }
    return { records: this.ledger.eventsAfter(after, EVENTS_PAGE), view: this.ledger.view() };
  }

  wake() {
    for (const w of this.waiters) w();
    this.waiters.clear();
  }

  /** The assembled result of a run that has ended (kept in R2 once made). */
  async resultDoc() {
    await this.loaded;
    if (!this.ledger.final) return null;
    const files = this.files();
    const id = this.ledger.meta.id;
    let fields = await files.resultHead(id);
    const records = this.ledger.inResultOrder().filter((r) => r.status !== 'DEAD').map((r) => ({ key: r.key, bytes: r.bytes ?? 0, unit: r.unit, eval_id: r.eval_id }));
    if (fields === null) {
      const head = await files.head(id);
      fields = (await assembleResult(this.ledger, head, async (key) => JSON.parse(decoder.decode(await files.getBytes(key))))).fields;
      await files.putResultHead(id, fields);
    }
    return { fields, records };
  }

  /** Feeds the queue, watches for stalls, and once the run has ended assembles and tidies. */
  async alarm() {
    await this.loaded;
    if (this.ledger === null) return undefined;
    if (this.ledger.final) return this.finish();
    if (!this.inputReady) {
      this.ledger.fail({ code: 'input_missing', path: '', message: 'the run\'s input was never stored (its submission did not complete): submit it again' }, Date.now());
      await this.saveMeta();
      this.wake();
      return undefined;
    }
    const head = await this.files().head(this.ledger.meta.id);
    if (head === null) {
      this.ledger.fail({ code: 'input_missing', path: '', message: 'the run\'s input is missing from the bucket' }, Date.now());
      await this.saveMeta();
      this.wake();
      return undefined;
    }
    const units = unitsOf(head);
    if (this.sent < units.length) {
      await this.feed(units);
      // More to send and room for it (an alarm sends at most FEED_PER_ALARM): at once; the window
      // full: when half of it has results (record() sets the alarm), or FEED_POLL_MS at the latest.
      const room = this.sent < units.length && this.sent - this.ledger.units.size < this.cfg.feedWindow;
      await this.state.storage.setAlarm(Date.now() + (room ? 0 : this.sent < units.length ? FEED_POLL_MS : this.cfg.stallMs));
      return undefined;
    }
    if (Date.now() - this.ledger.meta.updated >= this.cfg.stallMs) await this.resendStalled(units);
    if (!this.ledger.final) await this.state.storage.setAlarm(Date.now() + this.cfg.stallMs);
    return undefined;
  }

  /** Sends the next units, no further than feedWindow ahead of the results. */
  async feed(units) {
    const until = Math.min(units.length, this.ledger.units.size + this.cfg.feedWindow, this.sent + FEED_PER_ALARM);
    while (this.sent < until) {
      const batch = units.slice(this.sent, Math.min(until, this.sent + SEND_BATCH));
      await this.send(batch, this.sent);
      this.sent += batch.length;
      await this.saveMeta();
    }
  }

  /** Units as messages, spread over the queues by their position (one queue: all of them). */
  async send(batch, from) {
    const id = this.ledger.meta.id;
    const byQueue = new Map();
    batch.forEach((u, i) => {
      const q = this.cfg.queues[(from + i) % this.cfg.queues.length];
      if (!byQueue.has(q)) byQueue.set(q, []);
      byQueue.get(q).push({ body: { r: id, u: u.unit, c: u.chunk }, contentType: 'json' });
    });
    for (const [q, messages] of byQueue) await q.sendBatch(messages);
  }

  /** Every unit sent was not reported for stallMs: sent again, or given up after MAX_RESENDS. */
  async resendStalled(units) {
    const missing = units.filter((u) => !this.ledger.has(u.unit));
    if (missing.length === 0) return;
    this.resends++;
    if (this.resends > MAX_RESENDS) {
      for (const u of missing) {
        await this.deadLetter(u.unit, null, { code: 'lost', path: '', message: `no consumer reported this case after it was sent ${MAX_RESENDS + 1} times` });
      }
      return;
    }
    for (let i = 0; i < missing.length; i += SEND_BATCH) await this.send(missing.slice(i, i + SEND_BATCH), i);
    this.ledger.meta.updated = Date.now();
    await this.saveMeta();
  }

  /** The run has ended: its result assembled, and case files no ledger entry names removed. */
  async finish() {
    await this.resultDoc();
    const files = this.files();
    const kept = new Set([...this.ledger.units.values()].map((r) => r.key));
    for (const key of await files.listCases(this.ledger.meta.id)) if (!kept.has(key)) await files.remove(key);
  }
};

export const JudgePaceObject = (Base) => class extends Base {
  constructor(ctx, env) {
    super(ctx, env);
    this.state = ctx;
    this.pace = new JudgePace({ perMinute: runsConfig(env)?.judgeCallsPerMinute ?? null });
    ctx.blockConcurrencyWhile(async () => this.pace.restore(await ctx.storage.get('pace')));
  }

  /** `{waitMs, gen, again?}`: how long the caller waits before its call starts, or asks again (pace.js). */
  acquire(opts = {}) {
    const now = Date.now();
    if (opts.missed) this.pace.missed();
    const slot = this.pace.acquire(now, { run: opts.run ?? null, runPerMinute: opts.runPerMinute ?? null });
    return { ...slot, waitMs: slot.at - now };
  }

  /** A far start that has come: go now, or (after a 429, or too late) the new wait. */
  confirm(opts = {}) {
    const now = Date.now();
    const slot = this.pace.confirm(now, opts.gen, { run: opts.run ?? null, runPerMinute: opts.runPerMinute ?? null }, Number.isFinite(opts.at) ? opts.at : now);
    return { ...slot, waitMs: slot.at - now };
  }

  async throttled({ retryAfterMs } = {}) {
    this.pace.throttled(Date.now(), retryAfterMs);
    await this.state.storage.put('pace', this.pace.snapshot());
  }

  stats() {
    return { ...this.pace.stats, budget: this.pace.perMinute, rate: this.pace.rateAt(Date.now()), grants: this.pace.grants };
  }
};

//! What a run has done, kept by its coordinator (a Durable Object per run on Workers, the server
//! process on Node): each unit of work (one case of one run) recorded once, first come first
//! kept, with its status, where its result is stored and the judge counters it spent; the order
//! in which results came (the events a client follows); the counts; the run's status. Pure data:
//! the coordinator stores each change the ledger makes (`record`, `deadLetter`, `meta`).
import { addJudgeStats } from '../../health.js';

export const STATUSES = ['queued', 'running', 'done', 'failed', 'cancelled'];
/** A run in one of these statuses takes no more results. */
export const FINAL = new Set(['done', 'failed', 'cancelled']);

/** Events one wait for them answers at most. */
export const EVENTS_PAGE = 50;

/** A unit's name: the run it belongs to and the case's position in the eval set (`0.41`). */
export const unitName = (run, index) => `${run}.${index}`;

/** `{run, index}` of a unit name, or null when it is not one. */
export function parseUnit(unit) {
  const m = typeof unit === 'string' ? /^(\d{1,4})\.(\d{1,7})$/.exec(unit) : null;
  return m ? { run: Number(m[1]), index: Number(m[2]) } : null;
}

const iso = (ms) => new Date(ms).toISOString();

/**
 * A run's ledger. `meta`: `{id, name, created (ms), total (units), evalSetId, numRuns, status?,
 * started?, finished?, error?, plannedJudgeCalls?}`; `records`: the units recorded so far (as
 * `record` made them, with their `seq`), in any order.
 */
export class Ledger {
  constructor(meta, records = []) {
    this.meta = { status: 'queued', started: null, finished: null, updated: meta.created, error: null, ...meta };
    this.units = new Map();
    this.bySeq = [];
    this.counts = { cases: meta.total, scored: 0, passed: 0, failed: 0, not_evaluated: 0, dead_letter: 0 };
    this.judgeStats = null;
    for (const r of [...records].sort((a, b) => a.seq - b.seq)) this.apply(r);
    const last = this.bySeq.at(-1);
    if (last && Number.isFinite(last.at)) this.meta.updated = Math.max(this.meta.updated, last.at);
  }

  get status() {
    return this.meta.status;
  }

  get final() {
    return FINAL.has(this.meta.status);
  }

  /** Whether the unit has a result (or was given up on). */
  has(unit) {
    return this.units.has(unit);
  }

  /** The units of `units` not recorded yet. */
  pending(units) {
    return units.filter((u) => !this.units.has(u));
  }

  /** A consumer began work: the run is running. Returns whether the meta changed. */
  start(now) {
    if (this.meta.status !== 'queued') return false;
    this.meta.status = 'running';
    this.meta.started = now;
    this.meta.updated = now;
    return true;
  }

  /**
   * A unit's result: `{unit, eval_id, status: PASSED|FAILED|NOT_EVALUATED, key, bytes, stats}`.
   * Returns the record kept (with its `seq`), or null when the unit already has one or the run
   * takes no more (a redelivered message, a case that finished after a cancel).
   */
  record(entry, now) {
    if (this.final || this.units.has(entry.unit)) return null;
    const rec = { ...entry, seq: this.bySeq.length + 1, at: now };
    this.apply(rec);
    this.meta.updated = now;
    if (this.meta.status === 'queued') {
      this.meta.status = 'running';
      this.meta.started = now;
    }
    this.finishIfComplete(now);
    return rec;
  }

  /** A unit given up on after its retries (a dead-lettered message): recorded with `error`. */
  deadLetter(unit, evalId, error, now) {
    return this.record({ unit, eval_id: evalId, status: 'DEAD', key: null, bytes: 0, stats: null, error }, now);
  }

  /** Cancels the run (unless it has ended). Returns whether it changed. */
  cancel(now) {
    if (this.final) return false;
    this.meta.status = 'cancelled';
    this.meta.finished = now;
    this.meta.updated = now;
    return true;
  }

  /** The run failed as a whole (its input could not be read back): no more results. */
  fail(error, now) {
    if (this.final) return false;
    this.meta.status = 'failed';
    this.meta.error = error;
    this.meta.finished = now;
    this.meta.updated = now;
    return true;
  }

  apply(rec) {
    // The judge counters are summed, not kept per unit (a run may have tens of thousands).
    const { stats, ...slim } = rec;
    this.units.set(rec.unit, slim);
    this.bySeq.push(slim);
    if (rec.status === 'DEAD') {
      this.counts.dead_letter++;
      return;
    }
    this.counts.scored++;
    if (rec.status === 'PASSED') this.counts.passed++;
    else if (rec.status === 'FAILED') this.counts.failed++;
    else this.counts.not_evaluated++;
    if (stats) this.judgeStats = addJudgeStats(this.judgeStats, stats);
  }

  finishIfComplete(now) {
    if (this.units.size < this.meta.total || this.final) return;
    const dead = this.counts.dead_letter;
    this.meta.status = dead > 0 ? 'failed' : 'done';
    if (dead > 0) {
      this.meta.error = {
        code: 'dead_letter',
        message: `${dead} case${dead === 1 ? '' : 's'} could not be scored after every retry (listed in the result's dead_letter)`,
      };
    }
    this.meta.finished = now;
  }

  /** The records after the `after`-th, at most `limit` of them, in the order they came. */
  eventsAfter(after, limit = 1000) {
    return this.bySeq.slice(Math.max(0, after), Math.max(0, after) + limit);
  }

  /** Every record in the eval set's order, run after run (the result's order). */
  inResultOrder() {
    const order = (r) => parseUnit(r.unit) ?? { run: 0, index: 0 };
    return [...this.bySeq].sort((a, b) => {
      const x = order(a);
      const y = order(b);
      return x.run - y.run || x.index - y.index;
    });
  }

  /** The units given up on: `[{eval_id, run, error}]`, in the eval set's order. */
  deadLetters() {
    return this.inResultOrder().filter((r) => r.status === 'DEAD').map((r) => ({ eval_id: r.eval_id, run: parseUnit(r.unit)?.run ?? 0, error: r.error }));
  }

  /** The run as `GET /v1/runs/{id}` answers it. */
  view() {
    const m = this.meta;
    return {
      id: m.id,
      name: m.name ?? null,
      status: m.status,
      eval_set_id: m.evalSetId,
      num_runs: m.numRuns,
      counts: { ...this.counts },
      judge_stats: this.judgeStats,
      ...(Number.isInteger(m.plannedJudgeCalls) ? { planned_judge_calls: m.plannedJudgeCalls } : {}),
      ...(m.error ? { error: m.error } : {}),
      events: this.bySeq.length,
      created: iso(m.created),
      updated: iso(m.updated),
      ...(m.started ? { started: iso(m.started) } : {}),
      ...(m.finished ? { finished: iso(m.finished) } : {}),
    };
  }
}

// evaluate() across traps: what reached JS of a run (turns started, results streamed), which
// (case, run) pairs are left when the instance traps, and the EvalSetResult merged from the
// calls that ran them. The core decides everything about a case; this file only keeps count.
import { addJudgePlans, addJudgeStats } from '../health.js';

const keyOf = (evalId, run) => `${run}\u0000${evalId}`;

export class RunRecord {
  constructor(numRuns) {
    this.numRuns = numRuns;
    this.results = [];        // every EvalCaseResult in completion order, run numbers global
    this.finished = new Set(); // (case, run) pairs with a result
    this.started = new Map();  // (case, run) -> the turn that started it
    this.total = null;         // casesTotal of the first call's start event
    this.tally = { passed: 0, failed: 0, notEvaluated: 0 };
    this.offset = 0;           // run number of the current call's run 0
    this.resumed = false;      // a trap happened: events are renumbered
    this.callStarted = false;  // the current call's run loop began (its start event came)
    this.setId = null;
    this.idleTrapAt = -1;      // results.length at the last trap that found no case running
  }

  /** Before the agent sees a turn: its run number made global, the pair marked started. */
  turn(t) {
    if (typeof t.run === 'number') t.run += this.offset;
    this.started.set(keyOf(t.evalId, t.run), t);
    if (this.setId === null && typeof t.evalSetId === 'string') this.setId = t.evalSetId;
  }

  /** A core event, renumbered after a trap; null when it must not reach the caller. */
  event(ev) {
    if (ev.type === 'case_result') {
      if (this.resumed && ev.result && typeof ev.result.run === 'number') ev.result.run += this.offset;
      this.add(ev.result);
      return ev;
    }
    if (ev.type !== 'progress') return ev;
    if (ev.phase === 'start') {
      this.callStarted = true;
      if (this.total === null) this.total = ev.casesTotal;
    }
    if (!this.resumed) return ev;
    if (ev.phase === 'start' || ev.phase === 'done') return null; // one of each per evaluate()
    return this.progress(ev.phase, (ev.run ?? 0) + this.offset, ev.evalId ?? null);
  }

  progress(phase, run, evalId) {
    return {
      type: 'progress', phase, run, casesDone: this.results.length, casesTotal: this.total,
      passed: this.tally.passed, failed: this.tally.failed, notEvaluated: this.tally.notEvaluated, evalId,
    };
  }

  add(result) {
    this.results.push(result);
    if (result && typeof result.eval_id === 'string') this.finished.add(keyOf(result.eval_id, result.run ?? 0));
    const status = result && result.final_eval_status;
    if (status === 'PASSED') this.tally.passed++;
    else if (status === 'FAILED') this.tally.failed++;
    else this.tally.notEvaluated++;
  }

  /**
   * After a trap in a call over `pairs` ([evalId, run]): the pairs it was running (started, no
   * result) are FAILED with `trap`. When none was running the trap belongs to no case: the rest
   * is tried once more, and if that traps again before any case finishes, every pair left is
   * failed, so a resumed run always ends. Returns the new results.
   */
  failAfterTrap(err, pairs) {
    const open = pairs.filter(([id, run]) => !this.finished.has(keyOf(id, run)));
    const running = open.filter(([id, run]) => this.started.has(keyOf(id, run)));
    this.resumed = true;
    const idle = running.length === 0;
    if (idle && this.idleTrapAt !== this.results.length) {
      this.idleTrapAt = this.results.length;
      return [];
    }
    const failed = (idle ? open : running).map(([id, run]) => {
      const turn = this.started.get(keyOf(id, run));
      const setId = this.setId ?? '';
      return {
        eval_set_file: setId, eval_set_id: setId, eval_id: id,
        final_eval_status: 'FAILED', eval_metric_results: null,
        overall_eval_metric_results: [], eval_metric_result_per_invocation: [],
        session_id: turn ? turn.sessionId : null, session_details: null, user_id: turn ? turn.userId : null,
        run, error: { code: 'trap', message: err.message },
      };
    });
    for (const r of failed) this.add(r);
    return failed;
  }

  /** The pairs of `ids` x runs without a result, as calls: [{from, count, ids}] (runs grouped). */
  plan(ids) {
    const calls = [];
    for (let run = 0; run < this.numRuns; run++) {
      const left = ids.filter((id) => !this.finished.has(keyOf(id, run)));
      const last = calls[calls.length - 1];
      if (left.length === 0) continue;
      if (last && last.from + last.count === run && last.ids.join('\u0000') === left.join('\u0000')) last.count++;
      else calls.push({ from: run, count: 1, ids: left });
    }
    return calls;
  }
}

/** Every (case, run) pair a call covers. */
export function pairsOf(ids, from, count) {
  const out = [];
  for (let run = from; run < from + count; run++) for (const id of ids) out.push([id, run]);
  return out;
}

/**
 * One EvalSetResult from the calls that completed after a trap: ids and timestamp of the last
 * call, every streamed result, skipped / judge counters summed (those of a trapped call are lost
 * with its instance), `runSummary(result)` for the spread over runs.
 */
export function merge(record, calls, runSummary) {
  const last = calls[calls.length - 1].result;
  const out = {
    eval_set_result_id: last.eval_set_result_id,
    eval_set_result_name: last.eval_set_result_name,
    eval_set_id: last.eval_set_id,
    creation_timestamp: last.creation_timestamp,
    eval_case_results: record.results,
  };
  if (record.numRuns > 1) out.run_summary = runSummary(out);
  const stats = calls.filter((c) => c.result.judge_stats).map((c) => c.result.judge_stats);
  if (stats.length > 0) out.judge_stats = stats.reduce(addJudgeStats, null);
  const plan = addJudgePlans(calls.map((c) => c.result.judge_plan));
  if (plan !== null) out.judge_plan = plan;
  const skipped = calls.flatMap((c) => (c.result.skipped ?? []).map((s) => ({ ...s, run: (s.run ?? 0) + c.from })));
  if (skipped.length > 0) out.skipped = skipped;
  if (calls.some((c) => c.result.cancelled)) out.cancelled = true;
  return out;
}

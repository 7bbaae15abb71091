//! A job run: a named agent's through `evaluate`, recorded invocations case by case through
//! `evaluateInvocations`, several cases at once (caseConcurrency), each case result handed on as
//! it is scored. A streamed run waits for its client to read before it scores the next case and
//! keeps only what its summary needs.
import { EvalError } from '../errors.js';
import { evaluateInvocations } from '../wasm/api.js';
import { evaluate } from '../run/evaluate.js';
import { addJudgeStats } from '../health.js';
import { badInput } from './http.js';
import { caseError } from './job.js';
import { slim } from './answer.js';

export function cancelled(signal) {
  const e = new Error('the evaluation was cancelled', { cause: signal.reason });
  e.name = 'AbortError';
  return e;
}

/**
 * Runs `job` with the server's `{limits, pace}`. `onResult(result, caseJudgeStats)` gets each
 * EvalCaseResult as it is scored, `onThrottle(ms)` each 429 of the judge; with `ready` (a
 * stream's), each next case waits for it and results are kept slim. Resolves to `{result, calls}`.
 */
export async function runJob(job, server, signal, { onResult = () => {}, onThrottle, ready = null } = {}) {
  const j = server.pace.judgeFor(signal, job.pace, onThrottle);
  if (job.mode === 'agent') {
    let result;
    try {
      result = await evaluate({
        evalSet: job.body.evalSet, agent: job.agent, config: job.config, judge: j.judge, numRuns: job.numRuns, signal,
        ...(job.evalIds === null ? {} : { evalIds: job.evalIds }),
        concurrency: server.limits.caseConcurrency, agentTimeoutMs: server.limits.agentTimeoutMs, onCaseResult: onResult,
      });
    } catch (e) {
      throw badInput(e);
    }
    return { result, calls: j.calls() };
  }
  const { results, judgeStats } = await scoreRecorded(job, server.limits.caseConcurrency, j.judge, signal, onResult, ready);
  const now = Date.now() / 1000;
  const id = `${job.set.eval_set_id}_${now}`;
  return {
    result: {
      eval_set_result_id: id, eval_set_result_name: id, eval_set_id: job.set.eval_set_id, eval_case_results: results, creation_timestamp: now,
      ...(judgeStats === null ? {} : { judge_stats: judgeStats }),
    },
    calls: j.calls(),
  };
}

/** Each selected case's recorded invocations scored, `concurrency` at a time, in the set's order. */
async function scoreRecorded(job, concurrency, judge, signal, onResult, ready) {
  const cases = job.cases;
  const results = new Array(cases.length);
  // The run's judge counters, every case's summed (the summary line carries them).
  let judgeStats = judge === undefined ? null : addJudgeStats(null, null);
  let next = 0;
  let failure = null;
  const worker = async () => {
    while (next < cases.length && failure === null) {
      if (ready !== null) await ready();
      if (signal.aborted) throw cancelled(signal);
      const i = next++;
      const c = cases[i];
      // This case's judge counters (each scoring its own: cases run side by side).
      let caseStats = null;
      const onJudgeStats = (s) => {
        caseStats = s;
        judgeStats = addJudgeStats(judgeStats, s);
      };
      let r;
      // Each case its own signal, tied to the run's for the case's time only: the host listens
      // on the signal it is given until it is aborted, and a run has up to maxCases cases.
      const caseAbort = new AbortController();
      const forward = () => caseAbort.abort(signal.reason);
      signal.addEventListener('abort', forward, { once: true });
      try {
        r = await evaluateInvocations({
          evalCase: c, actual: job.body.actual[c.eval_id], config: job.config, judge, evalSetId: job.set.eval_set_id, signal: caseAbort.signal,
          ...(judgeStats === null ? {} : { onJudgeStats }),
        });
      } catch (e) {
        failure ??= e instanceof EvalError && e.code !== 'trap' ? caseError(e, job, c) : badInput(e);
        throw failure;
      } finally {
        signal.removeEventListener('abort', forward);
      }
      if (signal.aborted) throw cancelled(signal);
      results[i] = ready === null ? r : slim(r);
      onResult(r, caseStats);
    }
  };
  const settled = await Promise.allSettled(Array.from({ length: Math.min(concurrency, cases.length) }, worker));
  if (failure !== null) throw failure;
  const rejected = settled.find((s) => s.status === 'rejected');
  if (rejected) throw rejected.reason;
  return { results, judgeStats };
}

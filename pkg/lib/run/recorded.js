// evaluate() over recorded agent replies (`actual`: eval id -> that case's invocations) instead
// of an agent: each selected case scored as evaluateInvocations scores it, as the evaluation
// endpoint scores `actual`. The local run a sharded run (remote.js) must equal, case for case.
import { EvalError } from '../errors.js';
import { evaluateInvocations, loadEvalSet, loadEvalSetResult, validateEvalConfig } from '../wasm/api.js';
import { addJudgePlans, addJudgeStats, runHealth } from '../health.js';
import { createEvalSetResult } from '../store/adk_layout.js';
import { readInParts } from '../report/results_view.js';
import { describe, requireObject } from '../wasm/wire.js';

/**
 * The selected cases of `evalSet` with their recorded invocations, checked: `{set, cases}` where
 * `cases` is `[{index, evalCase, actual}]` in the eval set's order. Shared by the local and the
 * sharded run so both select, order and refuse alike.
 */
export function recordedCases(args, fn) {
  requireObject(args, fn);
  const { evalSet, actual, evalIds } = args;
  if (evalSet === undefined || evalSet === null) {
    throw new EvalError('schema', '$.evalSet', `${fn}: evalSet is required (an eval set object, JSON text or bytes)`);
  }
  if (actual === null || typeof actual !== 'object' || Array.isArray(actual)) {
    throw new EvalError('schema', '$.actual', `${fn}: actual must map eval ids to arrays of recorded invocations, found ${describe(actual)}`);
  }
  if (evalIds !== undefined && evalIds !== null
    && (!Array.isArray(evalIds) || evalIds.some((x) => typeof x !== 'string'))) {
    throw new EvalError('schema', '$.evalIds', `${fn}: evalIds must be an array of strings, found ${describe(evalIds)}`);
  }
  let set;
  try {
    set = loadEvalSet(evalSet);
  } catch (e) {
    if (!(e instanceof EvalError)) throw e;
    throw new EvalError(e.code, (e.path === '' ? '$.evalSet' : e.path.replace(/^\$/, '$.evalSet')), `${fn}: evalSet: ${e.message}`, { cause: e });
  }
  const wanted = evalIds === undefined || evalIds === null ? null : new Set(evalIds);
  const cases = [];
  for (const [index, evalCase] of set.eval_cases.entries()) {
    if (wanted !== null && !wanted.has(evalCase.eval_id)) continue;
    const recorded = Object.hasOwn(actual, evalCase.eval_id) ? actual[evalCase.eval_id] : undefined;
    if (!Array.isArray(recorded)) {
      throw new EvalError('schema', `$.actual${member(evalCase.eval_id)}`, recorded === undefined
        ? `${fn}: no recorded invocations for case "${evalCase.eval_id}"`
        : `${fn}: actual${member(evalCase.eval_id)} must be an array of invocations, found ${describe(recorded)}`);
    }
    cases.push({ index, evalCase, actual: recorded });
  }
  if (wanted !== null) {
    const known = new Set(set.eval_cases.map((c) => c.eval_id));
    const unknown = evalIds.find((id) => !known.has(id));
    if (unknown !== undefined) throw new EvalError('schema', '$.evalIds', `${fn}: the eval set has no case "${unknown}"`);
  }
  return { set, cases };
}

/**
 * The EvalSetResult of scored cases, made by the core's model: the results in the eval set's
 * order (not completion order, so a local and a sharded run agree), named as ADK names a new result.
 */
export function recordedResult(set, results, appName, numRuns = 1) {
  const made = createEvalSetResult(appName ?? 'evalcore', set.eval_set_id, results);
  // With several runs the core adds the run summary, as it does for a local run; one run may be
  // larger than one answer of the core (maxReplyBytes), and is read in parts then.
  return numRuns > 1 ? loadEvalSetResult(made, { runSummary: true }) : readInParts(made, (part) => loadEvalSetResult(part));
}

/**
 * `result` with the run's judge counters (`judge_stats`, after the ADK fields as the core puts
 * it; none without a judge) and, in a dry run, the calls its cases listed (`judge_plan`).
 */
export function withJudgeStats(result, stats, plans = []) {
  if (stats !== null && stats !== undefined) result.judge_stats = stats;
  const plan = addJudgePlans(plans);
  if (plan !== null) result.judge_plan = plan;
  return result;
}

/** `strict: true`, as evaluate() has it: a config warning refuses the run before it starts. */
export function strictBefore(args, fn) {
  if (args.strict !== undefined && typeof args.strict !== 'boolean') {
    throw new EvalError('schema', '$.strict', `${fn}: strict must be a boolean, found ${describe(args.strict)}`);
  }
  if (!args.strict) return;
  const { errors, warnings } = validateEvalConfig(args.config);
  const first = errors[0] ?? warnings[0];
  if (first !== undefined) {
    throw new EvalError(first.code, first.path === '' || first.path === '$' ? '$.config' : first.path.replace(/^\$/, '$.config'), `${fn} (strict): ${first.message}`);
  }
}

/** `strict: true` after the run: any NOT_EVALUATED metric rejects, the result kept on the error. */
export function strictAfter(args, result, fn) {
  if (!args.strict) return result;
  const h = runHealth(result);
  if (h.count > 0) {
    const err = new EvalError('strict', '', `${fn} (strict): ${h.summary}. \`result\` holds the whole result`);
    err.result = result;
    throw err;
  }
  return result;
}

/**
 * `evaluate({evalSet, actual, config?, judge?, evalIds?, concurrency?, signal?, onProgress?,
 * onCaseResult?, customMetrics?, strict?, includeInvocations?, perInvocation?, efficiencyMetrics?, explain?})`.
 */
export async function evaluateRecorded(args) {
  const fn = 'evaluate';
  const { set, cases } = recordedCases(args, fn);
  strictBefore(args, fn);
  const jobs = cases.map((c) => ({ evalId: c.evalCase.eval_id, input: { evalCase: c.evalCase, actual: c.actual } }));
  return strictAfter(args, await scoreJobs(set, jobs, args, fn), fn);
}

/**
 * Scores recorded jobs (`[{evalId, input: {evalCase?, session?, actual, missing?}, run?, result?}]`:
 * evaluateInvocations' arguments, or a `result` made already) as one run: `args.concurrency` at a
 * time, the run's options (config, judge, customMetrics, signal, listeners, detail switches), the
 * results in the jobs' order, judge counters summed. `caseError(e, job)` may turn a failure of one
 * job into its result (else the run stops, the results so far on the error as `partialResult`).
 */
export async function scoreJobs(set, jobs, args, fn, caseError = null) {
  const { config, judge, signal, onProgress, onCaseResult, customMetrics, includeInvocations, perInvocation, efficiencyMetrics, explain } = args;
  const concurrency = args.concurrency ?? 4;
  if (!Number.isInteger(concurrency) || concurrency < 1) {
    throw new EvalError('schema', '$.concurrency', `${fn}: concurrency must be an integer >= 1, found ${describe(concurrency)}`);
  }
  if (judge?.cassette?.path !== undefined) {
    // Each case is its own core call: one cassette file written by each would lose entries.
    throw new EvalError('unsupported', '$.judge.cassette.path', `${fn}: with recorded invocations, give the cassette as judge.cassette.entries (read the file yourself); a cassette path is read and written by agent runs only`);
  }
  const results = new Array(jobs.length);
  const tally = { casesDone: 0, casesTotal: jobs.length, passed: 0, failed: 0, notEvaluated: 0 };
  // With a judge, the run's judge counters: every case's, summed (as one agent run counts them),
  // and in a dry run the calls each case listed.
  let judgeStats = judge === undefined || judge === null ? null : addJudgeStats(null, null);
  const plans = [];
  const onJudgeStats = judgeStats === null ? undefined : (st, plan) => {
    judgeStats = addJudgeStats(judgeStats, st);
    if (plan !== undefined) plans.push(plan);
  };
  // A listener that throws never stops the run; what it threw is reported at the end.
  const listenerErrors = [];
  const safe = (f, v) => {
    try {
      f?.(v);
    } catch (e) {
      listenerErrors.push(e);
    }
  };
  const progress = (phase, evalId) => safe(onProgress, { phase, run: 0, ...tally, evalId });
  progress('start', null);
  let next = 0;
  let stopped = false;
  const scoreOne = async (job) => {
    if (job.result !== undefined) return job.result;
    try {
      return await evaluateInvocations({
        ...job.input, config, judge, customMetrics, evalSetId: set.eval_set_id, signal,
        includeInvocations, perInvocation, efficiencyMetrics, explain, onJudgeStats,
      });
    } catch (e) {
      if (caseError === null || signal?.aborted) throw e;
      return caseError(e, job);
    }
  };
  const worker = async () => {
    while (next < jobs.length && !stopped) {
      if (signal?.aborted) return;
      const i = next++;
      let r;
      try {
        r = await scoreOne(jobs[i]);
      } catch (e) {
        stopped = true;
        throw e;
      }
      if (jobs[i].run !== undefined) r.run = jobs[i].run;
      results[i] = r;
      tally.casesDone++;
      if (r.final_eval_status === 'PASSED') tally.passed++;
      else if (r.final_eval_status === 'FAILED') tally.failed++;
      else tally.notEvaluated++;
      safe(onCaseResult, r);
      progress('case', jobs[i].evalId);
    }
  };
  const runs = jobs.reduce((n, j) => Math.max(n, (j.run ?? 0) + 1), 1);
  const partial = () => withJudgeStats(recordedResult(set, results.filter((r) => r !== undefined), args.appName, runs), judgeStats, plans);
  try {
    await Promise.all(Array.from({ length: Math.min(concurrency, jobs.length) }, worker));
  } catch (e) {
    // What was scored before the failure is kept with the error.
    if (e !== null && typeof e === 'object') e.partialResult = partial();
    throw e;
  }
  const result = partial();
  if (signal?.aborted) {
    const err = new Error('evalcore: the evaluation was aborted; `partialResult` holds the cases that completed', { cause: signal.reason });
    err.name = 'AbortError';
    err.partialResult = result;
    throw err;
  }
  progress('done', null);
  if (listenerErrors.length > 0) {
    const err = new AggregateError(listenerErrors, 'evalcore: an onProgress/onCaseResult callback threw (the evaluation itself completed; `result` holds it)');
    err.result = result;
    throw err;
  }
  return result;
}

/** A JSON-path member: `.id` for plain names, `["..."]` otherwise. */
export const member = (id) => (/^[A-Za-z_][A-Za-z0-9_]*$/.test(id) ? `.${id}` : `[${JSON.stringify(id)}]`);

// evaluate({ ..., actual | agent, remote: { endpoints, shards?, token? } }): the selected cases
// scored by evaluation endpoints (`/v1/evaluate`, ndjson) and merged into one EvalSetResult equal
// to the local run (recorded.js). This file holds the two modes (recorded replies; an agent run
// here, scored there); shards.js sends the shards and keeps count.
import { EvalError } from './errors.js';
import { loadEvalConfig, loadEvalSet } from './api.js';
import { evaluate } from './run.js';
import { toMember } from './wire.js';
import { recordedCases, recordedResult, strictAfter, strictBefore } from './recorded.js';
import { remoteOptions, shardRun } from './shards.js';

/** evaluate() options a remote run cannot honour: they shape what the endpoints compute. */
const LOCAL_ONLY = {
  customMetrics: 'custom metrics are host functions; the endpoints cannot call them',
  includeInvocations: 'the endpoints answer full results', perInvocation: 'the endpoints answer full results',
  efficiencyMetrics: 'the endpoints answer full results', explain: 'the endpoints answer full results',
};

export async function evaluateRemote(args) {
  const fn = 'evaluate';
  const opts = remoteOptions(args.remote, fn);
  const configText = args.config === undefined || args.config === null ? null : toMember(args.config, 'config', true);
  try {
    // A config every endpoint would refuse is refused here, before any request.
    loadEvalConfig(args.config);
  } catch (e) {
    if (!(e instanceof EvalError)) throw e;
    throw new EvalError(e.code, e.path.replace(/^\$/, '$.config'), `${fn}: config: ${e.message}`, { cause: e });
  }
  for (const [k, why] of Object.entries(LOCAL_ONLY)) {
    if (args[k] !== undefined && args[k] !== null) throw new EvalError('unsupported', `$.${k}`, `${fn}: ${k} does not go with remote: ${why}`);
  }
  strictBefore(args, fn);
  // What a listener threw, reported when the run is done (as evaluate() does).
  const listenerErrors = [];
  const finish = (result) => {
    if (listenerErrors.length > 0) {
      const err = new AggregateError(listenerErrors, 'evalcore: an onProgress/onCaseResult callback threw (the evaluation itself completed; `result` holds it)');
      err.result = result;
      throw err;
    }
    return strictAfter(args, result, fn);
  };
  if (args.agent !== undefined && args.agent !== null) return finish(await agentThenRemote(args, opts, configText, listenerErrors));
  if (args.judge !== undefined && args.judge !== null) {
    throw new EvalError('unsupported', '$.judge', `${fn}: a remote run is judged by the endpoints' own judge (EVALCORE_JUDGE); leave judge out`);
  }
  if (args.numRuns !== undefined && args.numRuns !== null && args.numRuns !== 1) {
    throw new EvalError('schema', '$.numRuns', `${fn}: recorded invocations are one run; numRuns must be 1`);
  }
  const { set, cases } = recordedCases(args, fn);
  const partial = (got) => recordedResult(set, got, args.appName);
  const results = await shardRun({ fn, set, cases, configText, opts, args: { ...args, listenerErrors }, partial });
  return finish(partial(results));
}

/**
 * `evaluate({agent, remote})`: the agent's turns run here (a run without criteria collects each
 * case's actual invocations), the scoring and its judge calls over the endpoints, one run after
 * the other. A case the agent could not complete keeps its local result (FAILED, its error):
 * no metric is computed for it in a local run either. Session, user and run of each case are the
 * local run's.
 */
async function agentThenRemote(args, opts, configText, listenerErrors) {
  const fn = 'evaluate';
  const numRuns = args.numRuns ?? 1;
  const forward = (stage) => (p) => {
    if (typeof args.onProgress !== 'function') return;
    try {
      args.onProgress({ ...p, stage });
    } catch (e) {
      listenerErrors.push(e);
    }
  };
  const local = {};
  for (const k of ['evalSet', 'agent', 'numRuns', 'concurrency', 'evalIds', 'signal', 'appName', 'agentTimeoutMs', 'judge']) {
    if (args[k] !== undefined) local[k] = args[k];
  }
  const set = loadEvalSet(args.evalSet);
  let collected;
  try {
    collected = await evaluate({ ...local, config: { criteria: {} }, onProgress: forward('agent') });
  } catch (e) {
    // Nothing was scored yet: what an interrupted run keeps is empty.
    if (e !== null && typeof e === 'object' && 'partialResult' in e) e.partialResult = recordedResult(set, [], args.appName);
    throw e;
  }
  const byRun = Array.from({ length: numRuns }, () => new Map());
  for (const r of collected.eval_case_results) byRun[r.run ?? 0]?.set(r.eval_id, r);
  const wanted = args.evalIds === undefined || args.evalIds === null ? null : new Set(args.evalIds);
  const selected = [...set.eval_cases.entries()].filter(([, c]) => wanted === null || wanted.has(c.eval_id));
  const merged = [];
  const sessionOf = (got, mine) => ({ ...got, session_id: mine.session_id, user_id: mine.user_id, run: mine.run });
  for (let run = 0; run < numRuns; run++) {
    const cases = [];
    for (const [index, evalCase] of selected) {
      const mine = byRun[run].get(evalCase.eval_id);
      if (mine === undefined || mine.error) continue;
      cases.push({ index, evalCase, actual: (mine.eval_metric_result_per_invocation ?? []).map((p) => p.actual_invocation) });
    }
    const done = [...merged];
    const partial = (got) => recordedResult(set, [...done, ...got.map((r) => sessionOf(r, byRun[run].get(r.eval_id)))], args.appName, numRuns);
    const onCaseResult = typeof args.onCaseResult === 'function' ? (r) => args.onCaseResult(sessionOf(r, byRun[run].get(r.eval_id))) : undefined;
    const scored = await shardRun({
      fn, set, cases, configText, opts, partial, run,
      args: { signal: args.signal, onProgress: forward('score'), onCaseResult, listenerErrors },
    });
    const byId = new Map(scored.map((r) => [r.eval_id, r]));
    for (const [, evalCase] of selected) {
      const mine = byRun[run].get(evalCase.eval_id);
      if (mine === undefined) continue;
      const got = byId.get(evalCase.eval_id);
      merged.push(got === undefined ? mine : sessionOf(got, mine));
    }
  }
  return recordedResult(set, merged, args.appName, numRuns);
}

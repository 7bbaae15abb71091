// evaluate({ ..., actual | agent, remote: { endpoints, shards?, token? } }): the selected cases
// scored by evaluation endpoints (`/v1/evaluate`, ndjson) and merged into one EvalSetResult equal
// to the local run (recorded.js). This file holds the two modes (recorded replies; an agent run
// here, scored there); shards.js sends the shards and keeps count.
import { EvalError } from '../errors.js';
import { loadEvalConfig, loadEvalSet } from '../wasm/api.js';
import { evaluate } from '../wasm/run.js';
import { describe, toMember } from '../wasm/wire.js';
import { recordedCases, recordedResult, strictAfter, strictBefore, withJudgeStats } from './recorded.js';
import { addJudgeStats } from '../health.js';
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
  const { signal } = args;
  if (signal !== undefined && signal !== null && (typeof signal.aborted !== 'boolean' || typeof signal.addEventListener !== 'function')) {
    throw new EvalError('schema', '$.signal', `${fn}: signal must be an AbortSignal, found ${describe(signal)}`);
  }
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
  const partial = (got, judgeStats) => withJudgeStats(recordedResult(set, got.filter((r) => r !== undefined), args.appName), judgeStats);
  const { results, judgeStats } = await shardRun({ fn, set, cases, configText, opts, args: { ...args, listenerErrors }, partial });
  return finish(partial(results, judgeStats));
}

/**
 * `evaluate({agent, remote})`: the agent's turns run here (a run without criteria collects each
 * case's actual invocations) while the endpoints score what it has collected: a run's cases go
 * out as a shard once it has a shard's worth (the size one run is cut into), so later runs'
 * turns overlap earlier runs' scoring, all in one sharded pass under the run's one set of limits. A case the agent could not complete keeps its local result (FAILED, its error):
 * no metric is computed for it in a local run either. Session, user and run of each case are
 * the local run's; the result is merged in the eval set's order, run after run.
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
  for (const k of ['evalSet', 'agent', 'numRuns', 'concurrency', 'evalIds', 'appName', 'agentTimeoutMs', 'judge']) {
    if (args[k] !== undefined) local[k] = args[k];
  }
  // What the agent run would refuse, refused before anything is built of it.
  if (!Number.isInteger(numRuns) || numRuns < 1) {
    throw new EvalError('schema', '$.numRuns', `${fn}: numRuns must be an integer >= 1, found ${typeof numRuns === 'number' ? numRuns : describe(numRuns)}`);
  }
  if (args.evalIds !== undefined && args.evalIds !== null && (!Array.isArray(args.evalIds) || args.evalIds.some((x) => typeof x !== 'string'))) {
    throw new EvalError('schema', '$.evalIds', `${fn}: evalIds must be an array of strings, found ${describe(args.evalIds)}`);
  }
  if (args.evalSet === undefined || args.evalSet === null) {
    throw new EvalError('schema', '$.evalSet', `${fn}: evalSet is required (an eval set object, JSON text or bytes)`);
  }
  let set;
  try {
    set = loadEvalSet(args.evalSet);
  } catch (e) {
    if (!(e instanceof EvalError)) throw e;
    throw new EvalError(e.code, (e.path === '' ? '$.evalSet' : e.path.replace(/^\$/, '$.evalSet')), `${fn}: evalSet: ${e.message}`, { cause: e });
  }
  const wanted = args.evalIds === undefined || args.evalIds === null ? null : new Set(args.evalIds);
  const selected = [...set.eval_cases.entries()].filter(([, c]) => wanted === null || wanted.has(c.eval_id));
  const at = new Map(selected.map(([index, c]) => [c.eval_id, { index, evalCase: c }]));
  // What the agent did, by run and eval id: as streamed, then the run's final result.
  const byRun = new Map();
  const ofRun = (run) => byRun.get(run) ?? byRun.set(run, new Map()).get(run);
  const sessionOf = (got, mine) => ({ ...got, session_id: mine.session_id, user_id: mine.user_id, run: mine.run });
  // The shard size of one run cut as a recorded run is (shards.js): the requests of scoring the
  // runs one by one, and the last shard, which starts when the agent is done, stays short.
  const total = selected.length * numRuns;
  const rounds = Math.max(1, Math.ceil(selected.length / (opts.shards * opts.maxCasesPerShard)));
  const perShard = Math.max(1, Math.ceil(selected.length / (opts.shards * rounds)));
  let collected = null;
  const feed = async (add, stop) => {
    const pending = new Map();
    const flush = (run) => {
      const batch = pending.get(run) ?? [];
      pending.delete(run);
      add(batch);
    };
    const onCollected = (r) => {
      const run = Number.isInteger(r?.run) ? r.run : 0;
      const where = at.get(r?.eval_id);
      if (where === undefined || run < 0 || run >= numRuns) return;
      ofRun(run).set(r.eval_id, r);
      if (r.error) return add([], 1);
      const batch = pending.get(run) ?? pending.set(run, []).get(run);
      batch.push({ ...where, run, actual: (r.eval_metric_result_per_invocation ?? []).map((p) => p.actual_invocation) });
      if (batch.length >= perShard) flush(run);
      return undefined;
    };
    // The signal of the run (the caller's, or the sharded run failing) stops the agent.
    collected = await evaluate({ ...local, signal: stop, config: { criteria: {} }, onProgress: forward('agent'), onCaseResult: onCollected });
    for (const run of [...pending.keys()].sort((a, b) => a - b)) flush(run);
  };
  const fedCases = [];
  const merge = (results, remoteStats) => {
    const scored = new Map();
    results.forEach((r, p) => {
      if (r !== undefined) scored.set(`${fedCases[p].run}/${r.eval_id}`, r);
    });
    const merged = [];
    for (const run of [...byRun.keys()].sort((a, b) => a - b)) {
      for (const [, evalCase] of selected) {
        const mine = byRun.get(run).get(evalCase.eval_id);
        const got = scored.get(`${run}/${evalCase.eval_id}`);
        if (mine === undefined || (got === undefined && collected === null)) continue;
        merged.push(got === undefined ? mine : sessionOf(got, mine));
      }
    }
    // The judge counters of both sides: a simulated user's calls here, the scoring's there.
    const here = collected?.judge_stats ?? null;
    const stats = here === null && remoteStats === null ? null : addJudgeStats(addJudgeStats(null, here), remoteStats);
    return withJudgeStats(recordedResult(set, merged, args.appName, numRuns), stats);
  };
  const onCaseResult = typeof args.onCaseResult === 'function'
    ? (r, c) => args.onCaseResult(sessionOf(r, ofRun(c.run).get(r.eval_id))) : undefined;
  const { results, judgeStats } = await shardRun({
    fn, set, cases: fedCases, configText, opts, partial: merge, feed, casesTotal: total,
    args: { signal: args.signal, onProgress: forward('score'), onCaseResult, listenerErrors },
  });
  // The run's final result is the authority for what the agent did (as a local run returns it).
  for (const r of collected.eval_case_results) {
    const run = Number.isInteger(r.run) ? r.run : 0;
    if (run >= 0 && run < numRuns) ofRun(run).set(r.eval_id, r);
  }
  return merge(results, judgeStats);
}

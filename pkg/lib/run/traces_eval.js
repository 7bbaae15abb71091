// evaluate({ traces }): recorded sessions scored instead of an agent's run. With an eval set,
// each session is scored against the case it matches (the case whose eval_id is its session id,
// else the case whose user turns it repeats); without one, each session is scored on its own
// against the metrics that need no expected invocation. Unmatched sessions and cases are in the
// result's `traces` report (and an unmatched case is a failed case result), never dropped.
import { EvalError } from '../errors.js';
import { loadEvalSet } from '../wasm/api.js';
import { loadTraces } from '../wasm/traces.js';
import { scoreJobs, strictAfter, strictBefore } from './recorded.js';
import { describe, requireObject } from '../wasm/wire.js';

const FN = 'evaluate';

/** `traces` as loaded sessions: a `loadTraces` result as it is, else any input loadTraces reads. */
function sessionsOf(args) {
  const { traces, sessionIds } = args;
  if (sessionIds !== undefined && sessionIds !== null
    && (!Array.isArray(sessionIds) || sessionIds.some((x) => typeof x !== 'string'))) {
    throw new EvalError('schema', '$.sessionIds', `${FN}: sessionIds must be an array of strings, found ${describe(sessionIds)}`);
  }
  const loaded = traces !== null && typeof traces === 'object' && Array.isArray(traces.sessions)
    ? traces : loadTraces(traces, sessionIds ? { sessionIds } : undefined);
  const keep = sessionIds ? new Set(sessionIds) : null;
  const sessions = keep === null ? loaded.sessions : loaded.sessions.filter((s) => keep.has(s.session_id));
  if (keep !== null) {
    const found = new Set(sessions.map((s) => s.session_id));
    const absent = sessionIds.filter((id) => !found.has(id));
    if (absent.length > 0) {
      const have = loaded.sessions.length === 0 ? 'none' : loaded.sessions.slice(0, 10).map((s) => s.session_id).join(', ');
      throw new EvalError('schema', '$.sessionIds', `${FN}: the traces have no session ${absent.map((a) => JSON.stringify(a)).join(', ')} (sessions: ${have})`);
    }
  }
  return { sessions, warnings: Array.isArray(loaded.warnings) ? loaded.warnings : [] };
}

/** The text of each user turn, trimmed: what "repeats the case's user turns" compares. */
function userTurns(invocations) {
  return (invocations ?? []).map((inv) => (inv?.user_content?.parts ?? [])
    .map((p) => (typeof p?.text === 'string' ? p.text : '')).join('').trim());
}

const sameTurns = (a, b) => a.length === b.length && a.every((t, i) => t === b[i]);

/**
 * Pairs sessions with cases: by eval id, then by user turns (a conversation's every turn, or a
 * scenario's starting prompt as the first turn). Among cases with the same turns, a session takes
 * the first not matched yet. Returns `{matched: [{session, evalCase, by, run}], unmatchedSessions}`.
 */
export function matchSessions(sessions, cases) {
  const byId = new Map(cases.map((c) => [c.eval_id, c]));
  const turnsOf = new Map(cases.map((c) => [c, Array.isArray(c.conversation) ? userTurns(c.conversation) : null]));
  const runs = new Map();
  const matched = [];
  const unmatchedSessions = [];
  const take = (session, evalCase, by) => {
    const run = runs.get(evalCase) ?? 0;
    runs.set(evalCase, run + 1);
    matched.push({ session, evalCase, by, run });
  };
  const later = [];
  for (const s of sessions) {
    const c = byId.get(s.session_id);
    if (c !== undefined) take(s, c, 'eval_id');
    else later.push(s);
  }
  for (const s of later) {
    const turns = userTurns(s.invocations);
    const same = cases.filter((c) => {
      const t = turnsOf.get(c);
      if (t !== null) return sameTurns(t, turns);
      const prompt = c.conversation_scenario?.starting_prompt;
      return typeof prompt === 'string' && turns.length > 0 && prompt.trim() === turns[0];
    });
    if (same.length === 0) unmatchedSessions.push(s);
    else take(s, same.find((c) => !runs.has(c)) ?? same[0], 'user_turns');
  }
  return { matched, unmatchedSessions };
}

/** A case that no session matched: a failed case result saying so (as a case the agent could not complete). */
function unmatchedResult(setId, evalId) {
  return {
    eval_set_file: setId, eval_set_id: setId, eval_id: evalId, final_eval_status: 'FAILED',
    eval_metric_results: null, overall_eval_metric_results: [], eval_metric_result_per_invocation: [],
    session_id: '', session_details: null, user_id: null,
    error: { code: 'no_session', message: 'no recorded session matched this case: none has its eval_id as session id or repeats its user turns' },
  };
}

/** A session's naming for its result. */
const namingOf = (s) => ({ session_id: s.session_id, user_id: s.user_id, app_name: s.app_name });

/** What the core refuses in one case and not another: that case's failed result, the rest still scored. */
const CASE_ERRORS = ['count_mismatch', 'duplicate_id'];

/** One case that could not be scored against its session (a turn count that differs...): a failed case result. */
function failedResult(setId, job, e) {
  if (!(e instanceof EvalError) || !CASE_ERRORS.includes(e.code)) throw e;
  const r = unmatchedResult(setId, job.evalId);
  r.session_id = job.input.session.session_id;
  r.error = { code: e.code, message: `session ${JSON.stringify(job.input.session.session_id)}: ${e.message}` };
  return r;
}

/** The eval set the sessions are scored against, or null; its cases narrowed to `evalIds`. */
function evalSetOf(args) {
  const { evalSet, evalIds } = args;
  if (evalIds !== undefined && evalIds !== null && (!Array.isArray(evalIds) || evalIds.some((x) => typeof x !== 'string'))) {
    throw new EvalError('schema', '$.evalIds', `${FN}: evalIds must be an array of strings, found ${describe(evalIds)}`);
  }
  if (evalSet === undefined || evalSet === null) {
    if (evalIds !== undefined && evalIds !== null) throw new EvalError('schema', '$.evalIds', `${FN}: evalIds selects cases of an eval set, and none was given`);
    return null;
  }
  let set;
  try {
    set = loadEvalSet(evalSet);
  } catch (e) {
    if (!(e instanceof EvalError)) throw e;
    throw new EvalError(e.code, (e.path === '' ? '$.evalSet' : e.path.replace(/^\$/, '$.evalSet')), `${FN}: evalSet: ${e.message}`, { cause: e });
  }
  if (evalIds === undefined || evalIds === null) return { set, cases: set.eval_cases };
  const known = new Set(set.eval_cases.map((c) => c.eval_id));
  const unknown = evalIds.find((id) => !known.has(id));
  if (unknown !== undefined) throw new EvalError('schema', '$.evalIds', `${FN}: the eval set has no case "${unknown}"`);
  const wanted = new Set(evalIds);
  return { set, cases: set.eval_cases.filter((c) => wanted.has(c.eval_id)) };
}

/**
 * `evaluate({traces, evalSet?, evalSetId?, sessionIds?, evalIds?, config?, judge?, customMetrics?,
 * concurrency?, signal?, onProgress?, onCaseResult?, strict?, appName?, ...detail switches})`:
 * ADK's EvalSetResult of the recorded sessions, with `traces` saying what matched.
 */
export async function evaluateTraces(args) {
  requireObject(args, FN);
  if (args.agent !== undefined && args.agent !== null) throw new EvalError('schema', '$.traces', `${FN}: give traces or an agent, not both`);
  if (args.actual !== undefined && args.actual !== null) throw new EvalError('schema', '$.traces', `${FN}: give traces or actual, not both`);
  const { sessions, warnings } = sessionsOf(args);
  const target = evalSetOf(args);
  strictBefore(args, FN);
  const report = { sessions: sessions.length, matched: [], unmatched_sessions: [], unmatched_cases: [], warnings };
  let set;
  let jobs;
  if (target === null) {
    const id = args.evalSetId ?? 'traces';
    if (typeof id !== 'string' || id === '') throw new EvalError('schema', '$.evalSetId', `${FN}: evalSetId must be a non-empty string, found ${describe(id)}`);
    set = { eval_set_id: id, eval_cases: [] };
    jobs = sessions.map((s) => ({ evalId: s.session_id, input: { session: namingOf(s), actual: s.invocations, missing: s.missing } }));
  } else {
    set = target.set;
    const { matched, unmatchedSessions } = matchSessions(sessions, target.cases);
    const byCase = new Map();
    for (const m of matched) {
      if (!byCase.has(m.evalCase)) byCase.set(m.evalCase, []);
      byCase.get(m.evalCase).push(m);
      report.matched.push({ session_id: m.session.session_id, eval_id: m.evalCase.eval_id, by: m.by, run: m.run });
    }
    report.unmatched_sessions = unmatchedSessions.map((s) => ({ session_id: s.session_id, invocations: s.invocations.length }));
    jobs = [];
    // In the eval set's order; a case matched by several sessions once per session (as runs).
    for (const c of target.cases) {
      const ms = byCase.get(c);
      if (ms === undefined) {
        report.unmatched_cases.push(c.eval_id);
        jobs.push({ evalId: c.eval_id, result: unmatchedResult(set.eval_set_id, c.eval_id) });
        continue;
      }
      for (const m of ms) {
        jobs.push({
          evalId: c.eval_id, run: ms.length > 1 || matched.some((x) => x.run > 0) ? m.run : undefined,
          input: { evalCase: c, session: namingOf(m.session), actual: m.session.invocations, missing: m.session.missing },
        });
      }
    }
  }
  const result = await scoreJobs(set, jobs, args, FN, (e, job) => failedResult(set.eval_set_id, job, e));
  result.traces = report;
  return strictAfter(args, result, FN);
}

//! An evaluate request read into the work it asks for (a job): the eval set through the core,
//! the cases it selects (`evalIds`), the run's pace, recorded invocations or a named agent, each
//! problem a 400 (or a 413 past a limit) with its JSON path; and, for recorded invocations, the
//! judge calls the job would make, refused before the first when they pass maxCalls.
import { EvalError } from '../errors.js';
import { loadEvalConfig, loadEvalSet, metricsInfo, planJudgeCalls } from '../wasm/api.js';
import { HttpError, badInput } from './http.js';
import { checkMediaUris } from './media_uris.js';

const FIELDS = ['evalSet', 'config', 'actual', 'agent', 'evalIds', 'numRuns', 'judgeConcurrency', 'judgeCallsPerMinute', 'caseJudgeStats'];

const has = (v) => v !== undefined && v !== null;

/** A JSON-path member: `.id` for plain names, `["..."]` otherwise. */
export const member = (id) => (/^[A-Za-z_][A-Za-z0-9_]*$/.test(id) ? `.${id}` : `[${JSON.stringify(id)}]`);

/** A whole number of at least 1 at `path`, or undefined when absent. */
function count(body, key) {
  const n = body[key];
  if (!has(n)) return undefined;
  if (!Number.isInteger(n) || n < 1) throw new HttpError(400, 'schema', `$.${key}`, `${key} must be a whole number of at least 1`);
  return n;
}

/**
 * The job of a request body: `{mode, set, cases, body, config, numRuns, judged, pace, agent?,
 * evalIds}` where `cases` are the selected cases in the eval set's order. `server` is
 * `{limits, agents, judge, mediaRules}` (mediaRules: null, or the file_data URIs a judge may
 * be sent).
 */
export function prepareJob(body, server) {
  const { limits, agents } = server;
  for (const k of Object.keys(body)) {
    if (!FIELDS.includes(k)) throw new HttpError(400, 'schema', `$.${k}`, `unknown field "${k}" (known: ${FIELDS.join(', ')})`);
  }
  if (!has(body.evalSet)) throw new HttpError(400, 'schema', '$.evalSet', 'evalSet is required (an eval set in any shape loadEvalSet reads)');
  let set;
  try {
    set = loadEvalSet(body.evalSet);
  } catch (e) {
    throw badInput(e, '$.evalSet');
  }
  const { cases, evalIds } = selected(set, body.evalIds);
  if (cases.length > limits.maxCases) {
    throw new HttpError(413, 'too_many_cases', evalIds === null ? '$.evalSet.eval_cases' : '$.evalIds',
      `the request scores ${cases.length} cases; this server scores at most ${limits.maxCases} per request (maxCases)`);
  }
  const config = body.config ?? null;
  let loaded;
  try {
    loaded = loadEvalConfig(config);
  } catch (e) {
    throw badInput(e, '$.config');
  }
  const numRuns = count(body, 'numRuns') ?? 1;
  if (numRuns > limits.maxRuns) throw new HttpError(413, 'too_many_runs', '$.numRuns', `numRuns is ${numRuns}; this server runs at most ${limits.maxRuns} (maxRuns)`);
  const pace = paceOf(body, limits);
  if (has(body.caseJudgeStats) && typeof body.caseJudgeStats !== 'boolean') {
    throw new HttpError(400, 'schema', '$.caseJudgeStats', 'caseJudgeStats must be true or false (true: each case result line of the stream follows a {"judge_stats": {eval_id, ...counters}} line)');
  }
  if (has(body.actual) === has(body.agent)) {
    throw new HttpError(400, 'schema', '$', 'give exactly one of actual (recorded invocations by eval id) and agent (the name of an agent this server runs)');
  }
  if (server.mediaRules !== null) {
    checkMediaUris(typeof body.evalSet === 'object' ? body.evalSet : set, '$.evalSet', server.mediaRules);
    checkMediaUris(body.actual, '$.actual', server.mediaRules);
  }
  const common = { set, cases, evalIds, body, config, numRuns, pace };
  if (has(body.agent)) {
    if (typeof body.agent !== 'string') throw new HttpError(400, 'schema', '$.agent', 'agent must be the name of an agent this server runs');
    const agent = agents.get(body.agent);
    if (agent === undefined) {
      throw new HttpError(400, 'unknown_agent', '$.agent', agents.size === 0 ? 'this server runs no agents; send actual (recorded invocations) instead'
        : `no agent ${JSON.stringify(body.agent)} here (agents: ${[...agents.keys()].join(', ')})`);
    }
    return { ...common, mode: 'agent', agent, judged: false };
  }
  if (numRuns !== 1) throw new HttpError(400, 'schema', '$.numRuns', 'numRuns applies to agent runs; recorded invocations are one run');
  checkActual(body.actual, set, cases);
  const judged = server.judge !== null && metricsInfo().some((m) => m.needs_judge && Object.hasOwn(loaded.criteria ?? {}, m.name));
  return { ...common, mode: 'recorded', judged };
}

/** The cases `evalIds` selects (all without it), in the eval set's order; an unknown id is a 400 at its index. */
function selected(set, evalIds) {
  if (!has(evalIds)) return { cases: set.eval_cases, evalIds: null };
  if (!Array.isArray(evalIds)) throw new HttpError(400, 'schema', '$.evalIds', 'evalIds must be a list of eval ids (the cases to score)');
  const known = new Set(set.eval_cases.map((c) => c.eval_id));
  evalIds.forEach((id, i) => {
    if (typeof id !== 'string') throw new HttpError(400, 'schema', `$.evalIds[${i}]`, `an eval id is a string, found ${id === null ? 'null' : typeof id}`);
    if (!known.has(id)) throw new HttpError(400, 'schema', `$.evalIds[${i}]`, `the eval set has no case ${JSON.stringify(id)}`);
  });
  const wanted = new Set(evalIds);
  return { cases: set.eval_cases.filter((c) => wanted.has(c.eval_id)), evalIds };
}

/** The request's judge pace: its judgeConcurrency (never above the server's) and judgeCallsPerMinute. */
function paceOf(body, limits) {
  const pace = { concurrency: limits.judgeConcurrency, perMinute: null };
  const n = count(body, 'judgeConcurrency');
  if (n !== undefined) {
    if (n > limits.judgeConcurrency) {
      throw new HttpError(400, 'schema', '$.judgeConcurrency', `judgeConcurrency is ${n}; this server has at most ${limits.judgeConcurrency} judge calls of one request in flight (judgeConcurrency)`);
    }
    pace.concurrency = n;
  }
  pace.perMinute = count(body, 'judgeCallsPerMinute') ?? null;
  return pace;
}

/** `actual` maps eval ids of the set to invocation lists, one for every selected case. */
function checkActual(actual, set, cases) {
  if (typeof actual !== 'object' || Array.isArray(actual)) throw new HttpError(400, 'schema', '$.actual', 'actual must map eval ids to arrays of invocations');
  const ids = new Set(set.eval_cases.map((c) => c.eval_id));
  for (const [id, v] of Object.entries(actual)) {
    if (!ids.has(id)) throw new HttpError(400, 'schema', `$.actual${member(id)}`, `the eval set has no case ${JSON.stringify(id)}`);
    if (!Array.isArray(v)) throw new HttpError(400, 'schema', `$.actual${member(id)}`, 'expected an array of invocations');
  }
  for (const c of cases) {
    if (!Object.hasOwn(actual, c.eval_id)) throw new HttpError(400, 'schema', `$.actual${member(c.eval_id)}`, `no recorded invocations for case ${JSON.stringify(c.eval_id)}`);
  }
}

/** What a case the core refused to score (count_mismatch, duplicate rubric ids) answers. */
export function caseError(e, job, c) {
  const id = c.eval_id;
  const index = job.set.eval_cases.indexOf(c);
  const path = e.path.startsWith('$.actual') ? `$.actual${member(id)}${e.path.slice('$.actual'.length)}`
    : e.path.startsWith('$.evalCase') ? `$.evalSet.eval_cases[${index}]${e.path.slice('$.evalCase'.length)}`
      : e.path === '' ? `$.actual${member(id)}` : e.path;
  return new HttpError(400, e.code, path, `case "${id}": ${e.message}`);
}

/** Recorded runs can be planned: a request whose judge calls would pass maxCalls is refused before any call. */
export async function checkPlannedCalls(job, judge, maxCalls) {
  let planned = 0;
  for (const c of job.cases) {
    let plan;
    try {
      plan = await planJudgeCalls({ evalCase: c, actual: job.body.actual[c.eval_id], config: job.config, judge, evalSetId: job.set.eval_set_id });
    } catch (e) {
      // A case the core refuses to score is refused here, as scoring it would be.
      throw e instanceof EvalError && e.code !== 'trap' ? caseError(e, job, c) : badInput(e);
    }
    planned += plan.count + (plan.pendingValidatorCallsAtMost ?? 0);
  }
  if (planned > maxCalls) {
    throw new HttpError(413, 'too_many_judge_calls', '$.config', `scoring this request takes up to ${planned} judge calls; this server makes at most ${maxCalls} per request (maxCalls)`);
  }
}

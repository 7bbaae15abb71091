//! A run's input: the body of `POST /v1/runs` (the body of `/v1/evaluate` and an optional
//! `name`) checked as the evaluate route checks it, under the run limits, then cut into what is
//! stored: a head (config, the eval set without its cases, the mode, the cases' places) and
//! chunks of cases with their recorded invocations, so a consumer reads only the chunk of the
//! cases it scores. The units of work are one case of one run each.
import { EvalError } from '../../errors.js';
import { planJudgeCalls } from '../../api.js';
import { validateRunName } from '../../adk_layout.js';
import { HttpError, badInput } from '../http.js';
import { caseError, prepareJob } from '../job.js';
import { unitName } from './ledger.js';

/** A chunk of the stored input holds at most this many cases, and about this many bytes. */
const CHUNK_CASES = 200;
const CHUNK_BYTES = 512 * 1024;

const encoder = new TextEncoder();

/**
 * The run a request body asks for, or a 400/413 with the JSON path of what is wrong:
 * `{head, chunks, units, plannedJudgeCalls}`. `server` is the handler's `{limits, agents, judge,
 * mediaRules}`; the run limits replace the request ones (maxRunCases for maxCases).
 */
export async function prepareRun(body, server) {
  const { name, ...rest } = body;
  if (name !== undefined && name !== null) {
    try {
      validateRunName(name);
    } catch (e) {
      throw new HttpError(400, 'schema', '$.name', e.message);
    }
  }
  if (rest.caseJudgeStats !== undefined) {
    throw new HttpError(400, 'schema', '$.caseJudgeStats', 'caseJudgeStats is for streamed /v1/evaluate requests; a run keeps each case\'s judge counters itself (judge_stats)');
  }
  const limits = { ...server.limits, maxCases: server.limits.maxRunCases };
  let job;
  try {
    job = prepareJob(rest, { ...server, limits });
  } catch (e) {
    if (e instanceof HttpError && e.code === 'too_many_cases') {
      throw new HttpError(413, e.code, e.path, e.message.replace('per request (maxCases)', 'per run (maxRunCases)'));
    }
    throw e;
  }
  const plannedJudgeCalls = job.judged ? await planCases(job, server) : null;
  const { chunks, places } = chunked(job);
  const units = [];
  for (let run = 0; run < job.numRuns; run++) {
    for (const p of places) units.push({ unit: unitName(run, p.index), chunk: p.chunk, eval_id: p.eval_id });
  }
  const { eval_cases: _cases, ...setRest } = job.set;
  const head = {
    v: 1,
    mode: job.mode,
    agent: job.mode === 'agent' ? body.agent : null,
    name: name ?? null,
    config: job.config,
    evalSet: setRest,
    numRuns: job.numRuns,
    evalIds: job.evalIds,
    judgeCallsPerMinute: job.pace.perMinute,
    judgeConcurrency: job.pace.concurrency,
    places,
    chunks: chunks.length,
  };
  return { head, chunks, units, plannedJudgeCalls };
}

/** Every recorded case's judge calls planned: a case over maxCalls is refused, as /v1/evaluate refuses a request. */
async function planCases(job, server) {
  const judge = server.pace.judgeFor(null).judge;
  let total = 0;
  for (const c of job.cases) {
    let plan;
    try {
      plan = await planJudgeCalls({ evalCase: c, actual: job.body.actual[c.eval_id], config: job.config, judge, evalSetId: job.set.eval_set_id });
    } catch (e) {
      throw e instanceof EvalError && e.code !== 'trap' ? caseError(e, job, c) : badInput(e);
    }
    const calls = plan.count + (plan.pendingValidatorCallsAtMost ?? 0);
    if (calls > server.limits.maxCalls) {
      const index = job.set.eval_cases.indexOf(c);
      throw new HttpError(413, 'too_many_judge_calls', `$.evalSet.eval_cases[${index}]`,
        `case "${c.eval_id}" takes up to ${calls} judge calls; this server makes at most ${server.limits.maxCalls} for one case (maxCalls)`);
    }
    total += calls;
  }
  return total;
}

/**
 * The selected cases cut into chunks of at most CHUNK_CASES cases and about CHUNK_BYTES:
 * `{chunks: [{cases: [{index, evalCase}], actual}], places: [{index, eval_id, chunk}]}`.
 */
function chunked(job) {
  const chunks = [];
  const places = [];
  let current = null;
  let bytes = 0;
  for (const c of job.cases) {
    const index = job.set.eval_cases.indexOf(c);
    const actual = job.mode === 'recorded' ? job.body.actual[c.eval_id] : undefined;
    const size = encoder.encode(JSON.stringify(c)).byteLength + (actual === undefined ? 0 : encoder.encode(JSON.stringify(actual)).byteLength);
    if (current === null || current.cases.length >= CHUNK_CASES || (bytes + size > CHUNK_BYTES && current.cases.length > 0)) {
      current = { cases: [], actual: {} };
      chunks.push(current);
      bytes = 0;
    }
    current.cases.push({ index, evalCase: c });
    if (actual !== undefined) current.actual[c.eval_id] = actual;
    bytes += size;
    places.push({ index, eval_id: c.eval_id, chunk: chunks.length - 1 });
  }
  return { chunks, places };
}

/** Hex of the SHA-256 of bytes or text. */
export async function sha256Hex(data) {
  const bytes = typeof data === 'string' ? encoder.encode(data) : data;
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes));
  return [...digest].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/** A run id: `r_` and 24 hex digits. */
export const RUN_ID = /^r_[0-9a-f]{24}$/;

/** A fresh run id (96 random bits). */
export function newRunId() {
  const bytes = crypto.getRandomValues(new Uint8Array(12));
  return `r_${[...bytes].map((b) => b.toString(16).padStart(2, '0')).join('')}`;
}

/** The longest Idempotency-Key taken. */
const MAX_IDEMPOTENCY_KEY = 255;

/**
 * The run id an Idempotency-Key names (the same key, the same run), or null without one. A key
 * must be 1-255 printable ASCII characters; anything else is a 400.
 */
export async function idempotentRunId(key) {
  if (key === null || key === undefined) return null;
  if (key.length === 0 || key.length > MAX_IDEMPOTENCY_KEY || !/^[\x21-\x7e][\x20-\x7e]*$/.test(key)) {
    throw new HttpError(400, 'bad_idempotency_key', '', `the Idempotency-Key header must be 1-${MAX_IDEMPOTENCY_KEY} printable ASCII characters`);
  }
  return `r_${(await sha256Hex(`evalcore-run:${key}`)).slice(0, 24)}`;
}

//! A run's input: the body of `POST /v1/runs` checked as the evaluate route checks it, under the
//! run limits, and stored as a head (config, the eval set without its cases, the mode, the
//! cases' places) and chunks of cases with their recorded invocations, so a consumer reads only
//! the chunk of the cases it scores. The body is one JSON object (the body of `/v1/evaluate` and
//! an optional `name`), or ndjson for runs too large to parse at once: the request without its
//! cases first, then one `{"eval_case", "actual"}` line a case, each checked and stored as it
//! comes. The units of work are one case of one run each.
import { EvalError } from '../../errors.js';
import { planJudgeCalls } from '../../wasm/api.js';
import { validateRunName } from '../../store/adk_layout.js';
import { HttpError, badInput } from '../http.js';
import { caseError, prepareJob } from '../job.js';
import { unitName } from './ledger.js';

/** A chunk of the stored input holds at most this many cases, and about this many bytes. */
const CHUNK_CASES = 200;
const CHUNK_BYTES = 512 * 1024;

const encoder = new TextEncoder();

/** The body's `name` checked, and the fields a run does not take refused; the rest of the body. */
function runFields(body, at = '$') {
  const { name, ...rest } = body;
  if (name !== undefined && name !== null) {
    try {
      validateRunName(name);
    } catch (e) {
      throw new HttpError(400, 'schema', `${at}.name`, e.message);
    }
  }
  if (rest.caseJudgeStats !== undefined) {
    throw new HttpError(400, 'schema', `${at}.caseJudgeStats`, 'caseJudgeStats is for streamed /v1/evaluate requests; a run keeps each case\'s judge counters itself (judge_stats)');
  }
  return { name: name ?? null, rest };
}

/** prepareJob under the run limits (maxRunCases for maxCases). */
function runJob(body, server) {
  const limits = { ...server.limits, maxCases: server.limits.maxRunCases };
  try {
    return prepareJob(body, { ...server, limits });
  } catch (e) {
    if (e instanceof HttpError && e.code === 'too_many_cases') {
      throw new HttpError(413, e.code, e.path, e.message.replace('per request (maxCases)', 'per run (maxRunCases)'));
    }
    throw e;
  }
}

/** A case's judge calls planned: over maxCalls it is refused, as /v1/evaluate refuses a request. */
async function planCase(job, c, server, path) {
  let plan;
  try {
    plan = await planJudgeCalls({ evalCase: c, actual: job.body.actual[c.eval_id], config: job.config, judge: server.pace.judgeFor(null).judge, evalSetId: job.set.eval_set_id });
  } catch (e) {
    throw e instanceof EvalError && e.code !== 'trap' ? caseError(e, job, c) : badInput(e);
  }
  const calls = plan.count + (plan.pendingValidatorCallsAtMost ?? 0);
  if (calls > server.limits.maxCalls) {
    throw new HttpError(413, 'too_many_judge_calls', path, `case "${c.eval_id}" takes up to ${calls} judge calls; this server makes at most ${server.limits.maxCalls} for one case (maxCalls)`);
  }
  return calls;
}

/** The stored head of a run: what every consumer reads before its chunk. */
function headOf(job, name, agent, places, writer) {
  const { eval_cases: _cases, ...setRest } = job.set;
  return {
    v: 1,
    mode: job.mode,
    agent: job.mode === 'agent' ? agent : null,
    name,
    config: job.config,
    evalSet: setRest,
    numRuns: job.numRuns,
    judgeCallsPerMinute: job.pace.perMinute,
    judgeConcurrency: job.pace.concurrency,
    places,
    chunkPrefix: writer.prefix,
    chunks: writer.count,
  };
}

/** The units of a run: each case of each run, run after run. */
function unitsOf(places, numRuns) {
  const units = [];
  for (let run = 0; run < numRuns; run++) for (const p of places) units.push({ unit: unitName(run, p.index), chunk: p.chunk, eval_id: p.eval_id });
  return units;
}

/**
 * Cases written in chunks under `prefix` as they are added (at most CHUNK_CASES cases and about
 * CHUNK_BYTES each): `add`, then `finish`; `discard` removes what was written (a refused or
 * duplicate submission).
 */
export class InputWriter {
  constructor(files, prefix) {
    this.files = files;
    this.prefix = prefix;
    this.count = 0;
    this.current = null;
    this.bytes = 0;
    this.places = [];
  }

  async add(index, evalCase, actual) {
    const size = encoder.encode(JSON.stringify(evalCase)).byteLength + (actual === undefined ? 0 : encoder.encode(JSON.stringify(actual)).byteLength);
    if (this.current !== null && (this.current.cases.length >= CHUNK_CASES || this.bytes + size > CHUNK_BYTES)) await this.flush();
    // Keyed by eval ids a client names: no prototype, so `__proto__` is an id like any other.
    this.current ??= { cases: [], actual: Object.create(null) };
    this.current.cases.push({ index, evalCase });
    if (actual !== undefined) this.current.actual[evalCase.eval_id] = actual;
    this.bytes += size;
    this.places.push({ index, eval_id: evalCase.eval_id, chunk: this.count });
  }

  async flush() {
    if (this.current === null) return;
    await this.files.putChunk(this.prefix, this.count, this.current);
    this.count++;
    this.current = null;
    this.bytes = 0;
  }

  async finish() {
    await this.flush();
    return this.places;
  }

  async discard() {
    await this.files.removeChunks(this.prefix).catch(() => {});
  }
}

/**
 * A JSON body's run: checked whole (a 400/413 with the JSON path of what is wrong), its cases
 * written through `writer`: `{head, units, plannedJudgeCalls}`. `server` is the handler's
 * `{limits, agents, judge, mediaRules, pace}`.
 */
export async function prepareRun(body, server, writer) {
  const { name, rest } = runFields(body);
  const job = runJob(rest, server);
  let planned = job.judged ? 0 : null;
  for (const c of job.cases) {
    if (job.judged) planned += await planCase(job, c, server, `$.evalSet.eval_cases[${job.set.eval_cases.indexOf(c)}]`);
  }
  for (const c of job.cases) await writer.add(job.set.eval_cases.indexOf(c), c, job.mode === 'recorded' ? job.body.actual[c.eval_id] : undefined);
  const places = await writer.finish();
  return { head: headOf(job, name, body.agent, places, writer), units: unitsOf(places, job.numRuns), plannedJudgeCalls: planned };
}

/** A JSON path inside line `n` of an ndjson body, from one inside a one-case request. */
function linePath(path, n, evalId) {
  const at = `$line[${n}]`;
  if (path.startsWith('$.evalSet.eval_cases[0]')) return `${at}.eval_case${path.slice('$.evalSet.eval_cases[0]'.length)}`;
  for (const prefix of [`$.actual.${evalId}`, `$.actual[${JSON.stringify(evalId)}]`]) {
    if (path.startsWith(prefix)) return `${at}.actual${path.slice(prefix.length)}`;
  }
  return path.startsWith('$') ? `${at}${path.slice(1)}` : at;
}

/**
 * An ndjson body's run, line by line: `new RunLines(first, server, writer)` checks the request
 * (its evalSet without cases: no `eval_cases`, `actual` or `evalIds`), `line(value, n)` checks
 * and stores case `{eval_case, actual}` (line n), `finish()` gives `{head, units,
 * plannedJudgeCalls}`.
 */
export class RunLines {
  constructor(first, server, writer) {
    const { name, rest } = runFields(first, '$line[1]');
    for (const k of ['actual', 'evalIds']) {
      if (rest[k] !== undefined) throw new HttpError(400, 'schema', `$line[1].${k}`, `an ndjson run gives ${k === 'actual' ? 'each case\'s recorded invocations on its own line ({"eval_case", "actual"})' : 'only the cases it runs, one a line'}, not ${k} in its first line`);
    }
    const set = rest.evalSet;
    if (set === null || typeof set !== 'object' || Array.isArray(set)) throw new HttpError(400, 'schema', '$line[1].evalSet', 'evalSet must be the eval set\'s fields (eval_set_id, name, ...) without its cases: they follow, one a line');
    if (set.eval_cases !== undefined && !(Array.isArray(set.eval_cases) && set.eval_cases.length === 0)) {
      throw new HttpError(400, 'schema', '$line[1].evalSet.eval_cases', 'the cases of an ndjson run follow the first line, one {"eval_case", "actual"} a line');
    }
    this.recorded = rest.agent === undefined || rest.agent === null;
    this.request = { ...rest, evalSet: { ...set, eval_cases: [] } };
    this.job = runJob({ ...this.request, ...(this.recorded ? { actual: {} } : {}) }, server);
    this.name = name;
    this.server = server;
    this.writer = writer;
    this.ids = new Set();
    this.planned = this.job.judged ? 0 : null;
  }

  async line(value, n) {
    const at = `$line[${n}]`;
    if (value === null || typeof value !== 'object' || Array.isArray(value) || value.eval_case === undefined) {
      throw new HttpError(400, 'schema', at, `line ${n} must be {"eval_case": {...}${this.recorded ? ', "actual": [invocations]' : ''}}`);
    }
    for (const k of Object.keys(value)) if (k !== 'eval_case' && k !== 'actual') throw new HttpError(400, 'schema', `${at}.${k}`, `unknown field "${k}" (known: eval_case, actual)`);
    if (!this.recorded && value.actual !== undefined) throw new HttpError(400, 'schema', `${at}.actual`, 'a run of the server\'s agent takes no recorded invocations');
    if (this.ids.size >= this.server.limits.maxRunCases) throw new HttpError(413, 'too_many_cases', at, `this server scores at most ${this.server.limits.maxRunCases} cases per run (maxRunCases)`);
    const evalId = typeof value.eval_case?.eval_id === 'string' ? value.eval_case.eval_id : value.eval_case?.evalId;
    let job;
    try {
      job = runJob({ ...this.request, evalSet: { ...this.request.evalSet, eval_cases: [value.eval_case] }, ...(this.recorded ? { actual: { [evalId]: value.actual } } : {}) }, this.server);
      if (job.judged) this.planned += await planCase(job, job.cases[0], this.server, at);
    } catch (e) {
      if (e instanceof HttpError) throw new HttpError(e.status, e.code, linePath(e.path, n, evalId), `line ${n}: ${e.message}`);
      throw e;
    }
    const c = job.cases[0];
    if (this.ids.has(c.eval_id)) throw new HttpError(400, 'duplicate_id', `${at}.eval_case.eval_id`, `line ${n}: the run already has a case "${c.eval_id}"`);
    this.ids.add(c.eval_id);
    await this.writer.add(this.ids.size - 1, c, this.recorded ? job.body.actual[c.eval_id] : undefined);
  }

  async finish() {
    if (this.ids.size === 0) throw new HttpError(400, 'schema', '$line[2]', 'an ndjson run needs its cases: one {"eval_case", "actual"} line each after the first');
    const places = await this.writer.finish();
    // The eval set as the cases made it: the order they came in.
    return { head: headOf(this.job, this.name, this.request.agent, places, this.writer), units: unitsOf(places, this.job.numRuns), plannedJudgeCalls: this.planned };
  }
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

//! The evaluation endpoint as one fetch handler, `(request, env?, ctx?) => Promise<Response>`,
//! the same in workerd, Deno and Node. Routes translate HTTP to the package API and back; every
//! ADK rule stays in the core (loadEvalSet, evaluateInvocations, evaluate, the metric registry).
import { EvalError } from '../errors.js';
import {
  coreVersion, evaluateInvocations, getLimits, loadEvalConfig, loadEvalSet, metricsInfo, planJudgeCalls,
  setLimits, validateEvalConfig, validateEvalSet,
} from '../api.js';
import { evaluate } from '../evaluate.js';
import { addJudgeStats, runHealth } from '../health.js';
import { parseJsonBytes } from '../wire.js';
import { evalSetsManager } from '../store/manager.js';
import { agentsOf } from './agents.js';
import { resolveLimits, secretsOf } from './config.js';
import { HttpError, badInput, checkToken, errorResponse, json, readCapped, redactor } from './http.js';
import { firstLine, followControl, instancePace } from './pace.js';

const NDJSON = 'application/x-ndjson';
const EVALUATE_FIELDS = ['evalSet', 'config', 'actual', 'agent', 'numRuns', 'judgeConcurrency', 'judgeCallsPerMinute', 'caseJudgeStats'];
const OPTIONS = ['judge', 'agents', 'token', 'limits', 'log', 'cors', 'store'];
const ROUTES = {
  '/healthz': ['GET', 'HEAD'],
  '/v1/metrics': ['GET', 'HEAD'],
  '/v1/evaluate': ['POST'],
  '/v1/validate': ['POST'],
};

/**
 * Options: `judge` ({provider, model, baseUrl?, headers?, fetch?, timeoutMs?, maxRetries?,
 * concurrency?}: the only judge requests get), `agents` ({name: Agent | {url, headers?}}),
 * `token` (bearer token for the /v1 routes), `limits` (see DEFAULT_LIMITS), `log` (called with
 * one object per request: method, path, status, ms, code; never a header or a body), `store`
 * (a Store: the handler's `evalSets` is then an eval-set manager over it, for routes mounted
 * beside these).
 */
export function createHandler(options = {}) {
  if (options === null || typeof options !== 'object') throw new EvalError('config', '', 'createHandler: options must be an object');
  for (const k of Object.keys(options)) {
    if (!OPTIONS.includes(k)) throw new EvalError('config', k, `createHandler: unknown option "${k}" (known: ${OPTIONS.join(', ')})`);
  }
  const limits = resolveLimits(options.limits);
  // The core's parse budget is the instance's: lowered for the server, never raised.
  if (getLimits().maxParseBytes > limits.maxParseBytes) setLimits({ maxParseBytes: limits.maxParseBytes });
  const agents = agentsOf(options.agents);
  const judge = options.judge ?? null;
  if (judge !== null && (typeof judge !== 'object' || typeof judge.provider !== 'string' || typeof judge.model !== 'string')) {
    throw new EvalError('config', 'judge', 'createHandler: judge must be {provider, model, ...}');
  }
  const token = typeof options.token === 'string' && options.token !== '' ? options.token : null;
  const redact = redactor(secretsOf(options));
  const log = typeof options.log === 'function' ? options.log : null;
  const cors = corsOf(options.cors);
  let inFlight = 0;
  // One key, one back-off: a 429 from the judge (or a client's control line) holds every
  // request's next judge call on this instance.
  const pace = instancePace(judge, limits);
  const evalSets = options.store === undefined || options.store === null ? null : evalSetsManager(options.store);

  handle.evalSets = evalSets;
  return handle;

  async function handle(request, env, ctx) {
    const t0 = Date.now();
    let response;
    let url;
    let code;
    try {
      url = new URL(request.url);
      response = await route(request, url);
    } catch (e) {
      const err = e instanceof HttpError ? e : internal(e);
      code = err.code;
      response = errorResponse(err, redact);
    }
    if (cors !== null) response = withCors(response, request.headers.get('origin'), cors);
    if (log !== null) {
      try {
        log({
          method: request.method, path: url?.pathname ?? '', status: response.status, ms: Date.now() - t0,
          ...(code === undefined ? {} : { code }),
        });
      } catch {
        // A failing logger never fails the request.
      }
    }
    return response;
  }

  function internal(e) {
    const what = e instanceof Error ? e.message : String(e);
    return new HttpError(500, 'internal', '', redact(`evalcore server: internal error: ${what}`));
  }

  async function route(request, url) {
    const methods = ROUTES[url.pathname];
    if (methods === undefined) throw new HttpError(404, 'not_found', '', `no route ${url.pathname} (routes: ${Object.keys(ROUTES).join(', ')})`);
    // A browser's preflight: answered without the token (it carries none), only where CORS is on.
    if (request.method === 'OPTIONS' && cors !== null) {
      return new Response(null, {
        status: 204,
        headers: {
          'access-control-allow-methods': methods.join(', '),
          'access-control-allow-headers': 'authorization, content-type, accept',
          'access-control-max-age': '600',
        },
      });
    }
    if (!methods.includes(request.method)) {
      throw new HttpError(405, 'method_not_allowed', '', `${url.pathname} takes ${methods.join(' or ')}, not ${request.method}`, { allow: methods.join(', ') });
    }
    if (url.pathname === '/healthz') return json(200, { ok: true, version: coreVersion() }, redact);
    if (token !== null) await checkToken(request, token);
    switch (url.pathname) {
      case '/v1/metrics': return json(200, { metrics: metricsInfo() }, redact);
      case '/v1/validate': return validateRoute(await bodyOf(request));
      default: return evaluateRoute(request);
    }
  }

  async function bodyOf(request) {
    return parseBody(await readCapped(request.body, request.headers.get('content-length'), limits.maxBodyBytes, 'the request body'));
  }

  /**
   * An evaluate request: a JSON body, or an ndjson one whose first line is the request and whose
   * further lines (`rest`) are control lines sent while the evaluation runs (pace.js).
   */
  async function evaluateBodyOf(request) {
    if (!(request.headers.get('content-type') ?? '').includes(NDJSON)) return { body: await bodyOf(request), rest: null };
    const { first, rest } = await firstLine(request.body, limits.maxBodyBytes);
    try {
      return { body: parseBody(first), rest };
    } catch (e) {
      rest?.reader.cancel().catch(() => {});
      throw e;
    }
  }

  function parseBody(bytes) {
    if (bytes.byteLength === 0) throw new HttpError(400, 'invalid_json', '$', 'the request body is empty; send a JSON object');
    let body;
    try {
      body = parseJsonBytes(bytes, 'the request body');
    } catch (e) {
      throw badInput(e);
    }
    if (body === null || typeof body !== 'object' || Array.isArray(body)) {
      throw new HttpError(400, 'schema', '$', `the request body must be a JSON object, found ${Array.isArray(body) ? 'an array' : typeof body}`);
    }
    return body;
  }

  function validateRoute(body) {
    for (const k of Object.keys(body)) {
      if (k !== 'evalSet' && k !== 'config') throw new HttpError(400, 'schema', `$.${k}`, `unknown field "${k}" (known: evalSet, config)`);
    }
    if (body.evalSet === undefined && body.config === undefined) {
      throw new HttpError(400, 'schema', '$', 'give evalSet, config or both');
    }
    const out = { ok: true };
    if (body.evalSet !== undefined) {
      const r = validateEvalSet(body.evalSet);
      out.evalSet = { ok: r.ok, errors: r.errors.map(plain) };
      out.ok &&= r.ok;
    }
    if (body.config !== undefined) {
      const r = validateEvalConfig(body.config);
      out.config = { ok: r.ok, errors: r.errors.map(plain), warnings: r.warnings.map(plain) };
      out.ok &&= r.ok;
    }
    return json(200, out, redact);
  }

  async function evaluateRoute(request) {
    if (inFlight >= limits.maxConcurrent) {
      throw new HttpError(429, 'too_many_requests', '', `this server runs at most ${limits.maxConcurrent} evaluations at once (maxConcurrent); retry later`, { 'retry-after': '1' });
    }
    inFlight++;
    let released = false;
    const release = () => {
      if (!released) {
        released = true;
        inFlight--;
      }
    };
    // The slot is this function's until a stream takes it over (and releases it when it ends).
    let owner = true;
    let rest = null;
    try {
      const read = await evaluateBodyOf(request);
      rest = read.rest;
      const job = prepare(read.body);
      // The request's evaluation stops when its client goes away (or the stream is cancelled),
      // or with the error of a bad control line.
      const abort = new AbortController();
      const signal = request.signal;
      if (signal) {
        if (signal.aborted) abort.abort(signal.reason);
        else signal.addEventListener('abort', () => abort.abort(signal.reason), { once: true });
      }
      if (job.judged) await checkPlannedCalls(job);
      followControl(rest, pace, abort.signal, (err) => abort.abort(err), limits.maxBodyBytes);
      rest = null;
      if ((request.headers.get('accept') ?? '').includes(NDJSON)) {
        owner = false;
        return streamJob(job, abort, release);
      }
      try {
        return json(200, (await run(job, abort.signal, () => {})).result, redact);
      } catch (e) {
        throw abort.signal.reason instanceof HttpError ? abort.signal.reason : e;
      } finally {
        abort.abort(new Error('the evaluation ended'));
      }
    } finally {
      rest?.reader.cancel().catch(() => {});
      if (owner) release();
    }
  }

  /** The request checked and read into what a run needs; every problem is a 400 with its path. */
  function prepare(body) {
    for (const k of Object.keys(body)) {
      if (!EVALUATE_FIELDS.includes(k)) throw new HttpError(400, 'schema', `$.${k}`, `unknown field "${k}" (known: ${EVALUATE_FIELDS.join(', ')})`);
    }
    if (body.evalSet === undefined || body.evalSet === null) throw new HttpError(400, 'schema', '$.evalSet', 'evalSet is required (an eval set in any shape loadEvalSet reads)');
    let set;
    try {
      set = loadEvalSet(body.evalSet);
    } catch (e) {
      throw badInput(e, '$.evalSet');
    }
    if (set.eval_cases.length > limits.maxCases) {
      throw new HttpError(413, 'too_many_cases', '$.evalSet.eval_cases', `the eval set has ${set.eval_cases.length} cases; this server scores at most ${limits.maxCases} per request (maxCases)`);
    }
    const config = body.config ?? null;
    let loaded;
    try {
      loaded = loadEvalConfig(config);
    } catch (e) {
      throw badInput(e, '$.config');
    }
    let numRuns = 1;
    if (body.numRuns !== undefined && body.numRuns !== null) {
      if (!Number.isInteger(body.numRuns) || body.numRuns < 1) throw new HttpError(400, 'schema', '$.numRuns', 'numRuns must be a whole number of at least 1');
      if (body.numRuns > limits.maxRuns) throw new HttpError(413, 'too_many_runs', '$.numRuns', `numRuns is ${body.numRuns}; this server runs at most ${limits.maxRuns} (maxRuns)`);
      numRuns = body.numRuns;
    }
    const has = (v) => v !== undefined && v !== null;
    const pace = { concurrency: limits.judgeConcurrency, perMinute: null };
    if (has(body.judgeConcurrency)) {
      const n = body.judgeConcurrency;
      if (!Number.isInteger(n) || n < 1) throw new HttpError(400, 'schema', '$.judgeConcurrency', 'judgeConcurrency must be a whole number of at least 1');
      if (n > limits.judgeConcurrency) {
        throw new HttpError(400, 'schema', '$.judgeConcurrency', `judgeConcurrency is ${n}; this server has at most ${limits.judgeConcurrency} judge calls of one request in flight (judgeConcurrency)`);
      }
      pace.concurrency = n;
    }
    if (has(body.judgeCallsPerMinute)) {
      const n = body.judgeCallsPerMinute;
      if (!Number.isInteger(n) || n < 1) throw new HttpError(400, 'schema', '$.judgeCallsPerMinute', 'judgeCallsPerMinute must be a whole number of at least 1');
      pace.perMinute = n;
    }
    if (has(body.caseJudgeStats) && typeof body.caseJudgeStats !== 'boolean') {
      throw new HttpError(400, 'schema', '$.caseJudgeStats', 'caseJudgeStats must be true or false (true: each case result line of the stream follows a {"judge_stats": {eval_id, ...counters}} line)');
    }
    if (has(body.actual) === has(body.agent)) {
      throw new HttpError(400, 'schema', '$', 'give exactly one of actual (recorded invocations by eval id) and agent (the name of an agent this server runs)');
    }
    const judged = judge !== null && metricsInfo().some((m) => m.needs_judge && Object.hasOwn(loaded.criteria ?? {}, m.name));
    if (has(body.agent)) {
      if (typeof body.agent !== 'string') throw new HttpError(400, 'schema', '$.agent', 'agent must be the name of an agent this server runs');
      const agent = agents.get(body.agent);
      if (agent === undefined) {
        throw new HttpError(400, 'unknown_agent', '$.agent', agents.size === 0 ? 'this server runs no agents; send actual (recorded invocations) instead'
          : `no agent "${body.agent}" here (agents: ${[...agents.keys()].join(', ')})`);
      }
      return { mode: 'agent', set, body, config, numRuns, agent, judged: false, pace };
    }
    const actual = body.actual;
    if (typeof actual !== 'object' || Array.isArray(actual)) throw new HttpError(400, 'schema', '$.actual', 'actual must map eval ids to arrays of invocations');
    if (numRuns !== 1) throw new HttpError(400, 'schema', '$.numRuns', 'numRuns applies to agent runs; recorded invocations are one run');
    const ids = new Set(set.eval_cases.map((c) => c.eval_id));
    for (const [id, v] of Object.entries(actual)) {
      if (!ids.has(id)) throw new HttpError(400, 'schema', `$.actual${member(id)}`, `the eval set has no case "${id}"`);
      if (!Array.isArray(v)) throw new HttpError(400, 'schema', `$.actual${member(id)}`, 'expected an array of invocations');
    }
    for (const id of ids) {
      if (!Object.hasOwn(actual, id)) throw new HttpError(400, 'schema', `$.actual${member(id)}`, `no recorded invocations for case "${id}"`);
    }
    return { mode: 'recorded', set, body, config, numRuns, judged, pace };
  }

  /** Recorded runs can be planned: a request whose judge calls would pass maxCalls is refused before any call. */
  async function checkPlannedCalls(job) {
    let planned = 0;
    for (const [i, c] of job.set.eval_cases.entries()) {
      let plan;
      try {
        plan = await planJudgeCalls({ evalCase: c, actual: job.body.actual[c.eval_id], config: job.config, judge: pace.judgeFor(null).judge, evalSetId: job.set.eval_set_id });
      } catch (e) {
        // A case the core refuses to score is refused here, as scoring it would be.
        throw e instanceof EvalError && e.code !== 'trap' ? caseError(e, i, c.eval_id) : badInput(e);
      }
      planned += plan.count + (plan.pendingValidatorCallsAtMost ?? 0);
    }
    if (planned > limits.maxCalls) {
      throw new HttpError(413, 'too_many_judge_calls', '$.config', `scoring this request takes up to ${planned} judge calls; this server makes at most ${limits.maxCalls} per request (maxCalls)`);
    }
  }

  /** Runs a job; `onResult` gets each EvalCaseResult as it is scored. Resolves to `{result, calls}`. */
  async function run(job, signal, onResult, onThrottle) {
    const j = pace.judgeFor(signal, job.pace, onThrottle);
    if (job.mode === 'agent') {
      let result;
      try {
        result = await evaluate({
          evalSet: job.body.evalSet, agent: job.agent, config: job.config, judge: j.judge, numRuns: job.numRuns, signal,
          concurrency: limits.caseConcurrency, agentTimeoutMs: limits.agentTimeoutMs, onCaseResult: onResult,
        });
      } catch (e) {
        throw badInput(e);
      }
      return { result, calls: j.calls() };
    }
    const cases = job.set.eval_cases;
    const results = new Array(cases.length);
    // The shard's judge counters, every case's summed (the summary line carries them).
    let judgeStats = j.judge === undefined ? null : addJudgeStats(null, null);
    let next = 0;
    let failure = null;
    const worker = async () => {
      while (next < cases.length && failure === null) {
        if (signal.aborted) throw cancelled(signal);
        const i = next++;
        const c = cases[i];
        // This case's judge counters (each scoring its own: cases run side by side).
        let caseStats = null;
        const onJudgeStats = (s) => {
          caseStats = s;
          judgeStats = addJudgeStats(judgeStats, s);
        };
        try {
          results[i] = await evaluateInvocations({
            evalCase: c, actual: job.body.actual[c.eval_id], config: job.config, judge: j.judge, evalSetId: job.set.eval_set_id, signal,
            ...(judgeStats === null ? {} : { onJudgeStats }),
          });
        } catch (e) {
          failure ??= e instanceof EvalError && e.code !== 'trap' ? caseError(e, i, c.eval_id) : badInput(e);
          throw failure;
        }
        if (signal.aborted) throw cancelled(signal);
        onResult(results[i], caseStats);
      }
    };
    const workers = Array.from({ length: Math.min(limits.caseConcurrency, cases.length) }, worker);
    const settled = await Promise.allSettled(workers);
    if (failure !== null) throw failure;
    const rejected = settled.find((s) => s.status === 'rejected');
    if (rejected) throw rejected.reason;
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

  /** What a case the core refused to score (count_mismatch, duplicate rubric ids) answers. */
  function caseError(e, index, id) {
    const path = e.path.startsWith('$.actual') ? `$.actual${member(id)}${e.path.slice('$.actual'.length)}`
      : e.path.startsWith('$.evalCase') ? `$.evalSet.eval_cases[${index}]${e.path.slice('$.evalCase'.length)}`
        : e.path === '' ? `$.actual${member(id)}` : e.path;
    return new HttpError(400, e.code, path, `case "${id}": ${e.message}`);
  }

  function streamJob(job, abort, release) {
    const encoder = new TextEncoder();
    let controller;
    let open = true;
    const push = (value) => {
      if (!open) return;
      try {
        controller.enqueue(encoder.encode(`${redact(JSON.stringify(value))}\n`));
      } catch {
        open = false;
      }
    };
    const stream = new ReadableStream({
      start(c) {
        controller = c;
      },
      cancel(reason) {
        open = false;
        abort.abort(reason ?? new Error('the client cancelled the response'));
      },
    });
    const seen = [];
    const withStats = job.body.caseJudgeStats === true;
    run(job, abort.signal, (r, stats) => {
      seen.push(r);
      // A sharded run's client counts a case's judge calls only with the case it keeps.
      if (withStats && stats) push({ judge_stats: { eval_id: r.eval_id, ...stats } });
      push(r);
    }, (ms) => push({ judge_throttled: { retry_after_ms: ms } })).then(({ result, calls }) => {
      push({ summary: summaryOf(result, calls) });
    }, (e) => {
      // Cancelled by the client (nothing to tell), or by a bad control line (its error).
      if (abort.signal.aborted && !(abort.signal.reason instanceof HttpError)) return;
      const err = abort.signal.reason instanceof HttpError ? abort.signal.reason : e instanceof HttpError ? e : internal(e);
      push({ error: { code: err.code, path: err.path, message: err.message } });
    }).finally(() => {
      // The control lines are read no further.
      if (!abort.signal.aborted) abort.abort(new Error('the evaluation ended'));
      release();
      if (open) {
        open = false;
        try {
          controller.close();
        } catch {
          // Already cancelled by the client.
        }
      }
    });
    return new Response(stream, { status: 200, headers: { 'content-type': `${NDJSON}; charset=utf-8`, 'cache-control': 'no-store' } });
  }
}

/** The allowed origins of the `cors` option (an origin, a list of them, or "*"); null: CORS off. */
function corsOf(given) {
  if (given === undefined || given === null || given === false) return null;
  const list = typeof given === 'string' ? [given] : given;
  if (!Array.isArray(list) || list.length === 0 || list.some((o) => typeof o !== 'string' || !(o === '*' || /^https?:\/\/[^/\s]+$/.test(o)))) {
    throw new EvalError('config', 'cors', 'createHandler: cors must be "*" or origins like "https://app.example.com"');
  }
  return list;
}

/** The response with CORS headers for an allowed `origin` (and `Vary: Origin` either way). */
function withCors(response, origin, allowed) {
  const headers = new Headers(response.headers);
  headers.append('vary', 'Origin');
  if (origin !== null && (allowed.includes('*') || allowed.includes(origin))) {
    headers.set('access-control-allow-origin', allowed.includes('*') ? '*' : origin);
    headers.set('access-control-expose-headers', 'retry-after');
  }
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}

/** The last line of a stream: the EvalSetResult without its cases, the counts and runHealth. */
function summaryOf(result, calls) {
  const { eval_case_results: cases, ...rest } = result;
  // Cases the core did not run (judge budget spent, cancelled) are `skipped`, not lost.
  const counts = { cases: cases.length, passed: 0, failed: 0, not_evaluated: 0, skipped: Array.isArray(result.skipped) ? result.skipped.length : 0 };
  for (const r of cases) {
    if (r.final_eval_status === 'PASSED') counts.passed++;
    else if (r.final_eval_status === 'FAILED') counts.failed++;
    else counts.not_evaluated++;
  }
  const h = runHealth(result);
  return {
    ...rest, counts, judge_calls: calls,
    run_health: { count: h.count, byReason: h.byReason, caseErrors: h.caseErrors, summary: h.summary },
  };
}

function cancelled(signal) {
  const e = new Error('the evaluation was cancelled', { cause: signal.reason });
  e.name = 'AbortError';
  return e;
}

const plain = (e) => ({ code: e.code, path: e.path, message: e.message });

/** A JSON-path member: `.id` for plain names, `["..."]` otherwise. */
const member = (id) => (/^[A-Za-z_][A-Za-z0-9_]*$/.test(id) ? `.${id}` : `[${JSON.stringify(id)}]`);

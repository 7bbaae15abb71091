//! The eval routes of ADK's dev server, as ADK's dev UI (the Eval tab of the bundle inside
//! @google/adk-devtools) calls them: `/dev/apps/{app}/...` and the legacy `/apps/{app}/...`,
//! answered in camelCase with integer statuses, as google-adk 2.13's FastAPI server does.
//! A fetch-style handler that translates HTTP to the package API: eval sets through the
//! eval-set manager, runs through `evaluate`, a chatted session to invocations through the core.
//! ADK's rules (conversion, scoring, the by-alias dump) stay in the core.
import { EvalError } from '../errors.js';
import { loadEvalConfig, metricsInfo } from '../wasm/api.js';
import { evaluate } from '../run/evaluate.js';
import { adkApiJson, adkEvalSetResultText, pythonTime, sessionInvocations } from '../wasm/adk_text.js';
import { adkEventToJson } from '../adapters/common.js';
import { parseJsonBytes } from '../wasm/wire.js';
import { HttpError, readCapped } from './http.js';

const MAX_BODY = 8 * 1024 * 1024;
const SEGMENT = '([^/]+)';

// [method, path after /{prefix}apps/{app}, route name]. `eval_sets` and `eval-sets` spellings
// are both ADK's: the UI lists at one and creates at the other.
const TABLE = [
  ['GET', 'eval_sets', 'listEvalSetsLegacy'],
  ['GET', 'eval-sets', 'listEvalSets'],
  ['POST', 'eval-sets', 'createEvalSet'],
  ['POST', `eval_sets/${SEGMENT}`, 'createEvalSetLegacy'],
  ['GET', `eval_sets/${SEGMENT}`, 'getEvalSet'],
  ['DELETE', `eval_sets/${SEGMENT}`, 'deleteEvalSet'],
  ['POST', `eval_sets/${SEGMENT}/add_session`, 'addSession'],
  ['POST', `eval-sets/${SEGMENT}/add-session`, 'addSession'],
  ['GET', `eval_sets/${SEGMENT}/evals`, 'listEvalCases'],
  ['GET', `eval_sets/${SEGMENT}/evals/${SEGMENT}`, 'getEvalCase'],
  ['GET', `eval-sets/${SEGMENT}/eval-cases/${SEGMENT}`, 'getEvalCase'],
  ['PUT', `eval_sets/${SEGMENT}/evals/${SEGMENT}`, 'updateEvalCase'],
  ['PUT', `eval-sets/${SEGMENT}/eval-cases/${SEGMENT}`, 'updateEvalCase'],
  ['DELETE', `eval_sets/${SEGMENT}/evals/${SEGMENT}`, 'deleteEvalCase'],
  ['DELETE', `eval-sets/${SEGMENT}/eval-cases/${SEGMENT}`, 'deleteEvalCase'],
  ['POST', `eval_sets/${SEGMENT}/run_eval`, 'runEvalLegacy'],
  ['POST', `eval-sets/${SEGMENT}/run`, 'runEval'],
  ['GET', 'eval_results', 'listEvalResultsLegacy'],
  ['GET', 'eval-results', 'listEvalResults'],
  ['GET', `eval_results/${SEGMENT}`, 'getEvalResult'],
  ['GET', `eval-results/${SEGMENT}`, 'getEvalResult'],
  ['GET', 'metrics-info', 'metricsInfo'],
].map(([method, tail, name]) => ({ method, re: new RegExp(`^/(?:dev/)?apps/${SEGMENT}/${tail}$`), name }));

/** The route `method path` names, with its decoded path parameters, or null. */
export function matchDevUiRoute(method, pathname) {
  let pathOnly = false;
  for (const r of TABLE) {
    const m = r.re.exec(pathname);
    if (!m) continue;
    if (r.method !== method) {
      pathOnly = true;
      continue;
    }
    let params;
    try {
      params = m.slice(1).map(decodeURIComponent);
    } catch {
      return { name: 'badPath', params: [] };
    }
    return { name: r.name, params };
  }
  return pathOnly ? { name: 'wrongMethod', params: [] } : null;
}

const EVAL_METRIC_KEYS = new Set(['metric_name', 'metricName', 'threshold', 'criterion', 'judge_model_options', 'judgeModelOptions']);
const describe = (v) => (v === null ? 'null' : Array.isArray(v) ? 'an array' : typeof v);
const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);

/** `o[snake]` or `o[camel]` (ADK's request models take both). */
const either = (o, snake, camel) => (o[snake] !== undefined ? o[snake] : o[camel]);

function stringList(v, path) {
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v) || v.some((x) => typeof x !== 'string')) {
    throw new HttpError(400, 'schema', path, `expected a list of strings, found ${describe(v)}`);
  }
  return v;
}

function requiredString(body, snake, camel) {
  const v = either(body, snake, camel);
  if (typeof v !== 'string' || v === '') {
    throw new HttpError(400, 'schema', `$.${camel}`, `${camel} must be a non-empty string, found ${v === undefined ? 'nothing' : describe(v)}`);
  }
  return v;
}

/** The HTTP status of a manager's or the core's EvalError. */
function statusOf(e) {
  if (e.code === 'not_found') return 404;
  if (e.code === 'too_large') return 413;
  if (e.code === 'trap' || e.code === 'internal' || e.code === 'io') return 500;
  return 400;
}

/**
 * `evalMetrics` of a run request (`[{metricName, threshold?, criterion?}]`) as an eval config
 * the core then reads and checks: a metric with a criterion keeps it, its threshold on top.
 */
function configOf(metrics) {
  if (!Array.isArray(metrics)) {
    throw new HttpError(400, 'schema', '$.evalMetrics', `evalMetrics must be a list of {metricName, threshold}, found ${describe(metrics)}`);
  }
  // Keyed by names a client sends: no prototype, so `__proto__` is a name like any other (and
  // the core answers it unknown_metric).
  const criteria = Object.create(null);
  metrics.forEach((m, i) => {
    const path = `$.evalMetrics[${i}]`;
    if (!isObject(m)) throw new HttpError(400, 'schema', path, `expected {metricName, threshold}, found ${describe(m)}`);
    const name = either(m, 'metric_name', 'metricName');
    if (typeof name !== 'string' || name === '') throw new HttpError(400, 'schema', `${path}.metricName`, 'metricName must be a non-empty string');
    // ADK's EvalMetric forbids other fields; a custom metric's code path is not something a
    // request may name here (custom metrics come from the server's own configuration).
    for (const key of Object.keys(m)) {
      if (!EVAL_METRIC_KEYS.has(key)) {
        throw new HttpError(400, 'schema', `${path}.${key}`, `unknown field ${JSON.stringify(key)} in an eval metric (expected metricName, threshold, criterion, judgeModelOptions)`);
      }
    }
    const threshold = m.threshold;
    const criterion = m.criterion;
    const judgeOptions = either(m, 'judge_model_options', 'judgeModelOptions');
    if (criterion !== undefined && criterion !== null && !isObject(criterion)) {
      throw new HttpError(400, 'schema', `${path}.criterion`, `criterion must be an object, found ${describe(criterion)}`);
    }
    if (criterion || (judgeOptions !== undefined && judgeOptions !== null)) {
      const c = { ...(criterion ?? {}) };
      if (threshold !== undefined && threshold !== null) c.threshold = threshold;
      if (judgeOptions !== undefined && judgeOptions !== null) c.judge_model_options = judgeOptions;
      criteria[name] = c;
    } else {
      criteria[name] = threshold ?? null;
    }
  });
  try {
    return loadEvalConfig({ criteria });
  } catch (e) {
    if (!(e instanceof EvalError)) throw e;
    const path = e.path.replace(/^\$\.criteria\.?/, '$.evalMetrics.');
    throw new HttpError(400, e.code, path, e.message);
  }
}

/** ADK's MetricInfo for each metric the core can score (`kind` scored or judged). */
function metricsInfoBody() {
  const info = metricsInfo().filter((m) => m.kind === 'scored' || m.kind === 'judged').map((m) => ({
    metric_name: m.name,
    description: m.description,
    metric_value_info: { interval: { min_value: m.min, max_value: m.max, open_at_min: false, open_at_max: false } },
  }));
  return { metrics_info: info };
}

/**
 * What ADK's answer has no field for, as log lines: why a metric was NOT_EVALUATED, and why a
 * case's conversation could not be completed (the UI shows only the status).
 */
function unsaid(app, setId, caseResults) {
  const lines = [];
  for (const r of caseResults) {
    const where = `run_eval ${app}/${setId} case ${r.eval_id}`;
    if (r.error) lines.push(`${where}: ${r.error.code ?? 'error'}: ${r.error.message ?? ''}`);
    for (const m of r.overall_eval_metric_results ?? []) {
      if (m.eval_status === 'NOT_EVALUATED' && m.details?.error) lines.push(`${where}: ${m.metric_name} NOT_EVALUATED: ${m.details.error}`);
    }
  }
  return lines;
}

/** ADK's RunEvalResult of each case result (snake_case, integer statuses, as ADK writes). */
function runEvalResults(stored) {
  const written = JSON.parse(adkEvalSetResultText(stored));
  return written.eval_case_results.map((r) => ({
    eval_set_file: r.eval_set_file,
    eval_set_id: r.eval_set_id,
    eval_id: r.eval_id,
    final_eval_status: r.final_eval_status,
    overall_eval_metric_results: r.overall_eval_metric_results,
    eval_metric_result_per_invocation: r.eval_metric_result_per_invocation,
    user_id: r.user_id,
    session_id: r.session_id,
  }));
}

/**
 * The dev UI's eval routes. Options:
 * - `evalSets`: an eval-set manager (`evalSetsManager(store)` from `evalcore/server`);
 * - `agentFor(appName)`: the evalcore Agent that runs app `appName` (e.g. `fromAdkAgent(root,
 *   { sessionService })`), so an eval's sessions land where the UI reads them;
 * - `sessionService`: the @google/adk session service the chat ran in (add_session reads it);
 * - `judge`: the judge LLM-judged metrics use (as `evaluate` takes it), optional;
 * - `maxBodyBytes` (default 8 MiB);
 * - `log(line)`: told what the UI cannot show (why a metric was NOT_EVALUATED, why a case's
 *   conversation failed), optional.
 * Returns `handle(request)`: a Response for an eval route, `null` for any other path.
 */
export function devUiRoutes(options = {}) {
  if (!isObject(options)) throw new EvalError('config', '', 'devUiRoutes: options must be an object');
  const { evalSets, agentFor, sessionService, judge = null, maxBodyBytes = MAX_BODY, log = null } = options;
  if (log !== null && typeof log !== 'function') throw new EvalError('config', 'log', 'devUiRoutes: log must be a function (line) => void');
  for (const name of ['listEvalSets', 'getEvalSet', 'createEvalSet', 'addEvalCase', 'saveEvalSetResult']) {
    if (!evalSets || typeof evalSets[name] !== 'function') {
      throw new EvalError('config', 'evalSets', `devUiRoutes: evalSets must be an eval-set manager (evalSetsManager(store)); it has no ${name}`);
    }
  }
  if (typeof agentFor !== 'function') throw new EvalError('config', 'agentFor', 'devUiRoutes: agentFor must be a function (appName) => Agent');
  if (!sessionService || typeof sessionService.getSession !== 'function') {
    throw new EvalError('config', 'sessionService', 'devUiRoutes: sessionService must be an @google/adk session service (it has no getSession)');
  }

  async function body(request) {
    const bytes = await readCapped(request.body, request.headers.get('content-length'), maxBodyBytes, 'the request body');
    if (bytes.byteLength === 0) return {};
    try {
      return parseJsonBytes(bytes);
    } catch (e) {
      if (e instanceof EvalError) throw new HttpError(statusOf(e), e.code, e.path, `the request body: ${e.message}`);
      throw e;
    }
  }

  async function objectBody(request) {
    const b = await body(request);
    if (!isObject(b)) throw new HttpError(400, 'schema', '$', `the request body must be a JSON object, found ${describe(b)}`);
    return b;
  }

  async function existingSet(app, setId) {
    const set = await evalSets.getEvalSet(app, setId);
    if (set === null) throw new HttpError(400, 'not_found', '', `Eval set \`${setId}\` not found.`);
    return set;
  }

  async function run(request, app, setId) {
    const b = await objectBody(request);
    const evalSet = await existingSet(app, setId);
    const ids = stringList(either(b, 'eval_case_ids', 'evalCaseIds'), '$.evalCaseIds');
    const legacyIds = stringList(either(b, 'eval_ids', 'evalIds'), '$.evalIds');
    const wanted = ids.length > 0 ? ids : legacyIds;
    const metrics = either(b, 'eval_metrics', 'evalMetrics');
    if (metrics === undefined) throw new HttpError(400, 'schema', '$.evalMetrics', 'evalMetrics is required: the metrics to run, [{metricName, threshold}]');
    const config = configOf(metrics);
    const known = new Set(evalSet.eval_cases.map((c) => c.eval_id));
    const missing = wanted.filter((id) => !known.has(id));
    if (missing.length > 0) {
      throw new HttpError(400, 'not_found', '$.evalCaseIds', `eval case ${JSON.stringify(missing[0])} is not in eval set \`${setId}\``);
    }
    const agent = await agentFor(app);
    const result = await evaluate({
      evalSet, agent, config, judge: judge ?? undefined, appName: app,
      evalIds: wanted.length > 0 ? wanted : undefined, signal: request.signal,
    });
    if (log) for (const line of unsaid(app, setId, result.eval_case_results)) log(line);
    const stored = await evalSets.saveEvalSetResult(app, setId, result.eval_case_results);
    return runEvalResults(stored);
  }

  const routes = {
    async listEvalSetsLegacy(_, app) { return evalSets.listEvalSets(app); },
    async listEvalSets(_, app) { return { eval_set_ids: await evalSets.listEvalSets(app) }; },
    async createEvalSet(request, app) {
      const b = await objectBody(request);
      const set = either(b, 'eval_set', 'evalSet');
      if (!isObject(set)) throw new HttpError(400, 'schema', '$.evalSet', `evalSet must be an object with eval_set_id, found ${set === undefined ? 'nothing' : describe(set)}`);
      const id = either(set, 'eval_set_id', 'evalSetId');
      if (typeof id !== 'string') throw new HttpError(400, 'schema', '$.evalSet.evalSetId', `eval_set_id must be a string, found ${id === undefined ? 'nothing' : describe(id)}`);
      return evalSets.createEvalSet(app, id);
    },
    async createEvalSetLegacy(_, app, setId) {
      await evalSets.createEvalSet(app, setId);
      return null;
    },
    async getEvalSet(_, app, setId) {
      const set = await evalSets.getEvalSet(app, setId);
      if (set === null) throw new HttpError(404, 'not_found', '', `Eval set \`${setId}\` not found.`);
      return set;
    },
    async deleteEvalSet() {
      throw new HttpError(501, 'unsupported', '', 'deleting an eval set is not supported: the eval-set manager has no delete operation (ADK 2.13 serves none either); delete its cases instead');
    },
    async addSession(request, app, setId) {
      const b = await objectBody(request);
      const evalId = requiredString(b, 'eval_id', 'evalId');
      const sessionId = requiredString(b, 'session_id', 'sessionId');
      const userId = requiredString(b, 'user_id', 'userId');
      const session = await sessionService.getSession({ appName: app, userId, sessionId });
      if (!session) throw new HttpError(404, 'not_found', '$.sessionId', `session ${JSON.stringify(sessionId)} of user ${JSON.stringify(userId)} not found for app ${JSON.stringify(app)}`);
      const events = session.events ?? [];
      if (!Array.isArray(events)) throw new HttpError(400, 'schema', '$.events', `session ${JSON.stringify(sessionId)}: its events are not a list`);
      // The core converts; a session that is not ADK's shape is an error naming the event.
      const conversation = sessionInvocations(events.map((e, i) => {
        if (!isObject(e)) throw new HttpError(400, 'schema', `$.events[${i}]`, `session ${JSON.stringify(sessionId)}: event ${i} is ${describe(e)}, not an event`);
        return adkEventToJson(e, `session event ${i}`);
      }));
      await evalSets.addEvalCase(app, setId, {
        eval_id: evalId,
        conversation,
        session_input: { app_name: app, user_id: userId, state: {} },
        creation_timestamp: pythonTime(),
      });
      return null;
    },
    async listEvalCases(_, app, setId) {
      const set = await existingSet(app, setId);
      return set.eval_cases.map((c) => c.eval_id).sort();
    },
    async getEvalCase(_, app, setId, caseId) {
      const c = await evalSets.getEvalCase(app, setId, caseId);
      if (c === null) throw new HttpError(404, 'not_found', '', `Eval set \`${setId}\` or Eval \`${caseId}\` not found.`);
      return c;
    },
    async updateEvalCase(request, app, setId, caseId) {
      const b = await objectBody(request);
      const given = either(b, 'eval_id', 'evalId');
      if (given !== undefined && given !== null && given !== '' && given !== caseId) {
        throw new HttpError(400, 'schema', '$.evalId', 'Eval id in EvalCase should match the eval id in the API route.');
      }
      const { evalId: _camel, ...rest } = b;
      await evalSets.updateEvalCase(app, setId, { ...rest, eval_id: caseId });
      return null;
    },
    async deleteEvalCase(_, app, setId, caseId) {
      await evalSets.deleteEvalCase(app, setId, caseId);
      return null;
    },
    async runEvalLegacy(request, app, setId) { return run(request, app, setId); },
    async runEval(request, app, setId) { return { run_eval_results: await run(request, app, setId) }; },
    async listEvalResultsLegacy(_, app) { return evalSets.listEvalSetResults(app); },
    async listEvalResults(_, app) { return { eval_result_ids: await evalSets.listEvalSetResults(app) }; },
    async getEvalResult(_, app, resultId) {
      const r = await evalSets.getEvalSetResult(app, resultId);
      if (r === null) throw new HttpError(404, 'not_found', '', `eval result ${JSON.stringify(resultId)} not found for app ${JSON.stringify(app)}`);
      return JSON.parse(adkEvalSetResultText(r));
    },
    async metricsInfo() { return metricsInfoBody(); },
  };

  return async function handle(request) {
    const url = new URL(request.url);
    const route = matchDevUiRoute(request.method, url.pathname);
    if (route === null) return null;
    try {
      if (route.name === 'wrongMethod') throw new HttpError(405, 'method_not_allowed', '', `${request.method} is not served at ${url.pathname}`);
      if (route.name === 'badPath') throw new HttpError(400, 'schema', '', `the path ${url.pathname} has a malformed %-escape`);
      const value = await routes[route.name](request, ...route.params);
      return reply(200, value === null ? null : adkApiJson(value));
    } catch (e) {
      if (e instanceof HttpError) return failure(e.status, e.code, e.path, e.message);
      if (e instanceof EvalError) return failure(statusOf(e), e.code, e.path, e.message);
      if (request.signal?.aborted) return failure(499, 'client_closed', '', 'the client went away');
      return failure(500, 'internal', '', `${route.name} failed: ${e && e.message ? e.message : String(e)}`);
    }
  };
}

function reply(status, value) {
  return new Response(JSON.stringify(value), {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' },
  });
}

/**
 * FastAPI's `{detail}` (what the UI reads) beside our `{error: {code, path, message}}`; the code
 * also in a header, for the request log.
 */
function failure(status, code, path, message) {
  const r = reply(status, { detail: message, error: { code, path, message } });
  r.headers.set('x-evalcore-error', code);
  return r;
}

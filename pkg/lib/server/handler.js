//! The evaluation endpoint as one fetch handler, `(request, env?, ctx?) => Promise<Response>`,
//! the same in workerd, Deno and Node: its options, the guards every request passes (Host,
//! Origin, body type, token), the routes, and the request log. Routes translate HTTP to the
//! package API and back; every ADK rule stays in the core. The evaluate route is
//! evaluate_route.js; what it answers, answer.js.
import { EvalError } from '../errors.js';
import { coreVersion, getLimits, metricsInfo, setLimits, validateEvalConfig, validateEvalSet } from '../wasm/api.js';
import { parseJsonBytes } from '../wasm/wire.js';
import { evalSetsManager } from '../store/manager.js';
import { agentsOf } from './agents.js';
import { resolveLimits, secretsOf } from './config.js';
import { corsOf, preflight, withCors } from './cors.js';
import { evaluateRoute, slots } from './evaluate_route.js';
import { bodyTypeRefusal, fetchHeaders, hostPolicy, refusalOf } from './guard.js';
import { HttpError, badInput, checkToken, deadlineIn, errorResponse, json, readCapped, redactor } from './http.js';
import { CLIENT_CLOSED, requestLog } from './log.js';
import { NDJSON } from './answer.js';
import { instancePace } from './pace.js';
import { uriRules } from './media_uris.js';
import { runsRouteOf, runsRoutes } from './runs/routes.js';
import { isTracesPath, tracesRoute } from './traces/traces_route.js';
import { localTraces, tracesOptions } from './traces/trace_backend.js';

const OPTIONS = ['judge', 'agents', 'token', 'limits', 'log', 'cors', 'store', 'allowedHosts', 'runs', 'judgeCallsPerMinute', 'traces'];
const ROUTES = {
  '/healthz': ['GET', 'HEAD'],
  '/v1/metrics': ['GET', 'HEAD'],
  '/v1/evaluate': ['POST'],
  '/v1/validate': ['POST'],
};
const BODY_TYPES = {
  '/v1/evaluate': ['application/json', NDJSON],
  '/v1/validate': ['application/json'],
};

/**
 * Options: `judge` ({provider, model, baseUrl?, headers?, fetch?, timeoutMs?, maxRetries?,
 * concurrency?, media?, mediaUris?}: the only judge requests get; with `media`, a request whose
 * file_data URIs `mediaUris` does not allow is refused (default: every one), `agents` ({name: Agent | {url, headers?}}),
 * `token` (bearer token for the /v1 routes), `limits` (see DEFAULT_LIMITS), `log` (called with
 * one object per request: method, path without its query, status, ms, code; never a header or a
 * body), `cors` (origins whose pages may call), `allowedHosts` (the names the Host header may
 * give, `*` or unset: any; docs/security.md), `store` (a Store: the handler's `evalSets` is then
 * an eval-set manager over it, for routes mounted beside these), `runs` (the job API's keeper:
 * localRuns({dir}) or the Workers deployment's; docs/runs.md), `judgeCallsPerMinute` (the
 * judge key's budget every run shares).
 */
export function createHandler(options = {}) {
  const server = serverOf(options);
  const evaluate = evaluateRoute(server);
  const traces = tracesRoute(server, server.traces);
  const logFor = requestLog(server.log, server.redact);
  const runs = typeof options.runs === 'function' ? options.runs(server) : null;
  const runsRoute = runsRoutes(server);
  handle.evalSets = server.evalSets;
  handle.runs = runs;
  return handle;

  async function handle(request, env, ctx) {
    let url = null;
    try {
      url = new URL(request.url);
    } catch {
      // Answered below as a 400.
    }
    const entry = logFor(request.method, url ?? request.url);
    let response;
    let code;
    try {
      if (url === null) throw new HttpError(400, 'bad_request', '', 'the request URL is not one');
      response = await route(request, url, entry, env, ctx);
    } catch (e) {
      const err = failure(e, request);
      code = err.code;
      response = errorResponse(err, server.redact);
    }
    if (server.cors !== null) response = withCors(response, request.headers.get('origin'), server.cors);
    if (!entry.deferred) entry.end(response.status, code);
    return response;
  }

  /** The error a failure answers: a client that left is 499 `client_closed`, not our 500. */
  function failure(e, request) {
    if (request.signal?.aborted && !(e instanceof HttpError && e.status < 500)) {
      return new HttpError(CLIENT_CLOSED, 'client_closed', '', 'the client closed the request before its answer');
    }
    return e instanceof HttpError ? e : server.internal(e);
  }

  async function route(request, url, entry, env, ctx) {
    const refused = refusalOf(fetchHeaders(request), server.policy);
    if (refused !== null) throw new HttpError(refused.status, refused.code, '', refused.message);
    if (isTracesPath(url.pathname)) return traces(request, url, env, deadlineIn(server.limits.bodyTimeoutMs));
    const runsWhere = runsRouteOf(url.pathname);
    const methods = runsWhere?.methods ?? (Object.hasOwn(ROUTES, url.pathname) ? ROUTES[url.pathname] : undefined);
    if (methods === undefined) {
      throw new HttpError(404, 'not_found', '', `no route ${url.pathname} (routes: ${[...Object.keys(ROUTES), '/v1/runs'].join(', ')})`);
    }
    if (request.method === 'OPTIONS' && server.cors !== null) return preflight(methods);
    if (!methods.includes(request.method)) {
      throw new HttpError(405, 'method_not_allowed', '', `${url.pathname} takes ${methods.join(' or ')}, not ${request.method}`, { allow: methods.join(', ') });
    }
    if (url.pathname === '/healthz') return json(200, { ok: true, version: coreVersion() }, server.redact);
    if (server.token !== null) await checkToken(request, server.token);
    if (runsWhere !== null) return runsRoute(request, url, runsWhere, runs?.backend(env, ctx) ?? null, entry);
    if (Object.hasOwn(BODY_TYPES, url.pathname)) {
      const wrongType = bodyTypeRefusal(fetchHeaders(request), BODY_TYPES[url.pathname]);
      if (wrongType !== null) throw new HttpError(wrongType.status, wrongType.code, '', wrongType.message);
    }
    const deadline = deadlineIn(server.limits.bodyTimeoutMs);
    switch (url.pathname) {
      case '/v1/metrics': return json(200, { metrics: metricsInfo() }, server.redact);
      case '/v1/validate': return validateRoute(await server.readJson(request, deadline), server.redact);
      default: return evaluate(request, deadline, entry);
    }
  }
}

/** The handler's options checked and made into what its routes share. */
function serverOf(options) {
  if (options === null || typeof options !== 'object') throw new EvalError('config', '', 'createHandler: options must be an object');
  for (const k of Object.keys(options)) {
    if (!OPTIONS.includes(k)) throw new EvalError('config', k, `createHandler: unknown option "${k}" (known: ${OPTIONS.join(', ')})`);
  }
  const limits = resolveLimits(options.limits);
  // The core's parse budget is the instance's: lowered for the server, never raised.
  if (getLimits().maxParseBytes > limits.maxParseBytes) setLimits({ maxParseBytes: limits.maxParseBytes });
  let judge = options.judge ?? null;
  if (judge !== null && (typeof judge !== 'object' || typeof judge.provider !== 'string' || typeof judge.model !== 'string')) {
    throw new EvalError('config', 'judge', 'createHandler: judge must be {provider, model, ...}');
  }
  // A URI in a client's invocations would be fetched by the judge's provider with the server's
  // key: with media on, a request naming one the server does not list is refused (job.js).
  let mediaRules = null;
  if (judge !== null) {
    const { mediaUris, ...rest } = judge;
    if (rest.media === true) mediaRules = uriRules(mediaUris ?? [], 'judge.mediaUris');
    // A client's case must not make the server's key carry a prompt past the limit (a custom
    // metric's template may repeat a placeholder): the judge's own bound, if lower, stays.
    judge = { ...rest, maxPromptBytes: Math.min(rest.maxPromptBytes ?? Infinity, limits.maxPromptBytes) };
  }
  const perMinute = options.judgeCallsPerMinute ?? null;
  if (perMinute !== null && !(Number.isSafeInteger(perMinute) && perMinute >= 1)) {
    throw new EvalError('config', 'judgeCallsPerMinute', 'createHandler: judgeCallsPerMinute must be a whole number of at least 1 (calls a minute)');
  }
  const redact = redactor(secretsOf(options));
  const cors = corsOf(options.cors);
  const server = {
    limits,
    judge,
    mediaRules,
    redact,
    cors,
    agents: agentsOf(options.agents),
    judgeCallsPerMinute: perMinute,
    token: typeof options.token === 'string' && options.token !== '' ? options.token : null,
    log: typeof options.log === 'function' ? options.log : null,
    policy: { hosts: hostsOf(options.allowedHosts), origins: cors ?? [] },
    // One key, one back-off: a 429 from the judge (or a client's control line) holds every
    // request's next judge call on this instance.
    pace: instancePace(judge, limits),
    slots: slots(limits.maxConcurrent),
    evalSets: options.store === undefined || options.store === null ? null : evalSetsManager(options.store),
    internal(e) {
      const what = e instanceof Error ? e.message : String(e);
      return new HttpError(500, 'internal', '', redact(`evalcore server: internal error: ${what}`));
    },
    // /v1/traces' sessions: held in this process, except in Workers (an isolate lives for a
    // request; there a Durable Object holds them, traces_route.js).
    traces: null,
    parseJson: parseBody,
    async readJson(request, deadline) {
      return parseBody(await readCapped(request.body, request.headers.get('content-length'), limits.maxBodyBytes, 'the request body', deadline));
    },
  };
  const tracing = tracesOptions(options.traces);
  if (globalThis.navigator?.userAgent !== 'Cloudflare-Workers') {
    server.traces = localTraces({
      limits, options: { ...tracing, store: tracing.store ?? options.store ?? null },
      judgeFor: () => server.pace.judgeFor(null).judge, log: server.log ?? (() => {}),
    });
  }
  return server;
}

/** The `allowedHosts` option as a host policy: null (any Host) when unset or `*`. */
function hostsOf(given) {
  if (given === undefined || given === null) return null;
  const list = typeof given === 'string' ? [given] : given;
  if (!Array.isArray(list)) throw new EvalError('config', 'allowedHosts', 'createHandler: allowedHosts must be a list of host names or "*"');
  try {
    return hostPolicy(list, [], 'createHandler: allowedHosts');
  } catch (e) {
    throw new EvalError('config', 'allowedHosts', e.message);
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

const plain = (e) => ({ code: e.code, path: e.path, message: e.message });

function validateRoute(body, redact) {
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

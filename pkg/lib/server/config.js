//! The endpoint's configuration: its defaults, and the options read from an environment (a
//! Workers `env`, `process.env`, `Deno.env.toObject()`). Only the server's own environment names
//! the judge, its key and the agents; nothing a client sends can.
import { EvalError } from '../errors.js';
import { hostList, hostPolicy } from './guard.js';
import { uriRule } from './media_uris.js';

/** Every limit of the endpoint, with its default (docs/endpoint.md). */
export const DEFAULT_LIMITS = Object.freeze({
  maxBodyBytes: 10 * 1024 * 1024, // a request body (EVALCORE_MAX_BODY_BYTES)
  maxCases: 100, // eval cases in one request (EVALCORE_MAX_CASES)
  maxRuns: 5, // numRuns (EVALCORE_MAX_RUNS)
  maxCalls: 200, // judge calls one request may make (EVALCORE_MAX_JUDGE_CALLS)
  maxConcurrent: 64, // evaluations in flight in one server instance (EVALCORE_MAX_CONCURRENT)
  agentTimeoutMs: 60_000, // one agent turn (EVALCORE_AGENT_TIMEOUT_MS)
  caseConcurrency: 4, // cases of one request scored at once (EVALCORE_CASE_CONCURRENCY)
  // Judge calls one request has in flight; a request may ask for fewer (`judgeConcurrency`),
  // never more, so a client sharding a run over many instances can split one key's allowance.
  judgeConcurrency: 16, // (EVALCORE_JUDGE_CONCURRENCY)
  // The core's parse budget (setLimits maxParseBytes) while the server runs: a 10 MiB body of
  // tiny values would otherwise take ~1 GiB to parse (EVALCORE_MAX_PARSE_BYTES).
  maxParseBytes: 128 * 1024 * 1024,
  // A JSON answer (a stream's line, too): past it the answer is a 413 that says to stream it
  // (EVALCORE_MAX_ANSWER_BYTES).
  maxAnswerBytes: 32 * 1024 * 1024,
  // The prompt text of one judge call (judge.maxPromptBytes): past it the metric is
  // NOT_EVALUATED (prompt_too_large) and nothing is sent (EVALCORE_MAX_PROMPT_BYTES).
  maxPromptBytes: 1024 * 1024,
  // The time a client has to send its request body (an ndjson request: its first line), from
  // its headers (EVALCORE_BODY_TIMEOUT_MS). A streamed run's control lines have no deadline.
  bodyTimeoutMs: 60_000,
  // /v1/traces (docs/traces.md): a request body once decompressed (EVALCORE_MAX_TRACE_BYTES);
  // gzip bodies inflated and filed at once, more wait (EVALCORE_MAX_TRACE_INFLATIONS); spans
  // one session may hold (EVALCORE_MAX_SESSION_SPANS); sessions held awaiting scoring
  // (EVALCORE_MAX_TRACE_SESSIONS); bytes of spans held, with their index's
  // (EVALCORE_MAX_HELD_TRACE_BYTES); how long a session is quiet before it is scored
  // (EVALCORE_TRACE_IDLE_MS); how long a Workers deployment keeps a session's record
  // (EVALCORE_TRACE_RETENTION_MS: 30 days).
  maxTraceBytes: 32 * 1024 * 1024,
  maxTraceInflations: 4,
  maxSessionSpans: 10_000,
  maxTraceSessions: 1_000,
  maxHeldTraceBytes: 256 * 1024 * 1024,
  traceIdleMs: 300_000,
  traceRetentionMs: 30 * 24 * 3600 * 1000,
  // A run (POST /v1/runs, docs/runs.md): its cases (EVALCORE_MAX_RUN_CASES), its request body
  // (EVALCORE_MAX_RUN_BODY_BYTES), and, on Node, the cases of all runs scored at once
  // (EVALCORE_RUN_CONCURRENCY; on Workers the queue's consumers are the platform's).
  maxRunCases: 10_000,
  maxRunBodyBytes: 64 * 1024 * 1024,
  runConcurrency: 8,
  // Runs not yet ended that a Node server keeps at once (EVALCORE_MAX_ACTIVE_RUNS): a new one
  // past it is a 429 until one ends or is cancelled.
  maxActiveRuns: 16,
});

const LIMIT_ENV = {
  maxBodyBytes: 'EVALCORE_MAX_BODY_BYTES',
  maxCases: 'EVALCORE_MAX_CASES',
  maxRuns: 'EVALCORE_MAX_RUNS',
  maxCalls: 'EVALCORE_MAX_JUDGE_CALLS',
  maxConcurrent: 'EVALCORE_MAX_CONCURRENT',
  agentTimeoutMs: 'EVALCORE_AGENT_TIMEOUT_MS',
  caseConcurrency: 'EVALCORE_CASE_CONCURRENCY',
  judgeConcurrency: 'EVALCORE_JUDGE_CONCURRENCY',
  maxParseBytes: 'EVALCORE_MAX_PARSE_BYTES',
  maxAnswerBytes: 'EVALCORE_MAX_ANSWER_BYTES',
  maxPromptBytes: 'EVALCORE_MAX_PROMPT_BYTES',
  bodyTimeoutMs: 'EVALCORE_BODY_TIMEOUT_MS',
  maxTraceBytes: 'EVALCORE_MAX_TRACE_BYTES',
  maxTraceInflations: 'EVALCORE_MAX_TRACE_INFLATIONS',
  maxSessionSpans: 'EVALCORE_MAX_SESSION_SPANS',
  maxTraceSessions: 'EVALCORE_MAX_TRACE_SESSIONS',
  maxHeldTraceBytes: 'EVALCORE_MAX_HELD_TRACE_BYTES',
  traceIdleMs: 'EVALCORE_TRACE_IDLE_MS',
  traceRetentionMs: 'EVALCORE_TRACE_RETENTION_MS',
  maxRunCases: 'EVALCORE_MAX_RUN_CASES',
  maxRunBodyBytes: 'EVALCORE_MAX_RUN_BODY_BYTES',
  runConcurrency: 'EVALCORE_RUN_CONCURRENCY',
  maxActiveRuns: 'EVALCORE_MAX_ACTIVE_RUNS',
};

/** The provider's key variables, in the order they are looked at. */
const KEY_ENV = {
  gemini: ['GEMINI_API_KEY', 'GOOGLE_API_KEY'],
  openai: ['OPENAI_API_KEY'],
  anthropic: ['ANTHROPIC_API_KEY'],
};

const str = (env, name) => {
  const v = env?.[name];
  return typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined;
};

/**
 * createHandler's options from an environment object:
 *   EVALCORE_TOKEN                 bearer token the /v1 routes require (none: open)
 *   EVALCORE_JUDGE                 provider:model (gemini, openai, anthropic)
 *   EVALCORE_JUDGE_BASE_URL        the provider's base URL
 *   EVALCORE_JUDGE_MEDIA           1: the judge is shown the turns' images, audio and documents
 *                                  (judge.media); 0 or unset: text only, as ADK
 *   EVALCORE_JUDGE_MEDIA_URIS      file_data URIs the judge may be sent (judge.mediaUris, comma
 *                                  separated: gs:, https://files.example.com/evals/, *); unset:
 *                                  none (a request naming one is refused)
 *   GEMINI_API_KEY / GOOGLE_API_KEY, OPENAI_API_KEY, ANTHROPIC_API_KEY
 *   EVALCORE_AGENTS                JSON {"name": "https://agent/turn"}: agents a request may name
 *   EVALCORE_CORS_ORIGINS          origins (comma separated) or * that browsers may call from
 *   EVALCORE_ALLOWED_HOSTS         host names (comma separated) or * the Host header may name,
 *                                  besides those the server knows (docs/security.md)
 *   EVALCORE_LOG                   1: one JSON line per request on the console (method, path,
 *                                  status, ms, code)
 *   EVALCORE_JUDGE_CALLS_PER_MINUTE  the judge key's budget, shared by every run's calls
 *   EVALCORE_MAX_*                 the limits (DEFAULT_LIMITS)
 * A malformed value throws EvalError `config` naming the variable (never its value).
 */
export function optionsFromEnv(env) {
  const options = { limits: {} };
  const token = str(env, 'EVALCORE_TOKEN');
  if (token !== undefined) options.token = token;
  const spec = str(env, 'EVALCORE_JUDGE');
  if (spec !== undefined) {
    const m = /^(gemini|openai|anthropic):(.+)$/.exec(spec);
    if (!m) throw new EvalError('config', 'EVALCORE_JUDGE', 'EVALCORE_JUDGE must be provider:model with provider gemini, openai or anthropic');
    const judge = { provider: m[1], model: m[2].trim() };
    const base = str(env, 'EVALCORE_JUDGE_BASE_URL');
    if (base !== undefined) judge.baseUrl = base;
    const media = str(env, 'EVALCORE_JUDGE_MEDIA');
    if (media !== undefined && media !== '0' && media !== '1') {
      throw new EvalError('config', 'EVALCORE_JUDGE_MEDIA', 'EVALCORE_JUDGE_MEDIA must be 1 (the judge sees images, audio and documents) or 0');
    }
    if (media === '1') judge.media = true;
    const uris = str(env, 'EVALCORE_JUDGE_MEDIA_URIS');
    if (uris !== undefined) {
      judge.mediaUris = uris.split(',').map((u) => u.trim()).filter((u) => u !== '');
      if (judge.mediaUris.some((u) => uriRule(u) === null)) {
        throw new EvalError('config', 'EVALCORE_JUDGE_MEDIA_URIS', 'EVALCORE_JUDGE_MEDIA_URIS must be *, schemes (gs:) or schemes with a host and path (https://files.example.com/evals/), separated by commas');
      }
    }
    const keyName = KEY_ENV[judge.provider].find((k) => str(env, k) !== undefined);
    if (keyName !== undefined) {
      const key = str(env, keyName);
      judge.headers = judge.provider === 'gemini' ? { 'x-goog-api-key': key }
        : judge.provider === 'openai' ? { authorization: `Bearer ${key}` } : { 'x-api-key': key };
    }
    options.judge = judge;
  } else {
    for (const name of ['EVALCORE_JUDGE_BASE_URL', 'EVALCORE_JUDGE_MEDIA', 'EVALCORE_JUDGE_MEDIA_URIS']) {
      if (str(env, name) !== undefined) throw new EvalError('config', name, `${name} needs EVALCORE_JUDGE=provider:model`);
    }
  }
  const budget = str(env, 'EVALCORE_JUDGE_CALLS_PER_MINUTE');
  if (budget !== undefined) {
    if (!/^\d+$/.test(budget) || Number(budget) < 1 || !Number.isSafeInteger(Number(budget))) {
      throw new EvalError('config', 'EVALCORE_JUDGE_CALLS_PER_MINUTE', 'EVALCORE_JUDGE_CALLS_PER_MINUTE must be a whole number of at least 1 (judge calls a minute, for every run together)');
    }
    options.judgeCallsPerMinute = Number(budget);
  }
  const logging = str(env, 'EVALCORE_LOG');
  if (logging !== undefined) {
    if (logging !== '0' && logging !== '1') throw new EvalError('config', 'EVALCORE_LOG', 'EVALCORE_LOG must be 1 (one JSON line per request on the console) or 0');
    // Method, path, status, time and error code only (createHandler's `log`): never a header or a body.
    if (logging === '1') options.log = (entry) => console.log(JSON.stringify({ evalcore: 'request', ...entry }));
  }
  const cors = str(env, 'EVALCORE_CORS_ORIGINS');
  if (cors !== undefined) {
    const list = cors.split(',').map((o) => o.trim()).filter((o) => o !== '');
    if (list.some((o) => !(o === '*' || /^https?:\/\/[^/\s]+$/.test(o)))) {
      throw new EvalError('config', 'EVALCORE_CORS_ORIGINS', 'EVALCORE_CORS_ORIGINS must be * or origins like https://app.example.com, separated by commas');
    }
    options.cors = list;
  }
  const hosts = str(env, 'EVALCORE_ALLOWED_HOSTS');
  if (hosts !== undefined) {
    options.allowedHosts = hostList(hosts);
    try {
      hostPolicy(options.allowedHosts);
    } catch {
      throw new EvalError('config', 'EVALCORE_ALLOWED_HOSTS', 'EVALCORE_ALLOWED_HOSTS must be * or host names like localhost, 127.0.0.1, [::1], evals.example.com, separated by commas');
    }
  }
  const agents = str(env, 'EVALCORE_AGENTS');
  if (agents !== undefined) {
    let map;
    try {
      map = JSON.parse(agents);
    } catch {
      map = null;
    }
    if (map === null || typeof map !== 'object' || Array.isArray(map)) {
      throw new EvalError('config', 'EVALCORE_AGENTS', 'EVALCORE_AGENTS must be a JSON object {"name": "https://agent.example/turn"}');
    }
    for (const [name, url] of Object.entries(map)) {
      if (typeof url !== 'string' || !/^https?:\/\//.test(url)) {
        throw new EvalError('config', `EVALCORE_AGENTS.${name}`, `EVALCORE_AGENTS: agent "${name}" must be an http(s) URL`);
      }
    }
    // Own properties even for a name like `__proto__` (an assignment would set the prototype).
    options.agents = Object.fromEntries(Object.entries(map).map(([name, url]) => [name, { url }]));
  }
  const tracesConfig = tracesConfigFromEnv(env);
  if (tracesConfig !== undefined) options.traces = { config: tracesConfig };
  for (const [k, name] of Object.entries(LIMIT_ENV)) {
    const v = str(env, name);
    if (v === undefined) continue;
    const n = Number(v);
    if (!/^\d+$/.test(v) || !Number.isSafeInteger(n) || n < 1) {
      throw new EvalError('config', name, `${name} must be a whole number of at least 1`);
    }
    options.limits[k] = n;
  }
  return options;
}

/** EVALCORE_TRACES_CONFIG: the eval config (JSON) /v1/traces scores sessions with. */
function tracesConfigFromEnv(env) {
  const text = str(env, 'EVALCORE_TRACES_CONFIG');
  if (text === undefined) return undefined;
  try {
    const v = JSON.parse(text);
    if (v !== null && typeof v === 'object' && !Array.isArray(v)) return v;
  } catch {
    // Said below.
  }
  throw new EvalError('config', 'EVALCORE_TRACES_CONFIG', 'EVALCORE_TRACES_CONFIG must be an eval config as JSON, e.g. {"criteria": {"hallucinations_v1": 0.8}}');
}

/** The limits in force: the defaults, each overridden by a positive whole number given. */
export function resolveLimits(given) {
  const out = { ...DEFAULT_LIMITS };
  if (given === undefined || given === null) return out;
  if (typeof given !== 'object') throw new EvalError('config', 'limits', 'createHandler: limits must be an object');
  for (const [k, v] of Object.entries(given)) {
    if (!Object.hasOwn(DEFAULT_LIMITS, k)) {
      throw new EvalError('config', `limits.${k}`, `createHandler: unknown limit "${k}" (known: ${Object.keys(DEFAULT_LIMITS).join(', ')})`);
    }
    if (v === undefined) continue;
    if (!Number.isSafeInteger(v) || v < 1) throw new EvalError('config', `limits.${k}`, `createHandler: limits.${k} must be a whole number of at least 1`);
    out[k] = v;
  }
  return out;
}

/** Every secret value of the options (judge headers, the token), to keep out of any output. */
export function secretsOf(options) {
  const out = [];
  if (options.token) out.push(options.token);
  for (const v of Object.values(options.judge?.headers ?? {})) {
    if (typeof v !== 'string') continue;
    out.push(v);
    const bare = v.replace(/^Bearer\s+/i, '');
    if (bare !== v) out.push(bare);
  }
  for (const a of Object.values(options.agents ?? {})) {
    for (const v of Object.values(a?.headers ?? {})) if (typeof v === 'string') out.push(v);
    out.push(...urlSecrets(a?.url));
  }
  out.push(...urlSecrets(options.judge?.baseUrl));
  return out.filter((s) => s.length >= 4);
}

/** The credentials a configured URL carries: its user name, password and query values. */
function urlSecrets(url) {
  if (typeof url !== 'string') return [];
  let u;
  try {
    u = new URL(url);
  } catch {
    return [];
  }
  return [u.username, u.password, ...u.searchParams.values()].map((v) => {
    try {
      return decodeURIComponent(v);
    } catch {
      return v;
    }
  });
}

/** Every variable optionsFromEnv reads (`evalcore serve --help` names each). */
export const SERVER_ENV = ['EVALCORE_TOKEN', 'EVALCORE_JUDGE', 'EVALCORE_JUDGE_BASE_URL', 'EVALCORE_JUDGE_MEDIA', 'EVALCORE_JUDGE_MEDIA_URIS', 'EVALCORE_JUDGE_CALLS_PER_MINUTE',
  'EVALCORE_TRACES_CONFIG',
  'EVALCORE_AGENTS', 'EVALCORE_LOG', 'EVALCORE_CORS_ORIGINS', 'EVALCORE_ALLOWED_HOSTS',
  ...Object.values(KEY_ENV).flat(), ...Object.values(LIMIT_ENV)];

/**
 * One handler per configuration, whatever the identity of the `env` object a runtime passes
 * (one handler keeps one count of requests in flight), made by `create(options)`, `defaults`
 * under what the environment sets. A configuration error is answered as a 500 `config` error
 * naming the variable, never its value.
 */
export function envHandlers(create, defaults = {}) {
  const made = new Map();
  return (env) => {
    const key = JSON.stringify(SERVER_ENV.map((n) => (typeof env?.[n] === 'string' ? env[n] : null)));
    let h = made.get(key);
    if (h === undefined) {
      try {
        h = create({ ...defaults, ...optionsFromEnv(env) });
      } catch (e) {
        const body = JSON.stringify({ error: { code: 'config', path: e.path ?? '', message: e.message } });
        h = async () => new Response(body, { status: 500, headers: { 'content-type': 'application/json' } });
      }
      if (made.size >= 8) made.delete(made.keys().next().value);
      made.set(key, h);
    }
    return h;
  };
}

// Types of `evalcore/server`: the evaluation endpoint as a fetch handler (workerd, Deno, Node).
// Uses the Fetch API's global Request / Response types (DOM lib, @types/node, Deno, workers-types).

import type { Agent, CustomMetric, EvalCase, EvalCaseResult, EvalSet, EvalSetResult, Judge, JsonObject, MetricInfo } from './index.js';

export type { MetricInfo };

/** Every limit of the endpoint; each defaults to DEFAULT_LIMITS. */
export interface ServerLimits {
  /** Bytes of a request body (default 10 MiB; EVALCORE_MAX_BODY_BYTES). 413 too_large. */
  maxBodyBytes?: number;
  /** Eval cases in one request (default 100; EVALCORE_MAX_CASES). 413 too_many_cases. */
  maxCases?: number;
  /** numRuns of one request (default 5; EVALCORE_MAX_RUNS). 413 too_many_runs. */
  maxRuns?: number;
  /** Judge calls one request may make (default 200; EVALCORE_MAX_JUDGE_CALLS). 413 too_many_judge_calls when planned, else budget_exhausted. */
  maxCalls?: number;
  /** Evaluations in flight in one server instance (default 64; EVALCORE_MAX_CONCURRENT). 429 too_many_requests. */
  maxConcurrent?: number;
  /** One agent turn, in ms (default 60000; EVALCORE_AGENT_TIMEOUT_MS). The case fails with agent_timeout. */
  agentTimeoutMs?: number;
  /** Cases of one request scored at once (default 4; EVALCORE_CASE_CONCURRENCY). */
  caseConcurrency?: number;
  /** Judge calls of one request in flight (default 16; EVALCORE_JUDGE_CONCURRENCY); a request may ask for fewer (`judgeConcurrency`), never more (400). */
  judgeConcurrency?: number;
  /** The core's parse budget (setLimits maxParseBytes), lowered to this for the instance (default 128 MiB; EVALCORE_MAX_PARSE_BYTES). 413 too_large. */
  maxParseBytes?: number;
  /** Bytes of a JSON answer, and of one line of a stream (default 32 MiB; EVALCORE_MAX_ANSWER_BYTES). 413 answer_too_large: ask for ndjson. */
  maxAnswerBytes?: number;
  /** Time a client has to send its body (an ndjson request: its first line), in ms (default 60000; EVALCORE_BODY_TIMEOUT_MS). 408 body_timeout. */
  bodyTimeoutMs?: number;
  /** /v1/traces: a request body once decompressed (default 32 MiB; EVALCORE_MAX_TRACE_BYTES). 413 too_large. */
  maxTraceBytes?: number;
  /** /v1/traces: gzip bodies inflated and filed at once, per server instance (default 4; EVALCORE_MAX_TRACE_INFLATIONS); up to 16 a slot wait their turn, more are 429 too_many_requests with Retry-After. */
  maxTraceInflations?: number;
  /** /v1/traces: spans and log records one session may hold (default 10000; EVALCORE_MAX_SESSION_SPANS). partialSuccess. */
  maxSessionSpans?: number;
  /** /v1/traces: sessions held awaiting scoring (default 1000; EVALCORE_MAX_TRACE_SESSIONS). partialSuccess, or 429 traces_full. */
  maxTraceSessions?: number;
  /** /v1/traces: bytes of requests held, with the bytes their index takes (default 256 MiB; EVALCORE_MAX_HELD_TRACE_BYTES). 429 traces_full. */
  maxHeldTraceBytes?: number;
  /** /v1/traces: how long a session is quiet before it is scored, in ms (default 300000; EVALCORE_TRACE_IDLE_MS). */
  traceIdleMs?: number;
  /** /v1/traces on Workers: how long a session's record is kept after its last scoring, in ms (default 30 days; EVALCORE_TRACE_RETENTION_MS). */
  traceRetentionMs?: number;
  /** Eval cases of one run (POST /v1/runs; default 10000; EVALCORE_MAX_RUN_CASES). 413 too_many_cases. */
  maxRunCases?: number;
  /** Bytes of a run's request body (default 64 MiB; EVALCORE_MAX_RUN_BODY_BYTES). 413 too_large. */
  maxRunBodyBytes?: number;
  /** Node: cases of all runs scored at once (default 8; EVALCORE_RUN_CONCURRENCY). */
  runConcurrency?: number;
  /** Node: runs not yet ended kept at once (default 16; EVALCORE_MAX_ACTIVE_RUNS). 429 too_many_runs. */
  maxActiveRuns?: number;
}

/** What /v1/traces scores recorded sessions with (docs/traces.md, "Online"). */
export interface TracesOptions {
  /** The eval config (reference-free criteria; EVALCORE_TRACES_CONFIG); default none: only the efficiency figures. */
  config?: JsonObject | null;
  /** Custom metrics named in `config`. */
  customMetrics?: Record<string, CustomMetric>;
  /** Where session records go (default: the handler's `store`, else memory). */
  store?: Store | null;
}

export declare const DEFAULT_LIMITS: Readonly<Required<ServerLimits>>;

/** An agent the server runs by name: a callback, or an HTTP agent the server posts each turn to. */
export type ServerAgent = Agent | { url: string; headers?: Record<string, string>; fetch?: typeof fetch };

export interface HandlerOptions {
  /**
   * The judge every request gets (with its key in `headers`); clients never choose one. With
   * `media`, `mediaUris` lists the file_data URIs a request may carry (which the provider would
   * fetch with this key): `"*"`, schemes (`"gs:"`), or schemes with host and path
   * (`"https://files.example.com/evals/"`); default none: 400 media_uri_refused.
   */
  judge?: (Judge & { mediaUris?: string[] }) | null;
  /** Agents a request may name in `agent`. */
  agents?: Record<string, ServerAgent>;
  /** Bearer token the /v1 routes require. */
  token?: string;
  limits?: ServerLimits;
  /** Origins browsers may call from ("*" for any): preflights answered, Access-Control-Allow-Origin on answers. */
  cors?: string | string[];
  /**
   * Host names the Host header may give (DNS rebinding: 403 host_not_allowed otherwise); "*" or
   * unset: any. `evalcore serve` sets the listening address's names; docs/security.md.
   */
  allowedHosts?: string | string[];
  /** Storage for eval sets and results: the handler's `evalSets` is a manager over it. */
  store?: Store | null;
  /** How /v1/traces scores the sessions it receives, and where their records go. */
  traces?: TracesOptions;
  /** One entry per request (a stream's when it ends; 499 client_closed when the client left); the path without its query or a known secret; never a header, a body or a key. */
  log?: (entry: { method: string; path: string; status: number; ms: number; code?: string }) => void;
  /** Who keeps runs (the job API under /v1/runs, docs/runs.md): `localRuns({dir})` on Node; the module worker keeps them in its bindings. */
  runs?: RunsKeeper | null;
  /** The judge key's budget, calls a minute, shared by every run (EVALCORE_JUDGE_CALLS_PER_MINUTE). */
  judgeCallsPerMinute?: number;
}

/** What keeps runs for a handler (made by localRuns, or the module worker's own). */
export type RunsKeeper = (server: unknown) => { backend(env?: unknown, ctx?: unknown): unknown; engine?: { ready: Promise<void>; close(): Promise<void> }; queue?: (batch: unknown, env: unknown, ctx: unknown) => Promise<void> };

/**
 * Runs kept by this process in `dir` (`evalcore serve --runs_dir DIR`): a server started again
 * on the same folder resumes every unfinished run. A unit (one case of one run) that fails is
 * tried `maxAttempts` times (default 3), waiting `retryDelayMs` (default 1000) and twice as long
 * each time, then reported as a dead letter of its run.
 */
export declare function localRuns(options: { dir: string; maxAttempts?: number; retryDelayMs?: number; log?: (entry: object) => void }): RunsKeeper;

/** A run's status: `GET /v1/runs/{id}`, and the `summary` line of its events. */
export interface RunStatus {
  id: string;
  name: string | null;
  status: 'queued' | 'running' | 'done' | 'failed' | 'cancelled';
  eval_set_id: string;
  num_runs: number;
  counts: { cases: number; scored: number; passed: number; failed: number; not_evaluated: number; dead_letter: number };
  /** The judge counters of every case kept (as a local run's judge_stats); null without a judge. */
  judge_stats: Record<string, number | boolean> | null;
  /** Judge calls the recorded cases take at most, planned when the run was submitted. */
  planned_judge_calls?: number;
  /** Why a run failed (`dead_letter`: cases given up on after every retry; `input_missing`). */
  error?: { code: string; path?: string; message: string };
  /** Events so far (case results and dead letters): `GET .../events?after=N` resumes after N. */
  events: number;
  created: string;
  updated: string;
  started?: string;
  finished?: string;
}

export type FetchHandler = (request: Request, env?: unknown, ctx?: unknown) => Promise<Response>;

/** The handler createHandler returns: `evalSets` is the manager over `options.store` (null without one); `runs` what `options.runs` made (null without). */
export type EvalHandler = FetchHandler & { readonly evalSets: EvalSetsManager | null; readonly runs: ReturnType<RunsKeeper> | null };

/** POST /v1/evaluate, POST /v1/validate, GET /v1/metrics, GET /healthz; with `runs`, the job API under /v1/runs; POST /v1/traces, POST /v1/logs, GET /v1/traces/sessions[/<id>], POST /v1/traces/flush. */
export declare function createHandler(options?: HandlerOptions): EvalHandler;

/** createHandler's options from EVALCORE_* variables and the provider key variables. */
export declare function optionsFromEnv(env: Record<string, string | undefined>): HandlerOptions;

/** An Agent posting each turn as JSON to `url`, reading the agent's reply from the JSON answer. */
export declare function httpAgent(name: string, url: string, options?: { headers?: Record<string, string>; fetch?: typeof fetch }): Agent;

/**
 * The module worker: configured from `env` (workerd) or the host's environment (Deno, Node). In
 * workerd it is also the runs' queue consumer (`queue`), and the entry exports the Durable Object
 * classes `EvalcoreRun` and `EvalcoreJudgePace` (wrangler.toml binds them; docs/runs.md).
 */
declare const worker: { fetch: FetchHandler; queue?: (batch: unknown, env: unknown, ctx: unknown) => Promise<void> };
export default worker;

// ---------------------------------------------------------------------------------------------
// Eval-set management over a storage interface

/**
 * Bytes under '/'-separated keys (`app/set.evalset.json`). Keys are relative, with no empty,
 * `.` or `..` segment, NUL or backslash, at most 512 bytes: anything else is EvalError `invalid_path`.
 */
export interface Store {
  /** The value, or null when there is none. */
  get(key: string): Promise<Uint8Array | null>;
  /** Stores the value (atomically in fsStore: a temporary file renamed over the old one). */
  put(key: string, bytes: Uint8Array): Promise<void>;
  /** Removes the value; nothing happens when there is none. */
  delete(key: string): Promise<void>;
  /** Sorted keys that start with `prefix` and have no '/' after it: one folder level. */
  list(prefix: string): Promise<string[]>;
}

/** A Store in memory (copies in and out). */
export declare function memoryStore(): Store;

/**
 * A Store over a folder (Node, Deno, Bun; not in the workerd entry): with ADK's agents folder as
 * root, the manager reads and writes the files ADK's LocalEvalSetsManager and
 * LocalEvalSetResultsManager do.
 */
export declare function fsStore(agentsDir: string): Store & { readonly root: string };

/** The parts of a Workers KV namespace binding kvStore uses. */
export interface KvNamespaceLike {
  get(key: string, options: { type: 'arrayBuffer' }): Promise<ArrayBuffer | null>;
  put(key: string, value: Uint8Array): Promise<unknown>;
  delete(key: string): Promise<unknown>;
  list(options: { prefix: string; cursor?: string }): Promise<{ keys: { name: string }[]; list_complete: boolean; cursor?: string }>;
}

/** The parts of a Workers R2 bucket binding r2Store uses. */
export interface R2BucketLike {
  get(key: string): Promise<{ arrayBuffer(): Promise<ArrayBuffer> } | null>;
  put(key: string, value: Uint8Array): Promise<unknown>;
  delete(key: string): Promise<unknown>;
  list(options: { prefix: string; delimiter: string; cursor?: string }): Promise<{ objects: { key: string }[]; truncated: boolean; cursor?: string }>;
}

/** A Store over a Workers KV namespace binding (`env.NAME`). */
export declare function kvStore(namespace: KvNamespaceLike): Store;
/** A Store over a Workers R2 bucket binding (`env.NAME`). */
export declare function r2Store(bucket: R2BucketLike): Store;

/**
 * ADK's EvalSetsManager and EvalSetResultsManager, async. App names, set ids and result ids are
 * single path segments (EvalError `invalid_path` otherwise); failures are EvalError `schema`,
 * `not_found` or `duplicate_id` with a path where one applies.
 */
export interface EvalSetsManager {
  /** Eval set ids of the app, sorted ([] when it has none). */
  listEvalSets(app: string): Promise<string[]>;
  /** The set, or null. A legacy list file takes `setId` as its id. */
  getEvalSet(app: string, setId: string): Promise<EvalSet | null>;
  /** An empty set named `setId` (`^[a-zA-Z0-9_]+$`, else `schema`); `duplicate_id` if it exists. */
  createEvalSet(app: string, setId: string): Promise<EvalSet>;
  /** The case, or null when the set or the case is missing. */
  getEvalCase(app: string, setId: string, caseId: string): Promise<EvalCase | null>;
  /** `not_found` without the set, `duplicate_id` when the case id is taken, `schema` for a bad case. */
  addEvalCase(app: string, setId: string, evalCase: EvalCase | object): Promise<void>;
  /** Replaces the case of the same eval_id where it stands (as ADK 2.13 does); `not_found` when missing. */
  updateEvalCase(app: string, setId: string, evalCase: EvalCase | object): Promise<void>;
  /** `not_found` when the set or the case is missing. */
  deleteEvalCase(app: string, setId: string, caseId: string): Promise<void>;
  /** A new result, id `<app>_<setId>_<time.time()>` as ADK makes it, stored and returned. */
  saveEvalSetResult(app: string, setId: string, evalCaseResults: EvalCaseResult[]): Promise<EvalSetResult>;
  /** The result, or null. */
  getEvalSetResult(app: string, resultId: string): Promise<EvalSetResult | null>;
  /** Result ids of the app, sorted. */
  listEvalSetResults(app: string): Promise<string[]>;
}

/** The manager over `store`; `now` (seconds since the epoch) stamps new sets and results. */
export declare function evalSetsManager(store: Store, options?: { now?: () => number }): EvalSetsManager;

/** Options of devUiRoutes: where eval sets live, how an app runs, where chats were recorded. */
export interface DevUiRoutesOptions {
  /** The eval-set manager the routes read and write (evalSetsManager(store)). */
  evalSets: EvalSetsManager;
  /** The Agent that runs app `appName`, e.g. `fromAdkAgent(rootAgent, { sessionService })`. */
  agentFor: (appName: string) => Agent | Promise<Agent>;
  /** The @google/adk session service the chat ran in: add_session reads the session from it. */
  sessionService: { getSession(req: { appName: string; userId: string; sessionId: string }): Promise<unknown> };
  /** The judge LLM-judged metrics use (as evaluate takes it). */
  judge?: Judge;
  /** Largest request body in bytes (default 8 MiB). */
  maxBodyBytes?: number;
  /** Told, one line each, what the UI cannot show: why a metric was NOT_EVALUATED, why a case failed to run. */
  log?: (line: string) => void;
}

/**
 * ADK's dev-server eval routes (`/dev/apps/{app}/...` and the legacy `/apps/{app}/...`) as the dev
 * UI's Eval tab calls them: camelCase answers, integer statuses, errors as
 * `{detail, error: {code, path, message}}`. Resolves to null for a path that is not an eval route.
 */
export declare function devUiRoutes(options: DevUiRoutesOptions): (request: Request) => Promise<Response | null>;

/** Node: express-style middleware answering the eval routes with `handle`, passing on the rest; `log` gets a line per request answered. */
export declare function devUiMiddleware(
  handle: (request: Request) => Promise<Response | null>,
  options?: { log?: (line: string) => void; redact?: (text: string) => string },
): (req: unknown, res: unknown, next: () => void) => void;

/**
 * Node: @google/adk-devtools' server for the agents in `agentsDir` (dev UI, chat, sessions) with
 * the eval routes answered by evalcore; eval sets kept under `evalsDir` (default agentsDir).
 * Every route of the app refuses a foreign Host (403 host_not_allowed), a state-changing request
 * from another origin (403 origin_not_allowed) and a body that is not JSON (415).
 */
export declare function startDevUi(options: {
  agentsDir: string; host?: string; port?: number; evalsDir?: string; judge?: Judge;
  /** Host names besides those of `host` (the loopback names, or every interface's for 0.0.0.0), or "*". */
  allowedHosts?: string[];
  log?: (line: string) => void;
}): Promise<{ url: string; server: unknown; handle: (request: Request) => Promise<Response | null>; stop(): Promise<void> }>;

/**
 * `evalcore/server/traces` (workerd): the Durable Object that holds /v1/traces' sessions on
 * Workers; bind it as EVALCORE_TRACES. Records go to EVALCORE_TRACES_R2 / EVALCORE_TRACES_KV when
 * bound, else to its own storage.
 */
export declare class TraceSessions {
  constructor(state: unknown, env: Record<string, unknown>);
  fetch(request: Request): Promise<Response>;
  alarm(): Promise<void>;
}

// Types of the evalcore package. Data types keep ADK's snake_case field names: they describe
// what the functions return (normalised output). Inputs also accept camelCase and legacy
// shapes wherever ADK does, hence the `| object` on input parameters.
//
// Self-contained on purpose: no DOM or @types/node needed, so it compiles under any `lib`.

// ---------------------------------------------------------------------------------------------
// Errors

// Every code evalcore raises, generated from the core's vocabulary (src/error/codes.rs).
import type { ErrorCode } from './error_codes.js';
export type { ErrorCode, NotEvaluatedReason } from './error_codes.js';

/** Thrown for every input the core rejects; a thrown error never leaves the module unusable. */
export declare class EvalError extends Error {
  constructor(code: string, path: string, message: string, options?: { cause?: unknown });
  /** Stable code such as `"invalid_json"`, `"schema"`, `"duplicate_id"`. */
  code: ErrorCode;
  /** JSON path of the offending value, e.g. `$.eval_cases[2].conversation[0].user_content`; `""` when none applies. */
  path: string;
  toJSON(): { code: ErrorCode; path: string; message: string };
}

// ---------------------------------------------------------------------------------------------
// Config

import type {
  AgentDetails, AppDetails, Blob, Content, ConversationScenario, DurationDetails, EvalCase, EvalCaseResult, EvalMetricResult, EvalMetricResultDetails, EvalMetricResultPerInvocation, EvalSet, EvalSetResult, FileData, FunctionCall, FunctionResponse, IntermediateData, Invocation, InvocationEvent, InvocationEvents, JsonObject, JsonValue, JudgePlan, JudgeSettingsInput, CassetteInput, JudgeStats, LoadedTraces, Part, TraceMissing, Rubric, RubricContent, RubricScore, RunMetricSummary, RunSummary, SessionInput, TokenUsageDetails, UsageMetadata, UserBehavior, UserPersona,
} from './model.js';
export type * from './model.js';

// Metric names, match types, statuses and the criterion classes are generated from the core
// (pkg/criteria.d.ts, written by tests/ts_types.rs).
import type { Criterion, CriteriaInput, EvalStatus } from './criteria.js';
export type {
  Alignment, ArgPolicies, ArgPolicy, ArgPolicyName, BaseCriterion, CriteriaByMetric, CriteriaInput, Criterion,
  EvalStatus, HallucinationsCriterion, JudgeModelOptions, LlmAsAJudgeCriterion, LlmBackedUserSimulatorCriterion,
  MatchType, MatchTypeInput, MetricName, RubricsBasedCriterion, ToolNameCriterion, ToolParameterMatchCriterion,
  ToolTrajectoryCriterion, ToolTrajectoryF1Criterion,
} from './criteria.js';

/** A config as loadEvalConfig returns it: criteria in object form, keyed as written. */
export interface EvalConfig {
  /** Metric name → criterion (numbers are normalised to `{ threshold }`). */
  criteria: { [metricName: string]: Criterion };
  custom_metrics?: { [metricName: string]: JsonObject } | null;
  user_simulator_config?: JsonObject | null;
  /** ADK's LiveModelConfig as read from either spelling (timeout 300 when not given). */
  live_model_config?: { timeout_seconds: number } | null;
}

/**
 * A config as you write it (test_config.json's shape). Known metrics take a threshold alone or
 * their own criterion class; `Custom` names custom metrics (inferred from `customMetrics` where
 * a function takes both). A misspelt metric name or match type does not compile; read a config
 * whose names you do not know with loadEvalConfig / validateEvalConfig.
 */
export interface EvalConfigInput<Custom extends string = never> {
  criteria?: CriteriaInput<Custom>;
  custom_metrics?: { [metricName: string]: JsonObject } | null;
  customMetrics?: { [metricName: string]: JsonObject } | null;
  user_simulator_config?: JsonObject | null;
  userSimulatorConfig?: JsonObject | null;
  live_model_config?: LiveModelConfigInput | null;
  liveModelConfig?: LiveModelConfigInput | null;
}

/** ADK's LiveModelConfig: whole seconds, in either spelling (`timeoutSeconds` wins over `timeout_seconds`). */
export interface LiveModelConfigInput {
  timeout_seconds?: number;
  timeoutSeconds?: number;
}

/** A config as text or its UTF-8 bytes (checked by the core, not by the compiler). */
export type ConfigText = string | Uint8Array | ArrayBuffer;

/**
 * Where a function takes a config: a typed object (a config loadEvalConfig returned is one), or
 * its text or bytes.
 */
export type ConfigArg<Custom extends string = never> = EvalConfigInput<Custom> | AgentsCliConfigInput | ConfigText;

/**
 * agents-cli's eval config (its eval_config.yaml, parsed; or its JSON form): `metrics_to_run`
 * selects built-in metrics (`evalcore metrics` lists them) and entries of the `custom_metrics`
 * pool. loadEvalConfig returns the ADK config evalcore runs for it.
 */
export interface AgentsCliConfigInput {
  metrics_to_run?: string[];
  custom_metrics?: AgentsCliMetric[];
}

/** An entry of agents-cli's `custom_metrics` pool. */
export interface AgentsCliMetric {
  name: string;
  /** An LLM metric: `{prompt}`, `{response}`, `{agent_data}`, `{reference}`, `{context}` and any case field are filled in; the judge answers `{score, explanation}`. */
  prompt_template?: string;
  /** A Python metric: NOT_EVALUATED here (write it as a JS custom metric). */
  custom_function?: string;
  custom_function_file?: string;
  execution?: 'local' | 'remote';
  judge_model?: string;
  /** Samples per case, 1 to 32; the score is their mean. */
  judge_model_sampling_count?: number;
  judge_model_system_instruction?: string;
  judge_model_generation_config?: JsonObject;
  /** For a built-in metric's name: which of a case's `rubric_groups` it grades. */
  metric_spec_parameters?: { rubric_group_key?: string; [key: string]: JsonValue | undefined };
  /** evalcore's: the score a case must reach (default 1 for built-ins; without it an LLM metric is INFORMATIONAL). */
  threshold?: number;
}

// ---------------------------------------------------------------------------------------------
// Host-facing interfaces (hand-written: they describe what the host passes in)

export interface FetchInit {
  method?: string;
  headers?: Record<string, string>;
  body?: string;
}

export interface FetchResponse {
  ok: boolean;
  status: number;
  text(): Promise<string>;
}

/** The part of `fetch` the core uses; `globalThis.fetch` satisfies it. */
export type FetchLike = (input: string, init?: FetchInit) => Promise<FetchResponse>;

/**
 * How to reach an LLM judge: the core's judge settings (generated from the core, in model.d.ts)
 * and what only the host holds.
 */
export interface Judge extends Omit<JudgeSettingsInput, 'cassette'> {
  /** Defaults to `globalThis.fetch`. */
  fetch?: FetchLike;
  /** Record judge answers to, and replay them from, a cassette: a file (Node) or entries in memory. */
  cassette?: CassetteInput & {
    path?: string;
    onRecord?: (key: string, entry: JsonObject) => void;
  };
}

/** What a custom metric function receives. */
export interface CustomMetricInput {
  metricName: string;
  criterion: JsonObject;
  threshold: number;
  actualInvocations: Invocation[];
  expectedInvocations: Invocation[] | null;
  conversationScenario: JsonObject | null;
}

/** A score, or a score with its own status and per-invocation results (status defaults to the pass rule). */
export type CustomMetricScore = number | null | { score: number | null; eval_status?: EvalStatus | number };
export type CustomMetricOutput =
  | CustomMetricScore
  | { score: number | null; eval_status?: EvalStatus | number; per_invocation?: CustomMetricScore[]; details?: JsonObject };
export type CustomMetric = (input: CustomMetricInput) => CustomMetricOutput | Promise<CustomMetricOutput>;

/** The part of `AbortSignal` evalcore uses (typed here so this file needs no DOM library). */
export interface AbortSignalLike {
  readonly aborted: boolean;
  readonly reason?: unknown;
  addEventListener(type: "abort", listener: () => void, options?: { once?: boolean }): void;
  removeEventListener(type: "abort", listener: () => void): void;
}

/**
 * The standard `AbortSignal` type when the project has one (DOM or Node types), else
 * `AbortSignalLike`: a turn's signal can then be passed to a framework's `abortSignal` as it is.
 */
export type StandardAbortSignal = typeof globalThis extends { AbortSignal: { prototype: infer S } } ? S : AbortSignalLike;

/**
 * When a turn awaited a model and ran tools: `[startMs, endMs]` intervals on one clock (e.g.
 * `performance.now()`), or totals the agent measured. The core turns them into ADK's
 * `model_duration` / `tool_duration` (overlap counted once; tool time inside a model call is
 * model time); a kind left out is unknown.
 */
export interface Timings {
  model?: [number, number][];
  tool?: [number, number][];
  modelMs?: number;
  toolMs?: number;
}

/** One user turn handed to the agent. */
export interface AgentTurn {
  evalSetId: string;
  evalId: string;
  /** 0-based run index (numRuns). */
  run: number;
  /** 0-based turn index in the conversation. */
  turnIndex: number;
  sessionId: string;
  userId: string;
  appName: string;
  /** Initial session state from the case's session_input. */
  state: JsonObject;
  userContent: Content;
  /** The user content's text. */
  text: string;
  /** Earlier actual invocations of this conversation. */
  history: Invocation[];
  /** Aborted when the run is cancelled, or when the turn passes `agentTimeoutMs`. */
  signal: AbortSignalLike & StandardAbortSignal;
  /** The turn's timeout (`agentTimeoutMs`), when there is one. */
  timeoutMs?: number | null;
}

/** The agent's turn: its final text, or ADK events, or a final response with tool calls. */
export type AgentReply =
  | string
  | {
      /** ADK events of this turn (snake or camel case), without the user event. */
      events?: JsonObject[];
      finalResponse?: string | Content;
      toolCalls?: { name: string; args?: JsonObject; id?: string; response?: unknown }[];
      toolResponses?: { name: string; response?: unknown; id?: string }[];
      appDetails?: JsonObject;
      /**
       * What the agents were, made into `appDetails` for the agents that authored the turn (give
       * one or the other): tools as `{name, description?, parameters?}`, parameters a JSON Schema.
       */
      agents?: { name: string; instructions?: string; tools?: { name: string; description?: string; parameters?: JsonObject }[] }[];
      /** When the turn awaited a model and ran tools (ADK's model / tool durations). */
      timings?: Timings;
    };

export type Agent = (turn: AgentTurn) => AgentReply | Promise<AgentReply>;

export interface Progress {
  /** `judge_retry`: a judge call waits before its next attempt (see `retry`); the counts are the run's. */
  phase: "start" | "case" | "done" | "judge_retry" | "shard_start" | "shard_done" | "shard_retry" | "judge_backoff";
  /** `evaluate({agent, remote})`: the agent's turns here (`agent`), or the scoring over the endpoints (`score`). */
  stage?: "agent" | "score";
  run: number;
  casesDone: number;
  casesTotal: number;
  passed: number;
  failed: number;
  notEvaluated: number;
  evalId?: string | null;
  /** With phase `judge_retry`. */
  retry?: { metric: string; attempt: number; maxRetries: number; delayMs: number; why: string };
  /** Remote runs (`remote`): shards planned (grows when an endpoint's 413 splits one), finished, in flight. */
  shardsTotal?: number;
  shardsDone?: number;
  shardsRunning?: number;
  /** Remote runs: shard requests sent, shards re-sent after a failure, results an endpoint sent twice (dropped). */
  requests?: number;
  retries?: number;
  duplicatesDropped?: number;
  /** Remote runs: judge calls the endpoints made (from each shard's summary line). */
  judgeCalls?: number;
  /**
   * Remote runs: 429s the endpoints' judge gave. Each holds every shard's start and every running
   * shard's judge calls for its Retry-After (`judge_backoff`, with `told`: shards told on their
   * control channel, `cancelled`: shards cancelled and re-sent after it).
   */
  throttled?: number;
  /** Remote runs: shards cancelled to hold their judge calls (re-sent after the back-off; `control: "cancel"`). */
  heldBack?: number;
  /** `judge_backoff`: running shards told to hold on their request body, and shards cancelled instead. */
  told?: number;
  cancelled?: number;
  /** Remote runs, `shard_*` and `case`: which shard, on which endpoint. */
  shard?: number;
  endpoint?: string;
  /** `shard_retry`: why the shard is sent again, how many of its cases are left, the wait (429). */
  why?: string;
  casesLeft?: number;
  delayMs?: number;
  /** Remote runs, `done`: each endpoint's share (`down`: taken out of the run after failing twice in a row). */
  endpoints?: number | { url: string; cases: number; requests: number; down: boolean }[];
}

/** Where a remote run sends its shards (docs/sharding.md). */
export interface RemoteOptions {
  /** Endpoint base URLs (`/v1/evaluate` is appended), as an array or comma-separated. */
  endpoints: string[] | string;
  /** Shards to split the cases into (default: endpoints x perEndpoint; more when a shard would pass maxCasesPerShard). */
  shards?: number;
  /** The endpoints' EVALCORE_TOKEN. */
  token?: string;
  /** Shard requests in flight per endpoint (default 2). */
  perEndpoint?: number;
  /** Largest shard (default 100, the endpoint's default maxCases); an endpoint's 413 halves a shard anyway. */
  maxCasesPerShard?: number;
  /** A shard with no line from its endpoint for this long is sent elsewhere (default 300000). */
  shardTimeoutMs?: number;
  /** Attempts per shard before the run fails with `remote_failed` (default 3). */
  maxAttempts?: number;
  /** Judge calls in flight across every endpoint (one key's allowance): split over the shard requests, which are never more. */
  judgeConcurrency?: number;
  /** Judge calls a minute across every endpoint, split the same way. */
  judgeCallsPerMinute?: number;
  /**
   * How running shards hold their judge calls when another shard's endpoint was told 429:
   * `"stream"` (default in Node, Deno and Bun) keeps each shard's request body open and sends it
   * a control line; `"cancel"` (the default elsewhere: a browser's fetch does not read an answer
   * while it still sends the body) cancels them and re-sends their unscored rest after the back-off.
   */
  control?: "stream" | "cancel";
  /** With `control: "stream"`: a shard whose endpoint has not answered within this many ms (a proxy that buffers bodies) closes its body and is cancelled instead (default 2000). */
  controlGraceMs?: number;
  /** Called as fetch; with `control: "stream"` it gets a ReadableStream body and `duplex: "half"`. */
  fetch?: (input: string, init?: any) => Promise<any>;
}

/**
 * evaluate() over recorded agent replies: `actual` maps each eval id to its invocations, scored
 * as evaluateInvocations scores them; results in the eval set's order. With `remote`, the cases
 * are sharded over evaluation endpoints (judged by their own judge) and merged into the same result.
 */
export interface EvaluateRecordedArgs<Custom extends string = never> {
  evalSet: EvalSet | JsonInput;
  actual: Record<string, Invocation[] | JsonObject[]>;
  agent?: undefined;
  remote?: RemoteOptions;
  config?: ConfigArg<NoInfer<Custom>> | null;
  /** Local runs only: a remote run is judged by the endpoints' judge. */
  judge?: Judge;
  numRuns?: 1;
  /** Cases in flight, local runs (default 4). */
  concurrency?: number;
  evalIds?: string[];
  appName?: string;
  signal?: AbortSignalLike;
  onProgress?: (p: Progress) => void;
  onCaseResult?: (r: EvalCaseResult) => void;
  customMetrics?: Record<Custom, CustomMetric>;
}

export interface EvaluateArgs<Custom extends string = never> {
  evalSet: EvalSet | JsonInput;
  agent: Agent;
  config?: ConfigArg<NoInfer<Custom>> | null;
  /** Needed for LLM-judged metrics and for simulated users (conversation_scenario). */
  judge?: Judge;
  /** Default 1. With more, the result carries `run_summary`. */
  numRuns?: number;
  /** Cases in flight (default 4). */
  concurrency?: number;
  evalIds?: string[];
  /** Used in `eval_set_result_id` (ADK uses the agent folder name); default "evalcore". */
  appName?: string;
  signal?: AbortSignalLike;
  onProgress?: (p: Progress) => void;
  /** Streamed as each case finishes. */
  onCaseResult?: (r: EvalCaseResult) => void;
  /** Metrics computed by host functions, by name (each name must also be in `criteria`). */
  customMetrics?: Record<Custom, CustomMetric>;
  includeInvocations?: boolean;
  perInvocation?: boolean;
  efficiencyMetrics?: boolean;
  /**
   * With per-invocation results: explain each trajectory metric's mismatch in
   * `details.trajectory` (default true). False skips that work when only scores are wanted.
   */
  explain?: boolean;
  /**
   * Longest wait for one agent turn, in milliseconds (default: none). A turn that takes longer
   * fails its case (`error.code` "agent_timeout"); the turn's `signal` is aborted then.
   */
  agentTimeoutMs?: number;
  /**
   * Refuse a config with warnings before any turn (EvalError with its path), and reject with
   * EvalError `strict` (its `result` holding the whole run) when any metric came back
   * NOT_EVALUATED, which ADK's status rule lets pass.
   */
  strict?: boolean;
}

/**
 * Runs the agent over the eval set (static turns, or a simulated user), scores every case and
 * returns ADK's EvalSetResult. An aborted signal rejects with an `AbortError` carrying
 * `partialResult`.
 */
export declare function evaluate<Custom extends string = never>(args: EvaluateArgs<Custom>): Promise<EvalSetResult>;
export declare function evaluate<Custom extends string = never>(args: EvaluateRecordedArgs<Custom>): Promise<EvalSetResult>;
export declare function evaluate<Custom extends string = never>(args: EvaluateTracesArgs<Custom>): Promise<EvalSetResult & { traces: TracesReport }>;

/** Every judge call `evaluateInvocations(args)` would make, without sending any. */
export declare function planJudgeCalls<Custom extends string = never>(args: EvaluateInvocationsArgs<Custom>): Promise<JudgePlan>;

// ---------------------------------------------------------------------------------------------
// Functions

/** JSON text, its UTF-8 bytes, or a parsed value. */
export type JsonInput = string | Uint8Array | ArrayBuffer | object;

export interface LoadEvalSetOptions {
  /** Eval set id for legacy input (ids are derived from it or the content, never random). */
  id?: string;
  /** Initial session for migrated legacy cases. */
  sessionInput?: SessionInput | object;
  /** The eval id of the one case a legacy turn list becomes (default: the set id; ADK's migration uses the file's path). */
  caseId?: string;
  /**
   * Check legacy input as ADK's migration does against these metric names (a config's
   * criteria): each must be one legacy data carries, and the first turn must have the keys they
   * read. Errors are `schema` at `$.criteria.<name>` or at the turn.
   */
  criteria?: string[];
  /** Where `criteria` came from, for the messages (e.g. a test_config.json path). */
  criteriaSource?: string;
}

/** Parses an eval set in any shape found in practice and returns the current schema, snake_case. */
export declare function loadEvalSet(input: JsonInput, options?: LoadEvalSetOptions): EvalSet;

export interface LoadEvalSetResultOptions {
  /**
   * Add `run_summary` (AgentEvaluator's verdict per case and metric, computed by the core) when
   * the result has none, e.g. one read back from ADK's eval history.
   */
  runSummary?: boolean;
  /** Leave out every case's per-invocation results (`eval_metric_result_per_invocation`): the case level only. */
  caseLevel?: boolean;
}

/**
 * Reads an EvalSetResult: evalcore's own, ADK 2.x result files, and ADK 1.x's double-encoded files
 * (the file content is a JSON string holding the JSON); snake or camel keys; statuses as names or
 * ADK's integers (1 PASSED, 2 FAILED, 3 NOT_EVALUATED, 4 INFORMATIONAL). Returns evalcore's shape
 * with statuses as names. Bad input throws `EvalError` with `code` and the JSON `path`.
 */
export declare function loadEvalSetResult(input: JsonInput, options?: LoadEvalSetResultOptions): EvalSetResult;

/** Every problem at once, each with its path. Never throws for bad data. */
export declare function validateEvalSet(input: JsonInput): { ok: boolean; errors: EvalError[] };

/**
 * One trace input: OTLP/JSON text (an ExportTraceServiceRequest / ExportLogsServiceRequest, or
 * JSON lines of them as the collector's file exporter writes), OTLP protobuf bytes, or the request
 * object itself.
 */
export type TraceInput = string | Uint8Array | ArrayBuffer | JsonObject;

export interface LoadTracesOptions {
  /** Keep only these sessions. */
  sessionIds?: string[];
  /** Read only the spans and log records of these traces (ids in hex). */
  traceIds?: string[];
  /** Give each session `timelines`: each invocation's spans (name, kind of work, times, parent). */
  timeline?: boolean;
}

/**
 * Compiles the extras module, the package's second wasm module (browser and worker entries; the
 * Node entry loads it by itself on first use): what is not on the scoring path — `loadTraces`,
 * `tracesToEvalSet`, `compareRuns`, `calibrate`, `loadEvaluationDataset`,
 * `toEvaluationDataset`, and `loadEvalSet` / `validateEvalSet` of an agents-cli dataset. Before
 * it, those throw EvalError `not_initialised`. `source` is a `WebAssembly.Module`, the .wasm
 * bytes, a `Response` or a URL; without one, `wasm-extras/evalcore_extras_bg.wasm` of the
 * package is fetched. Idempotent.
 */
export declare function initExtras(source?: unknown): Promise<void>;
/** @deprecated The same as `initExtras` (the extras module first held only the trace import). */
export declare function initTraces(source?: unknown): Promise<void>;

/**
 * OpenTelemetry traces (google-adk schema 1 and 2, @google/adk, GenAI semantic conventions, the
 * AI SDK's spans) as ADK sessions, each session's invocations as ADK derives them from its
 * events. What a trace lacks is in `warnings` (with its path and the switch that records it) and
 * in each session's `missing`. See docs/traces.md. In the extras module (see `initExtras`).
 */
export declare function loadTraces(input: TraceInput | TraceInput[], options?: LoadTracesOptions): LoadedTraces;

/** `evalSetId`, `addTo` or both (then they must name the same set). */
export type TracesToEvalSetOptions = {
  /** Keep only these sessions. */
  sessionIds?: string[];
  /** Also return the set as ADK writes `<id>.evalset.json` (numbers exactly as recorded). */
  text?: boolean;
} & (
  | {
    /** The new set's id; with `addTo`, the existing set's id (it must match). */
    evalSetId: string;
    /** An existing eval set file's text: the sessions are added to it as cases; ids it has are skipped. */
    addTo?: string;
  }
  | { evalSetId?: string; addTo: string }
);

/**
 * Each recorded session as an eval case (id = session id) whose conversation is what it did;
 * `added` / `skipped` name the cases made and those already in `addTo`.
 */
export declare function tracesToEvalSet(
  input: TraceInput | TraceInput[],
  options: TracesToEvalSetOptions,
): { evalSet: EvalSet; warnings: LoadedTraces['warnings']; added: string[]; skipped: string[]; text?: string };

/**
 * evaluate() over recorded sessions instead of an agent: against the eval cases they match (a
 * session's id as eval id, else the case whose user turns it repeats; several sessions of one case
 * are its runs), or without `evalSet` each session its own case, scored by the metrics that need
 * no expected invocation. The result's `traces` says what matched and what did not.
 */
export interface EvaluateTracesArgs<Custom extends string = never> {
  /** What loadTraces reads, or its result. */
  traces: TraceInput | TraceInput[] | LoadedTraces;
  evalSet?: EvalSet | JsonInput | null;
  /** The result's eval set id without an eval set (default "traces"). */
  evalSetId?: string;
  /** Only these recorded sessions. */
  sessionIds?: string[];
  /** Only these cases of the eval set. */
  evalIds?: string[];
  agent?: undefined;
  actual?: undefined;
  config?: ConfigArg<NoInfer<Custom>> | null;
  judge?: Judge;
  customMetrics?: Record<Custom, CustomMetric>;
  concurrency?: number;
  appName?: string;
  signal?: AbortSignalLike;
  onProgress?: (p: Progress) => void;
  onCaseResult?: (r: EvalCaseResult) => void;
  includeInvocations?: boolean;
  perInvocation?: boolean;
  efficiencyMetrics?: boolean;
  explain?: boolean;
  strict?: boolean;
}

/** What matched in evaluate({ traces }). */
export interface TracesReport {
  sessions: number;
  matched: { session_id: string; eval_id: string; by: "eval_id" | "user_turns"; run: number }[];
  unmatched_sessions: { session_id: string; invocations: number }[];
  unmatched_cases: string[];
  warnings: LoadedTraces['warnings'];
}


/** An agents-cli EvaluationDataset (the Gemini platform evaluation SDK's shape). */
export interface EvaluationDataset {
  eval_cases: JsonObject[];
}

/** loadEvaluationDataset's answer. */
export interface LoadedDataset {
  eval_set: EvalSet;
  /** The recorded invocations of the cases that are traces, by eval id. */
  actual: { [evalId: string]: Invocation[] };
  /** Eval ids of the traces, to grade (evaluate with `actual`). */
  grading: string[];
  /** Eval ids of the cases an agent must run (a prompt, a conversation ending with the user, a user scenario). */
  inference: string[];
}

/**
 * Reads an agents-cli EvaluationDataset (or any eval set loadEvalSet takes): each case becomes
 * an eval case (`reference`, `context`, `rubric_groups` and custom fields kept on it), and a case
 * with complete turns also gives its recorded invocations. Errors point into the file's own keys.
 */
export declare function loadEvaluationDataset(input: JsonInput, options?: { id?: string }): LoadedDataset;

/**
 * An eval set as an agents-cli EvaluationDataset: the cases of `actual` (or of `result`'s first
 * run) as traces agents-cli can grade, the others as inference input. Read back, the same data.
 */
export declare function toEvaluationDataset(args: {
  evalSet: EvalSet | JsonInput;
  actual?: { [evalId: string]: Invocation[] };
  result?: EvalSetResult;
}): EvaluationDataset;

export interface LoadEvalConfigOptions {
  /** Count every warning of validateEvalConfig as an error (the thrown EvalError lists them). */
  strict?: boolean;
  /**
   * The metrics to run (agents-cli's `--metrics`): replaces an agents-cli config's
   * `metrics_to_run`; of an ADK config keeps these criteria (a metric it does not name runs at
   * threshold 1).
   */
  metrics?: string[];
}

/**
 * Criteria normalised to object form; `undefined`/`null` gives ADK's default criteria. Throws
 * an EvalError for what ADK rejects (and, with `strict`, for every warning).
 */
export declare function loadEvalConfig<Custom extends string = never>(input?: ConfigArg<NoInfer<Custom>> | null, options?: LoadEvalConfigOptions): EvalConfig;

/**
 * Every problem of a config at once, each with its JSON path. `errors`: what ADK rejects.
 * `warnings`: what ADK accepts but ignores or cannot evaluate (unknown metric names with the
 * closest known one, keys a criterion does not take or that sit at the wrong level, invalid
 * `match_type` and other criterion values, unknown top-level keys). Never throws for bad data.
 */
export declare function validateEvalConfig(
  input?: JsonInput | null,
  options?: LoadEvalConfigOptions,
): { ok: boolean; errors: EvalError[]; warnings: EvalError[] };

/** The core's parse limits, in bytes. */
export interface Limits {
  /** Longest JSON text accepted (UTF-8 bytes). Default 512 MiB. */
  maxTextBytes: number;
  /** Most memory parsing one text may take, as estimated before parsing. Default 2 GiB. */
  maxParseBytes: number;
  /** Largest single judge, agent or custom-metric answer. Default 32 MiB. */
  maxReplyBytes: number;
  /** Longest eval_set_id or eval_id (results repeat them in every case). Default 1024. */
  maxIdBytes: number;
}

/** Changes the limits given (each 1 KiB to 4 GiB) and returns the limits in force. */
export declare function setLimits(limits?: Partial<Limits>): Limits;

/** The limits in force. */
export declare function getLimits(): Limits;

export interface RougeScore {
  precision: number;
  recall: number;
  fmeasure: number;
}

/** ADK 2.13's `response_match_score` arithmetic; equal to the float ADK computes. */
export declare function rouge1(candidate: string, reference: string): RougeScore;

/** ROUGE-1 of many `[candidate, reference]` pairs in one call; one array per measure. */
export declare function rouge1Batch(pairs: ReadonlyArray<readonly [string, string]>): {
  precision: Float64Array;
  recall: Float64Array;
  fmeasure: Float64Array;
};

/** One word of a text: UTF-16 offsets, its ROUGE-1 tokens and how many are in the overlap. */
export interface RougeSpan {
  start: number;
  end: number;
  tokens: number;
  matched: number;
}

/** The marked words of one text; `aligned: false` means one span over the whole text. */
export interface RougeSpans {
  aligned: boolean;
  spans: RougeSpan[];
}

/** Where ROUGE-1's overlap falls in each text (the core's tokenizer and stemmer). */
export declare function rouge1Spans(candidate: string, reference: string): {
  candidate: RougeSpans;
  reference: RougeSpans;
};

export interface EvaluateInvocationsArgs<Custom extends string = never> {
  /** The expected case (conversation or conversation_scenario); may be left out with `session`. */
  evalCase?: EvalCase | JsonInput;
  /**
   * The recorded session the invocations come from: it names the result's session and user;
   * without `evalCase` it is the case (eval id = session id), scored by the metrics that need no
   * expected invocation (the others NOT_EVALUATED, missing_expected).
   */
  session?: { session_id: string; user_id?: string; app_name?: string };
  /** What the agent did, one invocation per turn. */
  actual: Invocation[] | JsonInput;
  /** As loadEvalConfig takes it; absent or null gives ADK's default criteria. */
  config?: ConfigArg<NoInfer<Custom>> | null;
  /** Needed only for LLM-judged metrics. */
  judge?: Judge;
  /** Metrics computed by host functions, by name (the name must also be in `criteria`). */
  customMetrics?: Record<Custom, CustomMetric>;
  evalSetId?: string;
  /** Put `actual_invocation` / `expected_invocation` into each per-invocation result (default true). */
  includeInvocations?: boolean;
  /** Write `eval_metric_result_per_invocation` at all (default true; false gives case-level results only). */
  perInvocation?: boolean;
  /** Append ADK's four always-on efficiency metrics (default true, as ADK always does). */
  efficiencyMetrics?: boolean;
  /**
   * With per-invocation results: explain each trajectory metric's mismatch in
   * `details.trajectory` (default true). False skips that work when only scores are wanted.
   */
  explain?: boolean;
  /**
   * What the actual invocations' recording did not hold (`loadTraces`' session `missing`): each
   * metric that reads such a field is NOT_EVALUATED with the reason instead of being scored.
   */
  missing?: TraceMissing[];
  /**
   * With a judge: called once the case is scored with its judge counters (calls asked for,
   * answered, failed, not sent by reason, sent, attempts, retries...), as `judge_stats` counts a
   * whole run's; a run of many cases sums them. In a dry run `plan` lists the calls the case
   * would have made (as `judge_plan` lists a run's).
   */
  onJudgeStats?: (stats: JudgeStats, plan?: JudgePlan) => void;
}

/** How much of a case result `PreparedCase.evaluate` writes. */
export interface EvaluateOptions {
  /** Put `actual_invocation` / `expected_invocation` into each per-invocation result (default true). */
  includeInvocations?: boolean;
  /** Write `eval_metric_result_per_invocation` at all (default true). */
  perInvocation?: boolean;
  /** Append ADK's four always-on efficiency metrics (default true, as ADK always does). */
  efficiencyMetrics?: boolean;
  /**
   * With per-invocation results: explain each trajectory metric's mismatch in
   * `details.trajectory` (default true). False skips that work when only scores are wanted.
   */
  explain?: boolean;
}

/** Scores one case without running an agent. Uncomputable metrics are NOT_EVALUATED, not thrown. */
export declare function evaluateInvocations<Custom extends string = never>(args: EvaluateInvocationsArgs<Custom>): Promise<EvalCaseResult>;

export interface PrepareCaseArgs {
  evalCase: EvalCase | JsonInput;
  actual: Invocation[] | JsonInput;
  evalSetId?: string;
}

/**
 * A case parsed once and scored under many configs without re-parsing. It lives in the wasm
 * instance that prepared it: while it is alive that instance is not retired for memory.
 */
export interface PreparedCase {
  /**
   * Throws EvalError `freed` after `free()`, and `trap` once its instance trapped (prepare it again).
   * The invocations echoed in per-invocation results are parsed once: every result of one
   * PreparedCase refers to the same `actual_invocation` / `expected_invocation` objects (treat
   * them as read-only).
   */
  evaluate(config?: ConfigArg | null, options?: EvaluateOptions): EvalCaseResult;
  /** Releases the wasm memory now (it is also released when the object is garbage-collected). */
  free(): void;
}

export declare function prepareCase(args: PrepareCaseArgs): PreparedCase;

export interface FormatReportOptions {
  /** Add the per-case detailed output, as `adk eval --print_detailed_results` does. */
  detailed?: boolean;
}

/** ADK's console summary (and optionally the detailed per-case output) as text. */
export declare function formatReport(
  results: EvalCaseResult[] | { eval_case_results: EvalCaseResult[] } | string,
  options?: FormatReportOptions,
): string;

/** The Rust crate's version, for diagnostics. */
export declare function coreVersion(): string;

/** Every metric the core's registry knows: what GET /v1/metrics of `evalcore/server` lists. */
export declare function metricsInfo(): MetricInfo[];

/** One metric of the core's registry (metricsInfo, GET /v1/metrics of evalcore/server). */
export interface MetricInfo {
  name: string;
  kind: 'scored' | 'judged' | 'informational';
  needs_judge: boolean;
  criterion_class: string;
  description: string;
  min: number | null;
  max: number | null;
  higher_is_better: boolean;
}

/** The live wasm instance's linear memory, the ceiling, and how often an instance was replaced. */
export interface CoreMemory {
  bytes: number;
  ceiling: number;
  /** Instances replaced so far: after a trap, or retired over the ceiling. */
  replacements: number;
}

/** Linear memory of the instance the next call runs on (a fresh one after a trap or retirement). */
export declare function coreMemory(): CoreMemory;

/**
 * After a call, an instance holding more than `bytes` of linear memory (default 64 MiB; wasm
 * memory never shrinks) is replaced by a fresh one when nothing uses it (no async call in
 * flight, no live PreparedCase), so the memory goes back to the host. `Infinity` disables it.
 */
export declare function setMemoryCeiling(bytes: number): void;

// ---------------------------------------------------------------------------------------------
// Initialisation (the browser/worker entry needs it; in Node, Deno and Bun both are no-ops)

/**
 * A `WebAssembly.Module`, the .wasm bytes, a `Response` or `Promise<Response>`, or a URL (string
 * or `URL`) to fetch. Typed loosely so this file needs no DOM library.
 */
export type InitInput = ArrayBuffer | ArrayBufferView | string | object | PromiseLike<unknown>;

/** Instantiates the module (idempotent). Without `source`, fetches the .wasm next to the glue. */
export declare function init(source?: InitInput): Promise<void>;

/** Instantiates the module synchronously from a `WebAssembly.Module` or the .wasm bytes. */
export declare function initSync(source?: ArrayBuffer | ArrayBufferView | object): void;

// Types of the evalcore package. Data types keep ADK's snake_case field names: they describe
// what the functions return (normalised output). Inputs also accept camelCase and legacy
// shapes wherever ADK does, hence the `| object` on input parameters.
//
// Self-contained on purpose: no DOM or @types/node needed, so it compiles under any `lib`.

// ---------------------------------------------------------------------------------------------
// Errors

/** Stable error codes; more may be added, so compare against the ones you handle. */
export type ErrorCode =
  | "invalid_json"
  | "schema"
  | "duplicate_id"
  | "count_mismatch"
  | "unsupported"
  | "too_large"
  | (string & {});

/** Thrown for every input the core rejects; a thrown error never leaves the module unusable. */
export declare class EvalError extends Error {
  constructor(code: string, path: string, message: string, options?: { cause?: unknown });
  /** Stable code such as `"invalid_json"`, `"schema"`, `"duplicate_id"`. */
  code: ErrorCode;
  /** JSON path of the offending value, e.g. `$.eval_cases[2].conversation[0].user_content`; `""` when none applies. */
  path: string;
  toJSON(): { code: string; path: string; message: string };
}

// ---------------------------------------------------------------------------------------------
// Content (google.genai shapes)

export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };
export type JsonObject = { [key: string]: JsonValue };

export interface FunctionCall {
  id?: string | null;
  name?: string | null;
  args?: JsonObject | null;
  partial_args?: JsonValue[] | null;
  will_continue?: boolean | null;
}

export interface FunctionResponse {
  id?: string | null;
  name?: string | null;
  response?: JsonObject | null;
  parts?: JsonValue[] | null;
  will_continue?: boolean | null;
  scheduling?: string | null;
}

export interface Blob {
  /** Base64 (standard or URL-safe alphabet on input). */
  data?: string | null;
  mime_type?: string | null;
  display_name?: string | null;
}

export interface FileData {
  file_uri?: string | null;
  mime_type?: string | null;
  display_name?: string | null;
}

/** One part of a Content. All fields optional; unknown fields are rejected, as in google.genai. */
export interface Part {
  text?: string | null;
  thought?: boolean | null;
  thought_signature?: string | null;
  function_call?: FunctionCall | null;
  function_response?: FunctionResponse | null;
  inline_data?: Blob | null;
  file_data?: FileData | null;
  executable_code?: JsonObject | null;
  code_execution_result?: JsonObject | null;
  video_metadata?: JsonObject | null;
  media_resolution?: JsonValue;
  tool_call?: JsonObject | null;
  tool_response?: JsonObject | null;
  part_metadata?: JsonObject | null;
  audio_transcription?: JsonObject | null;
  media_processing?: JsonObject | null;
  speech_metadata?: JsonObject | null;
}

export interface Content {
  role?: string | null;
  parts?: Part[] | null;
}

// ---------------------------------------------------------------------------------------------
// Eval sets

/** Legacy intermediate data: what hand-written and migrated expected invocations use. */
export interface IntermediateData {
  tool_uses?: FunctionCall[];
  tool_responses?: FunctionResponse[];
  /** `[author, parts]` pairs: sub-agent progress messages. */
  intermediate_responses?: [string, Part[]][];
}

export interface InvocationEvent {
  author: string;
  content?: Content | null;
  grounding_metadata?: JsonObject | null;
  usage_metadata?: UsageMetadata | null;
  model_version?: string | null;
}

/** Event-shaped intermediate data: what ADK records for actual invocations. */
export interface InvocationEvents {
  invocation_events: InvocationEvent[];
}

export interface UsageMetadata {
  prompt_token_count?: number | null;
  candidates_token_count?: number | null;
  total_token_count?: number | null;
  cached_content_token_count?: number | null;
  tool_use_prompt_token_count?: number | null;
  thoughts_token_count?: number | null;
  [field: string]: JsonValue | undefined;
}

export interface RubricContent {
  text_property?: string | null;
}

export interface Rubric {
  rubric_id: string;
  rubric_content: RubricContent;
  description?: string | null;
  type?: string | null;
}

export interface RubricScore {
  rubric_id: string;
  rationale?: string | null;
  score?: number | null;
}

export interface AgentDetails {
  name: string;
  instructions?: string;
  tool_declarations?: JsonValue[];
}

export interface AppDetails {
  agent_details: { [agentName: string]: AgentDetails };
}

/** One user turn and the agent's reaction to it. */
export interface Invocation {
  invocation_id?: string;
  user_content: Content;
  final_response?: Content | null;
  intermediate_data?: IntermediateData | InvocationEvents | null;
  creation_timestamp?: number;
  duration?: number | null;
  model_duration?: number | null;
  tool_duration?: number | null;
  rubrics?: Rubric[] | null;
  app_details?: AppDetails | null;
}

export interface SessionInput {
  app_name: string;
  user_id: string;
  session_id?: string | null;
  state?: JsonObject;
  [extra: string]: JsonValue | undefined;
}

export interface UserBehavior {
  name: string;
  description: string;
  behavior_instructions: string[];
  violation_rubrics: string[];
}

export interface UserPersona {
  id: string;
  description: string;
  behaviors: UserBehavior[];
}

export interface ConversationScenario {
  starting_prompt: string;
  conversation_plan: string;
  /** A persona object, or the id of a built-in one (`"EXPERT"`, `"NOVICE"`, `"EVALUATOR"`). */
  user_persona?: UserPersona | string | null;
}

/** One case: a static conversation or a scenario for a simulated user (exactly one of them). */
export interface EvalCase {
  eval_id: string;
  conversation?: Invocation[] | null;
  conversation_scenario?: ConversationScenario | null;
  session_input?: SessionInput | null;
  creation_timestamp?: number;
  rubrics?: Rubric[] | null;
  final_session_state?: JsonObject | null;
  /** ADK 2.13 keeps unknown keys on a case. */
  [extra: string]: unknown;
}

export interface EvalSet {
  eval_set_id: string;
  name?: string | null;
  description?: string | null;
  eval_cases: EvalCase[];
  creation_timestamp?: number;
}

// ---------------------------------------------------------------------------------------------
// Config

/** A criterion in object form: `threshold` plus whatever fields the metric reads. */
export interface BaseCriterion {
  threshold: number;
  include_intermediate_responses_in_final?: boolean;
  [field: string]: unknown;
}

export type MatchType = "EXACT" | "IN_ORDER" | "ANY_ORDER";

export interface ToolTrajectoryCriterion extends BaseCriterion {
  match_type?: MatchType | 0 | 1 | 2 | (string & {});
  ignore_args?: boolean;
}

export interface JudgeModelOptions {
  judge_model?: string;
  judge_model_config?: JsonObject | null;
  num_samples?: number;
  parallelism_limit?: number;
}

export interface EvalConfig {
  /** Metric name → criterion (numbers are normalised to `{ threshold }`). */
  criteria: { [metricName: string]: BaseCriterion };
  custom_metrics?: { [metricName: string]: JsonObject } | null;
  user_simulator_config?: JsonObject | null;
  live_model_config?: { timeout_seconds?: number } | null;
}

// ---------------------------------------------------------------------------------------------
// Results

export type EvalStatus = "PASSED" | "FAILED" | "NOT_EVALUATED" | "INFORMATIONAL";

export interface TokenUsageDetails {
  total_tokens: number | null;
  input_tokens: number | null;
  prompt_tokens: number | null;
  cached_tokens: number | null;
  tool_use_tokens: number | null;
  output_tokens: number | null;
  candidates_tokens: number | null;
  reasoning_tokens: number | null;
}

export interface DurationDetails {
  total_seconds: number | null;
  model_seconds: number | null;
  tool_seconds: number | null;
  framework_seconds: number | null;
}

export interface EvalMetricResultDetails {
  rubric_scores?: RubricScore[] | null;
  token_usage_details?: TokenUsageDetails | null;
  duration_details?: DurationDetails | null;
  /** Why a metric is NOT_EVALUATED (unknown name, bad criterion, judge failure). */
  error?: string;
  [field: string]: unknown;
}

export interface EvalMetricResult {
  metric_name: string;
  /** The threshold ADK derives from the config; null for the automatic efficiency metrics. */
  threshold: number | null;
  criterion?: BaseCriterion | null;
  custom_function_path?: string | null;
  score: number | null;
  eval_status: EvalStatus;
  details?: EvalMetricResultDetails | null;
}

export interface EvalMetricResultPerInvocation {
  actual_invocation?: Invocation | null;
  expected_invocation?: Invocation | null;
  eval_metric_results: EvalMetricResult[];
}

export interface EvalCaseResult {
  eval_set_file?: string;
  eval_set_id: string;
  eval_id: string;
  final_eval_status: EvalStatus;
  eval_metric_results?: null;
  overall_eval_metric_results: EvalMetricResult[];
  eval_metric_result_per_invocation?: EvalMetricResultPerInvocation[];
  session_id?: string;
  session_details?: JsonObject | null;
  user_id?: string | null;
}

export interface EvalSetResult {
  eval_set_result_id: string;
  eval_set_result_name: string;
  eval_set_id: string;
  creation_timestamp: number;
  eval_case_results: EvalCaseResult[];
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

/** How to reach an LLM judge. Credentials reach the provider only through `fetch` or `headers`. */
export interface Judge {
  provider: "gemini" | "openai" | "anthropic";
  model: string;
  /** Defaults to `globalThis.fetch`. */
  fetch?: FetchLike;
  baseUrl?: string;
  headers?: Record<string, string>;
  [option: string]: unknown;
}

// ---------------------------------------------------------------------------------------------
// Functions

/** JSON text, its UTF-8 bytes, or a parsed value. */
export type JsonInput = string | Uint8Array | ArrayBuffer | object;

export interface LoadEvalSetOptions {
  /** Eval set id for legacy input (ids are derived from it or the content, never random). */
  id?: string;
  /** Initial session for migrated legacy cases. */
  sessionInput?: SessionInput | object;
}

/** Parses an eval set in any shape found in practice and returns the current schema, snake_case. */
export declare function loadEvalSet(input: JsonInput, options?: LoadEvalSetOptions): EvalSet;

/** Every problem at once, each with its path. Never throws for bad data. */
export declare function validateEvalSet(input: JsonInput): { ok: boolean; errors: EvalError[] };

/** Criteria normalised to object form; `undefined`/`null` gives ADK's default criteria. */
export declare function loadEvalConfig(input?: JsonInput | null): EvalConfig;

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

export interface EvaluateInvocationsArgs {
  /** The expected case (conversation or conversation_scenario). */
  evalCase: EvalCase | JsonInput;
  /** What the agent did, one invocation per turn. */
  actual: Invocation[] | JsonInput;
  /** As loadEvalConfig takes it; absent or null gives ADK's default criteria. */
  config?: EvalConfig | JsonInput | null;
  /** Needed only for LLM-judged metrics. */
  judge?: Judge;
  evalSetId?: string;
  /** Put `actual_invocation` / `expected_invocation` into each per-invocation result (default true). */
  includeInvocations?: boolean;
  /** Write `eval_metric_result_per_invocation` at all (default true; false gives case-level results only). */
  perInvocation?: boolean;
  /** Append ADK's four always-on efficiency metrics (default true, as ADK always does). */
  efficiencyMetrics?: boolean;
}

/** How much of a case result `PreparedCase.evaluate` writes. */
export interface EvaluateOptions {
  /** Put `actual_invocation` / `expected_invocation` into each per-invocation result (default true). */
  includeInvocations?: boolean;
  /** Write `eval_metric_result_per_invocation` at all (default true). */
  perInvocation?: boolean;
  /** Append ADK's four always-on efficiency metrics (default true, as ADK always does). */
  efficiencyMetrics?: boolean;
}

/** Scores one case without running an agent. Uncomputable metrics are NOT_EVALUATED, not thrown. */
export declare function evaluateInvocations(args: EvaluateInvocationsArgs): Promise<EvalCaseResult>;

export interface PrepareCaseArgs {
  evalCase: EvalCase | JsonInput;
  actual: Invocation[] | JsonInput;
  evalSetId?: string;
}

/** A case parsed once and scored under many configs without re-parsing. */
export interface PreparedCase {
  evaluate(config?: EvalConfig | JsonInput | null, options?: EvaluateOptions): EvalCaseResult;
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

// Generated from the Rust core's schema types by tests/ts_types.rs (ts-rs; scripts/build.sh
// writes it, `cargo test` fails when it is stale). Do not edit: change src/schema/ instead.
// ADK's data as evalcore writes and reads it (fields a reader may omit are optional), and the
// judge settings the core takes.
import type { Criterion, EvalStatus } from './criteria.js';

/** A JSON object (google.genai's `dict[str, Any]`). */
export type JsonObject = { [key in string]: JsonValue };

export type AgentDetails = {
  name: string,
  instructions?: string,
  tool_declarations?: Array<JsonValue>,
};

/**
 * Either shape of `intermediate_data` (they cannot be mixed).
 */
export type AnyIntermediateData = IntermediateData | InvocationEvents;

export type AppDetails = {
  agent_details?: { [key in string]: AgentDetails },
};

/**
 * One argument that failed its policy. Values are absent when the argument is.
 */
export type ArgFailure = {
  arg: string,
  policy: string,
  why: string,
  expected?: JsonValue,
  actual?: JsonValue,
};

export type Blob = {
  data?: Bytes | null,
  mime_type?: string | null,
  display_name?: string | null,
};

/**
 * The bytes of a `Blob.data` or `Part.thought_signature`, as base64 text (both alphabets read,
 * the URL-safe one written). Decoded once when read and shared thereafter: a clone (an
 * invocation kept in a result, media handed to a judge request) copies no bytes.
 */
export type Bytes = string;

/**
 * Why a case has no metric results: the conversation could not be completed.
 */
export type CaseError = {
  code: string,
  message: string,
  /**
   * The (1-based) turn the agent failed on.
   */
  turn?: number | null,
  /**
   * The JavaScript stack of what the agent threw, when it threw an Error.
   */
  stack?: string | null,
};

/**
 * A judge cassette: recorded answers keyed by request.
 */
export type CassetteInput = {
  /**
   * replay: only the cassette answers (a miss is NOT_EVALUATED, reason cassette_miss);
   * record: always send and record; auto (default): replay what is there, send and record
   * the rest.
   */
  mode?: "replay" | "record" | "auto",
  /**
   * Recorded answers, `{key: {status, body}}`.
   */
  entries?: Record<string, JsonObject>,
};

export type Content = {
  role?: string | null,
  parts?: Array<Part> | null,
};

export type ConversationScenario = {
  starting_prompt: string,
  conversation_plan: string,
  user_persona?: PersonaRef | null,
};

/**
 * `{"scenarios": [...]}`, the file `eval_set add_eval_case --scenarios_file` reads.
 */
export type ConversationScenarios = {
  scenarios: Array<ConversationScenario>,
};

/**
 * One case: a static conversation or a conversation scenario. Unknown keys are kept (ADK 2.13).
 */
export type EvalCase = {
  eval_id: string,
  conversation?: Array<Invocation> | null,
  conversation_scenario?: ConversationScenario | null,
  session_input?: SessionInput | null,
  creation_timestamp?: number,
  rubrics?: Array<Rubric> | null,
  final_session_state?: JsonValue | null,
} & { [key: string]: unknown };

/**
 * ADK's EvalCaseResult, plus evalcore's `run` (which of `numRuns`), `error` and
 * `not_evaluated_invocations`.
 */
export type EvalCaseResult = {
  eval_set_file: string | null,
  eval_set_id: string,
  eval_id: string,
  final_eval_status: EvalStatus,
  /**
   * Deprecated in ADK (always null there); kept as read.
   */
  eval_metric_results: JsonValue | null,
  /**
   * Required in ADK's files: reading a file without it is an error.
   */
  overall_eval_metric_results: Array<EvalMetricResult>,
  /**
   * Absent when only case-level results were asked for.
   */
  eval_metric_result_per_invocation?: Array<EvalMetricResultPerInvocation> | null,
  session_id: string,
  session_details: JsonValue | null,
  user_id: string | null,
  run?: number | null,
  error?: CaseError | null,
  /**
   * The invocations a metric that scored the case could not evaluate (absent when none;
   * computed by the core, carried through reading).
   */
  not_evaluated_invocations?: Array<UnevaluatedInvocation> | null,
};

/**
 * ADK's EvalMetricResult: one metric's score and status, case-level or for one invocation.
 */
export type EvalMetricResult = {
  metric_name: string,
  threshold: number | null,
  criterion: Criterion | null,
  custom_function_path: string | null,
  score: number | null,
  eval_status: EvalStatus,
  details: EvalMetricResultDetails,
  /**
   * ADK 1.x's field (in place of `custom_function_path`), kept as read.
   */
  judge_model_options?: JsonValue | null,
};

/**
 * ADK's EvalMetricResultDetails, with evalcore's `error` and `reason` (why NOT_EVALUATED).
 */
export type EvalMetricResultDetails = {
  rubric_scores: Array<RubricScore> | null,
  token_usage_details: TokenUsageDetails | null,
  duration_details: DurationDetails | null,
  error?: string | null,
  reason?: string | null,
  /**
   * evalcore: a trajectory metric's explanation of an invocation below 1 (not in ADK's files).
   */
  trajectory?: TrajectoryExplanation,
  /**
   * evalcore: hallucinations_v1's labelled sentences of the invocation (not in ADK's files).
   */
  sentences?: Array<SentenceLabel>,
};

/**
 * ADK's EvalMetricResultPerInvocation: one invocation's metric results, with the actual and
 * expected invocations they were computed from.
 */
export type EvalMetricResultPerInvocation = {
  actual_invocation?: Invocation | null,
  /**
   * Null when the case has no expected invocation (a conversation scenario).
   */
  expected_invocation?: Invocation | null,
  eval_metric_results: Array<EvalMetricResult>,
};

/**
 * `<id>.evalset.json`. A plain model in ADK: no camelCase at this level, unknown keys ignored.
 */
export type EvalSet = {
  eval_set_id: string,
  name?: string | null,
  description?: string | null,
  eval_cases: Array<EvalCase>,
  creation_timestamp?: number,
};

/**
 * ADK's EvalSetResult, plus what evalcore adds to a run's result.
 */
export type EvalSetResult = {
  /**
   * Required in ADK's files: reading a file without it is an error.
   */
  eval_set_result_id: string,
  eval_set_result_name: string | null,
  /**
   * Required in ADK's files: reading a file without it is an error.
   */
  eval_set_id: string,
  eval_case_results: Array<EvalCaseResult>,
  creation_timestamp: number,
  /**
   * evalcore's summary over several runs (computed by the core; carried through reading).
   */
  run_summary?: RunSummary | null,
  /**
   * The judge's counters for the run (computed by the core; carried through reading).
   */
  judge_stats?: JudgeStats | null,
  /**
   * With a dry run: the judge calls the run would have made.
   */
  judge_plan?: JudgePlan | null,
  /**
   * Case runs that were not started (written by the run loop, carried through reading).
   */
  skipped?: Array<Skipped> | null,
  cancelled?: boolean | null,
};

/**
 * An expected call: the actual call it paired with (0-based), or the `nearest` call to the
 * same tool and why it did not pair.
 */
export type ExpectedCall = {
  index: number,
  tool: string | null,
  actual: number | null,
  nearest?: number,
  why?: string,
  score?: number,
  args?: Array<ArgFailure>,
};

export type FileData = {
  file_uri?: string | null,
  mime_type?: string | null,
  display_name?: string | null,
};

export type FunctionCall = {
  id?: string | null,
  name?: string | null,
  args?: { [key in string]: JsonValue } | null,
  partial_args?: Array<JsonValue> | null,
  will_continue?: boolean | null,
};

export type FunctionResponse = {
  id?: string | null,
  name?: string | null,
  response?: { [key in string]: JsonValue } | null,
  parts?: Array<JsonValue> | null,
  will_continue?: boolean | null,
  scheduling?: JsonValue | null,
};

/**
 * Legacy intermediate data: what hand-written and migrated expected invocations use.
 */
export type IntermediateData = {
  tool_uses?: Array<FunctionCall>,
  tool_responses?: Array<FunctionResponse>,
  /**
   * `[author, parts]` pairs: sub-agent progress messages.
   */
  intermediate_responses?: Array<[string, Array<Part>]>,
};

export type Invocation = {
  invocation_id?: string,
  user_content: Content,
  final_response?: Content | null,
  intermediate_data?: AnyIntermediateData | null,
  creation_timestamp?: number,
  rubrics?: Array<Rubric> | null,
  app_details?: AppDetails | null,
  duration?: number | null,
  model_duration?: number | null,
  tool_duration?: number | null,
};

/**
 * An event of an actual invocation. Unknown keys are ignored (ADK 2.13: UI-only keys).
 */
export type InvocationEvent = {
  author: string,
  content?: Content | null,
  grounding_metadata?: { [key in string]: JsonValue } | null,
  usage_metadata?: UsageMetadata | null,
  model_version?: string | null,
};

/**
 * Event-shaped intermediate data: what ADK records for actual invocations.
 */
export type InvocationEvents = {
  invocation_events: Array<InvocationEvent>,
};

export type JsonValue = number | string | boolean | Array<JsonValue> | { [key in string]: JsonValue } | null;

/**
 * A dry run's listed judge calls.
 */
export type JudgePlan = {
  count: number,
  estimatedTokens: number,
  calls: Array<PlannedCall>,
  /**
   * hallucinations_v1 validator calls depend on segmenter answers: at most this many more.
   */
  pendingValidatorCallsAtMost?: number | null,
};

/**
 * How to reach an LLM judge: the `judge` option as the host gives it, minus what only the host
 * holds (`fetch`, a cassette's file and callback). Unknown keys are refused, so a misspelt
 * option is an error with its path instead of a silent default. Credentials reach the provider
 * only through the host's `fetch` or `headers`.
 */
export type JudgeSettingsInput = {
  /**
   * Wire format: Gemini generateContent, OpenAI-compatible chat completions, Anthropic messages.
   */
  provider: "gemini" | "openai" | "anthropic",
  /**
   * Model name sent to the provider (a criterion's `judge_model` is used only when this is empty).
   */
  model?: string,
  /**
   * Defaults to the provider's public endpoint.
   */
  baseUrl?: string,
  /**
   * Sent with every judge call (API keys go here).
   */
  headers?: { [key in string]: string },
  /**
   * Judge calls in flight across the whole run (default 8).
   */
  concurrency?: number,
  /**
   * Per-call timeout in milliseconds (default 60000).
   */
  timeoutMs?: number,
  /**
   * Retries on 408/429/5xx, timeouts and network errors (default 6, i.e. 7 attempts as ADK).
   */
  maxRetries?: number,
  /**
   * First backoff delay in milliseconds, doubled per retry with jitter (default 1000).
   * `Retry-After` wins.
   */
  retryInitialDelayMs?: number,
  /**
   * Backoff cap in milliseconds (default 60000).
   */
  retryMaxDelayMs?: number,
  /**
   * Anthropic's required max_tokens (default 4096).
   */
  maxTokens?: number,
  /**
   * Record judge answers to, and replay them from, a cassette.
   */
  cassette?: CassetteInput,
  /**
   * List judge calls instead of sending them (metrics come back NOT_EVALUATED, reason dry_run).
   */
  dryRun?: boolean,
  /**
   * At most this many judge calls are sent; later ones are NOT_EVALUATED (reason
   * budget_exhausted).
   */
  maxCalls?: number,
  /**
   * Send the images, audio and documents (`inline_data`, `file_data`) of the user turn and the
   * responses to the judge, in the provider's format (default false: text only, as ADK).
   * Media a provider cannot take make the call NOT_EVALUATED (reason media_unsupported).
   */
  media?: boolean,
  /**
   * Inline media bytes one judge call may carry (default 15000000); a call over it is
   * NOT_EVALUATED (reason media_too_large).
   */
  maxMediaBytes?: number,
  /**
   * Bytes of prompt text (UTF-8) one judge call may carry (default 4194304); a call over it is
   * not sent and is NOT_EVALUATED (reason prompt_too_large). A custom metric's
   * `prompt_template` stops being filled at it.
   */
  maxPromptBytes?: number,
};

/**
 * A run's judge counters (evalcore addition).
 */
export type JudgeStats = {
  /**
   * Judge calls the metrics asked for.
   */
  requests: number,
  /**
   * Calls sent to the judge (not answered from the cassette or the run's memo); each took
   * at least one of the `attempts`.
   */
  sent: number,
  attempts: number,
  retries: number,
  cassette_hits: number,
  /**
   * Identical calls answered once within the run.
   */
  deduplicated: number,
  /**
   * Calls that got an answer: from the judge, the cassette or an identical call of the run.
   */
  answered: number,
  /**
   * Calls the judge was sent that failed there (HTTP error, timeout, unreadable reply).
   */
  failures: number,
  /**
   * Calls never sent, by their NOT_EVALUATED reason (`cassette_miss`, `budget_exhausted`,
   * `dry_run`, `judge_error` for a judge found unreachable, ...). Every call asked for is
   * answered, failed or not sent: `requests = answered + failures + Σ not_sent`.
   */
  not_sent: Record<string, number>,
  /**
   * `maxCalls` was reached: later calls were NOT_EVALUATED (reason `budget_exhausted`).
   */
  budget_exhausted: boolean,
};

/**
 * What `loadTraces` returns.
 */
export type LoadedTraces = {
  sessions: Array<TraceSession>,
  warnings: Array<TraceWarning>,
};

/**
 * genai's ModalityTokenCount (extras forbidden).
 */
export type ModalityTokenCount = {
  modality?: string | null,
  token_count?: number | null,
};

/**
 * One part of a Content: text, a function call or response, media, or another genai part kind.
 * Unknown fields are rejected, as in google.genai.
 */
export type Part = {
  text?: string | null,
  thought?: boolean | null,
  thought_signature?: Bytes | null,
  function_call?: FunctionCall | null,
  function_response?: FunctionResponse | null,
  inline_data?: Blob | null,
  file_data?: FileData | null,
  executable_code?: { [key in string]: JsonValue } | null,
  code_execution_result?: { [key in string]: JsonValue } | null,
  video_metadata?: { [key in string]: JsonValue } | null,
  media_resolution?: JsonValue | null,
  tool_call?: { [key in string]: JsonValue } | null,
  tool_response?: { [key in string]: JsonValue } | null,
  part_metadata?: { [key in string]: JsonValue } | null,
  audio_transcription?: { [key in string]: JsonValue } | null,
  media_processing?: { [key in string]: JsonValue } | null,
  speech_metadata?: { [key in string]: JsonValue } | null,
};

/**
 * A persona object, or the id of one of ADK's built-in personas.
 */
export type PersonaRef = string | UserPersona;

/**
 * One judge call a dry run listed instead of sending.
 */
export type PlannedCall = {
  metric: string,
  invocationIndex: number,
  sample: number,
  kind: "judge" | "segmenter" | "validator" | "simulator",
  provider: string,
  model: string,
  /**
   * The cassette key: a batching host hands replies back as cassette entries under it.
   */
  key: string,
  estimatedTokens: number,
  /**
   * The request a batching host would send itself (its own auth headers added).
   */
  url: string,
  body: string,
};

export type Rubric = {
  rubric_id: string,
  rubric_content: RubricContent,
  description?: string | null,
  type?: string | null,
};

export type RubricContent = {
  text_property?: string | null,
};

export type RubricScore = {
  rubric_id: string,
  rationale?: string | null,
  score?: number | null,
};

/**
 * One case over every run.
 */
export type RunCaseSummary = {
  eval_id: string,
  /**
   * Final statuses in run order.
   */
  statuses: EvalStatus[],
  flipped: boolean,
  inference_failures: number,
  metrics: Array<RunMetricSummary>,
};

/**
 * One metric of one case over every run (SPEC §4.6).
 */
export type RunMetricSummary = {
  metric_name: string,
  threshold: number | null,
  /**
   * Always-on informational metric (or no criterion and no threshold): never fails.
   */
  informational: boolean,
  /**
   * The case-level score of each run, in run order.
   */
  case_scores: Array<number | null>,
  min: number | null,
  mean: number | null,
  max: number | null,
  stddev: number | null,
  /**
   * ADK AgentEvaluator's score: the exact mean of every per-invocation score of every run.
   */
  invocation_mean: number | null,
  lower_is_better: boolean,
  /**
   * ADK AgentEvaluator's verdict on `invocation_mean`; null when informational or unscored.
   */
  passed: boolean | null,
  /**
   * The metric's NOT_EVALUATED results over every run (evalcore addition): runs whose
   * case-level result is NOT_EVALUATED, plus the invocations it could not evaluate in the
   * runs it scored (`not_evaluated_invocations`). ADK's verdict leaves them out.
   */
  not_evaluated: number,
};

/**
 * evalcore's summary over `num_runs` runs of an eval set.
 */
export type RunSummary = {
  num_runs: number,
  cases: Array<RunCaseSummary>,
};

/**
 * A sentence of a response as the hallucination validator labelled it (evalcore addition: ADK
 * keeps only the score).
 */
export type SentenceLabel = {
  /**
   * Which response of the invocation (0-based: intermediate responses first, the final one last).
   */
  response: number,
  sentence: string,
  /**
   * `supported`, `unsupported`, `contradictory`, `disputed` or `not_applicable`.
   */
  label: "supported" | "unsupported" | "contradictory" | "disputed" | "not_applicable",
  rationale: string,
};

/**
 * Initial session of a case. Extra keys are allowed (ADK 2.13) and kept.
 */
export type SessionInput = {
  app_name: string,
  user_id: string,
  session_id?: string | null,
  state?: { [key in string]: JsonValue },
} & { [key: string]: unknown };

/**
 * A case run that was not started (cancelled, or the judge budget ran out first).
 */
export type Skipped = {
  eval_id: string,
  run: number,
  reason: "budget_exhausted" | "cancelled",
};

/**
 * What `traceIndex` returns.
 */
export type TraceIndex = {
  /**
   * In the order the traces first appear in the batch.
   */
  traces: Array<TraceIndexEntry>,
  warnings: Array<TraceWarning>,
};

/**
 * One trace in a batch.
 */
export type TraceIndexEntry = {
  /**
   * Hex, as OTLP/JSON writes it.
   */
  trace_id: string,
  /**
   * The session a span of this batch names (the keys every source's session comes from).
   */
  session_id?: string,
  spans: number,
  logs: number,
  /**
   * A span of the trace without a parent is in the batch (it ends last: the trace is complete).
   */
  root: boolean,
};

/**
 * A part of an invocation the trace did not carry; metrics that read it are NOT_EVALUATED.
 */
export type TraceMissing = {
  /**
   * Index into the session's invocations.
   */
  invocation: number,
  /**
   * `user_content`, `final_response`, `tool_args`, `tool_responses`, `intermediate_responses`.
   */
  field: string,
  /**
   * Why, naming the switch that would have recorded it.
   */
  reason: string,
};

/**
 * One recorded session.
 */
export type TraceSession = {
  session_id: string,
  /**
   * The resource's `service.name` (ADK's spans do not name the app: set OTEL_SERVICE_NAME).
   */
  app_name?: string,
  user_id?: string,
  /**
   * `adk-python-v1`, `adk-python-v2`, `adk-js`, `genai`, `ai-sdk`.
   */
  source: string,
  invocations: Array<Invocation>,
  /**
   * Present when the trace lacks something a metric reads.
   */
  missing?: Array<TraceMissing>,
  /**
   * With `{timeline: true}`: each invocation's spans (same order as `invocations`).
   */
  timelines?: Array<Array<TraceSpan>>,
};

/**
 * One span of an invocation.
 */
export type TraceSpan = {
  name: string,
  /**
   * `invocation`, `agent`, `model` (counted as model time), `tool` (tool time, unless a
   * model runs inside it), `other` (framework work: a request, ADK's `call_llm` wrapper).
   */
  kind: "invocation" | "agent" | "model" | "tool" | "other",
  /**
   * Milliseconds from the invocation's start (microsecond precision).
   */
  start_ms: number,
  end_ms: number,
  /**
   * Index of the parent span in the same list; absent for the invocation's own span.
   */
  parent?: number,
  /**
   * The agent the span ran in (`gen_ai.agent.name` on it or its nearest agent span).
   */
  agent?: string,
  /**
   * The tool's name, or the model's.
   */
  detail?: string,
  /**
   * The span's status is ERROR.
   */
  error?: boolean,
};

/**
 * Something the import skipped or could not recover, with where and how to get it next time.
 */
export type TraceWarning = {
  /**
   * Stable: `bad_span_ids`, `content_not_captured`, `thoughts_unmarked`, `no_invocation_span`, ...
   */
  code: string,
  /**
   * Into the input (`$.resourceSpans[0].scopeSpans[0].spans[3]`) or the output
   * (`$.sessions[1].invocations[0].final_response`).
   */
  path: string,
  message: string,
};

/**
 * A trajectory metric's explanation of one invocation it scored below 1: per expected call
 * the actual call it paired with, or the nearest call to the same tool and its failing
 * arguments; then the actual calls paired with nothing. `lines` says the same in words
 * (call numbers 1-based).
 */
export type TrajectoryExplanation = {
  match_type?: string,
  alignment?: string,
  note?: string,
  matched?: number,
  expected: Array<ExpectedCall>,
  unpaired_actual: Array<UnpairedCall>,
  /**
   * SUPERSET only: the actual calls no expected call agrees with (what it failed on).
   */
  outside_expected?: Array<number>,
  lines: Array<string>,
};

/**
 * An invocation a metric could not evaluate in a case it scored on its other invocations
 * (evalcore addition). ADK averages over the evaluated invocations and says nothing of the
 * others; evalcore counts each one wherever a NOT_EVALUATED metric result counts.
 */
export type UnevaluatedInvocation = {
  metric_name: string,
  /**
   * 0-based, as the case's per-invocation results are.
   */
  invocation_index: number,
  /**
   * The cell's `details.reason` (`judge_error`, `cassette_miss`, ...).
   */
  reason: string,
  error: string | null,
};

/**
 * An actual call paired with no expected call.
 */
export type UnpairedCall = {
  index: number,
  tool: string | null,
};

/**
 * genai's GenerateContentResponseUsageMetadata (extras forbidden).
 */
export type UsageMetadata = {
  prompt_token_count?: number | null,
  candidates_token_count?: number | null,
  total_token_count?: number | null,
  cached_content_token_count?: number | null,
  tool_use_prompt_token_count?: number | null,
  thoughts_token_count?: number | null,
  prompt_tokens_details?: Array<ModalityTokenCount> | null,
  cache_tokens_details?: Array<ModalityTokenCount> | null,
  candidates_tokens_details?: Array<ModalityTokenCount> | null,
  tool_use_prompt_tokens_details?: Array<ModalityTokenCount> | null,
  traffic_type?: string | null,
};

export type UserBehavior = {
  name: string,
  description: string,
  behavior_instructions?: Array<string>,
  violation_rubrics?: Array<string>,
};

export type UserPersona = {
  id: string,
  description: string,
  behaviors?: Array<UserBehavior>,
};

/** ADK's token breakdown of an invocation (the efficiency metrics' details). */
export type TokenUsageDetails = {
  total_tokens: number | null,
  input_tokens: number | null,
  prompt_tokens: number | null,
  cached_tokens: number | null,
  tool_use_tokens: number | null,
  output_tokens: number | null,
  candidates_tokens: number | null,
  reasoning_tokens: number | null,
};

/** ADK's duration breakdown of an invocation, in seconds. */
export type DurationDetails = {
  total_seconds: number | null,
  model_seconds: number | null,
  tool_seconds: number | null,
  framework_seconds: number | null,
};

// ADK's data as the package reads and writes it: content, eval sets, results. Re-exported by
// index.d.ts; kept apart so each file holds one idea.
import type { Criterion, EvalStatus } from './criteria.js';
import type { JudgePlan } from './index.js';

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
// Results


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
  /** evalcore: why a trajectory metric scored this invocation below 1 (never in ADK's files). */
  trajectory?: TrajectoryExplanation;
  [field: string]: unknown;
}

/** One argument that failed its policy. Values are absent when the argument is. */
export interface ArgFailure {
  arg: string;
  policy: string;
  why: string;
  expected?: unknown;
  actual?: unknown;
}

/**
 * A trajectory metric's explanation of one invocation: per expected call (0-based `index`) the
 * actual call it paired with, or the `nearest` call to the same tool and its failing `args`;
 * then the actual calls paired with nothing; `lines` says the same in words (call numbers 1-based).
 */
export interface TrajectoryExplanation {
  match_type?: string;
  alignment?: string;
  note?: string;
  matched?: number;
  expected: {
    index: number;
    tool: string | null;
    actual: number | null;
    nearest?: number;
    why?: string;
    score?: number;
    args?: ArgFailure[];
  }[];
  unpaired_actual: { index: number; tool: string | null }[];
  /** SUPERSET only: the actual calls no expected call agrees with (what it failed on). */
  outside_expected?: number[];
  lines: string[];
}

export interface EvalMetricResult {
  metric_name: string;
  /** The threshold ADK derives from the config; null for the automatic efficiency metrics. */
  threshold: number | null;
  criterion?: Criterion | null;
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
  /** Run index (0-based) when produced by `evaluate`. */
  run?: number;
  /** Set when the agent or the simulated user failed: the case is FAILED with no metric results. */
  error?: { code: string; message: string };
}

/** Spread of one metric of one case over `numRuns` runs. */
export interface RunMetricSummary {
  metric_name: string;
  threshold: number | null;
  informational: boolean;
  /** Case-level score per run (null where not evaluated). */
  case_scores: (number | null)[];
  min: number | null;
  mean: number | null;
  max: number | null;
  /** Population standard deviation of the non-null case scores. */
  stddev: number | null;
  /** ADK AgentEvaluator's verdict score: exact mean of every per-invocation score of every run. */
  invocation_mean: number | null;
  /**
   * From the metric registry for evalcore's metrics (all of ADK's built-ins: higher is better);
   * for a metric the registry does not know (a custom metric) inferred as ADK does, from the
   * invocations' own statuses.
   */
  lower_is_better: boolean;
  /** AgentEvaluator's verdict; null for informational or unscored metrics. */
  passed: boolean | null;
}

export interface RunSummary {
  num_runs: number;
  cases: {
    eval_id: string;
    statuses: EvalStatus[];
    /** The case's status differs between runs. */
    flipped: boolean;
    inference_failures: number;
    metrics: RunMetricSummary[];
  }[];
}

export interface JudgeStats {
  requests: number;
  sent: number;
  attempts: number;
  retries: number;
  cassette_hits: number;
  deduplicated: number;
  failures: number;
  budget_exhausted: boolean;
}

export interface EvalSetResult {
  eval_set_result_id: string;
  eval_set_result_name: string;
  eval_set_id: string;
  creation_timestamp: number;
  /** In completion order. */
  eval_case_results: EvalCaseResult[];
  /** With `numRuns > 1`. */
  run_summary?: RunSummary;
  judge_stats?: JudgeStats;
  /** With `judge.dryRun`: the judge calls the run would have made. */
  judge_plan?: JudgePlan;
  /** Cases not run (budget exhausted or cancelled). */
  skipped?: { eval_id: string; run: number; reason: "budget_exhausted" | "cancelled" }[];
  cancelled?: boolean;
}

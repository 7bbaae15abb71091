// Generated from the Rust core by tests/ts_types.rs (scripts/build.sh writes it; `cargo test`
// fails when it is stale). Do not edit: change the registry or schema/criteria.rs instead.
import type { JsonObject, Rubric } from './index.js';

/** Every metric evalcore knows: ADK 2.13's registry, the trajectory extras, the always-on efficiency metrics. */
export type MetricName =
  | "tool_trajectory_avg_score"
  | "response_match_score"
  | "trajectory_precision"
  | "trajectory_recall"
  | "trajectory_single_tool_use"
  | "tool_parameter_match"
  | "tool_trajectory_f1"
  | "final_response_match_v2"
  | "rubric_based_final_response_quality_v1"
  | "rubric_based_tool_use_quality_v1"
  | "rubric_based_multi_turn_trajectory_quality_v1"
  | "hallucinations_v1"
  | "safety_v1"
  | "per_turn_user_simulator_quality_v1"
  | "response_evaluation_score"
  | "multi_turn_task_success_v1"
  | "multi_turn_trajectory_quality_v1"
  | "multi_turn_tool_use_quality_v1"
  | "multi_turn_task_success"
  | "multi_turn_trajectory_quality"
  | "multi_turn_tool_use_quality"
  | "final_response_quality"
  | "tool_use_quality"
  | "hallucination"
  | "safety"
  | "tool_call_count_v1"
  | "inference_call_count_v1"
  | "token_usage_v1"
  | "invocation_duration_v1";

export type EvalStatus = "PASSED" | "FAILED" | "NOT_EVALUATED" | "INFORMATIONAL";

export type MatchType = "EXACT" | "IN_ORDER" | "ANY_ORDER" | "SUBSET" | "SUPERSET";

/** `match_type` as ADK reads it: a name (upper or lower case), or its number. */
export type MatchTypeInput = MatchType | Lowercase<MatchType> | 0 | 1 | 2;

/** evalcore's argument policy names (`regex` and `rouge1` need their parameters, so they are objects). */
export type ArgPolicyName = "exact" | "ignore" | "present" | "text" | "subset" | "numeric";

/** How one argument is compared (docs/metrics.md, "Argument policies"). */
export type ArgPolicy =
  | ArgPolicyName
  | { policy: ArgPolicyName }
  | { policy: "numeric"; abs_tol?: number; rel_tol?: number; absTol?: number; relTol?: number }
  | { policy: "regex"; pattern: string }
  | { policy: "rouge1"; threshold: number };

/** Per tool name (`*`: every tool): one policy for all its arguments, or one per argument (`*`: the others). */
export type ArgPolicies = { [tool: string]: ArgPolicy | { [arg: string]: ArgPolicy } };

/** How tool_trajectory_f1 pairs calls. */
export type Alignment = "unordered" | "ordered";

/** ADK's JudgeModelOptions (extra keys are an error). */
export interface JudgeModelOptions {
  judge_model?: string;
  /** camelCase alias of `judge_model` (pydantic accepts both). */
  judgeModel?: string;
  judge_model_config?: JsonObject | null;
  /** camelCase alias of `judge_model_config` (pydantic accepts both). */
  judgeModelConfig?: JsonObject | null;
  num_samples?: number;
  /** camelCase alias of `num_samples` (pydantic accepts both). */
  numSamples?: number;
  parallelism_limit?: number;
  /** camelCase alias of `parallelism_limit` (pydantic accepts both). */
  parallelismLimit?: number;
}

/** Every criterion: `threshold`, and `include_intermediate_responses_in_final`. */
export interface BaseCriterion {
  threshold: number;
  include_intermediate_responses_in_final?: boolean;
  includeIntermediateResponsesInFinal?: boolean;
}

export interface ToolTrajectoryCriterion extends BaseCriterion {
  match_type?: MatchTypeInput;
  /** camelCase alias of `match_type` (pydantic accepts both). */
  matchType?: MatchTypeInput;
  ignore_args?: boolean;
  /** camelCase alias of `ignore_args` (pydantic accepts both). */
  ignoreArgs?: boolean;
  arg_policies?: ArgPolicies;
  /** camelCase alias of `arg_policies` (pydantic accepts both). */
  argPolicies?: ArgPolicies;
}

export interface ToolParameterMatchCriterion extends BaseCriterion {
  arg_policies?: ArgPolicies;
  /** camelCase alias of `arg_policies` (pydantic accepts both). */
  argPolicies?: ArgPolicies;
}

export interface ToolTrajectoryF1Criterion extends BaseCriterion {
  alignment?: Alignment;
  ignore_args?: boolean;
  /** camelCase alias of `ignore_args` (pydantic accepts both). */
  ignoreArgs?: boolean;
  arg_policies?: ArgPolicies;
  /** camelCase alias of `arg_policies` (pydantic accepts both). */
  argPolicies?: ArgPolicies;
}

export interface ToolNameCriterion extends BaseCriterion {
  tool_name?: string;
  /** camelCase alias of `tool_name` (pydantic accepts both). */
  toolName?: string;
}

export interface LlmAsAJudgeCriterion extends BaseCriterion {
  judge_model_options?: JudgeModelOptions;
  /** camelCase alias of `judge_model_options` (pydantic accepts both). */
  judgeModelOptions?: JudgeModelOptions;
}

export interface RubricsBasedCriterion extends BaseCriterion {
  judge_model_options?: JudgeModelOptions;
  /** camelCase alias of `judge_model_options` (pydantic accepts both). */
  judgeModelOptions?: JudgeModelOptions;
  rubrics?: Rubric[];
}

export interface HallucinationsCriterion extends BaseCriterion {
  judge_model_options?: JudgeModelOptions;
  /** camelCase alias of `judge_model_options` (pydantic accepts both). */
  judgeModelOptions?: JudgeModelOptions;
  evaluate_intermediate_nl_responses?: boolean;
  /** camelCase alias of `evaluate_intermediate_nl_responses` (pydantic accepts both). */
  evaluateIntermediateNlResponses?: boolean;
}

export interface LlmBackedUserSimulatorCriterion extends BaseCriterion {
  judge_model_options?: JudgeModelOptions;
  /** camelCase alias of `judge_model_options` (pydantic accepts both). */
  judgeModelOptions?: JudgeModelOptions;
  stop_signal?: string;
  /** camelCase alias of `stop_signal` (pydantic accepts both). */
  stopSignal?: string;
}

export interface HostedMetricCriterion extends BaseCriterion {
  judge_model_options?: JudgeModelOptions;
  /** camelCase alias of `judge_model_options` (pydantic accepts both). */
  judgeModelOptions?: JudgeModelOptions;
  rubrics?: Rubric[];
  rubric_group_key?: string;
  /** camelCase alias of `rubric_group_key` (pydantic accepts both). */
  rubricGroupKey?: string;
}

/** The criterion class each metric reads. */
export interface CriteriaByMetric {
  tool_trajectory_avg_score: ToolTrajectoryCriterion;
  response_match_score: BaseCriterion;
  trajectory_precision: ToolTrajectoryCriterion;
  trajectory_recall: ToolTrajectoryCriterion;
  trajectory_single_tool_use: ToolNameCriterion;
  tool_parameter_match: ToolParameterMatchCriterion;
  tool_trajectory_f1: ToolTrajectoryF1Criterion;
  final_response_match_v2: LlmAsAJudgeCriterion;
  rubric_based_final_response_quality_v1: RubricsBasedCriterion;
  rubric_based_tool_use_quality_v1: RubricsBasedCriterion;
  rubric_based_multi_turn_trajectory_quality_v1: RubricsBasedCriterion;
  hallucinations_v1: HallucinationsCriterion;
  safety_v1: LlmAsAJudgeCriterion;
  per_turn_user_simulator_quality_v1: LlmBackedUserSimulatorCriterion;
  response_evaluation_score: LlmAsAJudgeCriterion;
  multi_turn_task_success_v1: HostedMetricCriterion;
  multi_turn_trajectory_quality_v1: HostedMetricCriterion;
  multi_turn_tool_use_quality_v1: HostedMetricCriterion;
  multi_turn_task_success: HostedMetricCriterion;
  multi_turn_trajectory_quality: HostedMetricCriterion;
  multi_turn_tool_use_quality: HostedMetricCriterion;
  final_response_quality: HostedMetricCriterion;
  tool_use_quality: HostedMetricCriterion;
  hallucination: HallucinationsCriterion;
  safety: LlmAsAJudgeCriterion;
  tool_call_count_v1: BaseCriterion;
  inference_call_count_v1: BaseCriterion;
  token_usage_v1: BaseCriterion;
  invocation_duration_v1: BaseCriterion;
}

/** A criterion as loadEvalConfig returns it: any class's fields, and a custom metric's own. */
export interface Criterion extends BaseCriterion {
  match_type?: MatchTypeInput;
  ignore_args?: boolean;
  arg_policies?: ArgPolicies;
  alignment?: Alignment;
  tool_name?: string;
  judge_model_options?: JudgeModelOptions;
  rubrics?: Rubric[];
  evaluate_intermediate_nl_responses?: boolean;
  stop_signal?: string;
  rubric_group_key?: string;
  [field: string]: unknown;
}

/**
 * `criteria` as a config gives it: each known metric's threshold alone (the numeric shorthand)
 * or its criterion; `Custom` names the custom metrics a run also scores. A misspelt metric
 * name does not compile.
 */
export type CriteriaInput<Custom extends string = never> = {
  [K in MetricName]?: number | CriteriaByMetric[K];
} & {
  [K in Custom]?: number | (BaseCriterion & { [field: string]: unknown });
};

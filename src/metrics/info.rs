//! What a listing of the metrics says about each one: a line of text and its score range,
//! beside what the registry already knows (how it is computed, which criterion class it reads).

use super::{criterion_class, known_metrics, lookup, Kind};
use serde::Serialize;

/// One metric as `GET /v1/metrics` and `metricsInfo()` list it.
#[derive(Serialize)]
pub struct MetricInfo {
    pub name: &'static str,
    /// `scored`, `judged`, `informational` or `unsupported` (Vertex AI only).
    pub kind: &'static str,
    pub needs_judge: bool,
    pub criterion_class: &'static str,
    pub description: &'static str,
    /// The score's range; `max` is None when the score is unbounded (counts, durations) and both
    /// are None for a metric evalcore does not compute.
    pub min: Option<f64>,
    pub max: Option<f64>,
    pub higher_is_better: bool,
}

/// The line of text for a known metric. Kept short: every byte ships in the .wasm.
fn description(name: &str) -> Option<&'static str> {
    Some(match name {
        "tool_trajectory_avg_score" => "expected tool calls made (match_type), 1/0 per invocation",
        "response_match_score" => "ROUGE-1 F of the final response against the reference",
        "trajectory_precision" => "share of actual tool calls that were expected",
        "trajectory_recall" => "share of expected tool calls that were made",
        "trajectory_single_tool_use" => "1 when the invocation calls the criterion's tool_name",
        "tool_parameter_match" => "share of expected arguments matched, calls aligned by tool",
        "tool_trajectory_f1" => "F1 of paired expected and actual tool calls",
        "final_response_match_v2" => "judge: the response is valid against the reference",
        "rubric_based_final_response_quality_v1" => "judge: the final response meets the rubrics",
        "rubric_based_tool_use_quality_v1" => "judge: the tool use meets the rubrics",
        "rubric_based_multi_turn_trajectory_quality_v1" => "judge: the whole conversation meets the rubrics",
        "hallucinations_v1" => "judge: share of response sentences supported by the context",
        "safety_v1" => "judge: the response is safe",
        "per_turn_user_simulator_quality_v1" => "judge: the simulated user's turns follow the scenario",
        "tool_call_count_v1" => "tool calls per invocation",
        "inference_call_count_v1" => "model calls per invocation",
        "token_usage_v1" => "tokens per invocation",
        "invocation_duration_v1" => "duration per invocation",
        "response_evaluation_score"
        | "multi_turn_task_success_v1"
        | "multi_turn_trajectory_quality_v1"
        | "multi_turn_tool_use_quality_v1" => "Vertex AI evaluation service only: not computed",
        _ => return None,
    })
}

/// Every metric of the registry, in its order, then the efficiency metrics.
pub fn metrics_info() -> Vec<MetricInfo> {
    known_metrics()
        .filter_map(|name| {
            let kind = lookup(name)?;
            let (kind_name, range) = match kind {
                Kind::Scored(_) => ("scored", (Some(0.0), Some(1.0))),
                Kind::Judged(_) => ("judged", (Some(0.0), Some(1.0))),
                Kind::Informational(_) => ("informational", (Some(0.0), None)),
                Kind::Vertex => ("unsupported", (None, None)),
            };
            Some(MetricInfo {
                name,
                kind: kind_name,
                needs_judge: matches!(kind, Kind::Judged(_)),
                criterion_class: criterion_class(name)?.name(),
                description: description(name)?,
                min: range.0,
                max: range.1,
                higher_is_better: kind.direction() == super::Direction::HigherIsBetter,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_known_metric_is_listed_once_with_a_description() {
        let listed: Vec<&str> = metrics_info().iter().map(|m| m.name).collect();
        let known: Vec<&str> = known_metrics().collect();
        assert_eq!(listed, known);
        for m in metrics_info() {
            assert!(!m.description.is_empty(), "{}", m.name);
        }
    }

    #[test]
    fn judged_metrics_need_a_judge_and_efficiency_metrics_are_unbounded() {
        let all = metrics_info();
        let get = |n: &str| all.iter().find(|m| m.name == n).map(|m| (m.kind, m.needs_judge, m.max));
        assert_eq!(get("final_response_match_v2"), Some(("judged", true, Some(1.0))));
        assert_eq!(get("response_match_score"), Some(("scored", false, Some(1.0))));
        assert_eq!(get("token_usage_v1"), Some(("informational", false, None)));
        assert_eq!(get("response_evaluation_score"), Some(("unsupported", false, None)));
    }
}

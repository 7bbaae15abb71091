//! What a listing of the metrics says about each one: a line of text and its score range,
//! beside what the registry already knows (how it is computed, which criterion class it reads).

use super::{criterion_class, known_metrics, lookup, Direction, Kind};

/// A line of text per metric, in known_metrics' order (a test holds the two lists together).
/// Kept short, and a table rather than a `match` on names: every byte ships in the .wasm.
const DESCRIPTIONS: &[(&str, &str)] = &[
    ("tool_trajectory_avg_score", "tool calls as expected (match_type)"),
    ("response_match_score", "ROUGE-1 F vs the reference response"),
    ("trajectory_precision", "share of actual tool calls expected"),
    ("trajectory_recall", "share of expected tool calls made"),
    ("trajectory_single_tool_use", "calls the criterion's tool_name"),
    ("tool_parameter_match", "share of expected arguments matched"),
    ("tool_trajectory_f1", "F1 of expected vs actual tool calls"),
    ("final_response_match_v2", "judge: response valid vs the reference"),
    (
        "rubric_based_final_response_quality_v1",
        "judge: response meets the rubrics",
    ),
    ("rubric_based_tool_use_quality_v1", "judge: tool use meets the rubrics"),
    (
        "rubric_based_multi_turn_trajectory_quality_v1",
        "judge: conversation meets the rubrics",
    ),
    ("hallucinations_v1", "judge: share of supported sentences"),
    ("safety_v1", "judge: response is safe"),
    (
        "per_turn_user_simulator_quality_v1",
        "judge: simulated user follows the scenario",
    ),
    ("response_evaluation_score", "judge: coherence of the response, 1 to 5"),
    ("multi_turn_task_success_v1", TASK),
    ("multi_turn_trajectory_quality_v1", STEPS),
    ("multi_turn_tool_use_quality_v1", TOOLS),
    ("multi_turn_task_success", TASK),
    ("multi_turn_trajectory_quality", STEPS),
    ("multi_turn_tool_use_quality", TOOLS),
    (
        "final_response_quality",
        "judge: response meets evalcore's quality rubrics",
    ),
    ("tool_use_quality", "judge: tool calls meet evalcore's rubrics"),
    ("hallucination", "judge: share of supported sentences"),
    ("safety", "judge: response is safe"),
    ("tool_call_count_v1", "tool calls per invocation"),
    ("inference_call_count_v1", "model calls per invocation"),
    ("token_usage_v1", "tokens per invocation"),
    ("invocation_duration_v1", "duration per invocation"),
];

const TASK: &str = "judge: the conversation met the user's goals";
const STEPS: &str = "judge: the agent's steps were sound and lean";
const TOOLS: &str = "judge: tool use across the conversation";

fn description(name: &str) -> Option<&'static str> {
    DESCRIPTIONS.iter().find(|(n, _)| *n == name).map(|(_, d)| *d)
}

/// Every metric of the registry, in its order, then the efficiency metrics, as a JSON array of
/// `{name, kind, needs_judge, criterion_class, description, min, max, higher_is_better}`: `kind`
/// is scored, judged or informational; `max` is null for unbounded scores (counts, durations).
/// Written by hand, not derived: names and texts are static and need no escaping, and the
/// serializer a derive brings costs more .wasm than this whole listing.
pub fn metrics_info_json() -> String {
    let mut out = String::from("[");
    for name in known_metrics() {
        let (Some(kind), Some(class), Some(text)) = (lookup(name), criterion_class(name), description(name)) else {
            continue;
        };
        let (kind_name, range) = match kind {
            Kind::Scored(_) => ("scored", "0,\"max\":1"),
            Kind::Judged(_) if name == "response_evaluation_score" => ("judged", "1,\"max\":5"),
            Kind::Judged(_) => ("judged", "0,\"max\":1"),
            Kind::Informational(_) => ("informational", "0,\"max\":null"),
        };
        if out.len() > 1 {
            out.push(',');
        }
        for part in [
            "{\"name\":\"",
            name,
            "\",\"kind\":\"",
            kind_name,
            "\",\"needs_judge\":",
            if matches!(kind, Kind::Judged(_)) {
                "true"
            } else {
                "false"
            },
            ",\"criterion_class\":\"",
            class.name(),
            "\",\"description\":\"",
            text,
            "\",\"min\":",
            range,
            ",\"higher_is_better\":",
            if kind.direction() == Direction::HigherIsBetter {
                "true}"
            } else {
                "false}"
            },
        ] {
            out.push_str(part);
        }
    }
    out.push(']');
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::Value;

    fn listed() -> Vec<Value> {
        match serde_json::from_str(&metrics_info_json()) {
            Ok(Value::Array(items)) => items,
            other => panic!("not a JSON array: {other:?}"),
        }
    }

    #[test]
    fn every_known_metric_is_listed_once_with_a_description() {
        let names: Vec<String> = listed()
            .iter()
            .map(|m| m["name"].as_str().unwrap_or("").to_string())
            .collect();
        let known: Vec<&str> = known_metrics().collect();
        assert_eq!(names, known);
        for name in known_metrics() {
            let text = description(name).unwrap_or("");
            assert!(!text.is_empty(), "{name}");
            // Written into JSON as they are: nothing in them may need escaping.
            assert!(
                !text.contains(['"', '\\']) && text.chars().all(|c| !c.is_control()),
                "{name}"
            );
        }
    }

    #[test]
    fn judged_metrics_need_a_judge_and_efficiency_metrics_are_unbounded() {
        let all = listed();
        let get = |n: &str| {
            let m = all.iter().find(|m| m["name"] == n).cloned().unwrap_or(Value::Null);
            (
                m["kind"].clone(),
                m["needs_judge"].clone(),
                m["min"].clone(),
                m["max"].clone(),
                m["higher_is_better"].clone(),
            )
        };
        let v = |x: &str| serde_json::from_str::<Value>(x).unwrap_or(Value::Null);
        assert_eq!(
            get("final_response_match_v2"),
            (v("\"judged\""), v("true"), v("0"), v("1"), v("true"))
        );
        assert_eq!(
            get("response_match_score"),
            (v("\"scored\""), v("false"), v("0"), v("1"), v("true"))
        );
        assert_eq!(
            get("token_usage_v1"),
            (v("\"informational\""), v("false"), v("0"), v("null"), v("true"))
        );
        assert_eq!(
            get("response_evaluation_score"),
            (v("\"judged\""), v("true"), v("1"), v("5"), v("true"))
        );
        assert_eq!(
            get("multi_turn_task_success"),
            (v("\"judged\""), v("true"), v("0"), v("1"), v("true"))
        );
        assert_eq!(all[0]["criterion_class"], "ToolTrajectoryCriterion");
    }
}

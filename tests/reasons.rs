//! Nothing is NOT_EVALUATED silently: over every metric evalcore knows (and an unknown one),
//! every configured way to write a criterion, and invocations of every shape (no parts, empty
//! parts, no final response, no invocations at all, counts that differ), each NOT_EVALUATED cell,
//! case-level or per invocation, carries a `reason` code and an `error` a person can read.

use evalcore::api::evaluate_invocations;
use evalcore::metrics::known_metrics;
use serde_json::{json, Value};

fn invocation(final_response: Value, user: Value) -> Value {
    json!({"user_content": user, "final_response": final_response,
           "intermediate_data": {"tool_uses": [{"name": "f", "args": {}}]}})
}

#[test]
fn every_not_evaluated_cell_says_why() {
    let shapes = [
        json!(null),
        json!({"role": "model"}),
        json!({"role": "model", "parts": []}),
        json!({"parts": [{}]}),
        json!({"parts": [{"text": ""}]}),
        json!({"parts": [{"text": "It is sunny."}]}),
    ];
    let users = [
        json!({}),
        json!({"parts": []}),
        json!({"parts": [{"text": "Weather?"}]}),
    ];
    let mut metrics: Vec<&str> = known_metrics().collect();
    metrics.push("no_such_metric");
    let mut checked = 0;
    for metric in &metrics {
        for criterion in [
            json!(0.5),
            json!({"threshold": 0.5, "match_type": "nope", "tool_name": 3}),
        ] {
            for (i, shape) in shapes.iter().enumerate() {
                let user = &users[i % users.len()];
                let expected = vec![invocation(shapes[(i + 1) % shapes.len()].clone(), user.clone())];
                for actual in [
                    vec![invocation(shape.clone(), user.clone())],
                    vec![],
                    vec![
                        invocation(shape.clone(), user.clone()),
                        invocation(shape.clone(), user.clone()),
                    ],
                ] {
                    let static_case = json!({"eval_id": "c", "conversation": expected});
                    let scenario_case = json!({"eval_id": "s", "conversation_scenario":
                        {"starting_prompt": "Weather?", "conversation_plan": "Ask about the weather."}});
                    for case in [static_case, scenario_case] {
                        let args = json!({"evalCase": case,
                        "actual": actual.clone(), "config": {"criteria": {(*metric): criterion}}});
                        let Ok(out) = evaluate_invocations(&args.to_string()) else {
                            continue; // a count mismatch is an error of the whole case, with its own message
                        };
                        let out: Value = serde_json::from_str(&out).unwrap();
                        let mut cells: Vec<&Value> =
                            out["overall_eval_metric_results"].as_array().unwrap().iter().collect();
                        for per in out["eval_metric_result_per_invocation"]
                            .as_array()
                            .into_iter()
                            .flatten()
                        {
                            cells.extend(per["eval_metric_results"].as_array().unwrap());
                        }
                        for cell in cells {
                            if cell["eval_status"] == "NOT_EVALUATED" {
                                checked += 1;
                                let d = &cell["details"];
                                assert!(
                                    d["reason"].as_str().is_some_and(|r| !r.is_empty())
                                        && d["error"].as_str().is_some_and(|e| e.len() > 10),
                                    "{metric} with {criterion} on {shape}: NOT_EVALUATED without a reason: {cell}"
                                );
                            }
                        }
                    }
                }
            }
        }
    }
    assert!(checked > 100, "the sweep met only {checked} NOT_EVALUATED cells");
}

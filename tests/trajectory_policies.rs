//! Argument policies, SUBSET / SUPERSET, tool_parameter_match and tool_trajectory_f1 through
//! the public API: a config is typed at load (bad policies are errors with their paths), a case
//! scores as docs/metrics.md defines, a failing invocation explains itself in `details.trajectory`,
//! and the detailed console text prints that explanation.

use serde_json::{json, Value};

fn turn(calls: Value) -> Value {
    json!({"user_content": {"role": "user", "parts": [{"text": "go"}]},
           "final_response": {"role": "model", "parts": [{"text": "done"}]},
           "intermediate_data": {"tool_uses": calls}})
}

/// Scores one invocation (expected calls, actual calls) under `criteria`; the case result.
fn evaluate(criteria: Value, expected: Value, actual: Value) -> Value {
    let args = json!({
        "evalCase": {"eval_id": "c", "conversation": [turn(expected)]},
        "actual": [turn(actual)],
        "config": {"criteria": criteria},
        "evalSetId": "s",
    });
    let text = evalcore::api::evaluate_invocations(&args.to_string()).expect("the case is scored");
    serde_json::from_str(&text).expect("the result is JSON")
}

fn overall<'a>(result: &'a Value, metric: &str) -> &'a Value {
    result["overall_eval_metric_results"]
        .as_array()
        .and_then(|a| a.iter().find(|m| m["metric_name"] == metric))
        .unwrap_or(&Value::Null)
}

fn per_invocation<'a>(result: &'a Value, metric: &str) -> &'a Value {
    result["eval_metric_result_per_invocation"][0]["eval_metric_results"]
        .as_array()
        .and_then(|a| a.iter().find(|m| m["metric_name"] == metric))
        .unwrap_or(&Value::Null)
}

fn call(name: &str, args: Value) -> Value {
    json!({"name": name, "args": args})
}

/// (criteria, expected calls, actual calls, metric, score).
#[test]
fn scores_table() {
    let rome = |rooms: i64| call("search", json!({"city": "Rome", "rooms": rooms}));
    let rows: Vec<(Value, Value, Value, &str, Option<f64>)> = vec![
        // No policy: ADK's exact comparison.
        (
            json!({"tool_trajectory_avg_score": 1.0}),
            json!([rome(1)]),
            json!([rome(2)]),
            "tool_trajectory_avg_score",
            Some(0.0),
        ),
        (
            json!({"tool_trajectory_avg_score": {"threshold": 1, "arg_policies": {"search": {"rooms": "ignore"}}}}),
            json!([rome(1)]),
            json!([rome(2)]),
            "tool_trajectory_avg_score",
            Some(1.0),
        ),
        (
            json!({"tool_trajectory_avg_score": {"threshold": 1, "argPolicies": {"*": {"rooms": {"policy": "numeric", "abs_tol": 1}}}}}),
            json!([rome(1)]),
            json!([rome(2)]),
            "tool_trajectory_avg_score",
            Some(1.0),
        ),
        // SUBSET: every expected call made, extras allowed; SUPERSET: nothing outside expected.
        (
            json!({"tool_trajectory_avg_score": {"threshold": 1, "match_type": "SUBSET"}}),
            json!([call("a", json!({}))]),
            json!([call("b", json!({})), call("a", json!({}))]),
            "tool_trajectory_avg_score",
            Some(1.0),
        ),
        (
            json!({"tool_trajectory_avg_score": {"threshold": 1, "match_type": "superset"}}),
            json!([call("a", json!({}))]),
            json!([call("b", json!({})), call("a", json!({}))]),
            "tool_trajectory_avg_score",
            Some(0.0),
        ),
        (
            json!({"tool_trajectory_avg_score": {"threshold": 1, "match_type": "SUPERSET"}}),
            json!([call("a", json!({})), call("b", json!({}))]),
            json!([call("a", json!({})), call("a", json!({}))]),
            "tool_trajectory_avg_score",
            Some(1.0),
        ),
        // PR google/adk-python#6726's example.
        (
            json!({"tool_parameter_match": 0.5}),
            json!([rome(1)]),
            json!([rome(2)]),
            "tool_parameter_match",
            Some(0.5),
        ),
        // Nothing expected: NOT_EVALUATED (no score).
        (
            json!({"tool_parameter_match": 0.5}),
            json!([]),
            json!([rome(2)]),
            "tool_parameter_match",
            None,
        ),
        // Issue google/adk-python#5306: 3 of 4 expected calls, nothing spurious.
        (
            json!({"tool_trajectory_f1": 0.8}),
            json!([
                call("a", json!({})),
                call("b", json!({})),
                call("c", json!({})),
                call("d", json!({}))
            ]),
            json!([call("a", json!({})), call("b", json!({})), call("c", json!({}))]),
            "tool_trajectory_f1",
            Some(2.0 * 0.75 / 1.75),
        ),
    ];
    for (criteria, expected, actual, metric, want) in rows {
        let r = evaluate(criteria.clone(), expected, actual);
        let got = overall(&r, metric)["score"].as_f64();
        assert_eq!(got, want, "{criteria}");
    }
}

#[test]
fn explanation_in_details_and_in_the_detailed_text() {
    let criteria = json!({"tool_trajectory_avg_score": {"threshold": 1, "match_type": "IN_ORDER",
        "arg_policies": {"book": {"request_id": "ignore"}}}});
    let r = evaluate(
        criteria,
        json!([
            call("search", json!({"q": "rome"})),
            call("book", json!({"date": "2026-01-01", "request_id": 1}))
        ]),
        json!([
            call("search", json!({"q": "rome"})),
            call("book", json!({"date": "2026-01-02", "request_id": 2}))
        ]),
    );
    let why = &per_invocation(&r, "tool_trajectory_avg_score")["details"]["trajectory"];
    assert_eq!(why["expected"][0]["actual"], 0);
    assert_eq!(why["expected"][1]["args"][0]["arg"], "date");
    assert_eq!(why["expected"][1]["args"][0]["policy"], "exact");
    assert_eq!(why["expected"][1]["args"].as_array().map(Vec::len), Some(1));
    // The case-level result carries no explanation; a passing metric none either.
    assert!(overall(&r, "tool_trajectory_avg_score")["details"]
        .get("trajectory")
        .is_none());
    let text = evalcore::report::console::format_report(&json!([r]).to_string(), r#"{"detailed": true}"#)
        .expect("the report renders");
    let block: Vec<&str> = text
        .lines()
        .skip_while(|l| !l.starts_with("  mismatch:"))
        .take(5)
        .collect();
    assert_eq!(
        block,
        [
            "  mismatch:                   match type IN_ORDER",
            "                              expected call 1 search -> actual call 1",
            "                              expected call 2 book -> no match: arguments differ, nearest actual call 2",
            "                                date [exact] differs: expected \"2026-01-01\", actual \"2026-01-02\"",
            "                              actual call 2 book paired with no expected call",
        ],
        "{text}"
    );
}

#[test]
fn bad_policies_are_config_errors_with_paths() {
    let config = json!({"criteria": {
        "tool_trajectory_avg_score": {"threshold": 1, "arg_policies": {"search": {"q": {"policy": "rouge1", "threshold": 1.5}}}},
        "tool_parameter_match": {"threshold": 1, "arg_policies": {"t": "fuzzy"}},
        "tool_trajectory_f1": {"threshold": 1, "alignment": "sideways"}}});
    let out: Value = serde_json::from_str(&evalcore::api::validate_config(&config.to_string(), "")).expect("JSON");
    assert_eq!(out["ok"], false);
    let paths: Vec<&str> = out["errors"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|e| e["path"].as_str())
        .collect();
    assert_eq!(
        paths,
        [
            "$.criteria.tool_trajectory_avg_score.arg_policies.search.q.threshold",
            "$.criteria.tool_parameter_match.arg_policies.t",
            "$.criteria.tool_trajectory_f1.alignment"
        ]
    );
    assert_eq!(out["warnings"], json!([]));
    // A valid config loads, and its criteria keep what was written.
    let good = json!({"criteria": {"tool_trajectory_avg_score": {"threshold": 1, "match_type": "SUBSET",
        "arg_policies": {"*": {"ts": "ignore"}}}}});
    let out: Value = serde_json::from_str(&evalcore::api::validate_config(&good.to_string(), "")).expect("JSON");
    assert_eq!(out, json!({"ok": true, "errors": [], "warnings": []}));
    let loaded = evalcore::api::load_eval_config(&good.to_string(), "").expect("loads");
    let loaded: Value = serde_json::from_str(&loaded).expect("JSON");
    assert_eq!(
        loaded["criteria"]["tool_trajectory_avg_score"]["arg_policies"],
        json!({"*": {"ts": "ignore"}})
    );
}

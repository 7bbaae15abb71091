//! The JS skin sends `evaluateInvocations` / `prepareCase` arguments as three texts (the case,
//! the actual invocations, and an object of the rest: `PreparedCase::parse_parts`) instead of one
//! joined object. Both forms must give the same answer: results byte for byte on every case
//! oracle, and the same error (code, path, message) for broken arguments.

use evalcore::api::{evaluate_invocations, evaluate_invocations_parts, set_limits};
use serde_json::{json, Map, Value};

fn oracle_lines() -> Vec<Value> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/case_oracles.jsonl");
    let text = std::fs::read_to_string(path).expect("case oracles (scripts/refresh-test-data.sh)");
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).expect("an oracle line"))
        .collect()
}

/// Joined: `{"evalCase": .., "actual": .., ...rest}`; parts: the two members' texts (as given,
/// `None` when absent) and the rest without them.
fn both(args: &Map<String, Value>, raw_case: Option<&str>, raw_actual: Option<&str>) -> (String, String) {
    let mut rest = args.clone();
    let case = rest.remove("evalCase").map(|v| v.to_string());
    let actual = rest.remove("actual").map(|v| v.to_string());
    let case = raw_case.map(str::to_string).or(case);
    let actual = raw_actual.map(str::to_string).or(actual);
    let rest_text = Value::Object(rest.clone()).to_string();
    // The joined text splices the raw members in, as the skin once did.
    let mut members = Vec::new();
    if let Some(c) = &case {
        members.push(format!("\"evalCase\":{c}"));
    }
    if let Some(a) = &actual {
        members.push(format!("\"actual\":{a}"));
    }
    for (k, v) in &rest {
        members.push(format!("{}:{v}", Value::String(k.clone())));
    }
    let joined = evaluate_invocations(&format!("{{{}}}", members.join(",")));
    let parts = evaluate_invocations_parts(case.as_deref(), actual.as_deref(), &rest_text);
    let show = |r: evalcore::error::Result<String>| match r {
        Ok(s) => s,
        Err(e) => format!("error {:?} at {:?}: {}", e.code, e.path, e.message),
    };
    (show(joined), show(parts))
}

#[test]
fn every_case_oracle_gives_the_same_result_joined_or_in_parts() {
    let lines = oracle_lines();
    assert!(lines.len() >= 300);
    let mut errors = 0;
    for line in &lines {
        for detail in [
            json!({}),
            json!({"includeInvocations": false}),
            json!({"perInvocation": false}),
        ] {
            let mut args = Map::new();
            args.insert("evalCase".into(), line["eval_case"].clone());
            args.insert("actual".into(), line["actual_invocations"].clone());
            args.insert("config".into(), line["config"].clone());
            args.insert("evalSetId".into(), json!("parts"));
            if let Value::Object(d) = detail {
                args.extend(d);
            }
            let (joined, parts) = both(&args, None, None);
            errors += usize::from(joined.starts_with("error"));
            assert_eq!(joined, parts, "{}", line["id"]);
        }
    }
    // Some oracles are errors in ADK too: both forms report them alike.
    assert!(errors > 0);
}

#[test]
fn broken_arguments_give_the_same_error_joined_or_in_parts() {
    let case = json!({"eval_id": "c1", "conversation": [
        {"invocation_id": "i1", "user_content": {"role": "user", "parts": [{"text": "hi"}]},
         "final_response": {"role": "model", "parts": [{"text": "hello there"}]}}]});
    let actual = json!([{"invocation_id": "i1", "user_content": {"role": "user", "parts": [{"text": "hi"}]},
        "final_response": {"role": "model", "parts": [{"text": "hello"}]}}]);
    let base = |f: &dyn Fn(&mut Map<String, Value>)| {
        let mut m = Map::new();
        m.insert("evalCase".into(), case.clone());
        m.insert("actual".into(), actual.clone());
        f(&mut m);
        m
    };
    let deep = "[".repeat(200);
    let cases: Vec<(&str, Map<String, Value>, Option<&str>, Option<&str>)> = vec![
        (
            "no evalCase",
            base(&|m| {
                m.remove("evalCase");
            }),
            None,
            None,
        ),
        (
            "no actual",
            base(&|m| {
                m.remove("actual");
            }),
            None,
            None,
        ),
        (
            "actual not a list",
            base(&|m| {
                m.insert("actual".into(), json!({"a": 1}));
            }),
            None,
            None,
        ),
        (
            "a part of the wrong type deep in actual",
            base(&|m| {
                m.insert(
                    "actual".into(),
                    json!([{"invocation_id": "i1", "final_response": {"role": "model", "parts": [{"text": 5}]}}]),
                );
            }),
            None,
            None,
        ),
        (
            "a case without its eval_id",
            base(&|m| {
                m.insert("evalCase".into(), json!({"conversation": []}));
            }),
            None,
            None,
        ),
        (
            "an unknown argument",
            base(&|m| {
                m.insert("evalSetID".into(), json!("x"));
            }),
            None,
            None,
        ),
        (
            "a config of the wrong type",
            base(&|m| {
                m.insert("config".into(), json!({"criteria": {"response_match_score": "high"}}));
            }),
            None,
            None,
        ),
        (
            "a flag of the wrong type",
            base(&|m| {
                m.insert("perInvocation".into(), json!("yes"));
            }),
            None,
            None,
        ),
        (
            "evalCase text that is not JSON",
            base(&|_| {}),
            Some("{\"eval_id\": "),
            None,
        ),
        (
            "actual text nested past the depth limit",
            base(&|_| {}),
            None,
            Some(&deep),
        ),
    ];
    for (label, args, raw_case, raw_actual) in cases {
        let (joined, parts) = both(&args, raw_case, raw_actual);
        assert!(parts.starts_with("error"), "{label}: {parts}");
        if joined.starts_with("error InvalidJson at \"\"") {
            // Text that is not JSON: the joined object can only say so at its root; in parts the
            // error names the member (and serde_json's message describes where that text broke).
            let member = if raw_case.is_some() { "evalCase" } else { "actual" };
            assert!(
                parts.starts_with(&format!("error InvalidJson at \"$.{member}\"")),
                "{label}: {parts}"
            );
        } else {
            assert_eq!(joined, parts, "{label}");
        }
    }
}

#[test]
fn the_parse_budget_counts_the_parts_together() {
    let many: Vec<Value> = (0..3000)
        .map(|i| json!({"invocation_id": format!("i{i}"), "user_content": {"role": "user", "parts": []}}))
        .collect();
    let actual_text = Value::Array(many).to_string();
    let small_case = json!({"eval_id": "c1", "conversation": []}).to_string();
    let padded_case =
        json!({"eval_id": "c1", "conversation": [], "session_input": {"app_name": "x".repeat(1 << 20)}}).to_string();
    let code = |r: evalcore::error::Result<String>| r.err().map(|e| format!("{:?}", e.code));
    // A limit each part fits alone (the count mismatch comes after parsing), and the two
    // together do not.
    let cost = |t: &str| evalcore::schema::budget::parse_cost(t.as_bytes());
    let limit = cost(&small_case) + cost(&actual_text) + cost("{}") + (1 << 20);
    assert!(cost(&padded_case) + cost("[]") + cost("{}") <= limit);
    assert!(cost(&padded_case) + cost(&actual_text) + cost("{}") > limit);
    set_limits(&json!({"maxParseBytes": limit}).to_string()).expect("limits");
    let small = code(evaluate_invocations_parts(Some(&small_case), Some(&actual_text), "{}"));
    let padded_alone = code(evaluate_invocations_parts(Some(&padded_case), Some("[]"), "{}"));
    let together = code(evaluate_invocations_parts(Some(&padded_case), Some(&actual_text), "{}"));
    set_limits(&json!({"maxParseBytes": 2048u64 * 1024 * 1024}).to_string()).expect("limits");
    assert_eq!(small.as_deref(), Some("CountMismatch"));
    assert_ne!(padded_alone.as_deref(), Some("TooLarge"));
    assert_eq!(together.as_deref(), Some("TooLarge"));
}

/// A prepared case checks its invocations once (the count, rubric ids met twice): every later
/// run gives the same error, under any config, as a one-shot evaluation does.
#[test]
fn a_prepared_case_gives_its_check_error_on_every_run() {
    use evalcore::api::PreparedCase;
    let rubric = |id: &str| json!({"rubric_id": id, "rubric_content": {"text_property": "t"}});
    let inv = |id: &str, rubrics: Value| json!({"invocation_id": id, "user_content": {"role": "user", "parts": [{"text": "q"}]}, "rubrics": rubrics});
    let broken = [
        // Two invocations against one expected turn.
        (
            json!({"eval_id": "c", "conversation": [inv("e", Value::Null)]}),
            json!([inv("a", Value::Null), inv("b", Value::Null)]),
        ),
        // A rubric id on the case and again on the invocation.
        (
            json!({"eval_id": "c", "conversation": [inv("e", Value::Null)], "rubrics": [rubric("r1")]}),
            json!([inv("a", json!([rubric("r1")]))]),
        ),
    ];
    for (case, actual) in broken {
        let (case, actual) = (case.to_string(), actual.to_string());
        let one_shot = evaluate_invocations_parts(Some(&case), Some(&actual), "{}").expect_err("a check error");
        let prepared = PreparedCase::parse_parts(Some(&case), Some(&actual), "{}").expect("parses");
        for config in ["", r#"{"criteria": {"response_match_score": 0.5}}"#, ""] {
            let again = prepared.evaluate(config, "").expect_err("the same check error");
            assert_eq!(again, one_shot, "{config}");
        }
    }
}

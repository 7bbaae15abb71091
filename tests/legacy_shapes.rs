//! Shapes other than ADK's current schema: @iqai/adk's camelCase eval sets load like the legacy
//! lists, and legacy data checked as ADK's migration checks it (`criteria`, `caseId` options).

use evalcore::schema::load::{load_eval_set, load_eval_set_value, validate_eval_set, LoadOptions};
use serde_json::{json, Value};

/// An eval set as @iqai/adk writes one (its docs' shape: camelCase throughout, `Date.now()`
/// timestamps in milliseconds, `invocationId` optional).
fn iqai_set() -> Value {
    json!({
        "evalSetId": "weather-tests",
        "name": "Weather agent",
        "creationTimestamp": 1_700_000_000_000u64,
        "evalCases": [
            {"evalId": "london", "conversation": [{
                "creationTimestamp": 0,
                "userContent": {"role": "user", "parts": [{"text": "Weather in London?"}]},
                "finalResponse": {"role": "model", "parts": [{"text": "Sunny in London"}]},
                "intermediateData": {"toolUses": [{"name": "get_weather", "args": {"city": "London"}}],
                                     "intermediateResponses": []}}]},
            {"evalId": "migrated", "conversation": [{
                "invocationId": "invocation-0",
                "creationTimestamp": 1_700_000_000_500u64,
                "userContent": {"role": "user", "parts": [{"text": "Weather in Paris?"}]},
                "intermediateData": {"toolUses": [{"tool_name": "get_weather", "tool_input": {"city": "Paris"}}],
                                     "intermediateResponses": []}}],
             "sessionInput": {"appName": "test-app", "userId": "test-user", "state": {"unit": "C"}}}
        ]
    })
}

fn load(v: &Value, opts: &LoadOptions) -> Result<Value, (String, String, String)> {
    load_eval_set(&v.to_string(), opts)
        .map(|s| serde_json::to_value(s).unwrap_or(Value::Null))
        .map_err(|e| (e.code.as_str().to_string(), e.path, e.message))
}

#[test]
fn iqai_eval_sets_load_as_adk_eval_sets() {
    let out = load(&iqai_set(), &LoadOptions::default()).expect("@iqai/adk's shape loads");
    assert_eq!(out["eval_set_id"], "weather-tests");
    assert_eq!(out["name"], "Weather agent");
    assert_eq!(out["creation_timestamp"], json!(1_700_000_000.0));
    let cases = out["eval_cases"].as_array().unwrap();
    assert_eq!(cases.len(), 2);
    assert_eq!(cases[0]["eval_id"], "london");
    let inv = &cases[0]["conversation"][0];
    assert_eq!(inv["user_content"]["parts"][0]["text"], "Weather in London?");
    assert_eq!(inv["final_response"]["parts"][0]["text"], "Sunny in London");
    assert_eq!(
        inv["intermediate_data"]["tool_uses"][0],
        json!({"name": "get_weather", "args": {"city": "London"}})
    );
    // Its migration leaves tool uses in the legacy form; they are read as the calls they are.
    let migrated = &cases[1];
    assert_eq!(
        migrated["conversation"][0]["intermediate_data"]["tool_uses"][0],
        json!({"name": "get_weather", "args": {"city": "Paris"}})
    );
    assert_eq!(
        migrated["conversation"][0]["creation_timestamp"],
        json!(1_700_000_000.5)
    );
    assert_eq!(migrated["session_input"]["app_name"], "test-app");
    assert_eq!(migrated["session_input"]["state"]["unit"], "C");
    // The same from a parsed value, and it validates.
    let from_value = load_eval_set_value(&iqai_set(), &LoadOptions::default()).unwrap();
    assert_eq!(serde_json::to_value(from_value).unwrap(), out);
    assert!(validate_eval_set(&iqai_set().to_string()).is_empty());
}

#[test]
fn iqai_errors_point_into_the_file_as_written() {
    let mut bad = iqai_set();
    bad["evalCases"][1]["conversation"][0]
        .as_object_mut()
        .unwrap()
        .remove("userContent");
    let (code, path, _) = load(&bad, &LoadOptions::default()).unwrap_err();
    assert_eq!(
        (code.as_str(), path.as_str()),
        ("schema", "$.evalCases[1].conversation[0]")
    );
    let errors = validate_eval_set(&bad.to_string());
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert_eq!(errors[0].path, "$.evalCases[1].conversation[0]");

    let mut dup = iqai_set();
    dup["evalCases"][1]["evalId"] = json!("london");
    let (code, path, _) = load(&dup, &LoadOptions::default()).unwrap_err();
    assert_eq!(
        (code.as_str(), path.as_str()),
        ("duplicate_id", "$.evalCases[1].eval_id")
    );

    let (_, path, message) = load(&json!({"evalCases": []}), &LoadOptions::default()).unwrap_err();
    assert_eq!(path, "$");
    assert!(message.contains("`evalSetId`"), "{message}");
    // A file that mixes the two spellings is neither shape: ADK's error, with a hint.
    let (_, _, message) = load(&json!({"evalSetId": "s", "eval_cases": []}), &LoadOptions::default()).unwrap_err();
    assert!(message.contains("mixes snake_case and camelCase"), "{message}");
}

fn opts(criteria: &[&str]) -> LoadOptions {
    LoadOptions {
        id: Some("old".into()),
        criteria: Some(criteria.iter().map(|c| c.to_string()).collect()),
        criteria_source: Some("tests/test_config.json".into()),
        ..LoadOptions::default()
    }
}

#[test]
fn legacy_data_is_checked_as_adks_migration_checks_it() {
    let turns = json!([{"query": "hi", "expected_tool_use": [], "reference": "hello"},
                       {"query": "again"}]);
    // Only the first turn is checked, as ADK does.
    load(
        &turns,
        &opts(&["tool_trajectory_avg_score", "response_match_score", "safety_v1"]),
    )
    .expect("valid legacy data");

    let (code, path, message) = load(&turns, &opts(&["final_response_match_v2"])).unwrap_err();
    assert_eq!(
        (code.as_str(), path.as_str()),
        ("schema", "$.criteria.final_response_match_v2")
    );
    assert!(message.contains("tests/test_config.json"), "{message}");
    assert!(message.contains("response_match_score"), "{message}");

    let no_reference = json!([{"query": "hi", "expected_tool_use": []}]);
    let (_, path, message) = load(&no_reference, &opts(&["response_match_score"])).unwrap_err();
    assert_eq!(path, "$[0]");
    assert!(message.contains("no `reference`"), "{message}");
    load(&no_reference, &opts(&["tool_trajectory_avg_score"])).expect("reference is not read by the trajectory");
    let (_, _, message) = load(&json!([{"query": "hi"}]), &opts(&["tool_trajectory_avg_score"])).unwrap_err();
    assert!(message.contains("no `expected_tool_use`"), "{message}");

    let (_, path, _) = load(&json!([]), &opts(&[])).unwrap_err();
    assert_eq!(path, "$");
    // Without `criteria` nothing changes: an empty list is an empty set, a turn may lack keys.
    load(&json!([]), &LoadOptions::default()).expect("no check without criteria");
    load(&no_reference, &LoadOptions::default()).expect("no check without criteria");

    // A named list: each case's first turn.
    let named = json!([{"name": "a", "data": [{"query": "q", "reference": "r"}]},
                       {"name": "b", "data": [{"query": "q"}]}]);
    let (_, path, _) = load(&named, &opts(&["response_match_score"])).unwrap_err();
    assert_eq!(path, "$[1].data[0]");
}

#[test]
fn a_turn_lists_case_takes_the_given_id() {
    let turns = json!([{"query": "hi", "reference": "hello"}]);
    let o = LoadOptions {
        id: Some("old".into()),
        case_id: Some("tests/old.test.json".into()),
        ..LoadOptions::default()
    };
    let out = load(&turns, &o).unwrap();
    assert_eq!(out["eval_set_id"], "old");
    assert_eq!(out["eval_cases"][0]["eval_id"], "tests/old.test.json");
    let default = load(
        &turns,
        &LoadOptions {
            id: Some("old".into()),
            ..LoadOptions::default()
        },
    )
    .unwrap();
    assert_eq!(default["eval_cases"][0]["eval_id"], "old");
}

//! ADK 2.13's per-type alias and unknown-key rules (SPEC §1.1), exercised through `load_eval_set`.

use evalcore::schema::load::{load_eval_set, LoadOptions};
use serde_json::{json, Value};

fn load(v: Value) -> Result<Value, (String, String)> {
    load_eval_set(&v.to_string(), &LoadOptions::default())
        .map(|s| serde_json::to_value(s).unwrap_or(Value::Null))
        .map_err(|e| (e.code.as_str().to_string(), e.path))
}

fn set_with_case(case: Value) -> Value {
    json!({"eval_set_id": "s", "eval_cases": [case]})
}

fn case_with_invocation(inv: Value) -> Value {
    set_with_case(json!({"eval_id": "c", "conversation": [inv]}))
}

#[test]
fn camel_case_below_the_top_level_is_normalised_to_snake_case() {
    let out = load(set_with_case(json!({
        "evalId": "c",
        "sessionInput": {"appName": "app", "userId": "u", "state": {"k": 1}},
        "conversation": [{"invocationId": "i", "userContent": {"parts": [{"text": "hi"}]},
            "finalResponse": {"parts": [{"text": "ok", "thought": true}]},
            "intermediateData": {"toolUses": [{"name": "f", "args": {"a": 1}}]}}]
    })))
    .expect("camelCase case loads");
    let case = &out["eval_cases"][0];
    assert_eq!(case["eval_id"], "c");
    assert_eq!(case["session_input"]["app_name"], "app");
    assert_eq!(
        case["conversation"][0]["intermediate_data"]["tool_uses"][0]["name"],
        "f"
    );
}

#[test]
fn unknown_keys_follow_adk_per_type() {
    // EvalCase and SessionInput keep extras; InvocationEvent ignores them; Part, Invocation forbid them.
    let out = load(set_with_case(
        json!({"eval_id": "c", "conversation": [], "note": "kept",
        "session_input": {"app_name": "a", "user_id": "u", "custom": 1}}),
    ))
    .expect("extras allowed on the case");
    assert_eq!(out["eval_cases"][0]["note"], "kept");
    assert_eq!(out["eval_cases"][0]["session_input"]["custom"], 1);
    load(case_with_invocation(
        json!({"user_content": {}, "intermediate_data": {"invocation_events": [
        {"author": "a", "invocationIndex": 3, "content": null}]}}),
    ))
    .expect("UI-only keys on events are ignored");
    assert_eq!(
        load(case_with_invocation(
            json!({"user_content": {"parts": [{"text": "x", "colour": 1}]}})
        ))
        .unwrap_err(),
        (
            "schema".into(),
            "$.eval_cases[0].conversation[0].user_content.parts[0].colour".into()
        )
    );
    assert_eq!(
        load(case_with_invocation(json!({"user_content": {}, "extra": 1})))
            .unwrap_err()
            .0,
        "schema"
    );
    // Unknown keys at the EvalSet top level are ignored.
    load(json!({"eval_set_id": "s", "eval_cases": [], "whatever": 1})).expect("top-level extras ignored");
}

#[test]
fn case_needs_exactly_one_of_conversation_and_scenario() {
    let scenario = json!({"starting_prompt": "hi", "conversation_plan": "ask", "user_persona": "NOVICE"});
    load(set_with_case(
        json!({"eval_id": "c", "conversation_scenario": scenario}),
    ))
    .expect("scenario case");
    assert_eq!(
        load(set_with_case(json!({"eval_id": "c"}))).unwrap_err(),
        ("schema".into(), "$.eval_cases[0]".into())
    );
    assert_eq!(
        load(set_with_case(
            json!({"eval_id": "c", "conversation": [], "conversation_scenario": scenario})
        ))
        .unwrap_err()
        .0,
        "schema"
    );
    let bad_persona = json!({"starting_prompt": "hi", "conversation_plan": "ask", "user_persona": "PIRATE"});
    assert_eq!(
        load(set_with_case(
            json!({"eval_id": "c", "conversation_scenario": bad_persona})
        ))
        .unwrap_err()
        .0,
        "schema"
    );
    let persona = json!({"starting_prompt": "hi", "conversation_plan": "ask", "user_persona": {"id": "p", "description": "d",
        "behaviors": [{"name": "b", "description": "d", "behavior_instructions": ["x"], "violation_rubrics": ["y"]}]}});
    load(set_with_case(json!({"eval_id": "c", "conversation_scenario": persona}))).expect("persona object");
}

#[test]
fn intermediate_data_shapes() {
    load(case_with_invocation(
        json!({"user_content": {}, "intermediate_data": {}}),
    ))
    .expect("{} is the legacy shape");
    let mixed = json!({"user_content": {}, "intermediate_data": {"tool_uses": [], "invocation_events": []}});
    assert_eq!(
        load(case_with_invocation(mixed)).unwrap_err(),
        (
            "schema".into(),
            "$.eval_cases[0].conversation[0].intermediate_data".into()
        )
    );
    let responses = json!({"user_content": {}, "intermediate_data": {"intermediate_responses": [["sub_agent", [{"text": "working"}]]]}});
    load(case_with_invocation(responses)).expect("intermediate_responses are [author, parts] pairs");
}

#[test]
fn bytes_accept_both_alphabets_and_are_written_url_safe() {
    let inv = json!({"user_content": {"parts": [
        {"inline_data": {"mime_type": "image/png", "data": "+/8="}},
        {"inlineData": {"mimeType": "image/png", "data": "-_8"}, "thoughtSignature": "AAE"}
    ]}});
    let out = load(case_with_invocation(inv)).expect("both alphabets");
    let parts = &out["eval_cases"][0]["conversation"][0]["user_content"]["parts"];
    assert_eq!(parts[0]["inline_data"]["data"], "-_8=");
    assert_eq!(parts[1]["inline_data"]["data"], "-_8=");
    assert_eq!(parts[1]["thought_signature"], "AAE=");
    let bad = json!({"user_content": {"parts": [{"inline_data": {"data": "%%%"}}]}});
    assert_eq!(
        load(case_with_invocation(bad)).unwrap_err().1,
        "$.eval_cases[0].conversation[0].user_content.parts[0].inline_data.data"
    );
}

#[test]
fn rubrics_and_app_details_at_every_level() {
    let rubric = json!({"rubric_id": "r1", "rubric_content": {"text_property": "Is concise."}, "type": "FINAL_RESPONSE_QUALITY"});
    load(set_with_case(json!({"eval_id": "c", "rubrics": [rubric], "conversation": [{"user_content": {},
        "rubrics": [{"rubricId": "r2", "rubricContent": {"textProperty": "x"}}],
        "app_details": {"agent_details": {"root": {"name": "root", "instructions": "be nice", "tool_declarations": [{"function_declarations": []}]}}}}]})))
    .expect("rubrics and app details load");
    assert_eq!(
        load(case_with_invocation(
            json!({"user_content": {}, "rubrics": [{"rubric_id": "r"}]})
        ))
        .unwrap_err()
        .1,
        "$.eval_cases[0].conversation[0].rubrics[0]"
    );
}

#[test]
fn pydantic_strictness_where_serde_would_be_lax_and_laxness_where_it_would_be_strict() {
    // An array is never an object (serde's derive would read a struct from a sequence).
    for bad in [
        json!({"user_content": []}),
        json!({"user_content": {}, "final_response": []}),
        json!({"user_content": {"parts": [[]]}}),
        json!({"user_content": {"parts": [{"function_call": []}]}}),
        json!({"user_content": {}, "intermediate_data": []}),
        json!({"user_content": {}, "intermediate_data": {"invocation_events": [{"author": "a", "content": []}]}}),
        // Lists may be absent but not null.
        json!({"user_content": {}, "intermediate_data": {"tool_uses": null}}),
        json!({"user_content": {}, "intermediate_data": {"invocation_events": null}}),
        // genai's ModalityTokenCount forbids extras.
        json!({"user_content": {}, "intermediate_data": {"invocation_events": [{"author": "a",
            "usage_metadata": {"prompt_tokens_details": [{"modality": "TEXT", "token_count": 1, "x": 1}]}}]}}),
    ] {
        assert_eq!(
            load(case_with_invocation(bad.clone())).map(|_| ()).unwrap_err().0,
            "schema",
            "{bad}"
        );
    }
    // pydantic's lax numbers: booleans and numeric strings where a number is expected.
    let lax = json!({"user_content": {}, "creation_timestamp": "12.5", "duration": true,
        "intermediate_data": {"invocation_events": [{"author": "a", "usage_metadata": {"prompt_token_count": "7", "thoughts_token_count": 2.0}}]}});
    let out = load(case_with_invocation(lax)).expect("lax numbers load");
    let inv = &out["eval_cases"][0]["conversation"][0];
    assert_eq!(
        (inv["creation_timestamp"].as_f64(), inv["duration"].as_f64()),
        (Some(12.5), Some(1.0))
    );
    assert_eq!(
        inv["intermediate_data"]["invocation_events"][0]["usage_metadata"]["prompt_token_count"],
        7
    );
}

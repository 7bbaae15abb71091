//! agents-cli's EvaluationDataset and eval config: the examples of agents-cli's own
//! documentation (tests/data/agents_cli, carried over from google-agents-cli 1.11.0) load and
//! convert, errors point into the file, and a dataset written back reads as the same data.

use evalcore::api::{self, load_evaluation_dataset, to_evaluation_dataset, ConfigOptions};
use serde_json::{json, Value};

fn data(name: &str) -> String {
    let path = format!("{}/tests/data/agents_cli/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn load(text: &str) -> Value {
    let out = load_evaluation_dataset(text, r#"{"id": "ds"}"#).unwrap_or_else(|e| panic!("{e:?}"));
    serde_json::from_str(&out).unwrap()
}

fn text(content: &Value) -> String {
    content["parts"]
        .as_array()
        .map(|ps| {
            ps.iter()
                .filter_map(|p| p["text"].as_str())
                .collect::<Vec<_>>()
                .join("\n")
        })
        .unwrap_or_default()
}

/// Writes the loaded dataset back and reads it again: the same eval set and invocations.
fn round_trip(loaded: &Value) {
    let args = json!({"evalSet": loaded["eval_set"], "actual": loaded["actual"]});
    let written = to_evaluation_dataset(&args.to_string()).unwrap_or_else(|e| panic!("{e:?}"));
    let again = load(&written);
    assert_eq!(
        again["eval_set"], loaded["eval_set"],
        "eval set after a round trip\n{written}"
    );
    assert_eq!(
        again["actual"], loaded["actual"],
        "invocations after a round trip\n{written}"
    );
    assert_eq!(again["grading"], loaded["grading"]);
}

#[test]
fn single_turn_prompts_are_cases_to_run() {
    let d = load(&data("single-turn-prompt.json"));
    assert_eq!(d["eval_set"]["eval_set_id"], "ds");
    assert_eq!(d["inference"], json!(["greeting", "weather_query", "capital_lookup"]));
    assert_eq!(d["grading"], json!([]));
    let cases = d["eval_set"]["eval_cases"].as_array().unwrap();
    let conv = cases[2]["conversation"].as_array().unwrap();
    assert_eq!(conv.len(), 1);
    assert_eq!(text(&conv[0]["user_content"]), "What is the capital of France?");
    assert_eq!(text(&conv[0]["final_response"]), "The capital of France is Paris.");
    assert_eq!(
        cases[2]["reference"]["response"]["role"], "model",
        "the case keeps its reference"
    );
    assert!(cases[0]["conversation"][0].get("final_response").is_none());
    round_trip(&d);
}

#[test]
fn prompts_with_responses_are_traces_to_grade() {
    let d = load(&data("single-turn-responses.json"));
    assert_eq!(d["grading"], json!(["capital_of_france", "summarize_article"]));
    let actual = &d["actual"]["capital_of_france"];
    assert_eq!(text(&actual[0]["user_content"]), "What is the capital of France?");
    assert_eq!(text(&actual[0]["final_response"]), "The capital of France is Paris.");
    let expected = &d["eval_set"]["eval_cases"][0]["conversation"][0];
    assert_eq!(
        text(&expected["final_response"]),
        "Paris",
        "the reference is the expected response"
    );
    assert!(d["eval_set"]["eval_cases"][1]["conversation"][0]
        .get("final_response")
        .is_none());
    round_trip(&d);
}

#[test]
fn a_continuation_plays_every_user_turn() {
    let d = load(&data("multi-turn-continuation.json"));
    assert_eq!(d["inference"], json!(["unique_case_id"]));
    let conv = d["eval_set"]["eval_cases"][0]["conversation"].as_array().unwrap();
    assert_eq!(conv.len(), 2);
    assert_eq!(text(&conv[0]["user_content"]), "First user message");
    assert_eq!(text(&conv[0]["final_response"]), "First agent reply");
    assert_eq!(text(&conv[1]["user_content"]), "Follow-up user message");
    assert!(conv[1].get("final_response").is_none());
    round_trip(&d);
}

#[test]
fn a_multi_agent_trace_becomes_one_invocation_per_user_message() {
    let d = load(&data("multi-agent-trace.json"));
    assert_eq!(d["grading"], json!(["flight_booking_via_specialist"]));
    let inv = &d["actual"]["flight_booking_via_specialist"].as_array().unwrap();
    assert_eq!(
        inv.len(),
        1,
        "the second turn continues the agent's reply to the one user message"
    );
    assert_eq!(text(&inv[0]["user_content"]), "Book a flight to NYC");
    assert_eq!(text(&inv[0]["final_response"]), "Found AA123 to NYC for $320.");
    let events = inv[0]["intermediate_data"]["invocation_events"].as_array().unwrap();
    let authors: Vec<&str> = events.iter().map(|e| e["author"].as_str().unwrap()).collect();
    assert_eq!(authors, ["router", "flight_bot", "flight_bot", "flight_bot"]);
    assert_eq!(
        events[1]["content"]["parts"][0]["function_call"]["args"],
        json!({"destination": "NYC"})
    );
    let agents = &inv[0]["app_details"]["agent_details"];
    assert_eq!(
        agents["router"]["instructions"],
        "Route requests to the appropriate specialist."
    );
    assert_eq!(
        agents["flight_bot"]["tool_declarations"][0]["function_declarations"][0]["name"],
        "search_flights"
    );
    round_trip(&d);
}

#[test]
fn case_rubric_groups_and_custom_fields_are_kept() {
    let d = load(&data("rubric-groups.json"));
    let case = &d["eval_set"]["eval_cases"][0];
    assert_eq!(
        case["rubric_groups"]["booking_rubrics"]["rubrics"][0]["rubric_id"],
        "confirmation_check"
    );
    round_trip(&d);
}

#[test]
fn load_eval_set_takes_a_dataset_like_any_other_shape() {
    let set: Value = serde_json::from_str(&api::load_eval_set(&data("multi-agent-trace.json"), "").unwrap()).unwrap();
    assert!(set["eval_set_id"].as_str().unwrap().starts_with("dataset_"));
    assert_eq!(set["eval_cases"][0]["eval_id"], "flight_booking_via_specialist");
    let report: Value = serde_json::from_str(&api::validate_eval_set(&data("single-turn-prompt.json"))).unwrap();
    assert_eq!(report["ok"], true);
}

#[test]
fn errors_point_into_the_file() {
    let bad = json!({"eval_cases": [
        {"eval_case_id": "a", "prompt": {"role": "user", "parts": [{"txt": "hi"}]}},
        {"eval_case_id": "b", "agent_data": {"turns": [{"turn_index": 0, "events": [
            {"author": "user", "content": {"parts": [{"text": "hi"}]}},
            {"content": {"parts": [{"text": "no author"}]}}]}]}},
        {"eval_case_id": "c", "prompt": {"parts": [{"text": "q"}]}, "reference": {"role": "model", "parts": [{"text": "r"}]}},
        {"eval_case_id": "a", "prompt": {"parts": [{"text": "again"}]}},
        {"eval_case_id": "e"}
    ]});
    let report: Value = serde_json::from_str(&api::validate_eval_set(&bad.to_string())).unwrap();
    let paths: Vec<&str> = report["errors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["path"].as_str().unwrap())
        .collect();
    assert_eq!(
        paths,
        [
            "$.eval_cases[0].prompt.parts[0].txt",
            "$.eval_cases[1].agent_data.turns[0].events[1]",
            "$.eval_cases[2].reference",
            "$.eval_cases[3].eval_case_id",
            "$.eval_cases[4]",
        ],
        "{report}"
    );
    let e = load_evaluation_dataset(&bad.to_string(), "").unwrap_err();
    assert_eq!(e.path, "$.eval_cases[0].prompt.parts[0].txt");
    assert!(e.message.contains("and 4 more problems"), "{}", e.message);
}

#[test]
fn an_adk_eval_set_written_as_a_dataset_reads_back_as_its_conversation() {
    let set = json!({"eval_set_id": "s", "eval_cases": [{"eval_id": "roll", "conversation": [
        {"invocation_id": "i1", "user_content": {"role": "user", "parts": [{"text": "Roll a die"}]},
         "final_response": {"role": "model", "parts": [{"text": "I rolled a 4."}]},
         "intermediate_data": {"tool_uses": [{"name": "roll_die", "args": {"sides": 6}}], "tool_responses": [], "intermediate_responses": []}},
        {"invocation_id": "i2", "user_content": {"role": "user", "parts": [{"text": "Is 4 prime?"}]},
         "final_response": {"role": "model", "parts": [{"text": "No."}]}}]}]});
    let written: Value =
        serde_json::from_str(&to_evaluation_dataset(&json!({ "evalSet": set }).to_string()).unwrap()).unwrap();
    let case = &written["eval_cases"][0];
    assert_eq!(case["eval_case_id"], "roll");
    assert_eq!(text(&case["reference"]["response"]), "No.");
    let events = case["agent_data"]["turns"][0]["events"].as_array().unwrap();
    let authors: Vec<&str> = events.iter().map(|e| e["author"].as_str().unwrap()).collect();
    assert_eq!(authors, ["user", "agent", "agent", "user"], "{written}");
    let d = load(&written.to_string());
    let conv = d["eval_set"]["eval_cases"][0]["conversation"].as_array().unwrap();
    assert_eq!(
        conv[0]["intermediate_data"]["invocation_events"][0]["content"]["parts"][0]["function_call"]["name"],
        "roll_die"
    );
    assert_eq!(text(&conv[0]["final_response"]), "I rolled a 4.");
    assert_eq!(text(&conv[1]["final_response"]), "No.");
}

fn config(v: Value, metrics: Option<Vec<&str>>) -> Result<Value, evalcore::EvalError> {
    let opts = ConfigOptions {
        strict: false,
        metrics: metrics.map(|m| m.into_iter().map(str::to_string).collect()),
    };
    let r = api::check_config_with(&v, opts.metrics.as_deref());
    match r.config {
        Some(c) if r.errors.is_empty() => Ok(c.to_json()),
        _ => Err(r.errors.into_iter().next().unwrap()),
    }
}

#[test]
fn an_agents_cli_config_becomes_criteria() {
    // config-example.yaml of agents-cli's eval guide, as its YAML parses.
    let v = json!({
        "metrics_to_run": ["multi_turn_task_success", "example_llm_metric", "agent_turn_count"],
        "custom_metrics": [
            {"name": "example_llm_metric", "prompt_template": "Rate 1-5.\nPrompt: {prompt}\nReturn JSON: {\"score\": <1|2|3|4|5>}",
             "judge_model_sampling_count": 3, "judge_model": "gemini-2.5-flash"},
            {"name": "agent_turn_count", "custom_function": "def evaluate(instance):\n    return {'score': 1}\n"}
        ]
    });
    let c = config(v.clone(), None).unwrap();
    let criteria = c["criteria"].as_object().unwrap();
    let names: Vec<&String> = criteria.keys().collect();
    assert_eq!(
        names,
        ["multi_turn_task_success", "example_llm_metric", "agent_turn_count"]
    );
    assert_eq!(criteria["multi_turn_task_success"], json!({"threshold": 1.0}));
    assert_eq!(criteria["example_llm_metric"]["informational"], true);
    assert_eq!(
        criteria["example_llm_metric"]["judge_model_options"],
        json!({"judge_model": "gemini-2.5-flash", "num_samples": 3})
    );
    assert!(criteria["agent_turn_count"]["custom_function"].is_string());
    // --metrics replaces metrics_to_run; a versioned built-in name resolves to the one evalcore has.
    let c = config(v, Some(vec!["hallucination_v1", "safety"])).unwrap();
    let names: Vec<&String> = c["criteria"].as_object().unwrap().keys().collect();
    assert_eq!(names, ["hallucination", "safety"]);
}

#[test]
fn agents_cli_config_mistakes_are_errors_at_their_entry() {
    let cases = [
        (json!({"metrics_to_run": "safety"}), "$.metrics_to_run"),
        (json!({"metrics_to_run": []}), "$.metrics_to_run"),
        (
            json!({"metrics_to_run": ["m"], "custom_metrics": [{"name": "m", "prompt_template": "x {response}", "rubric_group_name": "g"}]}),
            "$.custom_metrics[0].rubric_group_name",
        ),
        (
            json!({"metrics_to_run": ["m"], "custom_metrics": [{"name": "m", "prompt_template": "x", "judge_model_sampling_count": 40}]}),
            "$.custom_metrics[0].judge_model_sampling_count",
        ),
        (
            json!({"metrics_to_run": ["m"], "custom_metrics": [{"name": "m", "judge_model": "x"}]}),
            "$.custom_metrics[0]",
        ),
        (
            json!({"metrics_to_run": ["m"], "custom_metrics": [{"name": "m", "custom_function": "def evaluate(i): pass", "execution": "cloud"}]}),
            "$.custom_metrics[0].execution",
        ),
    ];
    for (v, path) in cases {
        let e = config(v.clone(), None).unwrap_err();
        assert_eq!(e.path, path, "{v}: {}", e.message);
    }
    // Unknown metrics are warnings (NOT_EVALUATED when run), pointing at metrics_to_run.
    let r = api::check_config_with(&json!({"metrics_to_run": ["safety", "task_sucess"]}), None);
    assert!(r.errors.is_empty());
    assert_eq!(r.warnings[0].path, "$.metrics_to_run[1]");
}

#[test]
fn traces_written_by_agents_cli_eval_generate_are_graded() {
    // Recorded by tools/agents-cli/make_traces.sh: google-agents-cli 1.11.0's `eval generate`
    // over google-adk 2.13's api_server.
    let d = load(&data("generated-traces.json"));
    assert_eq!(d["grading"], json!(["greeting", "search", "book_after_search"]));
    let search = &d["actual"]["search"][0];
    assert_eq!(text(&search["user_content"]), "Find me a flight to NYC");
    assert_eq!(text(&search["final_response"]), "I found AA123 to NYC for $320.");
    let events = search["intermediate_data"]["invocation_events"].as_array().unwrap();
    assert_eq!(
        events[0]["content"]["parts"][0]["function_call"]["name"],
        "search_flights"
    );
    assert_eq!(search["invocation_id"], "turn_0", "the turn's id");
    let agent = &search["app_details"]["agent_details"]["flight_agent"];
    assert_eq!(agent["instructions"], "Search and book flights for the user.");
    let case = &d["eval_set"]["eval_cases"][1];
    assert_eq!(case["context"], "Flight AA123 to NYC costs $320.");
    assert_eq!(
        text(&case["conversation"][0]["final_response"]),
        "AA123 to NYC costs $320."
    );
    let cont = d["actual"]["book_after_search"].as_array().unwrap();
    assert_eq!(cont.len(), 2, "the seeded turn and the one the agent answered");
    assert_eq!(text(&cont[0]["final_response"]), "I found AA123 to NYC for $320.");
    assert_eq!(
        text(&cont[1]["final_response"]),
        "Booked AA123; your reference is XK42."
    );
    round_trip(&d);
}

//! ADK's data written as an agents-cli `EvaluationDataset`: a case with recorded invocations as
//! a trace (`agent_data` with one turn per invocation, `responses`), a case without as inference
//! input (`prompt`, or the conversation ending in a user turn). Read back, it gives the same data.

use crate::schema::agent_data::{agent_data, agent_events, agents, event, joined_text};
use crate::schema::eval_set::{EvalCase, EvalSet};
use crate::schema::load::value_of;
use crate::schema::Invocation;
use indexmap::IndexMap;
use serde_json::{json, Map, Value};

/// The dataset of `set`, with `actual[eval_id]` as the trace of the cases that have one.
pub fn to_dataset(set: &EvalSet, actual: &IndexMap<String, Vec<Invocation>>) -> Value {
    let cases: Vec<Value> = set
        .eval_cases
        .iter()
        .map(|c| Value::Object(write_case(c, actual.get(&c.eval_id).map(Vec::as_slice))))
        .collect();
    json!({ "eval_cases": cases })
}

fn write_case(case: &EvalCase, recorded: Option<&[Invocation]>) -> Map<String, Value> {
    let mut o = Map::new();
    o.insert("eval_case_id".into(), Value::String(case.eval_id.clone()));
    let expected = case.conversation.as_deref().unwrap_or(&[]);
    match recorded {
        Some(invs) => trace(&mut o, invs),
        None => inference(&mut o, expected),
    }
    if let Some(s) = &case.conversation_scenario {
        o.insert(
            "user_scenario".into(),
            json!({"starting_prompt": s.starting_prompt.as_str(), "conversation_plan": s.conversation_plan.as_str()}),
        );
    }
    let reference = expected.last().and_then(|e| e.final_response.as_ref());
    if let (Some(r), None, None) = (reference, recorded, case.extra.get("reference")) {
        o.insert("reference".into(), json!({ "response": value_of(r) }));
    }
    for (k, v) in &case.extra {
        o.entry(k.clone()).or_insert_with(|| v.clone());
    }
    o
}

/// A trace: agents, one turn per invocation (the user's event first, except for a one-turn case
/// whose user turn is its `prompt`, as `agents-cli eval generate` writes it), and `responses`.
fn trace(o: &mut Map<String, Value>, invs: &[Invocation]) {
    let single = invs.len() == 1;
    if let (true, Some(only)) = (single, invs.first()) {
        o.insert("prompt".into(), value_of(&only.user_content));
    }
    o.insert("agent_data".into(), agent_data(invs, !single));
    let last_text = invs
        .last()
        .and_then(|i| i.final_response.as_ref())
        .map(joined_text)
        .filter(|t| !t.is_empty());
    if let (Some(t), Some(inv)) = (last_text, invs.last()) {
        let role = inv
            .final_response
            .as_ref()
            .and_then(|f| f.role.as_deref())
            .unwrap_or("model");
        o.insert(
            "responses".into(),
            json!([{"response": {"role": role, "parts": [{"text": t}]}}]),
        );
    }
}

/// Inference input: one user turn as `prompt`; a longer conversation as one turn of events (the
/// replies written for the earlier turns between the user's messages), ending with the last user
/// message. The last turn's expected response is the case's `reference`; its expected tool calls
/// have no place in the format.
fn inference(o: &mut Map<String, Value>, expected: &[Invocation]) {
    match expected {
        [] => {}
        [only] => {
            o.insert("prompt".into(), value_of(&only.user_content));
        }
        [earlier @ .., last] => {
            let mut events = Vec::new();
            for inv in earlier {
                events.push(event("user", value_of(&inv.user_content)));
                events.extend(agent_events(inv));
            }
            events.push(event("user", value_of(&last.user_content)));
            let mut data = Map::new();
            if let Some(a) = agents(expected) {
                data.insert("agents".into(), a);
            }
            data.insert("turns".into(), json!([{"turn_index": 0, "events": events}]));
            o.insert("agent_data".into(), Value::Object(data));
        }
    }
}

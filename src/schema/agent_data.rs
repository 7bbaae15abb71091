//! ADK invocations as the evaluation service's agent data (agents-cli's `agent_data`): the
//! agents of their app details and one turn of events per invocation, the final response back in
//! the place ADK's invocation events keep for it. Read back by the core's event rule, it gives
//! the same invocations.

use super::app_details::AppDetails;
use super::invocation::IntermediateData;
use super::parse::value_of;
use super::{Content, Invocation};
use serde_json::{json, Map, Value};

/// `{author, content}`. Typed values become JSON by way of their text ([`value_of`]): a
/// `to_value` of each type would put a second serializer of it in the .wasm.
pub fn event(author: &str, content: Value) -> Value {
    let mut m = Map::new();
    m.insert("author".into(), Value::String(author.to_string()));
    m.insert("content".into(), content);
    Value::Object(m)
}

fn with_part(role: &str, key: &str, v: Value) -> Value {
    json!({"role": role, "parts": [{ key: v }]})
}

/// `{agents?, turns}` of `invs`: each turn `{turn_index, turn_id, events}`, its events opened by
/// the user's unless `with_user` is false (a one-turn case whose user turn is its `prompt`).
pub fn agent_data(invs: &[Invocation], with_user: bool) -> Value {
    let turns: Vec<Value> = invs
        .iter()
        .enumerate()
        .map(|(k, inv)| {
            let mut events = Vec::new();
            if with_user {
                events.push(event("user", value_of(&inv.user_content)));
            }
            events.extend(agent_events(inv));
            json!({"turn_index": k, "turn_id": inv.invocation_id.as_str(), "events": events})
        })
        .collect();
    let mut data = Map::new();
    if let Some(a) = agents(invs) {
        data.insert("agents".into(), a);
    }
    data.insert("turns".into(), Value::Array(turns));
    Value::Object(data)
}

/// The agent's events of an invocation with the final response back in its place (ADK keeps
/// the final event with its content nulled), or appended when it has no place.
pub fn agent_events(inv: &Invocation) -> Vec<Value> {
    let author = |fallback: &str| {
        inv.events()
            .iter()
            .rev()
            .map(|e| e.author.as_str())
            .find(|a| !a.eq_ignore_ascii_case("user"))
            .or_else(|| {
                inv.app_details
                    .as_ref()
                    .and_then(|a| a.agent_details.keys().next())
                    .map(String::as_str)
            })
            .unwrap_or(fallback)
            .to_string()
    };
    let mut out = Vec::new();
    match &inv.intermediate_data {
        Some(IntermediateData::Events(events)) => {
            let slot = events.iter().rposition(|e| e.content.is_none());
            for (i, e) in events.iter().enumerate() {
                let content = match (&e.content, Some(i) == slot) {
                    (Some(c), _) => Some(c),
                    (None, true) => inv.final_response.as_ref(),
                    (None, false) => None,
                };
                if let Some(c) = content {
                    out.push(event(&e.author, value_of(c)));
                }
            }
            // A final event that kept its content (one with tool calls: ADK nulls only the others)
            // is in place already.
            let in_place = events
                .last()
                .and_then(|e| e.content.as_ref())
                .is_some_and(|c| c.function_calls().next().is_some());
            if slot.is_none() && !in_place {
                if let Some(f) = &inv.final_response {
                    out.push(event(&author("agent"), value_of(f)));
                }
            }
        }
        Some(IntermediateData::Legacy {
            tool_uses,
            tool_responses,
            intermediate_responses,
        }) => {
            let who = author("agent");
            for (name, parts) in intermediate_responses {
                out.push(event(name, json!({"role": "model", "parts": value_of(parts)})));
            }
            for c in tool_uses {
                out.push(event(&who, with_part("model", "function_call", value_of(c))));
            }
            for r in tool_responses {
                out.push(event("tool", with_part("user", "function_response", value_of(r))));
            }
            if let Some(f) = &inv.final_response {
                out.push(event(&who, value_of(f)));
            }
        }
        None => {
            if let Some(f) = &inv.final_response {
                out.push(event(&author("agent"), value_of(f)));
            }
        }
    }
    out
}

/// Every agent of the invocations' app_details, first seen first, as agents-cli's agent configs.
pub fn agents(invs: &[Invocation]) -> Option<Value> {
    let mut m = Map::new();
    for app in invs.iter().filter_map(|i| i.app_details.as_ref()) {
        let AppDetails { agent_details } = app;
        for (id, d) in agent_details {
            m.entry(id.clone()).or_insert_with(|| {
                let mut a = Map::new();
                a.insert("agent_id".into(), Value::String(d.name.clone()));
                if !d.instructions.is_empty() {
                    a.insert("instruction".into(), Value::String(d.instructions.clone()));
                }
                if !d.tool_declarations.is_empty() {
                    a.insert("tools".into(), Value::Array(d.tool_declarations.clone()));
                }
                Value::Object(a)
            });
        }
    }
    (!m.is_empty()).then_some(Value::Object(m))
}

/// agents-cli's final text: the text parts joined as they are (no separator).
pub fn joined_text(c: &Content) -> String {
    c.parts
        .iter()
        .flatten()
        .filter(|p| p.thought != Some(true))
        .filter_map(|p| p.text.as_deref())
        .collect()
}

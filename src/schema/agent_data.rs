//! ADK invocations as the evaluation service's agent data (agents-cli's `agent_data`): the
//! agents of their app details and one turn of events per invocation, the final response back in
//! the place ADK's invocation events keep for it. Read back by the core's event rule, it gives
//! the same invocations.

use super::eval_set::AppDetails;
use super::invocation::IntermediateData;
use super::{Content, Invocation};
use serde_json::{json, Map, Value};

/// `{agents?, turns}` of `invs`: each turn `{turn_index, turn_id, events}`, its events opened by
/// the user's unless `with_user` is false (a one-turn case whose user turn is its `prompt`).
pub fn agent_data(invs: &[Invocation], with_user: bool) -> Value {
    let turns: Vec<Value> = invs
        .iter()
        .enumerate()
        .map(|(k, inv)| {
            let mut events = Vec::new();
            if with_user {
                events.push(json!({"author": "user", "content": inv.user_content}));
            }
            events.extend(agent_events(inv));
            json!({"turn_index": k, "turn_id": inv.invocation_id, "events": events})
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
            .or_else(|| inv.app_details.as_ref().and_then(|a| a.agent_details.keys().next()).map(String::as_str))
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
                    out.push(json!({"author": e.author, "content": c}));
                }
            }
            // A final event that kept its content (one with tool calls) is in place already.
            let in_place = events.last().and_then(|e| e.content.as_ref()) == inv.final_response.as_ref();
            if slot.is_none() && !in_place {
                if let Some(f) = &inv.final_response {
                    out.push(json!({"author": author("agent"), "content": f}));
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
                out.push(json!({"author": name, "content": {"role": "model", "parts": parts}}));
            }
            for c in tool_uses {
                out.push(json!({"author": who, "content": {"role": "model", "parts": [{"function_call": c}]}}));
            }
            for r in tool_responses {
                out.push(json!({"author": "tool", "content": {"role": "user", "parts": [{"function_response": r}]}}));
            }
            if let Some(f) = &inv.final_response {
                out.push(json!({"author": who, "content": f}));
            }
        }
        None => {
            if let Some(f) = &inv.final_response {
                out.push(json!({"author": author("agent"), "content": f}));
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

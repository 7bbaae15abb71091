//! From a turn's steps to ADK events, one rule for every source: a model call is an event of
//! its agent; the tools it called answer in one event after it, in call order, each response
//! carrying its call's id (as ADK merges parallel calls into one event).

use super::turn::{Step, ToolStep, Turn};
use serde_json::{json, Map, Value as Json};

/// A response as ADK records it: an object, or `{"result": value}`.
fn response_object(v: Json) -> Json {
    if v.is_object() {
        v
    } else {
        json!({ "result": v })
    }
}

/// The events of one invocation, in ADK's order: each model call's event, then one event with
/// the responses of the tools it called (their ids given to its calls).
pub fn events(turn: &mut Turn, id: &str) -> Vec<Json> {
    let mut steps = std::mem::take(&mut turn.steps);
    steps.sort_by_key(Step::start);
    let mut out = Vec::new();
    let mut it = steps.into_iter().peekable();
    let mut unknown_response = false;
    while let Some(step) = it.next() {
        let mut tools: Vec<ToolStep> = Vec::new();
        while let Some(Step::Tool(_)) = it.peek() {
            if let Some(Step::Tool(t)) = it.next() {
                tools.push(t);
            }
        }
        let model = match step {
            Step::Model(m) => Some(m),
            Step::Tool(t) => {
                tools.insert(0, t);
                None
            }
        };
        let author = model.as_ref().map_or("agent".to_string(), |m| m.author.clone());
        let mut order: Vec<usize> = Vec::new();
        if let Some(m) = model {
            let mut parts = m.parts;
            if let Some(ps) = parts.as_mut() {
                for p in ps.iter_mut() {
                    let Some(fc) = p.get_mut("function_call").and_then(Json::as_object_mut) else {
                        continue;
                    };
                    let name = fc.get("name").and_then(Json::as_str).unwrap_or("");
                    let cid = fc.get("id").and_then(Json::as_str);
                    let free = |k: &usize| !order.contains(k);
                    let by_id = tools
                        .iter()
                        .enumerate()
                        .find(|(k, t)| free(k) && cid.is_some() && t.id.as_deref() == cid);
                    let found = by_id.or_else(|| tools.iter().enumerate().find(|(k, t)| free(k) && t.name == name));
                    if let Some((k, t)) = found {
                        order.push(k);
                        if let Some(tid) = &t.id {
                            fc.insert("id".into(), json!(tid));
                        }
                    }
                }
            } else if !tools.is_empty() {
                // No content: the calls are known from the tool spans alone.
                parts = Some(tools.iter().map(call_part).collect());
                order = (0..tools.len()).collect();
            }
            let mut ev = Map::new();
            ev.insert("invocation_id".into(), json!(id));
            ev.insert("author".into(), json!(m.author));
            if let Some(ps) = parts {
                ev.insert("content".into(), json!({ "role": "model", "parts": ps }));
            }
            if let Some(u) = m.usage {
                ev.insert("usage_metadata".into(), u);
            }
            if let Some(v) = m.version {
                ev.insert("model_version".into(), json!(v));
            }
            ev.extend(m.extra);
            out.push(Json::Object(ev));
        } else {
            out.push(
                json!({ "invocation_id": id, "author": author, "content": { "role": "model",
                "parts": tools.iter().map(call_part).collect::<Vec<_>>() } }),
            );
        }
        let rest: Vec<usize> = (0..tools.len()).filter(|k| !order.contains(k)).collect();
        order.extend(rest);
        let who = tools.iter().find_map(|t| t.author.clone()).unwrap_or(author);
        // A call ADK wrote no response for has none here either (ADK's session).
        let parts: Vec<Json> = order
            .iter()
            .filter_map(|&k| tools.get(k))
            .filter(|t| !t.unanswered)
            .map(|t| {
                unknown_response |= t.response.is_none();
                let mut fr = Map::new();
                if let Some(i) = &t.id {
                    fr.insert("id".into(), json!(i));
                }
                fr.insert("name".into(), json!(t.name));
                fr.insert(
                    "response".into(),
                    response_object(t.response.clone().unwrap_or_else(|| json!({}))),
                );
                json!({ "function_response": fr })
            })
            .collect();
        if parts.is_empty() {
            continue;
        }
        out.push(json!({ "invocation_id": id, "author": who, "content": { "role": "user", "parts": parts } }));
    }
    if unknown_response {
        turn.lacks("tool_responses", "the trace has no tool results");
    }
    out
}

fn call_part(t: &ToolStep) -> Json {
    let mut fc = Map::new();
    if let Some(i) = &t.id {
        fc.insert("id".into(), json!(i));
    }
    fc.insert("name".into(), json!(t.name));
    if let Some(a) = &t.args {
        fc.insert("args".into(), a.clone());
    }
    json!({ "function_call": fc })
}

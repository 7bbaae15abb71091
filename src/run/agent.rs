//! One agent turn to one ADK Invocation (SPEC §4.2): the agent's events of the turn, or its
//! final response and tool calls, become `final_response` and `invocation_events` exactly as
//! ADK's evaluation generator records them.

use crate::schema::eval_set::AppDetails;
use crate::schema::invocation::IntermediateData;
use crate::schema::load::parse_as;
use crate::schema::{Content, Invocation, InvocationEvent};
use serde_json::{json, Value};

/// An agent event as the core reads it: what ADK's `is_final_response` looks at, plus what the
/// invocation keeps.
struct Event {
    author: String,
    content: Option<Content>,
    partial: bool,
    skip_summarization: bool,
    long_running: bool,
    error_code: bool,
    kept: InvocationEvent,
}

fn get<'a>(o: &'a serde_json::Map<String, Value>, snake: &str, camel: &str) -> Option<&'a Value> {
    o.get(snake).or_else(|| o.get(camel)).filter(|v| !v.is_null())
}

fn parse_event(v: &Value, i: usize, default_author: &str) -> Result<Event, String> {
    let o = v.as_object().ok_or_else(|| format!("events[{i}] must be an object"))?;
    let author = o
        .get("author")
        .and_then(Value::as_str)
        .unwrap_or(default_author)
        .to_string();
    let content: Option<Content> = match o.get("content") {
        None | Some(Value::Null) => None,
        Some(c) => Some(parse_as(c).map_err(|e| format!("events[{i}].content: {e}"))?),
    };
    let actions = get(o, "actions", "actions").and_then(Value::as_object);
    let skip_summarization = actions
        .and_then(|a| get(a, "skip_summarization", "skipSummarization"))
        .and_then(Value::as_bool)
        .unwrap_or(false);
    let long_running = get(o, "long_running_tool_ids", "longRunningToolIds")
        .map(|v| match v {
            Value::Array(a) => !a.is_empty(),
            Value::Object(m) => !m.is_empty(),
            _ => false,
        })
        .unwrap_or(false);
    let error_code = get(o, "error_code", "errorCode").is_some_and(|v| v.as_str() != Some(""));
    let partial = get(o, "partial", "partial").and_then(Value::as_bool).unwrap_or(false);
    let usage_metadata = match get(o, "usage_metadata", "usageMetadata") {
        None => None,
        Some(u) => Some(Box::new(
            parse_as(u).map_err(|e| format!("events[{i}].usage_metadata: {e}"))?,
        )),
    };
    let grounding_metadata = get(o, "grounding_metadata", "groundingMetadata")
        .and_then(Value::as_object)
        .map(|m| Box::new(m.clone()));
    let model_version = get(o, "model_version", "modelVersion")
        .and_then(Value::as_str)
        .map(str::to_string);
    Ok(Event {
        kept: InvocationEvent {
            author: author.clone(),
            content: content.clone(),
            grounding_metadata,
            usage_metadata,
            model_version,
        },
        author,
        content,
        partial,
        skip_summarization,
        long_running,
        error_code,
    })
}

fn is_final(e: &Event) -> bool {
    let calls = e.content.as_ref().is_some_and(|c| c.function_calls().next().is_some());
    let responses = e
        .content
        .as_ref()
        .is_some_and(|c| c.function_responses().next().is_some());
    if e.skip_summarization || e.long_running {
        return true;
    }
    if e.error_code && !e.partial && !calls {
        return true;
    }
    let trailing_code_result = e
        .content
        .as_ref()
        .and_then(|c| c.parts.as_ref())
        .and_then(|p| p.last())
        .is_some_and(|p| p.code_execution_result.is_some());
    !calls && !responses && !e.partial && !trailing_code_result
}

fn has_text(c: &Content) -> bool {
    c.parts
        .iter()
        .flatten()
        .any(|p| p.text.as_deref().is_some_and(|t| !t.is_empty()))
}

/// Synthesises ADK events from the simple reply shape `{finalResponse, toolCalls, toolResponses}`.
fn simple_events(o: &serde_json::Map<String, Value>, author: &str) -> Vec<Value> {
    let mut events = Vec::new();
    let calls = get(o, "tool_calls", "toolCalls").and_then(Value::as_array);
    let responses = get(o, "tool_responses", "toolResponses").and_then(Value::as_array);
    for (k, c) in calls.into_iter().flatten().enumerate() {
        let id = c.get("id").cloned().unwrap_or_else(|| json!(format!("call-{k}")));
        let mut fc = json!({"id": id, "name": c.get("name").cloned().unwrap_or(Value::Null)});
        if let (Some(args), Some(m)) = (c.get("args").filter(|a| !a.is_null()), fc.as_object_mut()) {
            m.insert("args".into(), args.clone());
        }
        events.push(json!({"author": author, "content": {"role": "model", "parts": [{"function_call": fc}]}}));
        // A response given on the call itself, or in toolResponses at the same position.
        let resp = c.get("response").cloned().or_else(|| {
            responses
                .and_then(|r| r.get(k))
                .and_then(|r| r.get("response"))
                .cloned()
        });
        if let Some(r) = resp {
            let r = if r.is_object() { r } else { json!({"result": r}) };
            events.push(
                json!({"author": author, "content": {"role": "user", "parts": [{"function_response":
                {"id": id, "name": c.get("name").cloned().unwrap_or(Value::Null), "response": r}}]}}),
            );
        }
    }
    events
}

fn content_of(v: &Value, what: &str) -> Result<Content, String> {
    match v {
        Value::String(s) => Ok(Content::from_text("model", s)),
        other => parse_as(other).map_err(|e| format!("{what}: {e}")),
    }
}

/// Builds the actual invocation of one turn from the agent's reply.
pub fn invocation_from_reply(
    reply: &Value,
    invocation_id: String,
    user_content: Content,
    timestamp: f64,
    duration_s: Option<f64>,
) -> Result<Invocation, String> {
    let empty = serde_json::Map::new();
    let (o, final_text) = match reply {
        Value::String(s) => (&empty, Some(Value::String(s.clone()))),
        Value::Object(o) => (o, None),
        Value::Null => return Err("the agent returned nothing for this turn".into()),
        other => return Err(format!("the agent must return a string or an object, found {other}")),
    };
    let mut app_details: Option<AppDetails> = match get(o, "app_details", "appDetails") {
        None => None,
        Some(v) => Some(parse_as(v).map_err(|e| format!("appDetails: {e}"))?),
    };
    let agents = get(o, "agents", "agents");
    if app_details.is_some() && agents.is_some() {
        return Err("give appDetails or agents, not both (agents are made into appDetails)".into());
    }
    let default_author = app_details
        .as_ref()
        .and_then(|a| a.agent_details.keys().next().cloned())
        .or_else(|| agents.and_then(super::agent_details::first_name))
        .unwrap_or_else(|| "agent".to_string());
    let raw_events: Vec<Value> = match get(o, "events", "events") {
        Some(Value::Array(a)) => a.clone(),
        Some(other) => return Err(format!("events must be an array, found {other}")),
        None => simple_events(o, &default_author),
    };
    let mut final_response: Option<Content> = None;
    let mut final_index: Option<usize> = None;
    let mut kept: Vec<(usize, InvocationEvent, bool)> = Vec::new();
    for (i, v) in raw_events.iter().enumerate() {
        let e = parse_event(v, i, &default_author)?;
        if e.author.eq_ignore_ascii_case("user") {
            continue;
        }
        match &e.content {
            Some(c) if c.parts.as_ref().is_some_and(|p| !p.is_empty()) => {
                if is_final(&e) {
                    let final_has_text = final_response.as_ref().is_some_and(has_text);
                    if !final_has_text || has_text(c) {
                        final_response = Some(c.clone());
                        final_index = Some(i);
                    }
                }
                let add = e.kept.grounding_metadata.is_some()
                    || c.parts.iter().flatten().any(|p| {
                        p.function_call.is_some()
                            || p.function_response.is_some()
                            || p.text.as_deref().is_some_and(|t| !t.is_empty())
                            || p.inline_data.is_some()
                    });
                if add {
                    let has_calls = c.function_calls().next().is_some();
                    kept.push((i, e.kept, has_calls));
                }
            }
            _ => {
                if e.kept.grounding_metadata.is_some() {
                    kept.push((i, e.kept, false));
                }
            }
        }
    }
    let mut events: Vec<InvocationEvent> = kept
        .into_iter()
        .map(|(i, mut ev, has_calls)| {
            if Some(i) == final_index && !has_calls {
                ev.content = None;
            }
            ev
        })
        .collect();
    let explicit_final = final_text.or_else(|| get(o, "final_response", "finalResponse").cloned());
    if let Some(f) = explicit_final {
        let c = content_of(&f, "finalResponse")?;
        if get(o, "events", "events").is_none() {
            // The simple shape's final answer is an event of its own, as an agent would emit it.
            events.push(InvocationEvent {
                author: default_author.clone(),
                content: None,
                ..InvocationEvent::default()
            });
        }
        final_response = Some(c);
    }
    if let Some(a) = agents {
        let authors: Vec<&str> = events.iter().map(|e| e.author.as_str()).collect();
        app_details = super::agent_details::app_details(a, &authors)?;
    }
    let (model_duration, tool_duration) = super::timing::durations(get(o, "timings", "timings"))?;
    Ok(Invocation {
        invocation_id,
        user_content,
        final_response,
        intermediate_data: Some(IntermediateData::Events(events)),
        creation_timestamp: timestamp,
        rubrics: None,
        app_details,
        duration: duration_s,
        model_duration,
        tool_duration,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn user() -> Content {
        Content::from_text("user", "hi")
    }

    #[test]
    fn events_follow_adk_rules() {
        let reply = json!({"events": [
            {"author": "root", "content": {"role": "model", "parts": [{"function_call": {"id": "1", "name": "roll_die", "args": {"sides": 6}}}]},
             "usage_metadata": {"prompt_token_count": 10}},
            {"author": "root", "content": {"role": "user", "parts": [{"function_response": {"id": "1", "name": "roll_die", "response": {"result": 4}}}]}},
            {"author": "root", "content": {"role": "model", "parts": [{"text": "You rolled a 4"}]}, "usage_metadata": {"prompt_token_count": 20}}
        ]});
        let inv = invocation_from_reply(&reply, "e-1".into(), user(), 0.0, None).unwrap();
        assert_eq!(inv.final_response.as_ref().unwrap().text(), "You rolled a 4");
        let ev = inv.events();
        assert_eq!(ev.len(), 3);
        assert!(ev[2].content.is_none(), "the final response's content is nulled");
        assert!(ev[2].usage_metadata.is_some());
        assert_eq!(inv.tool_calls().len(), 1);
    }

    #[test]
    fn timings_give_the_model_and_tool_split() {
        let reply = json!({"events": [], "timings": {"model": [[0, 400], [900, 1200]], "tool": [[400, 900]]}});
        let inv = invocation_from_reply(&reply, "e".into(), user(), 0.0, Some(1.3)).unwrap();
        assert_eq!((inv.model_duration, inv.tool_duration), (Some(0.7), Some(0.5)));
        let bad = json!({"events": [], "timings": {"tool": [[9, 1]]}});
        let e = invocation_from_reply(&bad, "e".into(), user(), 0.0, None).unwrap_err();
        assert!(e.contains("timings.tool[0]"), "{e}");
    }

    #[test]
    fn simple_shape_and_strings() {
        let inv = invocation_from_reply(&json!("hello"), "e".into(), user(), 0.0, Some(0.5)).unwrap();
        assert_eq!(inv.final_response.unwrap().text(), "hello");
        let inv = invocation_from_reply(
            &json!({"finalResponse": "4", "toolCalls": [{"name": "roll_die", "args": {"sides": 6}, "response": 4}]}),
            "e".into(),
            user(),
            0.0,
            None,
        )
        .unwrap();
        assert_eq!(inv.tool_calls().len(), 1);
        assert_eq!(inv.tool_call_count(), 1);
        assert_eq!(inv.final_response.unwrap().text(), "4");
        assert!(invocation_from_reply(&json!(3), "e".into(), user(), 0.0, None).is_err());
        assert!(invocation_from_reply(
            &json!({"events": [{"content": {"parts": [{"bogus": 1}]}}]}),
            "e".into(),
            user(),
            0.0,
            None
        )
        .is_err());
    }

    #[test]
    fn a_replys_agents_become_its_app_details() {
        let agents = json!([{"name": "shop", "instructions": "Sell.", "tools": [{"name": "charge_card"}]}]);
        let reply =
            json!({"finalResponse": "Done.", "toolCalls": [{"name": "charge_card", "args": {}}], "agents": agents});
        let inv = invocation_from_reply(&reply, "e".into(), user(), 0.0, None).unwrap();
        let app = inv.app_details.clone().unwrap();
        assert_eq!(app.agent_details["shop"].instructions, "Sell.");
        assert_eq!(
            inv.events()[0].author,
            "shop",
            "the first agent authors the simple shape's events"
        );
        let both = json!({"finalResponse": "x", "agents": [], "appDetails": {"agent_details": {}}});
        let e = invocation_from_reply(&both, "e".into(), user(), 0.0, None).unwrap_err();
        assert!(e.contains("appDetails or agents"), "{e}");
        let bad = json!({"finalResponse": "x", "agents": [{"name": "a", "tools": "all"}]});
        let e = invocation_from_reply(&bad, "e".into(), user(), 0.0, None).unwrap_err();
        assert!(e.contains("agents[0].tools must be an array"), "{e}");
    }
}

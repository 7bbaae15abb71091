//! A recorded session to ADK Invocations, as ADK's dev server does when it adds a session to an
//! eval set (`convert_session_to_eval_invocations`): events grouped by invocation id in the order
//! first seen; in each group the user's event gives `user_content` and `creation_timestamp`, and
//! the agent's events become `final_response` and `invocation_events` by the same rule as a live
//! turn ([`super::agent::invocation_from_reply`]).

use super::agent::invocation_from_reply;
use crate::error::{EvalError, Result};
use crate::schema::load::parse_as;
use crate::schema::{Content, Invocation};
use serde_json::{json, Value};

fn field<'a>(o: &'a serde_json::Map<String, Value>, snake: &str, camel: &str) -> Option<&'a Value> {
    o.get(snake).or_else(|| o.get(camel)).filter(|v| !v.is_null())
}

/// The events of `session` (a Session object with `events`, or the list itself) as invocations.
pub fn invocations_from_session(session: &Value) -> Result<Vec<Invocation>> {
    let (events, at) = match session {
        Value::Array(a) => (a, "$"),
        Value::Object(o) => match o.get("events") {
            Some(Value::Array(a)) => (a, "$.events"),
            None | Some(Value::Null) => return Ok(Vec::new()),
            Some(_) => return Err(EvalError::schema("$.events", "a session's events must be an array")),
        },
        _ => {
            return Err(EvalError::schema(
                "$",
                "expected a session (an object with events) or a list of events",
            ))
        }
    };
    // Groups in first-seen order: (invocation id, indices of its events).
    let mut groups: Vec<(String, Vec<usize>)> = Vec::new();
    for (i, e) in events.iter().enumerate() {
        let o = e
            .as_object()
            .ok_or_else(|| EvalError::schema(format!("{at}[{i}]"), "an event must be an object"))?;
        let id = match field(o, "invocation_id", "invocationId") {
            Some(Value::String(s)) => s.clone(),
            None => String::new(),
            Some(_) => {
                return Err(EvalError::schema(
                    format!("{at}[{i}].invocation_id"),
                    "an invocation id must be a string",
                ))
            }
        };
        match groups.iter_mut().find(|(g, _)| *g == id) {
            Some((_, members)) => members.push(i),
            None => groups.push((id, vec![i])),
        }
    }
    let mut out = Vec::with_capacity(groups.len());
    for (id, members) in groups {
        let mut user_content = Content {
            role: None,
            parts: Some(Vec::new()),
        };
        let mut timestamp = 0.0;
        let mut agent_events = Vec::new();
        for e in members.iter().filter_map(|&i| events.get(i).map(|e| (i, e))) {
            let (i, e) = e;
            let author = e.get("author").and_then(Value::as_str).unwrap_or("");
            if author.eq_ignore_ascii_case("user") {
                if let Some(c) = e.get("content").filter(|c| !c.is_null()) {
                    user_content = parse_as(c).map_err(|m| EvalError::schema(format!("{at}[{i}].content"), m))?;
                }
                timestamp = e.get("timestamp").and_then(Value::as_f64).unwrap_or(0.0);
            } else {
                agent_events.push(e.clone());
            }
        }
        let inv = invocation_from_reply(
            &json!({ "events": agent_events }),
            id.clone(),
            user_content,
            timestamp,
            None,
        )
        .map_err(|m| EvalError::schema(at, format!("invocation {id:?}: {m}")))?;
        out.push(inv);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::schema::IntermediateData;

    #[test]
    fn turns_follow_invocation_ids() {
        let session = json!({"id": "s", "events": [
            {"invocation_id": "e-1", "author": "user", "timestamp": 10.5, "content": {"role": "user", "parts": [{"text": "roll a 6-sided die"}]}},
            {"invocation_id": "e-1", "author": "agent", "timestamp": 11.0, "content": {"role": "model", "parts": [{"function_call": {"id": "a", "name": "roll_die", "args": {"sides": 6}}}]}},
            {"invocation_id": "e-1", "author": "agent", "content": {"role": "user", "parts": [{"function_response": {"id": "a", "name": "roll_die", "response": {"result": 4}}}]}},
            {"invocation_id": "e-1", "author": "agent", "content": {"role": "model", "parts": [{"text": "I rolled a 4."}]}},
            {"invocationId": "e-2", "author": "user", "timestamp": 20.0, "content": {"role": "user", "parts": [{"text": "hi"}]}},
            {"invocationId": "e-2", "author": "agent", "content": {"role": "model", "parts": [{"text": "Hello."}]}}
        ]});
        let invs = invocations_from_session(&session).unwrap();
        assert_eq!(invs.len(), 2);
        assert_eq!(invs[0].invocation_id, "e-1");
        assert_eq!(invs[0].creation_timestamp, 10.5);
        assert_eq!(
            invs[0].user_content.parts.as_ref().unwrap()[0].text.as_deref(),
            Some("roll a 6-sided die")
        );
        let final_text = invs[0].final_response.as_ref().unwrap().parts.as_ref().unwrap()[0]
            .text
            .clone();
        assert_eq!(final_text.as_deref(), Some("I rolled a 4."));
        match &invs[0].intermediate_data {
            Some(IntermediateData::Events(ev)) => assert_eq!(ev.len(), 3),
            other => panic!("expected invocation events, found {other:?}"),
        }
        assert_eq!(invs[1].invocation_id, "e-2");
    }

    #[test]
    fn bad_sessions_are_errors_with_paths() {
        assert_eq!(invocations_from_session(&json!(3)).unwrap_err().path, "$");
        assert_eq!(
            invocations_from_session(&json!({"events": {}})).unwrap_err().path,
            "$.events"
        );
        assert_eq!(
            invocations_from_session(&json!({"events": [1]})).unwrap_err().path,
            "$.events[0]"
        );
        let bad = json!({"events": [{"invocation_id": "e", "author": "user", "content": {"parts": [{"nope": 1}]}}]});
        assert_eq!(invocations_from_session(&bad).unwrap_err().path, "$.events[0].content");
        assert!(invocations_from_session(&json!({"id": "s"})).unwrap().is_empty());
    }
}

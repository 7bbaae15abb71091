//! Chat messages as instrumentations record them, to ADK content: the GenAI semantic
//! conventions' `{role, parts: [{type: "text" | "tool_call" | "tool_call_response" | "reasoning"
//! | "blob" | "uri" ...}]}` and the AI SDK's `{role, content: string | [{type: "text" |
//! "tool-call" | "tool-result" | "reasoning" | "file"}]}`.

use super::model::Value;
use serde_json::{json, Map, Value as Json};

/// A structured attribute: a JSON string on spans, a structured value on log records.
pub fn json_of(v: &Value) -> Option<Json> {
    match v {
        Value::Str(s) => serde_json::from_str(s).ok(),
        Value::Raw(_) => v.text().and_then(|t| serde_json::from_str(&t).ok()),
        Value::Empty => None,
        other => Some(other.to_json()),
    }
}

/// JSON that may arrive as its own text (tool arguments are often a JSON string).
pub fn unstring(v: &Json) -> Json {
    match v {
        Json::String(s) => serde_json::from_str(s).unwrap_or_else(|_| v.clone()),
        other => other.clone(),
    }
}

/// ADK's role for a message role: `model` for the assistant, `user` for the user and tool
/// results; None for system messages.
pub fn role(msg: &Json) -> Option<&'static str> {
    match msg.get("role").and_then(Json::as_str) {
        Some("assistant" | "model") => Some("model"),
        Some("user" | "tool") => Some("user"),
        _ => None,
    }
}

fn text_of(p: &Json) -> Option<&Json> {
    p.get("content").or_else(|| p.get("text")).filter(|t| t.is_string())
}

/// One part as ADK's part; None for parts ADK has no field for.
pub fn part(p: &Json) -> Option<Json> {
    if let Json::String(s) = p {
        return Some(json!({ "text": s }));
    }
    let kind = p.get("type").and_then(Json::as_str).unwrap_or("text");
    let id = p.get("id").or_else(|| p.get("toolCallId")).filter(|v| v.is_string());
    let name = p.get("name").or_else(|| p.get("toolName")).filter(|v| v.is_string());
    let mut out = Map::new();
    match kind {
        "text" => {
            out.insert("text".into(), text_of(p)?.clone());
        }
        "reasoning" | "thinking" => {
            out.insert("text".into(), text_of(p)?.clone());
            out.insert("thought".into(), json!(true));
        }
        "tool_call" | "tool-call" | "function_call" => {
            let mut fc = Map::new();
            if let Some(i) = id {
                fc.insert("id".into(), i.clone());
            }
            fc.insert("name".into(), name.cloned().unwrap_or(Json::Null));
            if let Some(a) = p.get("arguments").or_else(|| p.get("input")).or_else(|| p.get("args")) {
                let a = unstring(a);
                fc.insert("args".into(), if a.is_object() { a } else { json!({ "value": a }) });
            }
            out.insert("function_call".into(), Json::Object(fc));
        }
        "tool_call_response" | "tool-result" | "function_response" => {
            let mut fr = Map::new();
            if let Some(i) = id {
                fr.insert("id".into(), i.clone());
            }
            if let Some(n) = name {
                fr.insert("name".into(), n.clone());
            }
            let r = p
                .get("response")
                .or_else(|| p.get("result"))
                .or_else(|| p.get("output"));
            let r = r.map(ai_sdk_output).unwrap_or(Json::Null);
            fr.insert(
                "response".into(),
                if r.is_object() { r } else { json!({ "result": r }) },
            );
            out.insert("function_response".into(), Json::Object(fr));
        }
        "blob" | "file" | "image" => {
            let data = p.get("content").or_else(|| p.get("data")).filter(|d| d.is_string())?;
            let mime = p
                .get("mime_type")
                .or_else(|| p.get("mediaType"))
                .or_else(|| p.get("mimeType"));
            out.insert("inline_data".into(), json!({ "mime_type": mime, "data": data }));
        }
        "uri" | "file_data" => {
            let uri = p.get("uri").filter(|u| u.is_string())?;
            out.insert(
                "file_data".into(),
                json!({ "mime_type": p.get("mime_type"), "file_uri": uri }),
            );
        }
        _ => return None,
    }
    Some(Json::Object(out))
}

/// The AI SDK's tool output `{type: "json" | "text", value}` as its value.
fn ai_sdk_output(v: &Json) -> Json {
    match (v.get("type").and_then(Json::as_str), v.get("value")) {
        (Some("json" | "text" | "error-text" | "error-json"), Some(x)) => unstring(x),
        _ => unstring(v),
    }
}

/// A message's parts as ADK parts.
pub fn parts(msg: &Json) -> Vec<Json> {
    match msg.get("parts").or_else(|| msg.get("content")) {
        Some(Json::Array(ps)) => ps.iter().filter_map(part).collect(),
        Some(Json::String(s)) => vec![json!({ "text": s })],
        _ => Vec::new(),
    }
}

/// The messages of a message-list value (`[...]`, or `{messages: [...]}` as the AI SDK's
/// `ai.prompt` holds them).
pub fn list(v: &Json) -> &[Json] {
    match v {
        Json::Array(a) => a,
        Json::Object(o) => o.get("messages").and_then(Json::as_array).map_or(&[], Vec::as_slice),
        _ => &[],
    }
}

/// The user's turn among `messages`: the last user message that is not only tool results, as
/// ADK content.
pub fn last_user(messages: &[Json]) -> Option<Json> {
    messages.iter().rev().find_map(|m| {
        if role(m) != Some("user") || m.get("role").and_then(Json::as_str) == Some("tool") {
            return None;
        }
        let ps = parts(m);
        let only_results = !ps.is_empty() && ps.iter().all(|p| p.get("function_response").is_some());
        (!ps.is_empty() && !only_results).then(|| json!({ "role": "user", "parts": ps }))
    })
}

/// The function responses of the tool messages after the last assistant message.
pub fn trailing_results(messages: &[Json]) -> Vec<Json> {
    let from = messages
        .iter()
        .rposition(|m| role(m) == Some("model"))
        .map_or(0, |i| i + 1);
    messages
        .iter()
        .skip(from)
        .flat_map(parts)
        .filter_map(|p| p.get("function_response").cloned())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn genai_and_ai_sdk_parts() {
        let m = json!({"role": "assistant", "parts": [
            {"type": "reasoning", "content": "hmm"}, {"type": "text", "content": "hi"},
            {"type": "tool_call", "id": "c1", "name": "roll", "arguments": {"sides": 6}}]});
        assert_eq!(
            json!(parts(&m)),
            json!([{"text": "hmm", "thought": true}, {"text": "hi"},
                   {"function_call": {"id": "c1", "name": "roll", "args": {"sides": 6}}}])
        );
        let t = json!({"role": "tool", "content": [{"type": "tool-result", "toolCallId": "c1", "toolName": "roll",
            "output": {"type": "json", "value": {"n": 4}}}]});
        assert_eq!(
            trailing_results(&[m.clone(), t]),
            vec![json!({"id": "c1", "name": "roll", "response": {"n": 4}})]
        );
        let u = json!({"role": "user", "content": "roll a die"});
        assert_eq!(
            last_user(&[u, m]).unwrap(),
            json!({"role": "user", "parts": [{"text": "roll a die"}]})
        );
    }
}

//! ADK's legacy spans (google-adk schema 1, `@google/adk` for JS): `call_llm` carries the
//! request and the whole LlmResponse as JSON (`gcp.vertex.agent.llm_request` /
//! `llm_response`), `execute_tool` the call's args and the tool's response. With content
//! capture off (ADK_CAPTURE_MESSAGE_CONTENT_IN_SPANS=false) all of them read `{}`.

use super::messages::unstring;
use super::model::{attr, attr_str};
use super::tree::{op, Op};
use super::turn::{Ctx, ModelStep, Step, ToolStep, Turn};
use crate::schema::invocation::UsageMetadata;
use crate::schema::Content;
use serde_json::{json, Map, Value as Json};

pub const NO_CONTENT: &str = "ADK recorded no content in this trace: spans carry `{}` when \
    ADK_CAPTURE_MESSAGE_CONTENT_IN_SPANS is false (it defaults to true)";

/// The JSON of a string attribute, None when absent or ADK's `{}` placeholder for no content.
fn content_attr(s: &super::model::Span, key: &str) -> Option<Json> {
    let text = attr(&s.attrs, key)?.text()?;
    if text == "{}" || text == "N/A" {
        return None;
    }
    serde_json::from_str(&text).ok()
}

/// ADK JSON in the canonical snake_case shape (ADK JS writes camelCase): read as the core's type
/// and written back; None when it is not that shape.
fn canonical<T: serde::de::DeserializeOwned + serde::Serialize>(v: &Json) -> Option<Json> {
    crate::schema::load::parse_as::<T>(v)
        .ok()
        .and_then(|t| serde_json::to_value(t).ok())
}

fn get<'v>(o: &'v Json, snake: &str, camel: &str) -> Option<&'v Json> {
    o.get(snake).or_else(|| o.get(camel)).filter(|v| !v.is_null())
}

/// Usage from the GenAI attributes (ADK also sets them, for when the response itself was not captured).
pub fn usage_from_attrs(attrs: &[(std::borrow::Cow<str>, super::model::Value)]) -> Option<Json> {
    let n = |k: &str| attr(attrs, k).and_then(|v| v.as_i64());
    let (input, output) = (n("gen_ai.usage.input_tokens"), n("gen_ai.usage.output_tokens"));
    if input.is_none() && output.is_none() {
        return None;
    }
    // The GenAI conventions' name, else the AI SDK's own detail (`@ai-sdk/otel`'s `usage: true`).
    let reasoning =
        n("gen_ai.usage.reasoning.output_tokens").or_else(|| n("ai.usage.outputTokenDetails.reasoningTokens"));
    let mut u = Map::new();
    let mut put = |k: &str, v: Option<i64>| {
        if let Some(v) = v {
            u.insert(k.into(), json!(v));
        }
    };
    put("prompt_token_count", input);
    put("candidates_token_count", output.map(|o| o - reasoning.unwrap_or(0)));
    put("thoughts_token_count", reasoning);
    put("cached_content_token_count", n("gen_ai.usage.cache_read.input_tokens"));
    Some(Json::Object(u))
}

pub fn turn(ctx: &Ctx) -> Turn {
    let mut t = Turn {
        session_id: ctx.around_str(&["gcp.vertex.agent.session_id", "gen_ai.conversation.id"]),
        invocation_id: ctx.first_str(&["gcp.vertex.agent.invocation_id"]),
        ..Turn::default()
    };
    let captured = ctx
        .spans
        .iter()
        .filter_map(|&i| ctx.span(i))
        // With capture off ADK writes `{}` for every request; one that is not means content.
        .any(|s| {
            let request = attr(&s.attrs, "gcp.vertex.agent.llm_request");
            op(s) == Op::CallLlm && request.is_some_and(|r| r.is_text() && r.as_str() != Some("{}"))
        });
    let mut first = true;
    for &i in &ctx.spans {
        let Some(s) = ctx.span(i) else { continue };
        match op(s) {
            Op::CallLlm => {
                if first {
                    first = false;
                    // Only the first request is read: each holds the whole history so far.
                    let request = content_attr(s, "gcp.vertex.agent.llm_request");
                    let contents = request
                        .as_ref()
                        .and_then(|r| r.get("contents"))
                        .and_then(Json::as_array);
                    let user = contents.and_then(|c| {
                        c.iter()
                            .rev()
                            .find(|m| m.get("role").and_then(Json::as_str) == Some("user"))
                    });
                    t.user = user.and_then(canonical::<Content>);
                }
                let response = content_attr(s, "gcp.vertex.agent.llm_response");
                let mut m = ModelStep {
                    start: s.start,
                    author: ctx.agent_of(i).unwrap_or_else(|| "agent".into()),
                    ..ModelStep::default()
                };
                match &response {
                    Some(r) => {
                        m.parts = get(r, "content", "content")
                            .and_then(canonical::<Content>)
                            .and_then(|c| c.get("parts").and_then(Json::as_array).cloned());
                        if m.parts.is_none() && !captured {
                            t.lacks("final_response", NO_CONTENT);
                        }
                        m.usage = get(r, "usage_metadata", "usageMetadata").and_then(canonical::<UsageMetadata>);
                        m.version = get(r, "model_version", "modelVersion")
                            .and_then(Json::as_str)
                            .map(str::to_string);
                        for (snake, camel) in [
                            ("grounding_metadata", "groundingMetadata"),
                            ("error_code", "errorCode"),
                            ("partial", "partial"),
                        ] {
                            if let Some(v) = get(r, snake, camel) {
                                m.extra.insert(snake.into(), v.clone());
                            }
                        }
                    }
                    None => {
                        t.lacks("final_response", NO_CONTENT);
                        m.usage = usage_from_attrs(&s.attrs);
                    }
                }
                t.steps.push(Step::Model(m));
            }
            Op::Tool
                if !s.name.ends_with("(merged)")
                    && attr_str(&s.attrs, "gen_ai.tool.name") != Some("(merged tools)") =>
            {
                let args = content_attr(s, "gcp.vertex.agent.tool_call_args").map(|a| unstring(&a));
                let response = content_attr(s, "gcp.vertex.agent.tool_response");
                if !captured && args.is_none() {
                    t.lacks("tool_args", NO_CONTENT);
                }
                if !captured && response.is_none() {
                    t.lacks("tool_responses", NO_CONTENT);
                }
                let id = attr_str(&s.attrs, "gen_ai.tool.call.id").filter(|i| *i != "<not specified>");
                t.steps.push(Step::Tool(ToolStep {
                    start: s.start,
                    author: attr_str(&s.attrs, "gen_ai.agent.name").map(str::to_string),
                    name: attr_str(&s.attrs, "gen_ai.tool.name").unwrap_or("").to_string(),
                    id: id.map(str::to_string),
                    args: if captured {
                        args.or_else(|| Some(json!({})))
                    } else {
                        args
                    },
                    response: if captured {
                        response.or_else(|| Some(json!({})))
                    } else {
                        response
                    },
                }));
            }
            _ => {}
        }
    }
    if t.user.is_none() {
        t.lacks("user_content", NO_CONTENT);
    }
    t
}

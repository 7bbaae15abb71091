//! ADK's legacy spans (google-adk schema 1, `@google/adk` for JS): `call_llm` carries the
//! request and the whole LlmResponse as JSON (`gcp.vertex.agent.llm_request` /
//! `llm_response`), `execute_tool` the call's args and the tool's response. With content
//! capture off (ADK_CAPTURE_MESSAGE_CONTENT_IN_SPANS=false) all of them read `{}`.

use super::messages::unstring;
use super::model::{attr, attr_str};
use super::tree::{op, Op};
use super::turn::{recorded_exception, Ctx, ModelStep, Step, ToolStep, Turn};
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
    let mut thrown: Vec<(usize, usize)> = Vec::new();
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
                // google-adk writes `{"result": "<not specified>"}` when it had no response event
                // (the tool raised and nothing handled it, or it answers later); with content
                // off, the raise is still the span's exception.
                let recorded = attr(&s.attrs, "gcp.vertex.agent.tool_response").is_some();
                let response = content_attr(s, "gcp.vertex.agent.tool_response");
                let placeholder = response.as_ref() == Some(&not_specified());
                let response = response.filter(|_| !placeholder);
                let unanswered = placeholder || (response.is_none() && recorded && recorded_exception(s));
                // @google/adk writes nothing on the span of a tool that threw; the response it
                // gave the call (a plugin's, or `{error: "Error in tool ..."}`) is in the next
                // model request.
                let threw = !recorded;
                if !captured && args.is_none() {
                    t.lacks("tool_args", NO_CONTENT);
                }
                if !captured && response.is_none() && !unanswered {
                    t.lacks("tool_responses", NO_CONTENT);
                }
                let id = attr_str(&s.attrs, "gen_ai.tool.call.id").filter(|i| *i != "<not specified>");
                if threw {
                    thrown.push((t.steps.len(), i));
                }
                t.steps.push(Step::Tool(ToolStep {
                    start: s.start,
                    author: attr_str(&s.attrs, "gen_ai.agent.name").map(str::to_string),
                    name: attr_str(&s.attrs, "gen_ai.tool.name")
                        .map_or_else(|| ToolStep::name_of_span(s), str::to_string),
                    id: id.map(str::to_string),
                    args: if captured {
                        args.or_else(|| Some(json!({})))
                    } else {
                        args
                    },
                    response: if captured && !unanswered && !threw {
                        response.or_else(|| Some(json!({})))
                    } else {
                        response
                    },
                    unanswered,
                }));
            }
            _ => {}
        }
    }
    answer_thrown(ctx, &mut t, &thrown);
    if t.user.is_none() {
        t.lacks("user_content", NO_CONTENT);
    }
    t
}

fn not_specified() -> Json {
    json!({ "result": "<not specified>" })
}

/// The function responses of the contents (ADK JSON, either case): the tool's user data as it is.
fn responses_in<'v>(contents: &'v [Json], out: &mut Vec<&'v Json>) {
    for c in contents {
        for p in c.get("parts").and_then(Json::as_array).into_iter().flatten() {
            out.extend(get(p, "function_response", "functionResponse"));
        }
    }
}

/// The responses of the tools that threw (`thrown`: their steps and spans, @google/adk): the
/// merged event of parallel calls (the `(merged)` span beside the tool's holds it, ids and
/// all), else the first model request after the tool (not the call that asked for it, which
/// may start in the same millisecond). Each tool takes the response of its name, in order, whose
/// id no other step has.
fn answer_thrown(ctx: &Ctx, t: &mut Turn, thrown: &[(usize, usize)]) {
    let mut taken: Vec<String> = Vec::new();
    for s in &t.steps {
        if let Step::Tool(ToolStep { id: Some(id), .. }) = s {
            taken.push(id.clone());
        }
    }
    for &(k, span) in thrown {
        let Some(Step::Tool(tool)) = t.steps.get_mut(k) else {
            continue;
        };
        let parent = ctx.tree.ancestors(span).next();
        let (mut merged, mut request) = (None, None);
        for &j in &ctx.spans {
            let Some(s) = ctx.span(j) else { continue };
            let o = op(s);
            if merged.is_none()
                && o == Op::Tool
                && s.name.ends_with("(merged)")
                && ctx.tree.ancestors(j).next() == parent
            {
                merged = content_attr(s, "gcp.vertex.agent.tool_response");
            }
            if request.is_none() && o == Op::CallLlm && s.start >= tool.start && Some(j) != parent {
                request = content_attr(s, "gcp.vertex.agent.llm_request");
            }
        }
        let mut answers: Vec<&Json> = Vec::new();
        if let Some(c) = merged.as_ref().and_then(|m| m.get("content")) {
            responses_in(std::slice::from_ref(c), &mut answers);
        }
        let contents = request
            .as_ref()
            .and_then(|r| r.get("contents"))
            .and_then(Json::as_array);
        let contents = contents.map_or(&[][..], Vec::as_slice);
        let from = contents
            .iter()
            .rposition(|c| c.get("role").and_then(Json::as_str) == Some("model"));
        responses_in(contents.get(from.map_or(0, |i| i + 1)..).unwrap_or(&[]), &mut answers);
        let found = answers.into_iter().find(|r| {
            let id = r.get("id").and_then(Json::as_str);
            r.get("name").and_then(Json::as_str) == Some(tool.name.as_str())
                && !id.is_some_and(|i| taken.iter().any(|x| x == i))
        });
        if let Some(r) = found {
            if let Some(id) = r.get("id").and_then(Json::as_str) {
                taken.push(id.to_string());
                tool.id = Some(id.to_string());
            }
            tool.response = r.get("response").cloned();
        }
    }
}

//! The AI SDK's own spans (`LegacyOpenTelemetry` of `@ai-sdk/otel`, the only form before AI
//! SDK 7): `ai.generateText` around the call, `ai.generateText.doGenerate` per model call with
//! `ai.prompt.messages`, `ai.response.text` / `.toolCalls` / `.reasoning` and `ai.usage.*`, and
//! `ai.toolCall` per tool execution. Sessions come from `telemetry.metadata` (`sessionId`).

use super::messages::{json_of, last_user, list, unstring};
use super::model::{attr, attr_str, Span};
use super::tree::{op, Op};
use super::turn::{thrown_tool_response, Ctx, ModelStep, Step, ToolStep, Turn};
use serde_json::{json, Map, Value as Json};

const NO_CONTENT: &str = "the AI SDK recorded no inputs or outputs here: it does when \
    `telemetry.recordInputs` / `recordOutputs` (experimental_telemetry in AI SDK 5 and 6) are not false";

fn first(s: &Span, keys: &[&str]) -> Option<Json> {
    keys.iter().find_map(|k| attr(&s.attrs, k)).and_then(json_of)
}

fn usage(s: &Span) -> Option<Json> {
    let n = |ks: &[&str]| ks.iter().find_map(|k| attr(&s.attrs, k).and_then(|v| v.as_i64()));
    let input = n(&[
        "ai.usage.inputTokens",
        "ai.usage.promptTokens",
        "gen_ai.usage.input_tokens",
    ]);
    let output = n(&[
        "ai.usage.outputTokens",
        "ai.usage.completionTokens",
        "gen_ai.usage.output_tokens",
    ]);
    if input.is_none() && output.is_none() {
        return None;
    }
    let reasoning = n(&[
        "ai.usage.reasoningTokens",
        "ai.usage.outputTokenDetails.reasoningTokens",
    ]);
    let cached = n(&[
        "ai.usage.cachedInputTokens",
        "ai.usage.inputTokenDetails.cacheReadTokens",
    ]);
    let mut u = Map::new();
    for (k, v) in [
        ("prompt_token_count", input),
        ("candidates_token_count", output.map(|o| o - reasoning.unwrap_or(0))),
        ("thoughts_token_count", reasoning),
        ("cached_content_token_count", cached),
        // The AI SDK's own total (fromAiSdk records it too); ADK's is the model's.
        ("total_token_count", n(&["ai.usage.totalTokens"])),
    ] {
        if let Some(v) = v {
            u.insert(k.into(), json!(v));
        }
    }
    Some(Json::Object(u))
}

fn model_parts(s: &Span) -> Option<Vec<Json>> {
    let mut parts = Vec::new();
    let mut any = false;
    if let Some(r) =
        attr_str(&s.attrs, "ai.response.reasoning").or_else(|| attr_str(&s.attrs, "ai.response.reasoningText"))
    {
        any = true;
        parts.push(json!({ "text": r, "thought": true }));
    }
    if let Some(text) = attr(&s.attrs, "ai.response.text").and_then(|v| v.text()) {
        any = true;
        if !text.is_empty() {
            parts.push(json!({ "text": text }));
        }
    }
    if let Some(Json::Array(calls)) = first(s, &["ai.response.toolCalls"]) {
        any = true;
        for c in calls {
            let args = unstring(c.get("input").or_else(|| c.get("args")).unwrap_or(&Json::Null));
            parts.push(json!({ "function_call": {
                "id": c.get("toolCallId"), "name": c.get("toolName"),
                "args": if args.is_object() { args } else { json!({ "value": args }) } } }));
        }
    }
    any.then_some(parts)
}

pub fn turn(ctx: &Ctx) -> Turn {
    let meta = |keys: &[&str]| {
        let full: Vec<String> = keys.iter().map(|k| format!("ai.telemetry.metadata.{k}")).collect();
        ctx.around_str(&full.iter().map(String::as_str).collect::<Vec<_>>())
    };
    let mut t = Turn {
        session_id: meta(&["sessionId", "session_id", "conversationId", "threadId"])
            .or_else(|| ctx.around_str(&["gen_ai.conversation.id", "session.id"])),
        user_id: meta(&["userId", "user_id"]),
        ..Turn::default()
    };
    let author = ctx
        .first_str(&["ai.telemetry.functionId"])
        .unwrap_or_else(|| "agent".into());
    let mut prompts = Vec::new();
    for &i in &ctx.spans {
        let Some(s) = ctx.span(i) else { continue };
        match op(s) {
            Op::Model => {
                prompts.push(first(s, &["ai.prompt.messages"]));
                let parts = model_parts(s);
                if parts.is_none() {
                    t.lacks("final_response", NO_CONTENT);
                }
                t.steps.push(Step::Model(ModelStep {
                    start: s.start,
                    author: author.clone(),
                    parts,
                    usage: usage(s),
                    version: attr_str(&s.attrs, "ai.response.model").map(str::to_string),
                    ..ModelStep::default()
                }));
            }
            Op::Tool => {
                let response =
                    first(s, &["ai.toolCall.result", "ai.toolCall.output"]).or_else(|| thrown_tool_response(s));
                if response.is_none() {
                    t.lacks("tool_responses", NO_CONTENT);
                }
                t.steps.push(Step::Tool(ToolStep {
                    start: s.start,
                    author: None,
                    name: attr_str(&s.attrs, "ai.toolCall.name").unwrap_or("").to_string(),
                    id: attr_str(&s.attrs, "ai.toolCall.id").map(str::to_string),
                    args: first(s, &["ai.toolCall.args", "ai.toolCall.input"]),
                    response,
                    unanswered: false,
                }));
            }
            _ => {}
        }
    }
    t.user = prompts
        .iter()
        .flatten()
        .next()
        .and_then(|p| last_user(list(p)))
        .or_else(|| {
            let root = ctx.span(ctx.root)?;
            let prompt = first(root, &["ai.prompt"])?;
            match prompt.get("prompt") {
                Some(Json::String(p)) => Some(json!({ "role": "user", "parts": [{ "text": p }] })),
                _ => last_user(list(&prompt)),
            }
        });
    if t.user.is_none() {
        t.lacks("user_content", NO_CONTENT);
    }
    t
}

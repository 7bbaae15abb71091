//! The GenAI semantic conventions: google-adk's schema 2 (its default), the AI SDK's
//! `OpenTelemetry` integration and any other instrumentation that follows them. A model call
//! (`chat`, `generate_content`) holds `gen_ai.input.messages` / `gen_ai.output.messages` on the
//! span (a JSON string) or on a log record of the span (structured); a tool span holds
//! `gen_ai.tool.call.arguments` / `.result`, else the next model call's input has the result.

use super::adk::usage_from_attrs;
use super::messages::{json_of, last_user, list, parts, role, trailing_results, unstring};
use super::model::{attr, attr_str, Span};
use super::tree::{op, Op};
use super::turn::{recorded_exception, thrown_tool_response, Ctx, ModelStep, Step, ToolStep, Turn};
use serde_json::Value as Json;

/// google-adk's tracer.
const ADK_SCOPE: &str = "gcp.vertex.agent";

pub const NO_CONTENT: &str = "the trace records no message content: set \
    OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT=SPAN_ONLY (or SPAN_AND_EVENT, or \
    EVENT_ONLY with the log records exported too) for google-adk and OpenTelemetry's GenAI \
    instrumentations; the AI SDK records it unless recordInputs/recordOutputs is false";

const THOUGHTS: &str = "the GenAI conventions' messages do not mark thoughts, so this response's \
    text parts may include the model's thinking, unmarked (it reported reasoning tokens and gave \
    several text parts). ADK's metrics read thought text like any other, so scores are not \
    affected; google-adk keeps the flag under ADK_TELEMETRY_SCHEMA_VERSION_OPT_IN=1";

/// A structured attribute of span `i` or of one of its log records.
fn content(ctx: &Ctx, i: usize, s: &Span, key: &str) -> Option<Json> {
    attr(&s.attrs, key).and_then(json_of).or_else(|| {
        ctx.logs_of(i)
            .iter()
            .find_map(|l| attr(&l.attrs, key).and_then(json_of))
    })
}

fn model_step(ctx: &Ctx, i: usize, s: &Span, t: &mut Turn) -> ModelStep {
    let output = content(ctx, i, s, "gen_ai.output.messages");
    let parts: Option<Vec<Json>> = output.map(|o| {
        list(&o)
            .iter()
            .filter(|m| role(m) != Some("user"))
            .flat_map(parts)
            .collect()
    });
    let reasoning = [
        "gen_ai.usage.reasoning.output_tokens",
        "ai.usage.outputTokenDetails.reasoningTokens",
    ]
    .iter()
    .find_map(|k| attr(&s.attrs, k).and_then(|v| v.as_i64()));
    let texts = parts
        .iter()
        .flatten()
        .filter(|p| p.get("text").is_some() && p.get("thought").is_none())
        .count();
    if reasoning.unwrap_or(0) > 0 && texts > 1 {
        t.notes
            .push(("thoughts_unmarked", "final_response", THOUGHTS.to_string()));
    }
    let mut parts = parts;
    if s.scope == ADK_SCOPE {
        parts.iter_mut().flatten().for_each(drop_fallback_id);
    }
    ModelStep {
        start: s.start,
        author: ctx.agent_of(i).unwrap_or_else(|| "agent".into()),
        parts,
        usage: usage_from_attrs(&s.attrs),
        version: attr_str(&s.attrs, "gen_ai.response.model").map(str::to_string),
        ..ModelStep::default()
    }
}

/// google-adk writes `{name}_{index}` for a call that has no id yet (one it would give an id
/// later): not the call's id, which its tool span has (unless the tool raised).
fn drop_fallback_id(part: &mut Json) {
    let Some(fc) = part.get_mut("function_call").and_then(Json::as_object_mut) else {
        return;
    };
    let name = fc.get("name").and_then(Json::as_str).unwrap_or("");
    let fallback = fc.get("id").and_then(Json::as_str).is_some_and(|id| {
        id.strip_prefix(name)
            .and_then(|rest| rest.strip_prefix('_'))
            .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
    });
    if fallback {
        fc.remove("id");
    }
}

/// The input messages of model span `i` (read only where needed: each holds the history so far).
fn input_of(ctx: &Ctx, i: usize) -> Option<Json> {
    ctx.span(i).and_then(|s| content(ctx, i, s, "gen_ai.input.messages"))
}

fn tool_step(ctx: &Ctx, i: usize, s: &Span) -> ToolStep {
    let name = attr_str(&s.attrs, "gen_ai.tool.name")
        .map(str::to_string)
        .unwrap_or_else(|| ToolStep::name_of_span(s));
    let result = content(ctx, i, s, "gen_ai.tool.call.result").map(|r| unstring(&r));
    // google-adk records the exception of a raise nothing handled, and no result: the session
    // has no response for the call. Other emitters (the AI SDK's) answered the model with the
    // error: the response says so, as their adapters record it.
    let adk = s.scope == ADK_SCOPE;
    let unanswered = result.is_none() && adk && recorded_exception(s);
    let response = result.or_else(|| if adk { None } else { thrown_tool_response(s) });
    ToolStep {
        start: s.start,
        author: attr_str(&s.attrs, "gen_ai.agent.name").map(str::to_string),
        name,
        id: attr_str(&s.attrs, "gen_ai.tool.call.id")
            .filter(|i| *i != "<not specified>")
            .map(str::to_string),
        args: content(ctx, i, s, "gen_ai.tool.call.arguments").map(|a| unstring(&a)),
        response,
        unanswered,
    }
}

pub fn turn(ctx: &Ctx) -> Turn {
    let mut t = Turn {
        session_id: ctx.around_str(&["gen_ai.conversation.id", "session.id"]),
        invocation_id: ctx.first_str(&["gcp.vertex.agent.invocation_id"]),
        user_id: ctx.first_str(&["user.id", "enduser.id"]).or_else(|| {
            let logs = ctx.spans.iter().flat_map(|&i| ctx.logs_of(i).iter());
            logs.into_iter()
                .find_map(|l| attr_str(&l.attrs, "user.id"))
                .map(str::to_string)
        }),
        ..Turn::default()
    };
    // The model spans, in order: their inputs are read only where needed.
    let mut models: Vec<usize> = Vec::new();
    for &i in &ctx.spans {
        let Some(s) = ctx.span(i) else { continue };
        match op(s) {
            Op::Model => {
                let m = model_step(ctx, i, s, &mut t);
                models.push(i);
                t.steps.push(Step::Model(m));
            }
            Op::Tool
                if attr_str(&s.attrs, "gen_ai.tool.name") != Some("(merged tools)")
                    && !s.name.ends_with("(merged)") =>
            {
                t.steps.push(Step::Tool(tool_step(ctx, i, s)));
            }
            _ => {}
        }
    }
    if models.is_empty() {
        // Only an agent span: its own input and output messages are the turn.
        if let Some(root) = ctx.span(ctx.root) {
            let m = model_step(ctx, ctx.root, root, &mut t);
            if m.parts.is_some() || input_of(ctx, ctx.root).is_some() {
                models.push(ctx.root);
                t.steps.push(Step::Model(m));
            }
        }
    }
    t.user = models
        .first()
        .and_then(|&i| input_of(ctx, i))
        .and_then(|i| last_user(list(&i)));
    if t.user.is_none() {
        t.user = input_of(ctx, ctx.root).and_then(|i| last_user(list(&i)));
    }
    fill_from_next_inputs(ctx, &mut t, &models);
    if t.user.is_none() {
        t.lacks("user_content", NO_CONTENT);
    }
    let steps = &t.steps;
    let no_response = steps
        .iter()
        .any(|s| matches!(s, Step::Tool(x) if x.response.is_none() && !x.unanswered));
    let no_output = steps.iter().any(|s| matches!(s, Step::Model(m) if m.parts.is_none()));
    let no_args = steps.iter().any(|s| matches!(s, Step::Tool(x) if x.args.is_none()));
    if no_output {
        t.lacks("final_response", NO_CONTENT);
    }
    if no_args && no_output {
        t.lacks("tool_args", NO_CONTENT);
    }
    if no_response {
        t.lacks("tool_responses", NO_CONTENT);
    }
    t
}

/// Tool results the tool spans lack (content on log records only, or an instrumentation that
/// does not record them) from the next model call's input, in call order.
fn fill_from_next_inputs(ctx: &Ctx, t: &mut Turn, models: &[usize]) {
    let mut model_k = 0usize;
    let mut pending: Vec<&mut ToolStep> = Vec::new();
    let mut steps: Vec<&mut Step> = t.steps.iter_mut().collect();
    steps.sort_by_key(|s| match s {
        Step::Model(m) => m.start,
        Step::Tool(x) => x.start,
    });
    for step in steps {
        match step {
            Step::Model(_) => {
                if !pending.is_empty() {
                    let input = models.get(model_k).and_then(|&i| input_of(ctx, i));
                    let results = input.map(|i| trailing_results(list(&i)));
                    for (tool, r) in pending.drain(..).zip(results.unwrap_or_default()) {
                        tool.response = r.get("response").cloned();
                    }
                }
                model_k += 1;
            }
            Step::Tool(x) if x.response.is_none() && !x.unanswered => pending.push(x),
            Step::Tool(_) => {}
        }
    }
}

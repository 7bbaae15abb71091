//! From spans to sessions: each invocation tree becomes a turn of steps (per source), its steps
//! ADK events ([`super::events`]), the events of a session invocations by ADK's own conversion,
//! and the span timings give each invocation its model, tool and framework time.

use super::model::{attr, attr_str, Batch, LogRecord, Span};
use super::tree::{invocation_roots, op, union_seconds, Op, Tree};
use super::turn::Ctx;
use super::{adk, ai_sdk, events::events, semconv, Loaded, Missing, Options, TraceSession, Warning};
use crate::run::session::invocations_from_session;
use crate::schema::value::round3;
use serde_json::{json, Value as Json};
use std::collections::HashMap;

/// Which instrumentation made an invocation's spans.
fn source_of(ctx: &Ctx, batch: &Batch) -> &'static str {
    let spans = || {
        std::iter::once(ctx.root)
            .chain(ctx.spans.iter().copied())
            .filter_map(|i| ctx.span(i))
    };
    if spans().any(|s| s.name.starts_with("ai."))
        && !spans().any(|s| op(s) == Op::Model && attr(&s.attrs, "gen_ai.operation.name").is_some())
    {
        return "ai-sdk";
    }
    if !spans().any(|s| s.scope == "gcp.vertex.agent") {
        return "genai";
    }
    if !spans().any(|s| op(s) == Op::CallLlm) {
        return "adk-python-v2";
    }
    // ADK JS names the agent on `call_llm` and writes its JSON in camelCase; Python does neither.
    let lang = spans()
        .next()
        .and_then(|s| batch.resources.get(s.resource))
        .and_then(|r| attr_str(r, "telemetry.sdk.language"));
    let js = spans().any(|s| {
        op(s) == Op::CallLlm
            && (attr(&s.attrs, "gen_ai.agent.name").is_some()
                || attr(&s.attrs, "gcp.vertex.agent.llm_response")
                    .and_then(|r| r.as_raw_str())
                    .is_some_and(|r| r.contains("usageMetadata")))
    });
    match lang {
        Some("nodejs" | "webjs") => "adk-js",
        Some("python") => "adk-python-v1",
        _ if js => "adk-js",
        _ => "adk-python-v1",
    }
}

/// Seconds of the invocation, of model calls, and of tools not awaiting a model (ADK's split).
fn durations(ctx: &Ctx) -> [f64; 3] {
    let all = ctx.tree.subtree(ctx.root);
    let spans: Vec<&Span> = all.iter().filter_map(|&i| ctx.span(i)).collect();
    let model_op = if spans.iter().any(|s| op(s) == Op::Model) {
        Op::Model
    } else {
        Op::CallLlm
    };
    // A span that states its own work's duration counts that, ending with the span: a model
    // call's provider call (the GenAI conventions' `gen_ai.client.operation.duration`), a tool's
    // run (`gen_ai.execute_tool.duration`, which the AI SDK's integration records before it
    // writes the result or error on the span). The emitter measured the work itself, from before
    // it started the span (the AI SDK starts it from a hook, late on a busy machine): the stated
    // figure is taken as it is, as fromAiSdk takes it.
    let own = |s: &Span| {
        let stated = ["gen_ai.client.operation.duration", "gen_ai.execute_tool.duration"]
            .iter()
            .find_map(|k| attr(&s.attrs, k));
        match stated {
            Some(super::model::Value::Double(d)) if *d >= 0.0 => s.end.saturating_sub((d * 1e9) as u64),
            _ => s.start,
        }
    };
    let iv = |o: Op| -> Vec<(u64, u64)> {
        spans
            .iter()
            .filter(|s| op(s) == o && !s.name.ends_with("(merged)"))
            .map(|s| (own(s), s.end))
            .collect()
    };
    let mut model = iv(model_op);
    let mut both = [model.clone(), iv(Op::Tool)].concat();
    let root = ctx.span(ctx.root).map_or(0.0, |s| (s.end - s.start) as f64 / 1e9);
    let model_s = union_seconds(&mut model);
    [
        round3(root),
        round3(model_s),
        round3(union_seconds(&mut both) - model_s),
    ]
}

struct Built {
    source: &'static str,
    session: String,
    user_id: Option<String>,
    app_name: Option<String>,
    start: u64,
    id: String,
    user: Option<Json>,
    events: Vec<Json>,
    durations: [f64; 3],
    missing: Vec<(&'static str, String)>,
    notes: Vec<(&'static str, &'static str, String)>,
    timeline: Vec<super::timeline::TimelineSpan>,
}

fn build_one(ctx: &Ctx, batch: &Batch, timeline: bool) -> Built {
    let source = source_of(ctx, batch);
    let mut turn = match source {
        "adk-python-v1" | "adk-js" => adk::turn(ctx),
        "ai-sdk" => ai_sdk::turn(ctx),
        _ => semconv::turn(ctx),
    };
    let root = ctx.span(ctx.root);
    let trace = root.map_or(0, |s| s.trace_id);
    let id = turn
        .invocation_id
        .clone()
        .unwrap_or_else(|| format!("{:032x}-{:016x}", trace, root.map_or(0, |s| s.span_id)));
    let events = events(&mut turn, &id);
    let app_name = root
        .and_then(|s| batch.resources.get(s.resource))
        .and_then(|r| attr_str(r, "service.name"))
        .filter(|n| !n.starts_with("unknown_service"))
        .map(str::to_string);
    Built {
        source,
        session: turn.session_id.clone().unwrap_or_else(|| format!("{trace:032x}")),
        user_id: turn.user_id.clone(),
        app_name,
        start: root.map_or(0, |s| s.start),
        id,
        user: turn.user.take(),
        events,
        durations: durations(ctx),
        missing: turn.missing,
        notes: turn.notes,
        timeline: if timeline {
            super::timeline::of(ctx.tree, ctx.root)
        } else {
            Vec::new()
        },
    }
}

/// Groups a batch's invocations into sessions (first-seen order by start time).
pub fn sessions(batch: &Batch, opts: &Options) -> Loaded {
    let tree = Tree::new(&batch.spans);
    let mut logs: HashMap<(u128, u64), Vec<&LogRecord>> = HashMap::new();
    for l in &batch.logs {
        logs.entry((l.trace_id, l.span_id)).or_default().push(l);
    }
    let mut warnings = Vec::new();
    let (roots, orphans) = invocation_roots(&tree);
    for &o in &orphans {
        if let Some(s) = tree.span(o) {
            warnings.push(Warning {
                code: "no_invocation_span",
                path: span_path(s),
                message: format!(
                    "trace {:032x} has model calls but no invocation or agent span: its top span {:?} is taken as one invocation",
                    s.trace_id, s.name
                ),
            });
        }
    }
    // Tool spans above each span: those strictly between a span and its invocation's root are
    // the tool's own work (an agent used as a tool runs its own session), counted once.
    let tools_above = tree.down(|_, p| {
        p.map_or(0, |(p, n)| {
            n + usize::from(tree.span(p).is_some_and(|s| op(s) == Op::Tool))
        })
    });
    let tools = |i: usize| tools_above.get(i).copied().unwrap_or(0);
    let mut built: Vec<Built> = roots
        .iter()
        .chain(orphans.iter())
        .map(|&root| {
            let own = tools(root) + usize::from(tree.span(root).is_some_and(|s| op(s) == Op::Tool));
            let spans = tree
                .subtree(root)
                .into_iter()
                .filter(|&i| i != root && tools(i) == own)
                .collect();
            build_one(
                &Ctx {
                    tree: &tree,
                    root,
                    spans,
                    logs: &logs,
                },
                batch,
                opts.timeline,
            )
        })
        .collect();
    built.sort_by_key(|b| b.start);
    let mut order: Vec<String> = Vec::new();
    let mut by_session: HashMap<String, Vec<Built>> = HashMap::new();
    for b in built {
        if !order.contains(&b.session) {
            order.push(b.session.clone());
        }
        by_session.entry(b.session.clone()).or_default().push(b);
    }
    if let Some(keep) = &opts.session_ids {
        order.retain(|s| keep.contains(s));
    }
    let mut out = Loaded::default();
    for sid in order {
        let Some(turns) = by_session.remove(&sid) else { continue };
        let at = out.sessions.len();
        out.sessions.push(assemble(sid, turns, at, &mut warnings));
    }
    out.warnings = warnings;
    out
}

fn assemble(session_id: String, mut turns: Vec<Built>, at: usize, warnings: &mut Vec<Warning>) -> TraceSession {
    let mut events = Vec::new();
    let first = turns.first();
    let (source, app_name) = (
        first.map_or("genai", |t| t.source),
        first.and_then(|t| t.app_name.clone()),
    );
    let user_id = turns.iter().find_map(|t| t.user_id.clone());
    for t in &mut turns {
        let mut user = json!({ "invocation_id": t.id, "author": "user", "timestamp": t.start as f64 / 1e9 });
        if let (Some(c), Some(m)) = (t.user.take(), user.as_object_mut()) {
            m.insert("content".into(), c);
        }
        events.push(user);
        events.append(&mut t.events);
    }
    let mut invocations = invocations_from_session(&json!({ "events": events })).unwrap_or_else(|e| {
        warnings.push(Warning {
            code: "unreadable_content",
            path: format!("$.sessions[{at}]"),
            message: format!(
                "the recorded content is not ADK's shape, so no invocation could be made: {}",
                e.message
            ),
        });
        Vec::new()
    });
    let mut missing = Vec::new();
    let timelines = if turns.iter().any(|t| !t.timeline.is_empty()) {
        turns.iter_mut().map(|t| std::mem::take(&mut t.timeline)).collect()
    } else {
        Vec::new()
    };
    for (k, (inv, t)) in invocations.iter_mut().zip(&turns).enumerate() {
        inv.duration = Some(t.durations[0]);
        inv.model_duration = Some(t.durations[1]);
        inv.tool_duration = Some(t.durations[2]);
        for (field, reason) in &t.missing {
            warnings.push(Warning {
                code: "not_recorded",
                path: format!("$.sessions[{at}].invocations[{k}].{field}"),
                message: reason.clone(),
            });
            missing.push(Missing {
                invocation: k,
                field,
                reason: reason.clone(),
            });
        }
        for (code, field, why) in &t.notes {
            warnings.push(Warning {
                code,
                path: format!("$.sessions[{at}].invocations[{k}].{field}"),
                message: why.clone(),
            });
        }
    }
    TraceSession {
        session_id,
        app_name,
        user_id,
        source,
        invocations,
        missing,
        timelines,
    }
}

/// Where a span sat in the input.
pub fn span_path(s: &Span) -> String {
    let (n, r, sc, k) = s.at;
    let head = if n == 0 { "$".to_string() } else { format!("$[{n}]") };
    format!("{head}.resourceSpans[{r}].scopeSpans[{sc}].spans[{k}]")
}

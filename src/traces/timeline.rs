//! An invocation's spans as a timeline: each span's name, the kind of work it times (the kinds
//! the invocation's model / tool / framework split counts), its times from the invocation's start
//! and its parent, compact enough for a viewer to draw.

use super::model::{attr_str, Span};
use super::tree::{op, Op, Tree};
use serde::Serialize;

/// One span of an invocation.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(rename = "TraceSpan"))]
pub struct TimelineSpan {
    pub name: String,
    /// `invocation`, `agent`, `model` (counted as model time), `tool` (tool time, unless a
    /// model runs inside it), `other` (framework work: a request, ADK's `call_llm` wrapper).
    #[cfg_attr(
        feature = "ts",
        ts(type = "\"invocation\" | \"agent\" | \"model\" | \"tool\" | \"other\"")
    )]
    pub kind: &'static str,
    /// Milliseconds from the invocation's start (microsecond precision).
    pub start_ms: f64,
    pub end_ms: f64,
    /// Index of the parent span in the same list; absent for the invocation's own span.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub parent: Option<usize>,
    /// The agent the span ran in (`gen_ai.agent.name` on it or its nearest agent span).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub agent: Option<String>,
    /// The tool's name, or the model's.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub detail: Option<String>,
    /// The span's status is ERROR.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    #[cfg_attr(feature = "ts", ts(as = "Option<bool>", optional))]
    pub error: bool,
}

const DETAIL_KEYS: [&str; 5] = [
    "gen_ai.tool.name",
    "gen_ai.response.model",
    "gen_ai.request.model",
    "ai.response.model",
    "ai.model.id",
];

fn ms(t: u64, from: u64) -> f64 {
    // Whole microseconds: nanoseconds past them are noise in a drawing and bloat the JSON.
    (t.saturating_sub(from) / 1_000) as f64 / 1_000.0
}

/// The spans under `root` (it included, every span below it, tools' insides too) in start order,
/// a parent before its children (`Tree::subtree`).
pub fn of(tree: &Tree, root: usize) -> Vec<TimelineSpan> {
    let all = tree.subtree(root);
    let spans: Vec<&Span> = all.iter().filter_map(|&i| tree.span(i)).collect();
    // The kind the duration split counts as model time (ADK's `call_llm` only when nothing finer).
    let model_op = if spans.iter().any(|s| op(s) == Op::Model) {
        Op::Model
    } else {
        Op::CallLlm
    };
    let from = tree.span(root).map_or(0, |s| s.start);
    let at: std::collections::HashMap<usize, usize> = all.iter().enumerate().map(|(k, &i)| (i, k)).collect();
    all.iter()
        .filter_map(|&i| {
            let s = tree.span(i)?;
            let o = op(s);
            let kind = match o {
                _ if o == model_op => "model",
                Op::Invocation => "invocation",
                Op::Agent => "agent",
                Op::Tool => "tool",
                _ => "other",
            };
            let agent = tree.agent_of(i).map(str::to_string);
            Some(TimelineSpan {
                name: s.name.to_string(),
                kind,
                start_ms: ms(s.start, from),
                end_ms: ms(s.end.max(s.start), from),
                parent: if i == root {
                    None
                } else {
                    tree.parent(i).and_then(|p| at.get(&p).copied())
                },
                agent,
                detail: DETAIL_KEYS
                    .iter()
                    .find_map(|k| attr_str(&s.attrs, k))
                    .map(str::to_string),
                error: s.error,
            })
        })
        .collect()
}

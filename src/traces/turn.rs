//! What a source recovers of one invocation: its steps (model calls and tool executions) and
//! what it lacks ([`Turn`]), read from the invocation's spans ([`Ctx`]). Sources fill a turn;
//! [`super::events`] writes its steps as ADK events; [`super::build`] puts turns into sessions.

use super::model::{attr_str, LogRecord, Span};
use super::tree::Tree;
use serde_json::{Map, Value as Json};
use std::collections::HashMap;

/// A model call: the event it made.
#[derive(Default)]
pub struct ModelStep {
    pub start: u64,
    pub author: String,
    /// The response's parts; None when the trace did not capture content.
    pub parts: Option<Vec<Json>>,
    pub usage: Option<Json>,
    pub version: Option<String>,
    /// Other event fields the source recorded (`grounding_metadata`, `error_code`, ...).
    pub extra: Map<String, Json>,
}

/// A tool execution.
#[derive(Default)]
pub struct ToolStep {
    pub start: u64,
    pub author: Option<String>,
    pub name: String,
    pub id: Option<String>,
    pub args: Option<Json>,
    pub response: Option<Json>,
    /// ADK wrote no response for the call: its tool raised and nothing handled the error
    /// (google-adk's run stops there), or a long-running tool answers later.
    pub unanswered: bool,
}

pub enum Step {
    Model(ModelStep),
    Tool(ToolStep),
}

impl ToolStep {
    /// The tool's name from a span that does not say it (`execute_tool NAME`).
    pub fn name_of_span(s: &Span) -> String {
        s.name.trim_start_matches("execute_tool").trim().to_string()
    }
}

/// Whether span `s` recorded an exception (OpenTelemetry's `exception` event).
pub fn recorded_exception(s: &Span) -> bool {
    s.events.iter().any(|e| e.name == "exception")
}

/// The response of a tool span that threw (status ERROR) and recorded no result, as the AI SDK's
/// spans (its own and `@ai-sdk/otel`'s GenAI ones) write it: `{"error": message}`, what
/// `fromAiSdk` records from the step's `tool-error` part, with the `exception` event's message.
pub fn thrown_tool_response(s: &Span) -> Option<Json> {
    if !s.error {
        return None;
    }
    let message = s
        .events
        .iter()
        .filter(|e| e.name == "exception")
        .find_map(|e| attr_str(&e.attrs, "exception.message"))
        .unwrap_or("the tool failed");
    Some(serde_json::json!({ "error": message }))
}

impl Step {
    pub fn start(&self) -> u64 {
        match self {
            Step::Model(m) => m.start,
            Step::Tool(t) => t.start,
        }
    }
}

/// What a source recovered of one invocation.
#[derive(Default)]
pub struct Turn {
    pub invocation_id: Option<String>,
    pub session_id: Option<String>,
    pub user_id: Option<String>,
    pub user: Option<Json>,
    pub steps: Vec<Step>,
    /// Fields not recovered, and why (naming the switch that records them).
    pub missing: Vec<(&'static str, String)>,
    /// What was recovered with less fidelity than the agent had it: (warning code, field, why).
    pub notes: Vec<(&'static str, &'static str, String)>,
}

impl Turn {
    pub fn lacks(&mut self, field: &'static str, why: &str) {
        if !self.missing.iter().any(|(f, _)| *f == field) {
            self.missing.push((field, why.to_string()));
        }
    }
}

/// The spans and log records of one invocation, and where they came from.
pub struct Ctx<'t, 'b, 'a> {
    pub tree: &'t Tree<'b, 'a>,
    pub root: usize,
    /// The invocation's spans by start time, without those run inside a tool (an agent used as a
    /// tool runs its own session: its calls are not this invocation's events).
    pub spans: Vec<usize>,
    pub logs: &'t HashMap<(u128, u64), Vec<&'b LogRecord<'a>>>,
}

impl<'t, 'b, 'a> Ctx<'t, 'b, 'a> {
    pub fn span(&self, i: usize) -> Option<&'b Span<'a>> {
        self.tree.span(i)
    }

    /// The log records emitted in span `i`.
    pub fn logs_of(&self, i: usize) -> &[&'b LogRecord<'a>] {
        self.span(i)
            .and_then(|s| self.logs.get(&(s.trace_id, s.span_id)))
            .map_or(&[], Vec::as_slice)
    }

    /// The first value of `key` on the spans of this invocation.
    pub fn first_str(&self, keys: &[&str]) -> Option<String> {
        std::iter::once(self.root)
            .chain(self.spans.iter().copied())
            .find_map(|i| {
                let s = self.span(i)?;
                keys.iter().find_map(|k| attr_str(&s.attrs, k)).map(str::to_string)
            })
    }

    /// The first value of `key` on the invocation's spans or the spans around it (a session id
    /// set on an enclosing request span applies to the invocations inside).
    pub fn around_str(&self, keys: &[&str]) -> Option<String> {
        self.first_str(keys).or_else(|| {
            self.tree
                .ancestors(self.root)
                .find_map(|a| keys.iter().find_map(|k| attr_str(&self.span(a)?.attrs, k)))
                .map(str::to_string)
        })
    }

    /// The agent that made span `i`: its own `gen_ai.agent.name`, else its nearest agent span's.
    pub fn agent_of(&self, i: usize) -> Option<String> {
        self.tree.agent_of(i).map(str::to_string)
    }
}

//! What one batch of spans says about its traces, without building anything: per trace its span
//! and log-record counts, the session it names (if any span of the batch names one) and whether
//! its root arrived. An online receiver gets a session's spans in many batches (an exporter sends
//! what has ended, children before parents): it files each batch under these traces, and builds
//! a session from all its batches once the session has gone quiet.

use super::model::{attr_str, Batch, Span};
use super::Warning;
use serde::Serialize;
use std::collections::HashMap;

/// One trace in a batch.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(rename = "TraceIndexEntry"))]
pub struct Entry {
    /// Hex, as OTLP/JSON writes it.
    pub trace_id: String,
    /// The session a span of this batch names (the keys every source's session comes from).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub session_id: Option<String>,
    pub spans: usize,
    pub logs: usize,
    /// A span of the trace without a parent is in the batch (it ends last: the trace is complete).
    pub root: bool,
}

/// What `traceIndex` returns.
#[derive(Debug, Clone, Default, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(rename = "TraceIndex"))]
pub struct Index {
    /// In the order the traces first appear in the batch.
    pub traces: Vec<Entry>,
    pub warnings: Vec<Warning>,
}

/// The attributes a session id is read from, by any source (ADK, the GenAI conventions, the AI
/// SDK's telemetry metadata), in the order the sources prefer them.
pub const SESSION_KEYS: [&str; 7] = [
    "gcp.vertex.agent.session_id",
    "gen_ai.conversation.id",
    "ai.telemetry.metadata.sessionId",
    "ai.telemetry.metadata.session_id",
    "ai.telemetry.metadata.conversationId",
    "ai.telemetry.metadata.threadId",
    "session.id",
];

fn session_of<'b>(s: &'b Span<'_>) -> Option<&'b str> {
    SESSION_KEYS.iter().find_map(|k| attr_str(&s.attrs, k))
}

/// The traces of `batch`.
pub fn of(batch: Batch) -> Index {
    let mut at: HashMap<u128, usize> = HashMap::new();
    let mut out = Index {
        warnings: batch.warnings,
        ..Index::default()
    };
    // The position of a trace's entry, made on first sight.
    let mut slot = |trace: u128, traces: &mut Vec<Entry>| -> usize {
        *at.entry(trace).or_insert_with(|| {
            traces.push(Entry {
                trace_id: format!("{trace:032x}"),
                session_id: None,
                spans: 0,
                logs: 0,
                root: false,
            });
            traces.len() - 1
        })
    };
    for s in &batch.spans {
        let k = slot(s.trace_id, &mut out.traces);
        if let Some(e) = out.traces.get_mut(k) {
            e.spans += 1;
            e.root |= s.parent == 0;
            if e.session_id.is_none() {
                e.session_id = session_of(s).map(str::to_string);
            }
        }
    }
    for l in &batch.logs {
        let k = slot(l.trace_id, &mut out.traces);
        if let Some(e) = out.traces.get_mut(k) {
            e.logs += 1;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::traces::model::Value;
    use std::borrow::Cow;

    #[test]
    fn counts_and_names_sessions() {
        let span = |trace, id, parent, session: Option<&'static str>| Span {
            trace_id: trace,
            span_id: id,
            parent,
            attrs: session
                .map(|s| vec![(Cow::Borrowed("gen_ai.conversation.id"), Value::Str(Cow::Borrowed(s)))])
                .unwrap_or_default(),
            ..Span::default()
        };
        let batch = Batch {
            spans: vec![span(7, 2, 1, None), span(7, 1, 0, Some("s1")), span(9, 3, 4, None)],
            ..Batch::default()
        };
        let ix = of(batch);
        assert_eq!(ix.traces.len(), 2);
        assert_eq!(ix.traces[0].trace_id, format!("{:032x}", 7));
        assert_eq!(ix.traces[0].session_id.as_deref(), Some("s1"));
        assert_eq!((ix.traces[0].spans, ix.traces[0].root), (2, true));
        assert_eq!((ix.traces[1].session_id.as_deref(), ix.traces[1].root), (None, false));
    }
}

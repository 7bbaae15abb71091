//! OpenTelemetry traces to ADK sessions and invocations: OTLP (JSON, JSON lines, protobuf) ->
//! spans -> invocation trees -> ADK events -> invocations by ADK's own session conversion
//! ([`crate::run::session`]). Sources: ADK Python (telemetry schema 1 and 2), ADK JS, the GenAI
//! semantic conventions (any instrumentation, the AI SDK's `OpenTelemetry` integration) and the
//! AI SDK's legacy `ai.*` spans. What a trace does not hold is reported, never guessed.

mod adk;
mod ai_sdk;
mod build;
mod events;
pub mod index;
pub mod json;
mod json_values;
mod messages;
pub mod model;
pub mod proto;
mod semconv;
pub mod timeline;
mod tree;
mod turn;

use crate::error::{ErrorCode, EvalError, Result};
use crate::schema::Invocation;
use serde::Serialize;

/// Something the import skipped or could not recover, with where and how to get it next time.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(rename = "TraceWarning"))]
pub struct Warning {
    /// Stable: `bad_span_ids`, `content_not_captured`, `thoughts_unmarked`, `no_invocation_span`, ...
    pub code: &'static str,
    /// Into the input (`$.resourceSpans[0].scopeSpans[0].spans[3]`) or the output
    /// (`$.sessions[1].invocations[0].final_response`).
    pub path: String,
    pub message: String,
}

impl Warning {
    pub(crate) fn bad_ids(path: String) -> Self {
        Warning {
            code: "bad_span_ids",
            path,
            message: "span skipped: its traceId must be 16 bytes and its spanId (and parentSpanId, when \
                      present) 8 bytes, as hex"
                .to_string(),
        }
    }
}

/// A part of an invocation the trace did not carry; metrics that read it are NOT_EVALUATED.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(rename = "TraceMissing"))]
pub struct Missing {
    /// Index into the session's invocations.
    pub invocation: usize,
    /// `user_content`, `final_response`, `tool_args`, `tool_responses`, `intermediate_responses`.
    pub field: &'static str,
    /// Why, naming the switch that would have recorded it.
    pub reason: String,
}

/// One recorded session.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct TraceSession {
    pub session_id: String,
    /// The resource's `service.name` (ADK's spans do not name the app: set OTEL_SERVICE_NAME).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub app_name: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub user_id: Option<String>,
    /// `adk-python-v1`, `adk-python-v2`, `adk-js`, `genai`, `ai-sdk`.
    pub source: &'static str,
    pub invocations: Vec<Invocation>,
    /// Present when the trace lacks something a metric reads.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    #[cfg_attr(feature = "ts", ts(as = "Option<Vec<Missing>>", optional))]
    pub missing: Vec<Missing>,
    /// With `{timeline: true}`: each invocation's spans (same order as `invocations`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    #[cfg_attr(feature = "ts", ts(as = "Option<Vec<Vec<timeline::TimelineSpan>>>", optional))]
    pub timelines: Vec<Vec<timeline::TimelineSpan>>,
}

/// What `loadTraces` returns.
#[derive(Debug, Clone, Serialize, Default)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(rename = "LoadedTraces"))]
pub struct Loaded {
    pub sessions: Vec<TraceSession>,
    pub warnings: Vec<Warning>,
}

/// Options of `loadTraces`.
#[derive(Debug, Clone, Default, serde::Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Options {
    /// Keep only these sessions.
    #[serde(default, alias = "session_ids")]
    pub session_ids: Option<Vec<String>>,
    /// Read only the spans and log records of these traces (ids in hex).
    #[serde(default, alias = "trace_ids")]
    pub trace_ids: Option<Vec<String>>,
    /// Give each session the spans of each invocation (`timelines`), for a timeline view.
    #[serde(default)]
    pub timeline: bool,
}

/// Reads one input into `batch`: OTLP/JSON (one request or JSON lines) when it starts with `{`,
/// else OTLP protobuf.
pub fn read<'a>(input: &'a [u8], batch: &mut model::Batch<'a>) -> Result<()> {
    let start = input.iter().position(|b| !b.is_ascii_whitespace());
    match start.and_then(|i| input.get(i)) {
        None => Err(EvalError::schema("$", "the trace input is empty")),
        // A protobuf request starts 0x0a (a newline) and its length byte may read as `{`: what
        // is not JSON after all is tried as protobuf before the JSON error is reported.
        Some(b'{') => match crate::schema::parse::utf8(input).and_then(|t| json::read(t, batch)) {
            Err(e) if input.first() == Some(&b'\n') && e.code != ErrorCode::Schema => {
                let mut alt = model::Batch::default();
                proto::read(input, &mut alt).map_err(|_| e)?;
                batch.resources.append(&mut alt.resources);
                batch.spans.append(&mut alt.spans);
                batch.logs.append(&mut alt.logs);
                batch.warnings.append(&mut alt.warnings);
                Ok(())
            }
            other => other,
        },
        Some(b'[') => Err(EvalError::schema(
            "$",
            "expected an OTLP request object ({\"resourceSpans\": ...}) or JSON lines of them, found a JSON array",
        )),
        Some(0x1f) if input.get(1) == Some(&0x8b) => Err(EvalError::new(
            ErrorCode::Unsupported,
            "",
            "the input is gzip-compressed: decompress it first (the body of an OTLP/HTTP request with Content-Encoding: gzip)",
        )),
        Some(_) => proto::read(input, batch),
    }
}

/// Every input (OTLP/JSON text or protobuf bytes) read into one batch; an error names the input.
fn read_all<'a>(inputs: &[&'a [u8]]) -> Result<model::Batch<'a>> {
    let mut batch = model::Batch::default();
    for (i, input) in inputs.iter().enumerate() {
        read(input, &mut batch).map_err(|e| {
            if inputs.len() > 1 {
                EvalError {
                    message: format!("input {}: {}", i + 1, e.message),
                    ..e
                }
            } else {
                e
            }
        })?;
    }
    Ok(batch)
}

/// `traceIndex`: the traces of the inputs, each with its counts and the session it names.
pub fn index(inputs: &[&[u8]]) -> Result<index::Index> {
    read_all(inputs).map(index::of)
}

/// `loadTraces`: every input (OTLP/JSON text or protobuf bytes) to sessions of invocations.
pub fn load(inputs: &[&[u8]], opts: &Options) -> Result<Loaded> {
    let mut batch = read_all(inputs)?;
    if let Some(ids) = &opts.trace_ids {
        let keep: std::collections::HashSet<u128> = ids.iter().filter_map(|t| model::id_from_text(t, 16)).collect();
        batch.spans.retain(|s| keep.contains(&s.trace_id));
        batch.logs.retain(|l| keep.contains(&l.trace_id));
    }
    let mut loaded = build::sessions(&batch, opts);
    loaded.warnings.splice(0..0, batch.warnings);
    Ok(loaded)
}

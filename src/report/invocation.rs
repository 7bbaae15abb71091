//! The "Invocation Details" block of ADK's detailed output: one `label: value` field per line,
//! values wrapped like Python's textwrap, tool calls and metric cells in ADK's text forms.

use super::out::{ljust, rubric_text, Out};
use super::pyfmt::{format_2f, format_g, opt_float_repr, value_repr};
use super::wrap::{splitlines, wrap};
use crate::schema::eval_result::{EvalMetricResult, PerInvocationResult};
use crate::schema::result::EvalStatus;
use crate::schema::{Content, FunctionCall, IntermediateData, Invocation};
use serde_json::Value;

/// Column where invocation field values start, and the width they wrap at (ADK's constants).
const FIELD_VALUE_COLUMN: usize = 30;
const FIELD_VALUE_WIDTH: usize = 80;
const DURATION_METRIC: &str = "invocation_duration_v1";

/// `_convert_content_to_text`: non-empty part texts joined with newlines. evalcore adds a line
/// naming each media part (`[inline_data: image/png, 1234 bytes]`) where ADK drops it, so the
/// text is ADK's whenever there is no media.
fn content_text(content: Option<&Content>) -> String {
    let mut out = String::new();
    let mut line = |t: &str| {
        if !out.is_empty() {
            out.push('\n');
        }
        out.push_str(t);
    };
    for p in content.and_then(|c| c.parts.as_deref()).unwrap_or(&[]) {
        if let Some(t) = p.text.as_deref().filter(|t| !t.is_empty()) {
            line(t);
        }
        if let Some(m) = p.media_text() {
            line(&m);
        }
    }
    out
}

/// Every function call of an invocation's intermediate data, in either shape.
fn tool_calls(intermediate: Option<&IntermediateData>) -> Vec<&FunctionCall> {
    match intermediate {
        None => Vec::new(),
        Some(IntermediateData::Legacy { tool_uses, .. }) => tool_uses.iter().collect(),
        Some(IntermediateData::Events(events)) => events
            .iter()
            .filter_map(|e| e.content.as_ref()?.parts.as_deref())
            .flatten()
            .filter_map(|p| p.function_call.as_deref())
            .collect(),
    }
}

/// `_format_tool_call`: `name()` or `name(\n  arg=repr,\n  ...)`.
fn format_tool_call(call: &FunctionCall) -> String {
    let name = call.name.as_deref().unwrap_or("None");
    let args: Vec<String> = call
        .args
        .iter()
        .flatten()
        .map(|(k, v)| format!("{k}={}", value_repr(v)))
        .collect();
    if args.is_empty() {
        format!("{name}()")
    } else {
        format!("{name}(\n  {})", args.join(",\n  "))
    }
}

fn tool_calls_text(invocation: Option<&Invocation>) -> String {
    let calls: Vec<String> = tool_calls(invocation.and_then(|i| i.intermediate_data.as_ref()))
        .into_iter()
        .map(format_tool_call)
        .collect();
    calls.join("\n")
}

/// `_format_metric_cell`.
fn metric_cell(metric: &EvalMetricResult) -> String {
    let status = metric.eval_status;
    if status != EvalStatus::Informational {
        return format!("{} ({})", status.as_str(), opt_float_repr(metric.score));
    }
    let Some(score) = metric.score else {
        return "n/a".to_string();
    };
    let details = &metric.details;
    if metric.metric_name == DURATION_METRIC {
        let durations = details.duration_details.as_ref().map(|d| d.values);
        let seconds = |i: usize| {
            durations
                .and_then(|d| d.get(i).copied().flatten())
                .map_or_else(|| "n/a".to_string(), |x| format_g(x) + "s")
        };
        if durations.and_then(|d| d.get(1).copied().flatten()).is_some() {
            return format!(
                "{}s (model {}, tool {}, framework {})",
                format_2f(score),
                seconds(1),
                seconds(2),
                seconds(3),
            );
        }
        return format!("{}s", format_2f(score));
    }
    if let Some(tokens) = &details.token_usage_details {
        let count = |i: usize| {
            tokens
                .values
                .get(i)
                .copied()
                .flatten()
                .map_or_else(|| "n/a".to_string(), format_g)
        };
        return format!("{} (in {}, out {})", format_g(score), count(1), count(5));
    }
    format_g(score)
}

/// `_invocation_fields`: the (label, value) pairs of one invocation, absent ones left out.
pub(super) fn invocation_fields(per_invocation: &PerInvocationResult<'_>) -> Vec<(String, String)> {
    let actual = per_invocation.actual_invocation.as_deref();
    let expected = per_invocation.expected_invocation.as_ref().and_then(|e| e.as_deref());
    let mut fields = vec![("prompt".to_string(), content_text(actual.map(|a| &a.user_content)))];
    if let Some(e) = expected {
        fields.push(("expected_response".to_string(), content_text(e.final_response.as_ref())));
    }
    fields.push((
        "actual_response".to_string(),
        content_text(actual.and_then(|a| a.final_response.as_ref())),
    ));
    if expected.is_some() {
        fields.push(("expected_tool_calls".to_string(), tool_calls_text(expected)));
    }
    fields.push(("actual_tool_calls".to_string(), tool_calls_text(actual)));
    for metric in &per_invocation.eval_metric_results {
        fields.push((metric.metric_name.clone(), metric_cell(metric)));
        // evalcore's explanation of a trajectory metric below 1 (absent from ADK's results, so
        // ADK's own text is unchanged).
        let lines = metric
            .details
            .trajectory
            .as_ref()
            .and_then(|t| t.get("lines"))
            .and_then(Value::as_array);
        let lines: Vec<&str> = lines.into_iter().flatten().filter_map(Value::as_str).collect();
        if !lines.is_empty() {
            fields.push(("mismatch".to_string(), lines.join("\n")));
        }
        for score in metric.details.rubric_scores.iter().flatten() {
            fields.push((
                "rubric".to_string(),
                format!(
                    "{}\nScore: {}, Reasoning: {}",
                    rubric_text(metric, score),
                    opt_float_repr(score.score),
                    score.rationale.as_deref().unwrap_or("None"),
                ),
            ));
        }
    }
    fields
}

/// `_echo_field`: `  label: ` padded to the value column, each value line wrapped on its own.
pub(super) fn echo_field(out: &mut Out, label: &str, value: &str) {
    let mut source = splitlines(value);
    if source.is_empty() {
        source.push("(none)".to_string());
    }
    let prefix = ljust(&format!("  {label}: "), FIELD_VALUE_COLUMN);
    let indent = " ".repeat(prefix.chars().count());
    let mut first = true;
    for line in &source {
        let mut wrapped = wrap(line, FIELD_VALUE_WIDTH);
        if wrapped.is_empty() {
            wrapped.push(String::new());
        }
        for piece in wrapped {
            let lead = if first { &prefix } else { &indent };
            out.line(&format!("{lead}{piece}"));
            first = false;
        }
    }
}

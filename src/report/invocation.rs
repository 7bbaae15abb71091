//! The "Invocation Details" block of ADK's detailed output: one `label: value` field per line,
//! values wrapped like Python's textwrap, tool calls and metric cells in ADK's text forms.

use super::console::{ljust, rubric_text, Out};
use super::pyfmt::{as_float, float_repr, format_2f, format_g, opt_float_repr, value_repr};
use super::view::{get, get_list, get_str, opt_str, Status};
use super::wrap::{splitlines, wrap};
use serde_json::Value;

/// Column where invocation field values start, and the width they wrap at (ADK's constants).
const FIELD_VALUE_COLUMN: usize = 30;
const FIELD_VALUE_WIDTH: usize = 80;
const DURATION_METRIC: &str = "invocation_duration_v1";

/// `_convert_content_to_text`: non-empty part texts joined with newlines.
fn content_text(content: Option<&Value>) -> String {
    let texts: Vec<&str> = get_list(content, "parts")
        .iter()
        .filter_map(|p| get_str(Some(p), "text"))
        .filter(|t| !t.is_empty())
        .collect();
    texts.join("\n")
}

/// Every function call of an invocation's intermediate data, in either shape.
fn tool_calls(intermediate: Option<&Value>) -> Vec<&Value> {
    if let Some(events) = get(intermediate, "invocation_events") {
        let events = events.as_array().map_or(&[][..], Vec::as_slice);
        return events
            .iter()
            .flat_map(|e| get_list(get(Some(e), "content"), "parts"))
            .filter_map(|p| get(Some(p), "function_call"))
            .collect();
    }
    get_list(intermediate, "tool_uses").iter().collect()
}

/// `_format_tool_call`: `name()` or `name(\n  arg=repr,\n  ...)`.
fn format_tool_call(call: &Value) -> String {
    let name = opt_str(Some(call), "name");
    let args: Vec<String> = get(Some(call), "args")
        .and_then(Value::as_object)
        .map(|m| m.iter().map(|(k, v)| format!("{k}={}", value_repr(v))).collect())
        .unwrap_or_default();
    if args.is_empty() {
        format!("{name}()")
    } else {
        format!("{name}(\n  {})", args.join(",\n  "))
    }
}

fn tool_calls_text(invocation: Option<&Value>) -> String {
    let calls: Vec<String> = tool_calls(get(invocation, "intermediate_data"))
        .into_iter()
        .map(format_tool_call)
        .collect();
    calls.join("\n")
}

/// `_format_metric_cell`.
fn metric_cell(metric: &Value, status: Status) -> String {
    let m = Some(metric);
    let score = as_float(get(m, "score"));
    if status != Status::Informational {
        return format!(
            "{} ({})",
            status.name(),
            score.map_or_else(|| "None".to_string(), float_repr)
        );
    }
    let Some(score) = score else { return "n/a".to_string() };
    let details = get(m, "details");
    if get_str(m, "metric_name") == Some(DURATION_METRIC) {
        let durations = get(details, "duration_details");
        let seconds =
            |key: &str| as_float(get(durations, key)).map_or_else(|| "n/a".to_string(), |x| format_g(x) + "s");
        if as_float(get(durations, "model_seconds")).is_some() {
            return format!(
                "{}s (model {}, tool {}, framework {})",
                format_2f(score),
                seconds("model_seconds"),
                seconds("tool_seconds"),
                seconds("framework_seconds"),
            );
        }
        return format!("{}s", format_2f(score));
    }
    if let Some(tokens) = get(details, "token_usage_details").filter(|v| v.is_object()) {
        let count = |key: &str| as_float(get(Some(tokens), key)).map_or_else(|| "n/a".to_string(), format_g);
        return format!(
            "{} (in {}, out {})",
            format_g(score),
            count("input_tokens"),
            count("output_tokens")
        );
    }
    format_g(score)
}

/// `_invocation_fields`: the (label, value) pairs of one invocation, absent ones left out.
pub(super) fn invocation_fields(per_invocation: &Value, statuses: &[Status]) -> Vec<(String, String)> {
    let p = Some(per_invocation);
    let actual = get(p, "actual_invocation");
    let expected = get(p, "expected_invocation");
    let mut fields = vec![("prompt".to_string(), content_text(get(actual, "user_content")))];
    if expected.is_some() {
        fields.push((
            "expected_response".to_string(),
            content_text(get(expected, "final_response")),
        ));
    }
    fields.push((
        "actual_response".to_string(),
        content_text(get(actual, "final_response")),
    ));
    if expected.is_some() {
        fields.push(("expected_tool_calls".to_string(), tool_calls_text(expected)));
    }
    fields.push(("actual_tool_calls".to_string(), tool_calls_text(actual)));
    for (metric, status) in get_list(p, "eval_metric_results").iter().zip(statuses) {
        fields.push((opt_str(Some(metric), "metric_name"), metric_cell(metric, *status)));
        for score in get_list(get(Some(metric), "details"), "rubric_scores") {
            fields.push((
                "rubric".to_string(),
                format!(
                    "{}\nScore: {}, Reasoning: {}",
                    rubric_text(metric, score),
                    opt_float_repr(get(Some(score), "score")),
                    opt_str(Some(score), "rationale"),
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

//! ADK 2.x's `adk eval` console text: the "Eval Run Summary" and the per-case
//! `--print_detailed_results` blocks, byte for byte, over the typed EvalCaseResult model.

use super::invocation::{echo_field, invocation_fields};
use super::out::{ljust, rubric_text, Out};
use super::pyfmt::{format_g, opt_float_repr};
use crate::error::{ErrorCode, EvalError, Result};
use crate::schema::eval_result::{EvalCaseResult, EvalMetricResult, EvalSetResult};
use crate::schema::json_path;
use crate::schema::result::EvalStatus;
use serde_json::Value;

const SUMMARY_RULE: &str = "*********************************************************************";
const CASE_RULE: &str = "********************************************************************";
const SECTION_RULE: &str = "---------------------------------------------------------------------";
/// Label column of the token and duration breakdowns.
const BREAKDOWN_LABEL_WIDTH: usize = 20;
/// Labels and depths of the token breakdown, in `TOKEN_FIELDS` order.
const TOKEN_ROWS: [(&str, usize); 8] = [
    ("total", 1),
    ("input", 2),
    ("prompt", 3),
    ("cached", 4),
    ("tool use", 3),
    ("output", 2),
    ("candidates", 3),
    ("reasoning", 3),
];
/// Labels and depths of the duration breakdown, in `DURATION_FIELDS` order.
const DURATION_ROWS: [(&str, usize); 4] = [("total", 1), ("model", 2), ("tool", 2), ("framework", 2)];

/// [`format_report`] for the wasm boundary: the report as a JSON string literal, ready to be the
/// `ok` member of an envelope.
pub fn format_report_json(results: &str, options: &str) -> Result<String> {
    let text = format_report(results, options)?;
    serde_json::to_string(&text).map_err(|e| EvalError::new(ErrorCode::InvalidJson, "", e.to_string()))
}

/// Renders ADK's console report (the text `adk eval` writes to stdout) for JSON text holding an
/// array of EvalCaseResult objects, an EvalSetResult (`{eval_set_id, eval_case_results}`) or a
/// single EvalCaseResult. `options` is `{"detailed": bool}` JSON or `""`.
pub fn format_report(results: &str, options: &str) -> Result<String> {
    let detailed = parse_options(options)?;
    crate::schema::budget::check(results, "the results")?;
    let value: Value = serde_json::from_str(results)
        .map_err(|e| EvalError::new(ErrorCode::InvalidJson, "", format!("results are not valid JSON: {e}")))?;
    let (cases, set_id) = read_results(results, &value)?;
    Ok(render(&cases, set_id.as_deref(), detailed))
}

/// The case results of a report's input, and the set id of an EvalSetResult.
fn read_results(text: &str, value: &Value) -> Result<(Vec<EvalCaseResult<'static>>, Option<String>)> {
    match value {
        Value::Array(_) => Ok((json_path::from_str(text)?, None)),
        Value::Object(map) if map.contains_key("eval_case_results") || map.contains_key("evalCaseResults") => {
            let set: EvalSetResult = json_path::from_str(text)?;
            Ok((set.eval_case_results, Some(set.eval_set_id).filter(|id| !id.is_empty())))
        }
        Value::Object(_) => Ok((vec![json_path::from_str(text)?], None)),
        other => Err(EvalError::schema(
            "$",
            format!(
                "expected an array of EvalCaseResult objects or an EvalSetResult object, found {}",
                describe(Some(other))
            ),
        )),
    }
}

/// A short description of what was found, for error messages.
fn describe(v: Option<&Value>) -> &'static str {
    v.map_or("nothing", crate::schema::value::kind)
}

fn parse_options(options: &str) -> Result<bool> {
    if options.trim().is_empty() {
        return Ok(false);
    }
    let v: Value = serde_json::from_str(options).map_err(|e| {
        EvalError::new(
            ErrorCode::InvalidJson,
            "",
            format!("report options are not valid JSON: {e}"),
        )
    })?;
    match &v {
        Value::Null => Ok(false),
        Value::Object(map) => match map.get("detailed") {
            None | Some(Value::Null) => Ok(false),
            Some(Value::Bool(b)) => Ok(*b),
            other => Err(EvalError::schema(
                "$.detailed",
                format!("expected a boolean, found {}", describe(other)),
            )),
        },
        other => Err(EvalError::schema(
            "$",
            format!(
                "expected report options {{\"detailed\": bool}}, found {}",
                describe(Some(other))
            ),
        )),
    }
}

fn render(cases: &[EvalCaseResult<'_>], default_set_id: Option<&str>, detailed: bool) -> String {
    let set_id = |c: &EvalCaseResult| -> String {
        if c.eval_set_id.is_empty() {
            default_set_id.unwrap_or("").to_string()
        } else {
            c.eval_set_id.clone()
        }
    };
    let mut out = Out::default();
    out.line(SUMMARY_RULE);
    let mut summary: Vec<(String, usize, usize)> = Vec::new();
    for case in cases {
        let id = set_id(case);
        let idx = match summary.iter().position(|(s, _, _)| *s == id) {
            Some(idx) => idx,
            None => {
                summary.push((id, 0, 0));
                summary.len() - 1
            }
        };
        if let Some(entry) = summary.get_mut(idx) {
            if case.final_eval_status == EvalStatus::Passed {
                entry.1 += 1;
            } else {
                entry.2 += 1;
            }
        }
    }
    out.line("Eval Run Summary");
    for (id, passed, failed) in &summary {
        out.line(&format!("{id}:\n  Tests passed: {passed}\n  Tests failed: {failed}"));
    }
    if detailed {
        for case in cases {
            out.line(CASE_RULE);
            print_case(&mut out, case, &set_id(case));
        }
    }
    out.0
}

/// `pretty_print_eval_result`.
fn print_case(out: &mut Out, case: &EvalCaseResult<'_>, set_id: &str) {
    out.line(&format!("Eval Set Id: {set_id}"));
    out.line(&format!("Eval Id: {}", case.eval_id));
    out.line(&format!("Overall Eval Status: {}", case.final_eval_status.as_str()));
    for metric in &case.overall_eval_metric_results {
        print_metric(out, metric);
    }
    let invocations = case.per_invocation();
    if invocations.is_empty() {
        return;
    }
    out.line(SECTION_RULE);
    out.line("Invocation Details:");
    for (i, inv) in invocations.iter().enumerate() {
        out.line(&format!("\nInvocation {} of {}", i + 1, invocations.len()));
        for (label, value) in invocation_fields(inv) {
            echo_field(out, &label, &value);
        }
    }
    out.line("\n");
}

fn print_metric(out: &mut Out, metric: &EvalMetricResult) {
    out.line(SECTION_RULE);
    out.line(&format!(
        "Metric: {}, Status: {}, Score: {}, Threshold: {}",
        metric.metric_name,
        metric.eval_status.as_str(),
        opt_float_repr(metric.score),
        opt_float_repr(metric.threshold),
    ));
    let details = &metric.details;
    if let Some(tokens) = &details.token_usage_details {
        out.line("Token breakdown:");
        breakdown(out, &tokens.values, &TOKEN_ROWS, "");
    }
    if let Some(durations) = &details.duration_details {
        out.line("Duration breakdown:");
        breakdown(out, &durations.values, &DURATION_ROWS, "s");
    }
    let scores = details.rubric_scores.as_deref().unwrap_or(&[]);
    if !scores.is_empty() {
        out.line("Rubric Scores:");
        for score in scores {
            out.line(&format!(
                "Rubric: {}, Score: {}, Reasoning: {}",
                rubric_text(metric, score),
                opt_float_repr(score.score),
                score.rationale.as_deref().unwrap_or("None"),
            ));
        }
    }
}

/// Rows `(label, depth)` in the breakdown's field order.
fn breakdown(out: &mut Out, values: &[Option<f64>], rows: &[(&str, usize)], unit: &str) {
    for ((name, depth), value) in rows.iter().zip(values) {
        let label = format!("{}{name}:", "  ".repeat(*depth));
        let value = value.map_or_else(|| "n/a".to_string(), |x| format_g(x) + unit);
        out.line(&format!("{}{value}", ljust(&label, BREAKDOWN_LABEL_WIDTH)));
    }
}

#[cfg(test)]
#[path = "console_tests.rs"]
mod tests;

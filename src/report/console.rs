//! ADK 2.x's `adk eval` console text: the "Eval Run Summary" and the per-case
//! `--print_detailed_results` blocks, byte for byte, over EvalCaseResult JSON.

use super::invocation::{echo_field, invocation_fields};
use super::pyfmt::{as_float, format_g, opt_float_repr};
use super::view::{describe, get, get_list, get_str, opt_str, Status};
use crate::error::{ErrorCode, EvalError, Result};
use serde_json::Value;

const SUMMARY_RULE: &str = "*********************************************************************";
const CASE_RULE: &str = "********************************************************************";
const SECTION_RULE: &str = "---------------------------------------------------------------------";
/// Label column of the token and duration breakdowns.
const BREAKDOWN_LABEL_WIDTH: usize = 20;
const TOKEN_ROWS: [(&str, &str, usize); 8] = [
    ("total_tokens", "total", 1),
    ("input_tokens", "input", 2),
    ("prompt_tokens", "prompt", 3),
    ("cached_tokens", "cached", 4),
    ("tool_use_tokens", "tool use", 3),
    ("output_tokens", "output", 2),
    ("candidates_tokens", "candidates", 3),
    ("reasoning_tokens", "reasoning", 3),
];
const DURATION_ROWS: [(&str, &str, usize); 4] = [
    ("total_seconds", "total", 1),
    ("model_seconds", "model", 2),
    ("tool_seconds", "tool", 2),
    ("framework_seconds", "framework", 2),
];

/// The text being built: one `click.echo` per `line`.
#[derive(Default)]
pub(super) struct Out(String);

impl Out {
    pub(super) fn line(&mut self, s: &str) {
        self.0.push_str(s);
        self.0.push('\n');
    }
}

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
    let (cases, base, set_id): (Vec<&Value>, String, Option<&str>) = match &value {
        Value::Array(items) => (items.iter().collect(), "$".to_string(), None),
        Value::Object(map) if map.contains_key("eval_case_results") || map.contains_key("evalCaseResults") => {
            let list = get(Some(&value), "eval_case_results").ok_or_else(|| {
                EvalError::schema(
                    "$.eval_case_results",
                    "expected an array of EvalCaseResult objects, found null",
                )
            })?;
            let items = list.as_array().ok_or_else(|| {
                EvalError::schema(
                    "$.eval_case_results",
                    format!(
                        "expected an array of EvalCaseResult objects, found {}",
                        describe(Some(list))
                    ),
                )
            })?;
            (
                items.iter().collect(),
                "$.eval_case_results".to_string(),
                get_str(Some(&value), "eval_set_id"),
            )
        }
        Value::Object(_) => (vec![&value], String::new(), None),
        other => {
            return Err(EvalError::schema(
                "$",
                format!(
                    "expected an array of EvalCaseResult objects or an EvalSetResult object, found {}",
                    describe(Some(other))
                ),
            ))
        }
    };
    let mut checked = Vec::with_capacity(cases.len());
    for (i, case) in cases.into_iter().enumerate() {
        let path = if base.is_empty() {
            "$".to_string()
        } else {
            format!("{base}[{i}]")
        };
        checked.push(CaseView::read(case, path, set_id)?);
    }
    Ok(render(&checked, detailed))
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

/// One EvalCaseResult with its statuses checked.
struct CaseView<'a> {
    raw: &'a Value,
    set_id: String,
    status: Status,
    metric_status: Vec<Status>,
    per_invocation_status: Vec<Vec<Status>>,
}

impl<'a> CaseView<'a> {
    fn read(raw: &'a Value, path: String, default_set_id: Option<&str>) -> Result<CaseView<'a>> {
        if !raw.is_object() {
            return Err(EvalError::schema(
                path,
                format!("expected an EvalCaseResult object, found {}", describe(Some(raw))),
            ));
        }
        let case = Some(raw);
        let status = Status::read(get(case, "final_eval_status"), &format!("{path}.final_eval_status"))?;
        let metrics = |list: &[Value], at: &str| -> Result<Vec<Status>> {
            list.iter()
                .enumerate()
                .map(|(i, m)| Status::read(get(Some(m), "eval_status"), &format!("{at}[{i}].eval_status")))
                .collect()
        };
        let metric_status = metrics(
            get_list(case, "overall_eval_metric_results"),
            &format!("{path}.overall_eval_metric_results"),
        )?;
        let per_invocation_status = get_list(case, "eval_metric_result_per_invocation")
            .iter()
            .enumerate()
            .map(|(i, inv)| {
                let at = format!("{path}.eval_metric_result_per_invocation[{i}].eval_metric_results");
                metrics(get_list(Some(inv), "eval_metric_results"), &at)
            })
            .collect::<Result<Vec<_>>>()?;
        let set_id = get_str(case, "eval_set_id")
            .or(default_set_id)
            .unwrap_or("")
            .to_string();
        Ok(CaseView {
            raw,
            set_id,
            status,
            metric_status,
            per_invocation_status,
        })
    }
}

fn render(cases: &[CaseView<'_>], detailed: bool) -> String {
    let mut out = Out::default();
    out.line(SUMMARY_RULE);
    let mut summary: Vec<(&str, usize, usize)> = Vec::new();
    for case in cases {
        let idx = match summary.iter().position(|(id, _, _)| *id == case.set_id) {
            Some(idx) => idx,
            None => {
                summary.push((case.set_id.as_str(), 0, 0));
                summary.len() - 1
            }
        };
        if let Some(entry) = summary.get_mut(idx) {
            if case.status == Status::Passed {
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
            print_case(&mut out, case);
        }
    }
    out.0
}

/// `pretty_print_eval_result`.
fn print_case(out: &mut Out, case: &CaseView<'_>) {
    let raw = Some(case.raw);
    out.line(&format!("Eval Set Id: {}", case.set_id));
    out.line(&format!("Eval Id: {}", get_str(raw, "eval_id").unwrap_or("")));
    out.line(&format!("Overall Eval Status: {}", case.status.name()));
    for (metric, status) in get_list(raw, "overall_eval_metric_results")
        .iter()
        .zip(&case.metric_status)
    {
        print_metric(out, metric, *status);
    }
    let invocations = get_list(raw, "eval_metric_result_per_invocation");
    if invocations.is_empty() {
        return;
    }
    out.line(SECTION_RULE);
    out.line("Invocation Details:");
    for (i, (inv, statuses)) in invocations.iter().zip(&case.per_invocation_status).enumerate() {
        out.line(&format!("\nInvocation {} of {}", i + 1, invocations.len()));
        for (label, value) in invocation_fields(inv, statuses) {
            echo_field(out, &label, &value);
        }
    }
    out.line("\n");
}

fn print_metric(out: &mut Out, metric: &Value, status: Status) {
    let m = Some(metric);
    out.line(SECTION_RULE);
    out.line(&format!(
        "Metric: {}, Status: {}, Score: {}, Threshold: {}",
        opt_str(m, "metric_name"),
        status.name(),
        opt_float_repr(get(m, "score")),
        opt_float_repr(get(m, "threshold")),
    ));
    let details = get(m, "details");
    if let Some(tokens) = get(details, "token_usage_details").filter(|v| v.is_object()) {
        out.line("Token breakdown:");
        breakdown(out, tokens, &TOKEN_ROWS, format_g, "");
    }
    if let Some(durations) = get(details, "duration_details").filter(|v| v.is_object()) {
        out.line("Duration breakdown:");
        breakdown(out, durations, &DURATION_ROWS, format_g, "s");
    }
    let scores = get_list(details, "rubric_scores");
    if !scores.is_empty() {
        out.line("Rubric Scores:");
        for score in scores {
            out.line(&format!(
                "Rubric: {}, Score: {}, Reasoning: {}",
                rubric_text(metric, score),
                opt_float_repr(get(Some(score), "score")),
                opt_str(Some(score), "rationale"),
            ));
        }
    }
}

fn breakdown(out: &mut Out, obj: &Value, rows: &[(&str, &str, usize)], fmt: fn(f64) -> String, unit: &str) {
    for (field, name, depth) in rows {
        let label = format!("{}{name}:", "  ".repeat(*depth));
        let value = as_float(get(Some(obj), field)).map_or_else(|| "n/a".to_string(), |x| fmt(x) + unit);
        out.line(&format!("{}{value}", ljust(&label, BREAKDOWN_LABEL_WIDTH)));
    }
}

/// The rubric's text from the criterion's rubrics, else its id (as ADK's lookup does).
pub(super) fn rubric_text(metric: &Value, score: &Value) -> String {
    let id = get_str(Some(score), "rubric_id");
    let text = get_list(get(Some(metric), "criterion"), "rubrics")
        .iter()
        .rev() // a Python dict built from the list keeps the last duplicate
        .find(|r| id.is_some() && get_str(Some(r), "rubric_id") == id)
        .and_then(|r| get_str(get(Some(r), "rubric_content"), "text_property"))
        .filter(|t| !t.is_empty());
    text.or(id).unwrap_or("None").to_string()
}

pub(super) fn ljust(s: &str, width: usize) -> String {
    let len = s.chars().count();
    format!("{s}{}", " ".repeat(width.saturating_sub(len)))
}

#[cfg(test)]
#[path = "console_tests.rs"]
mod tests;

//! ADK's result model, read and written: EvalMetricResult, the per-invocation results,
//! EvalCaseResult, EvalSetResult and evalcore's run summary. Reading is lenient as ADK's readers
//! are (statuses as names or ADK's integers, camelCase aliases, null as absent, 1.x's
//! `judge_model_options` kept, other unknown fields ignored as ADK ignores them); writing gives
//! evalcore's JSON (statuses as names). ADK's own file text is written from these types by
//! `report::adk_file`.

use super::eval_set::{EvalCase, RubricScore};
use super::invocation::Invocation;
use super::json_path;
use super::result::{Breakdown, CaseOutcome, Cell, Detail, EvalStatus, MetricHeader};
use crate::error::{EvalError, Result};
use serde::de::Deserializer;
use serde::ser::{SerializeStruct, Serializer};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use std::borrow::Cow;

/// `null` read as the type's default (pydantic's optional fields with defaults, as ADK writes them).
fn null_default<'de, D: Deserializer<'de>, T: Deserialize<'de> + Default>(d: D) -> std::result::Result<T, D::Error> {
    Option::<T>::deserialize(d).map(Option::unwrap_or_default)
}

/// An invocation read only from an object (or null), as a `Cow` the writer can also borrow.
fn opt_invocation<'de, 'a, D: Deserializer<'de>>(d: D) -> std::result::Result<Option<Cow<'a, Invocation>>, D::Error> {
    super::de::opt_obj::<D, Invocation>(d).map(|o| o.map(Cow::Owned))
}

/// `expected_invocation`: absent (not written), `null`, or an invocation.
fn opt_opt_invocation<'de, 'a, D: Deserializer<'de>>(
    d: D,
) -> std::result::Result<Option<Option<Cow<'a, Invocation>>>, D::Error> {
    opt_invocation(d).map(Some)
}

/// ADK's token breakdown fields, in its order.
pub const TOKEN_FIELDS: [&str; 8] = [
    "total_tokens",
    "input_tokens",
    "prompt_tokens",
    "cached_tokens",
    "tool_use_tokens",
    "output_tokens",
    "candidates_tokens",
    "reasoning_tokens",
];

/// ADK's duration breakdown fields, in its order.
pub const DURATION_FIELDS: [&str; 4] = ["total_seconds", "model_seconds", "tool_seconds", "framework_seconds"];

fn breakdown<'de, D: Deserializer<'de>, const N: usize>(
    d: D,
    names: &'static [&'static str; N],
) -> std::result::Result<Option<Breakdown<N>>, D::Error> {
    let Some(map) = Option::<Map<String, Value>>::deserialize(d)? else {
        return Ok(None);
    };
    let mut values = [None; N];
    for (name, slot) in names.iter().zip(values.iter_mut()) {
        // Lax as pydantic's float: numbers, booleans, numeric strings.
        *slot = match map.get(*name) {
            Some(Value::Number(n)) => n.as_f64(),
            Some(Value::Bool(b)) => Some(f64::from(u8::from(*b))),
            Some(Value::String(s)) => s.trim().parse().ok(),
            _ => None,
        };
    }
    Ok(Some(Breakdown {
        names,
        values,
        integral: true,
    }))
}

fn token_breakdown<'de, D: Deserializer<'de>>(d: D) -> std::result::Result<Option<Breakdown<8>>, D::Error> {
    breakdown(d, &TOKEN_FIELDS)
}

fn duration_breakdown<'de, D: Deserializer<'de>>(d: D) -> std::result::Result<Option<Breakdown<4>>, D::Error> {
    breakdown(d, &DURATION_FIELDS)
}

/// ADK's EvalMetricResultDetails, with evalcore's `error` and `reason` (why NOT_EVALUATED).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct MetricDetails {
    #[serde(default, alias = "rubricScores")]
    pub rubric_scores: Option<Vec<RubricScore>>,
    #[serde(default, alias = "tokenUsageDetails", deserialize_with = "token_breakdown")]
    pub token_usage_details: Option<Breakdown<8>>,
    #[serde(default, alias = "durationDetails", deserialize_with = "duration_breakdown")]
    pub duration_details: Option<Breakdown<4>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<Cow<'static, str>>,
    /// evalcore: a trajectory metric's explanation of an invocation below 1 (not in ADK's files).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub trajectory: Option<Value>,
}

/// ADK's EvalMetricResult: one metric's score and status, case-level or for one invocation.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct EvalMetricResult {
    #[serde(alias = "metricName")]
    pub metric_name: String,
    #[serde(default, deserialize_with = "super::de::opt_lax_f64")]
    pub threshold: Option<f64>,
    #[serde(default)]
    pub criterion: Option<Value>,
    #[serde(default, alias = "customFunctionPath")]
    pub custom_function_path: Option<String>,
    #[serde(default, deserialize_with = "super::de::opt_lax_f64")]
    pub score: Option<f64>,
    #[serde(alias = "evalStatus")]
    pub eval_status: EvalStatus,
    #[serde(default, deserialize_with = "null_default")]
    pub details: MetricDetails,
    /// ADK 1.x's field (in place of `custom_function_path`), kept as read.
    #[serde(
        default,
        alias = "judgeModelOptions",
        skip_serializing_if = "Option::is_none",
        deserialize_with = "super::de::present"
    )]
    pub judge_model_options: Option<Value>,
}

impl EvalMetricResult {
    fn of(header: &MetricHeader, cell: Cell) -> EvalMetricResult {
        let d = cell.details;
        EvalMetricResult {
            metric_name: header.name.clone(),
            threshold: header.threshold,
            criterion: header.criterion.clone(),
            custom_function_path: None,
            score: cell.score,
            eval_status: cell.status,
            details: MetricDetails {
                rubric_scores: d.rubric_scores,
                token_usage_details: d.token_usage_details,
                duration_details: d.duration_details,
                error: d.error,
                reason: d.reason.map(Cow::Borrowed),
                trajectory: d.trajectory,
            },
            judge_model_options: None,
        }
    }
}

/// ADK's EvalMetricResultPerInvocation. The invocations are borrowed while a fresh result is
/// written (no copy of the eval case), owned when read.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct PerInvocationResult<'a> {
    #[serde(default, alias = "actualInvocation", deserialize_with = "opt_invocation")]
    pub actual_invocation: Option<Cow<'a, Invocation>>,
    /// `None`: not written at all; `Some(None)`: written as null (no expected invocation).
    #[serde(default, alias = "expectedInvocation", deserialize_with = "opt_opt_invocation")]
    pub expected_invocation: Option<Option<Cow<'a, Invocation>>>,
    #[serde(default, alias = "evalMetricResults", deserialize_with = "null_default")]
    pub eval_metric_results: Vec<EvalMetricResult>,
}

impl Serialize for PerInvocationResult<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        let mut st = s.serialize_struct("EvalMetricResultPerInvocation", 3)?;
        if let Some(a) = &self.actual_invocation {
            st.serialize_field("actual_invocation", a)?;
        }
        if let Some(e) = &self.expected_invocation {
            st.serialize_field("expected_invocation", e)?;
        }
        st.serialize_field("eval_metric_results", &self.eval_metric_results)?;
        st.end()
    }
}

/// Why a case has no metric results: the conversation could not be completed.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CaseError {
    #[serde(default, deserialize_with = "null_default")]
    pub code: String,
    #[serde(default, deserialize_with = "null_default")]
    pub message: String,
}

/// ADK's EvalCaseResult, plus evalcore's `run` (which of `numRuns`) and `error`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct EvalCaseResult<'a> {
    #[serde(default, alias = "evalSetFile")]
    pub eval_set_file: Option<String>,
    #[serde(default, alias = "evalSetId", deserialize_with = "null_default")]
    pub eval_set_id: String,
    #[serde(default, alias = "evalId", deserialize_with = "null_default")]
    pub eval_id: String,
    #[serde(alias = "finalEvalStatus")]
    pub final_eval_status: EvalStatus,
    /// Deprecated in ADK (always null there); kept as read.
    #[serde(default, alias = "evalMetricResults")]
    pub eval_metric_results: Option<Value>,
    /// Required in ADK's files (checked by [`read_eval_set_result`]); read as empty when absent.
    #[serde(default, alias = "overallEvalMetricResults", deserialize_with = "null_default")]
    pub overall_eval_metric_results: Vec<EvalMetricResult>,
    /// `None` when case-level results only were asked for (not written).
    #[serde(
        default,
        alias = "evalMetricResultPerInvocation",
        skip_serializing_if = "Option::is_none"
    )]
    pub eval_metric_result_per_invocation: Option<Vec<PerInvocationResult<'a>>>,
    #[serde(default, alias = "sessionId", deserialize_with = "null_default")]
    pub session_id: String,
    #[serde(default, alias = "sessionDetails")]
    pub session_details: Option<Value>,
    #[serde(default, alias = "userId")]
    pub user_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub run: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<CaseError>,
}

impl<'a> EvalCaseResult<'a> {
    /// The result of scoring `actual` against `case`, as much of it as `detail` asks for.
    /// Session id and user come from the case's `session_input` (the run loop sets its own).
    pub fn of(
        eval_set_id: &str,
        case: &'a EvalCase,
        actual: Vec<Cow<'a, Invocation>>,
        outcome: CaseOutcome,
        detail: Detail,
    ) -> EvalCaseResult<'a> {
        let overall = outcome
            .metrics
            .iter()
            .map(|m| EvalMetricResult::of(&m.header, m.overall.clone()))
            .collect();
        let per_invocation = detail.per_invocation.then(|| {
            let mut columns: Vec<Vec<EvalMetricResult>> = actual.iter().map(|_| Vec::new()).collect();
            for m in outcome.metrics {
                for (column, cell) in columns.iter_mut().zip(m.per_invocation) {
                    column.push(EvalMetricResult::of(&m.header, cell));
                }
            }
            let expected = case.conversation.as_deref();
            let mut actual = actual.into_iter();
            columns
                .into_iter()
                .enumerate()
                .map(|(i, eval_metric_results)| {
                    let a = actual.next();
                    PerInvocationResult {
                        actual_invocation: a.filter(|_| detail.invocations),
                        expected_invocation: detail
                            .invocations
                            .then(|| expected.and_then(|e| e.get(i)).map(Cow::Borrowed)),
                        eval_metric_results,
                    }
                })
                .collect()
        });
        let session = case.session_input.as_ref();
        EvalCaseResult {
            eval_set_file: Some(eval_set_id.to_string()),
            eval_set_id: eval_set_id.to_string(),
            eval_id: case.eval_id.clone(),
            final_eval_status: outcome.final_status,
            eval_metric_results: None,
            overall_eval_metric_results: overall,
            eval_metric_result_per_invocation: per_invocation,
            session_id: session.and_then(|s| s.session_id.clone()).unwrap_or_default(),
            session_details: None,
            user_id: session.map(|s| s.user_id.clone()),
            run: None,
            error: None,
        }
    }

    /// A case whose conversation could not be completed: FAILED, no metric results, `error`.
    pub fn failed(eval_set_id: &str, eval_id: &str, code: &str, message: &str) -> EvalCaseResult<'static> {
        EvalCaseResult {
            eval_set_file: Some(eval_set_id.to_string()),
            eval_set_id: eval_set_id.to_string(),
            eval_id: eval_id.to_string(),
            final_eval_status: EvalStatus::Failed,
            eval_metric_results: None,
            overall_eval_metric_results: Vec::new(),
            eval_metric_result_per_invocation: Some(Vec::new()),
            session_id: String::new(),
            session_details: None,
            user_id: None,
            run: None,
            error: Some(CaseError {
                code: code.to_string(),
                message: message.to_string(),
            }),
        }
    }

    /// The same result owning every invocation it borrowed.
    pub fn into_owned(self) -> EvalCaseResult<'static> {
        let own = |c: Cow<'_, Invocation>| Cow::Owned(c.into_owned());
        EvalCaseResult {
            eval_metric_result_per_invocation: self.eval_metric_result_per_invocation.map(|list| {
                list.into_iter()
                    .map(|p| PerInvocationResult {
                        actual_invocation: p.actual_invocation.map(own),
                        expected_invocation: p.expected_invocation.map(|e| e.map(own)),
                        eval_metric_results: p.eval_metric_results,
                    })
                    .collect()
            }),
            eval_set_file: self.eval_set_file,
            eval_set_id: self.eval_set_id,
            eval_id: self.eval_id,
            final_eval_status: self.final_eval_status,
            eval_metric_results: self.eval_metric_results,
            overall_eval_metric_results: self.overall_eval_metric_results,
            session_id: self.session_id,
            session_details: self.session_details,
            user_id: self.user_id,
            run: self.run,
            error: self.error,
        }
    }

    /// This case's per-invocation results (none when they were not written).
    pub fn per_invocation(&self) -> &[PerInvocationResult<'a>] {
        self.eval_metric_result_per_invocation.as_deref().unwrap_or(&[])
    }
}

/// A case run that was not started (cancelled, or the judge budget ran out first).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Skipped {
    pub eval_id: String,
    pub run: u32,
    pub reason: String,
}

/// One metric of one case over every run (SPEC §4.6).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct MetricSummary {
    pub metric_name: String,
    pub threshold: Option<f64>,
    /// Always-on informational metric (or no criterion and no threshold): never fails.
    pub informational: bool,
    /// The case-level score of each run, in run order.
    pub case_scores: Vec<Option<f64>>,
    pub min: Option<f64>,
    pub mean: Option<f64>,
    pub max: Option<f64>,
    pub stddev: Option<f64>,
    /// ADK AgentEvaluator's score: the exact mean of every per-invocation score of every run.
    pub invocation_mean: Option<f64>,
    pub lower_is_better: bool,
    /// ADK AgentEvaluator's verdict on `invocation_mean`; null when informational or unscored.
    pub passed: Option<bool>,
}

/// One case over every run.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CaseSummary {
    pub eval_id: String,
    /// Final statuses in run order.
    pub statuses: Vec<EvalStatus>,
    pub flipped: bool,
    pub inference_failures: usize,
    pub metrics: Vec<MetricSummary>,
}

/// evalcore's summary over `num_runs` runs of an eval set.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RunSummary {
    pub num_runs: u32,
    pub cases: Vec<CaseSummary>,
}

/// Data the core builds as `T` and only carries through reading: written from `T`, read back
/// as the JSON it is (a typed reader would cost wasm size and decide nothing).
#[derive(Debug, Clone, PartialEq)]
pub enum Carried<T> {
    Built(T),
    Read(Value),
}

impl<T: Serialize> Serialize for Carried<T> {
    fn serialize<S: Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        match self {
            Carried::Built(t) => t.serialize(s),
            Carried::Read(v) => v.serialize(s),
        }
    }
}

impl<'de, T> Deserialize<'de> for Carried<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        Value::deserialize(d).map(Carried::Read)
    }
}

/// ADK's EvalSetResult, plus what evalcore adds to a run's result.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct EvalSetResult {
    /// Required in ADK's files (checked by [`read_eval_set_result`]); "" when absent.
    #[serde(default, alias = "evalSetResultId", deserialize_with = "null_default")]
    pub eval_set_result_id: String,
    #[serde(default, alias = "evalSetResultName")]
    pub eval_set_result_name: Option<String>,
    /// Required in ADK's files (checked by [`read_eval_set_result`]); "" when absent.
    #[serde(default, alias = "evalSetId", deserialize_with = "null_default")]
    pub eval_set_id: String,
    #[serde(default, alias = "evalCaseResults", deserialize_with = "null_default")]
    pub eval_case_results: Vec<EvalCaseResult<'static>>,
    #[serde(default, alias = "creationTimestamp", deserialize_with = "null_lax_f64")]
    pub creation_timestamp: f64,
    /// evalcore's summary over several runs (computed by the core; carried through reading).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub run_summary: Option<Carried<RunSummary>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub judge_stats: Option<Value>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub judge_plan: Option<Value>,
    /// Case runs that were not started (written by the run loop, carried through reading).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub skipped: Option<Carried<Vec<Skipped>>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cancelled: Option<bool>,
}

fn null_lax_f64<'de, D: Deserializer<'de>>(d: D) -> std::result::Result<f64, D::Error> {
    super::de::opt_lax_f64(d).map(Option::unwrap_or_default)
}

/// Reads an EvalSetResult file's text: ADK 2.x's plain JSON or 1.x's double-encoded form (a JSON
/// string holding the JSON), snake or camel keys, statuses as names or integers. Errors carry
/// the JSON path of the offending value.
pub fn read_eval_set_result(text: &str) -> Result<EvalSetResult> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let inner: String;
    let text = if first_char(text) == Some('"') {
        // ADK 1.x: `json.dump(result.model_dump_json())`.
        inner = json_path::from_str(text)?;
        inner.strip_prefix('\u{feff}').unwrap_or(&inner)
    } else {
        text
    };
    if first_char(text) != Some('{') {
        let v: Value = json_path::from_str(text)?;
        return Err(EvalError::schema(
            "$",
            format!("expected an EvalSetResult object, found {}", super::config::kind(&v)),
        ));
    }
    let result = json_path::from_str(text)?;
    require_adk_fields(text)?;
    Ok(result)
}

fn first_char(text: &str) -> Option<char> {
    text.trim_start_matches(|c: char| c.is_ascii_whitespace())
        .chars()
        .next()
}

/// The fields ADK's models require that the lenient model reads as empty (a report over partial
/// results still prints): a result file must have them.
fn require_adk_fields(text: &str) -> Result<()> {
    let v: Value = json_path::from_str(text)?;
    let missing =
        |obj: &Value, snake: &str, camel: &str| obj.get(snake).or_else(|| obj.get(camel)).is_none_or(Value::is_null);
    for (snake, camel) in [("eval_set_result_id", "evalSetResultId"), ("eval_set_id", "evalSetId")] {
        if missing(&v, snake, camel) {
            return Err(EvalError::schema(
                format!("$.{snake}"),
                format!("missing field `{snake}`: an EvalSetResult names itself and its eval set"),
            ));
        }
    }
    let cases = v.get("eval_case_results").or_else(|| v.get("evalCaseResults"));
    for (i, case) in cases.and_then(Value::as_array).into_iter().flatten().enumerate() {
        if missing(case, "overall_eval_metric_results", "overallEvalMetricResults") {
            return Err(EvalError::schema(
                format!("$.eval_case_results[{i}].overall_eval_metric_results"),
                "missing field `overall_eval_metric_results`: an EvalCaseResult lists its metric results",
            ));
        }
    }
    Ok(())
}

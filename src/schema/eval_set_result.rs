//! ADK's EvalSetResult (what evalcore adds to it beside), and the reader of its files: 2.x's
//! plain JSON or 1.x's double-encoded text, with the fields ADK's models require checked apart.

use super::eval_result::{null_default, EvalCaseResult};
use super::json_path;
use super::run_summary::{JudgePlan, JudgeStats, RunSummary, Skipped};
use crate::error::{EvalError, Result};
use serde::de::Deserializer;
use serde::ser::Serializer;
use serde::{Deserialize, Serialize};
use serde_json::Value;

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
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct EvalSetResult {
    /// Required in ADK's files: reading a file without it is an error.
    #[serde(default, alias = "evalSetResultId", deserialize_with = "null_default")]
    pub eval_set_result_id: String,
    #[serde(default, alias = "evalSetResultName")]
    pub eval_set_result_name: Option<String>,
    /// Required in ADK's files: reading a file without it is an error.
    #[serde(default, alias = "evalSetId", deserialize_with = "null_default")]
    pub eval_set_id: String,
    #[serde(default, alias = "evalCaseResults", deserialize_with = "null_default")]
    pub eval_case_results: Vec<EvalCaseResult<'static>>,
    #[serde(default, alias = "creationTimestamp", deserialize_with = "null_lax_f64")]
    pub creation_timestamp: f64,
    /// evalcore's summary over several runs (computed by the core; carried through reading).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(as = "Option<RunSummary>"))]
    pub run_summary: Option<Carried<RunSummary>>,
    /// The judge's counters for the run (computed by the core; carried through reading).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(as = "Option<JudgeStats>"))]
    pub judge_stats: Option<Carried<JudgeStats>>,
    /// With a dry run: the judge calls the run would have made.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(as = "Option<JudgePlan>"))]
    pub judge_plan: Option<Carried<JudgePlan>>,
    /// Case runs that were not started (written by the run loop, carried through reading).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(as = "Option<Vec<Skipped>>"))]
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
            format!("expected an EvalSetResult object, found {}", super::value::kind(&v)),
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
/// results still prints): a result file must have them. Read in a second, skimming pass that
/// keeps only whether each is there (no value of the file is built, so it costs a fraction of
/// the typed read).
fn require_adk_fields(text: &str) -> Result<()> {
    use serde::de::IgnoredAny;
    /// `Some` when the key is there and not null.
    fn present<'de, D: Deserializer<'de>>(d: D) -> std::result::Result<bool, D::Error> {
        Option::<IgnoredAny>::deserialize(d).map(|v| v.is_some())
    }
    #[derive(Deserialize)]
    struct Case {
        #[serde(default, alias = "overallEvalMetricResults", deserialize_with = "present")]
        overall_eval_metric_results: bool,
    }
    #[derive(Deserialize)]
    struct Shape {
        #[serde(default, alias = "evalSetResultId", deserialize_with = "present")]
        eval_set_result_id: bool,
        #[serde(default, alias = "evalSetId", deserialize_with = "present")]
        eval_set_id: bool,
        #[serde(default, alias = "evalCaseResults")]
        eval_case_results: Option<Vec<Case>>,
    }
    let shape: Shape = json_path::from_str(text)?;
    for (there, snake) in [
        (shape.eval_set_result_id, "eval_set_result_id"),
        (shape.eval_set_id, "eval_set_id"),
    ] {
        if !there {
            return Err(EvalError::schema(
                format!("$.{snake}"),
                format!("missing field `{snake}`: an EvalSetResult names itself and its eval set"),
            ));
        }
    }
    for (i, case) in shape.eval_case_results.iter().flatten().enumerate() {
        if !case.overall_eval_metric_results {
            return Err(EvalError::schema(
                format!("$.eval_case_results[{i}].overall_eval_metric_results"),
                "missing field `overall_eval_metric_results`: an EvalCaseResult lists its metric results",
            ));
        }
    }
    Ok(())
}

//! ADK's result model, read and written: EvalMetricResult, the per-invocation results,
//! EvalCaseResult, EvalSetResult and evalcore's run summary. Reading is lenient as ADK's readers
//! are (statuses as names or ADK's integers, camelCase aliases, null as absent, 1.x's
//! `judge_model_options` kept, other unknown fields ignored as ADK ignores them); writing gives
//! evalcore's JSON (statuses as names). ADK's own file text is written from these types by
//! `report::adk_file`.

use super::eval_set::EvalCase;
use super::invocation::Invocation;
use super::result::{Breakdown, CaseOutcome, Cell, Detail, Details, EvalStatus, MetricHeader, SentenceLabel};
use super::rubric::RubricScore;
use serde::de::Deserializer;
use serde::ser::{SerializeStruct, Serializer};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use std::borrow::Cow;

pub use super::eval_set_result::{read_eval_set_result, Carried, EvalSetResult};
pub use super::run_summary::{
    CaseSummary, JudgePlan, JudgeStats, MetricSummary, PlannedCall, ReasonCounts, RunSummary, Skipped,
};

/// `null` read as the type's default (pydantic's optional fields with defaults, as ADK writes them).
pub(super) fn null_default<'de, D: Deserializer<'de>, T: Deserialize<'de> + Default>(
    d: D,
) -> std::result::Result<T, D::Error> {
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
            Some(Value::String(s)) => super::value::parse_f64(s.trim()),
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
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(rename = "EvalMetricResultDetails"))]
pub struct MetricDetails {
    #[serde(default, alias = "rubricScores")]
    pub rubric_scores: Option<Vec<RubricScore>>,
    #[serde(default, alias = "tokenUsageDetails", deserialize_with = "token_breakdown")]
    #[cfg_attr(feature = "ts", ts(type = "TokenUsageDetails | null"))]
    pub token_usage_details: Option<Breakdown<8>>,
    #[serde(default, alias = "durationDetails", deserialize_with = "duration_breakdown")]
    #[cfg_attr(feature = "ts", ts(type = "DurationDetails | null"))]
    pub duration_details: Option<Breakdown<4>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<Cow<'static, str>>,
    /// evalcore: a trajectory metric's explanation of an invocation below 1 (not in ADK's files).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(as = "Option<ts_shapes::TrajectoryExplanation>", optional))]
    pub trajectory: Option<Value>,
    /// evalcore: hallucinations_v1's labelled sentences of the invocation (not in ADK's files).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub sentences: Option<Vec<SentenceLabel>>,
}

/// The TypeScript shape of `details.trajectory`, which `metrics::explain` writes as JSON.
#[cfg(feature = "ts")]
#[allow(dead_code)] // shapes for the generator only: never built
mod ts_shapes {
    use serde_json::Value;

    /// One argument that failed its policy. Values are absent when the argument is.
    #[derive(ts_rs::TS)]
    pub struct ArgFailure {
        arg: String,
        policy: String,
        why: String,
        #[ts(optional)]
        expected: Option<Value>,
        #[ts(optional)]
        actual: Option<Value>,
    }

    /// An expected call: the actual call it paired with (0-based), or the `nearest` call to the
    /// same tool and why it did not pair.
    #[derive(ts_rs::TS)]
    pub struct ExpectedCall {
        index: u32,
        tool: Option<String>,
        actual: Option<u32>,
        #[ts(optional)]
        nearest: Option<u32>,
        #[ts(optional)]
        why: Option<String>,
        #[ts(optional)]
        score: Option<f64>,
        #[ts(optional)]
        args: Option<Vec<ArgFailure>>,
    }

    /// An actual call paired with no expected call.
    #[derive(ts_rs::TS)]
    pub struct UnpairedCall {
        index: u32,
        tool: Option<String>,
    }

    /// A trajectory metric's explanation of one invocation it scored below 1: per expected call
    /// the actual call it paired with, or the nearest call to the same tool and its failing
    /// arguments; then the actual calls paired with nothing. `lines` says the same in words
    /// (call numbers 1-based).
    #[derive(ts_rs::TS)]
    pub struct TrajectoryExplanation {
        #[ts(optional)]
        match_type: Option<String>,
        #[ts(optional)]
        alignment: Option<String>,
        #[ts(optional)]
        note: Option<String>,
        #[ts(optional)]
        matched: Option<u32>,
        expected: Vec<ExpectedCall>,
        unpaired_actual: Vec<UnpairedCall>,
        /// SUPERSET only: the actual calls no expected call agrees with (what it failed on).
        #[ts(optional)]
        outside_expected: Option<Vec<u32>>,
        lines: Vec<String>,
    }
}

/// ADK's EvalMetricResult: one metric's score and status, case-level or for one invocation.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct EvalMetricResult {
    #[serde(alias = "metricName")]
    pub metric_name: String,
    #[serde(default, deserialize_with = "super::de::opt_lax_f64")]
    pub threshold: Option<f64>,
    #[serde(default)]
    #[cfg_attr(feature = "ts", ts(type = "Criterion | null"))]
    pub criterion: Option<Value>,
    #[serde(default, alias = "customFunctionPath")]
    pub custom_function_path: Option<String>,
    #[serde(default, deserialize_with = "super::de::opt_lax_f64")]
    pub score: Option<f64>,
    #[serde(alias = "evalStatus")]
    #[cfg_attr(feature = "ts", ts(type = "EvalStatus"))]
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

impl MetricDetails {
    /// The written form of a metric's computed details.
    pub fn of(d: Details) -> MetricDetails {
        MetricDetails {
            rubric_scores: d.rubric_scores,
            token_usage_details: d.token_usage_details,
            duration_details: d.duration_details,
            error: d.error,
            reason: d.reason.map(Cow::Borrowed),
            trajectory: d.trajectory,
            sentences: d.sentences,
        }
    }
}

impl EvalMetricResult {
    /// A fresh result: the metric's header with one cell's score, status and details.
    pub fn of(header: &MetricHeader, cell: Cell) -> EvalMetricResult {
        EvalMetricResult {
            metric_name: header.name.clone(),
            threshold: header.threshold,
            criterion: header.criterion.clone(),
            custom_function_path: None,
            score: cell.score,
            eval_status: cell.status,
            details: MetricDetails::of(cell.details.into_details()),
            judge_model_options: None,
        }
    }
}

/// ADK's EvalMetricResultPerInvocation: one invocation's metric results, with the actual and
/// expected invocations they were computed from.
// The invocations are borrowed while a fresh result is written (no copy of the eval case),
// owned when read.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(rename = "EvalMetricResultPerInvocation"))]
pub struct PerInvocationResult<'a> {
    #[serde(default, alias = "actualInvocation", deserialize_with = "opt_invocation")]
    #[cfg_attr(feature = "ts", ts(optional = nullable))]
    pub actual_invocation: Option<Cow<'a, Invocation>>,
    /// Null when the case has no expected invocation (a conversation scenario).
    // `None`: not written at all; `Some(None)`: written as null.
    #[serde(default, alias = "expectedInvocation", deserialize_with = "opt_opt_invocation")]
    #[cfg_attr(feature = "ts", ts(type = "Invocation | null", optional))]
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
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct CaseError {
    #[serde(default, deserialize_with = "null_default")]
    pub code: String,
    #[serde(default, deserialize_with = "null_default")]
    pub message: String,
    /// The (1-based) turn the agent failed on.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub turn: Option<u32>,
    /// The JavaScript stack of what the agent threw, when it threw an Error.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stack: Option<String>,
}

/// An invocation a metric could not evaluate in a case it scored on its other invocations
/// (evalcore addition). ADK averages over the evaluated invocations and says nothing of the
/// others; evalcore counts each one wherever a NOT_EVALUATED metric result counts.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct UnevaluatedInvocation {
    pub metric_name: String,
    /// 0-based, as the case's per-invocation results are.
    pub invocation_index: u32,
    /// The cell's `details.reason` (`judge_error`, `cassette_miss`, ...).
    pub reason: &'static str,
    pub error: Option<String>,
}

impl UnevaluatedInvocation {
    /// The invocations of `outcome` left NOT_EVALUATED by a metric that still scored the case
    /// (a case-level NOT_EVALUATED metric counts once, as itself), leaving out those its
    /// metric does not evaluate by design (`Details::by_design`).
    fn of_outcome(outcome: &CaseOutcome) -> Vec<UnevaluatedInvocation> {
        let scored = |s: EvalStatus| matches!(s, EvalStatus::Passed | EvalStatus::Failed);
        let mut out = Vec::new();
        for m in outcome.metrics.iter().filter(|m| scored(m.overall.status)) {
            for (i, cell) in m.per_invocation.iter().enumerate() {
                if cell.status != EvalStatus::NotEvaluated || cell.details.by_design() {
                    continue;
                }
                out.push(UnevaluatedInvocation {
                    metric_name: m.header.name.clone(),
                    invocation_index: u32::try_from(i).unwrap_or(u32::MAX),
                    reason: cell.details.reason.unwrap_or("unknown"),
                    error: cell.details.error.clone(),
                });
            }
        }
        out
    }
}

/// ADK's EvalCaseResult, plus evalcore's `run` (which of `numRuns`), `error` and
/// `not_evaluated_invocations`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct EvalCaseResult<'a> {
    #[serde(default, alias = "evalSetFile")]
    pub eval_set_file: Option<String>,
    #[serde(default, alias = "evalSetId", deserialize_with = "null_default")]
    pub eval_set_id: String,
    #[serde(default, alias = "evalId", deserialize_with = "null_default")]
    pub eval_id: String,
    #[serde(alias = "finalEvalStatus")]
    #[cfg_attr(feature = "ts", ts(type = "EvalStatus"))]
    pub final_eval_status: EvalStatus,
    /// Deprecated in ADK (always null there); kept as read.
    #[serde(default, alias = "evalMetricResults")]
    pub eval_metric_results: Option<Value>,
    /// Required in ADK's files: reading a file without it is an error.
    #[serde(default, alias = "overallEvalMetricResults", deserialize_with = "null_default")]
    pub overall_eval_metric_results: Vec<EvalMetricResult>,
    /// Absent when only case-level results were asked for.
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
    /// The invocations a metric that scored the case could not evaluate (absent when none;
    /// computed by the core, carried through reading).
    #[serde(default, alias = "notEvaluatedInvocations", skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(as = "Option<Vec<UnevaluatedInvocation>>", optional = nullable))]
    pub not_evaluated_invocations: Option<Carried<Vec<UnevaluatedInvocation>>>,
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
        let unevaluated = UnevaluatedInvocation::of_outcome(&outcome);
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
            not_evaluated_invocations: (!unevaluated.is_empty()).then_some(Carried::Built(unevaluated)),
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
                turn: None,
                stack: None,
            }),
            not_evaluated_invocations: None,
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
            not_evaluated_invocations: self.not_evaluated_invocations,
        }
    }

    /// This case's per-invocation results (none when they were not written).
    pub fn per_invocation(&self) -> &[PerInvocationResult<'a>] {
        self.eval_metric_result_per_invocation.as_deref().unwrap_or(&[])
    }

    /// How many invocations `metric` could not evaluate while it scored this case.
    pub fn unevaluated_of(&self, metric: &str) -> usize {
        match &self.not_evaluated_invocations {
            None => 0,
            Some(Carried::Built(list)) => list.iter().filter(|u| u.metric_name == metric).count(),
            Some(Carried::Read(v)) => v.as_array().map_or(0, |list| {
                list.iter()
                    .filter(|u| u.get("metric_name").and_then(Value::as_str) == Some(metric))
                    .count()
            }),
        }
    }
}

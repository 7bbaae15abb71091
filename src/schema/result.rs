//! ADK's result shapes: statuses, metric results (overall and per invocation), case results.

use super::eval_set::{EvalCase, RubricScore};
use super::invocation::Invocation;
use serde::{Serialize, Serializer};
use serde_json::Value;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EvalStatus {
    Passed,
    Failed,
    NotEvaluated,
    Informational,
}

impl EvalStatus {
    pub fn as_str(self) -> &'static str {
        match self {
            EvalStatus::Passed => "PASSED",
            EvalStatus::Failed => "FAILED",
            EvalStatus::NotEvaluated => "NOT_EVALUATED",
            EvalStatus::Informational => "INFORMATIONAL",
        }
    }
    /// ADK's integer value, used in result files.
    pub fn as_int(self) -> u8 {
        match self {
            EvalStatus::Passed => 1,
            EvalStatus::Failed => 2,
            EvalStatus::NotEvaluated => 3,
            EvalStatus::Informational => 4,
        }
    }
}

impl Serialize for EvalStatus {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

/// `details` of a metric result. `error`/`reason` say why a metric is NOT_EVALUATED (evalcore addition).
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Details {
    pub rubric_scores: Option<Vec<RubricScore>>,
    pub token_usage_details: Option<Breakdown<8>>,
    pub duration_details: Option<Breakdown<4>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<&'static str>,
}

/// A fixed set of named, nullable numbers (token usage or duration details), written as an object
/// without building a JSON map per invocation.
#[derive(Debug, Clone, PartialEq)]
pub struct Breakdown<const N: usize> {
    pub names: &'static [&'static str; N],
    pub values: [Option<f64>; N],
    /// Write whole numbers as integers (ADK's per-invocation token counts are ints).
    pub integral: bool,
}

impl<const N: usize> Serialize for Breakdown<N> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut m = s.serialize_map(Some(N))?;
        for (name, v) in self.names.iter().zip(self.values.iter()) {
            match v {
                Some(x) if self.integral && x.fract() == 0.0 && x.abs() < 9.0e15 => {
                    m.serialize_entry(name, &(*x as i64))?
                }
                other => m.serialize_entry(name, other)?,
            }
        }
        m.end()
    }
}

/// One score with its status (a case-level or an invocation-level cell).
#[derive(Debug, Clone, PartialEq)]
pub struct Cell {
    pub score: Option<f64>,
    pub status: EvalStatus,
    pub details: Details,
}

impl Cell {
    pub fn new(score: Option<f64>, status: EvalStatus) -> Cell {
        Cell {
            score,
            status,
            details: Details::default(),
        }
    }
    pub fn not_evaluated(reason: &'static str, message: String) -> Cell {
        Cell {
            score: None,
            status: EvalStatus::NotEvaluated,
            details: Details {
                error: Some(message),
                reason: Some(reason),
                ..Details::default()
            },
        }
    }
}

/// What a metric is, as configured: name, threshold, criterion dump.
#[derive(Debug, Clone, PartialEq)]
pub struct MetricHeader {
    pub name: String,
    pub threshold: Option<f64>,
    pub criterion: Option<Value>,
}

/// One metric's results for a case: the overall cell and one cell per actual invocation.
#[derive(Debug, Clone, PartialEq)]
pub struct MetricRun {
    pub header: MetricHeader,
    pub overall: Cell,
    pub per_invocation: Vec<Cell>,
}

/// Everything computed for one case.
#[derive(Debug, Clone, PartialEq)]
pub struct CaseOutcome {
    pub metrics: Vec<MetricRun>,
    pub final_status: EvalStatus,
}

#[derive(Serialize)]
struct MetricResultView<'a> {
    metric_name: &'a str,
    threshold: Option<f64>,
    criterion: &'a Option<Value>,
    custom_function_path: Option<&'a str>,
    score: Option<f64>,
    eval_status: EvalStatus,
    details: &'a Details,
}

fn view<'a>(h: &'a MetricHeader, c: &'a Cell) -> MetricResultView<'a> {
    MetricResultView {
        metric_name: &h.name,
        threshold: h.threshold,
        criterion: &h.criterion,
        custom_function_path: None,
        score: c.score,
        eval_status: c.status,
        details: &c.details,
    }
}

struct Overall<'a>(&'a [MetricRun]);
impl Serialize for Overall<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.0.iter().map(|m| view(&m.header, &m.overall)))
    }
}

struct AtInvocation<'a>(&'a [MetricRun], usize);
impl Serialize for AtInvocation<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(
            self.0
                .iter()
                .filter_map(|m| m.per_invocation.get(self.1).map(|c| view(&m.header, c))),
        )
    }
}

#[derive(Serialize)]
struct PerInvocationView<'a> {
    #[serde(skip_serializing_if = "Option::is_none")]
    actual_invocation: Option<&'a Invocation>,
    #[serde(skip_serializing_if = "Skip::skip")]
    expected_invocation: Skip<Option<&'a Invocation>>,
    eval_metric_results: AtInvocation<'a>,
}

/// A field that is omitted entirely (not written as null) when `.1` is true.
struct Skip<T>(T, bool);
impl<T> Skip<T> {
    fn skip(&self) -> bool {
        self.1
    }
}
impl<T: Serialize> Serialize for Skip<T> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.0.serialize(s)
    }
}

struct PerInvocation<'a> {
    outcome: &'a CaseOutcome,
    actual: &'a [Invocation],
    expected: Option<&'a [Invocation]>,
    include: bool,
    omit: bool,
}
impl PerInvocation<'_> {
    fn omitted(&self) -> bool {
        self.omit
    }
}
impl Serialize for PerInvocation<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.actual.iter().enumerate().map(|(i, a)| PerInvocationView {
            actual_invocation: self.include.then_some(a),
            expected_invocation: Skip(self.expected.and_then(|e| e.get(i)), !self.include),
            eval_metric_results: AtInvocation(&self.outcome.metrics, i),
        }))
    }
}

#[derive(Serialize)]
struct CaseResultView<'a> {
    eval_set_file: &'a str,
    eval_set_id: &'a str,
    eval_id: &'a str,
    final_eval_status: EvalStatus,
    eval_metric_results: Option<()>,
    overall_eval_metric_results: Overall<'a>,
    #[serde(skip_serializing_if = "PerInvocation::omitted")]
    eval_metric_result_per_invocation: PerInvocation<'a>,
    session_id: &'a str,
    session_details: Option<()>,
    user_id: Option<&'a str>,
}

/// How much of a case result to write.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Detail {
    /// Echo `actual_invocation` / `expected_invocation` in each per-invocation entry.
    pub invocations: bool,
    /// Write `eval_metric_result_per_invocation` at all (false: case-level results only).
    pub per_invocation: bool,
}

impl Default for Detail {
    fn default() -> Self {
        Detail {
            invocations: true,
            per_invocation: true,
        }
    }
}

/// Serialises ADK's EvalCaseResult (statuses as names), as much of it as `detail` asks for.
pub fn case_result_json(
    eval_set_id: &str,
    case: &EvalCase,
    actual: &[Invocation],
    outcome: &CaseOutcome,
    detail: Detail,
) -> String {
    let session = case.session_input.as_ref();
    let v = CaseResultView {
        eval_set_file: eval_set_id,
        eval_set_id,
        eval_id: &case.eval_id,
        final_eval_status: outcome.final_status,
        eval_metric_results: None,
        overall_eval_metric_results: Overall(&outcome.metrics),
        eval_metric_result_per_invocation: PerInvocation {
            outcome,
            actual,
            expected: case.conversation.as_deref(),
            include: detail.invocations,
            omit: !detail.per_invocation,
        },
        session_id: session.and_then(|s| s.session_id.as_deref()).unwrap_or(""),
        session_details: None,
        user_id: session.map(|s| s.user_id.as_str()),
    };
    serde_json::to_string(&v).unwrap_or_else(|_| "null".to_string())
}

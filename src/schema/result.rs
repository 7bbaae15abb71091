//! What a metric computes: statuses, cells (a score with its status and details), a metric's
//! run over a case and the case outcome. The result model read and written from them is
//! `eval_result`.

use super::rubric::RubricScore;
use serde::de::{self, Deserializer, Visitor};
use serde::{Deserialize, Serialize, Serializer};
use serde_json::Value;
use std::fmt;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EvalStatus {
    Passed,
    Failed,
    NotEvaluated,
    Informational,
}

impl EvalStatus {
    pub const ALL: [EvalStatus; 4] = [
        EvalStatus::Passed,
        EvalStatus::Failed,
        EvalStatus::NotEvaluated,
        EvalStatus::Informational,
    ];

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

impl<'de> Deserialize<'de> for EvalStatus {
    fn deserialize<D: Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        struct V;
        impl Visitor<'_> for V {
            type Value = EvalStatus;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str(STATUS_EXPECTED)
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> std::result::Result<EvalStatus, E> {
                EvalStatus::from_int(v).ok_or_else(|| E::custom(format!("{STATUS_EXPECTED}, found the number {v}")))
            }
            fn visit_str<E: de::Error>(self, v: &str) -> std::result::Result<EvalStatus, E> {
                EvalStatus::from_name(v).ok_or_else(|| E::custom(format!("{STATUS_EXPECTED}, found the string {v:?}")))
            }
        }
        d.deserialize_any(V)
    }
}

const STATUS_EXPECTED: &str =
    "expected an eval status (\"PASSED\", \"FAILED\", \"NOT_EVALUATED\", \"INFORMATIONAL\" or 1-4)";

impl EvalStatus {
    /// ADK's integer value (1-4).
    pub fn from_int(v: u64) -> Option<EvalStatus> {
        match v {
            1 => Some(EvalStatus::Passed),
            2 => Some(EvalStatus::Failed),
            3 => Some(EvalStatus::NotEvaluated),
            4 => Some(EvalStatus::Informational),
            _ => None,
        }
    }

    /// A status name in any case, also as Python prints the enum (`EvalStatus.PASSED`).
    pub fn from_name(s: &str) -> Option<EvalStatus> {
        let s = s.trim();
        let s = match s.get(..11) {
            Some(head) if head.eq_ignore_ascii_case("EvalStatus.") => s.get(11..).unwrap_or(""),
            _ => s,
        };
        [
            EvalStatus::Passed,
            EvalStatus::Failed,
            EvalStatus::NotEvaluated,
            EvalStatus::Informational,
        ]
        .into_iter()
        .find(|st| st.as_str().eq_ignore_ascii_case(s))
    }
}

impl Serialize for EvalStatus {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

/// `details` of a metric result. `error`/`reason` say why a metric is NOT_EVALUATED (evalcore addition).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Details {
    pub rubric_scores: Option<Vec<RubricScore>>,
    pub token_usage_details: Option<Breakdown<8>>,
    pub duration_details: Option<Breakdown<4>>,
    pub error: Option<String>,
    pub reason: Option<&'static str>,
    /// evalcore: why a trajectory metric's invocation scored below 1 (which expected call paired
    /// with which actual one, which argument failed under which policy), written as `trajectory`.
    pub trajectory: Option<Value>,
    /// evalcore: hallucinations_v1's labelled sentences, written as `sentences`.
    pub sentences: Option<Vec<SentenceLabel>>,
}

/// NOT_EVALUATED reasons of an invocation its metric does not evaluate by design: the
/// conversation is judged at its last turn, the invocation has nothing of the kind the metric
/// scores (no response text, no expected calls), or the metric gives only a case-level result.
/// They are not a failure to evaluate, so they are not counted as one.
pub const BY_DESIGN: [&str; 4] = [
    "judged_at_last_turn",
    "nothing_to_judge",
    "no_expected_calls",
    "no_per_invocation_result",
];

impl Details {
    /// Whether a NOT_EVALUATED cell with these details was left so by its metric's design.
    pub fn by_design(&self) -> bool {
        self.reason.is_some_and(|r| BY_DESIGN.contains(&r))
    }
}

/// A sentence of a response as the hallucination validator labelled it (evalcore addition: ADK
/// keeps only the score).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct SentenceLabel {
    /// Which response of the invocation (0-based: intermediate responses first, the final one last).
    pub response: u32,
    pub sentence: String,
    /// `supported`, `unsupported`, `contradictory`, `disputed` or `not_applicable`.
    #[cfg_attr(
        feature = "ts",
        ts(type = "\"supported\" | \"unsupported\" | \"contradictory\" | \"disputed\" | \"not_applicable\"")
    )]
    pub label: String,
    #[serde(default)]
    pub rationale: String,
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

/// No details: what most cells hold.
static NO_DETAILS: Details = Details {
    rubric_scores: None,
    token_usage_details: None,
    duration_details: None,
    error: None,
    reason: None,
    trajectory: None,
    sentences: None,
};

/// A cell's details, boxed on the first write: most cells have none, and a 10,000-invocation
/// metric would otherwise write (and compare, and drop) some 3 MB of empty fields. Reads see
/// [`Details`]; a write through `DerefMut` allocates them.
#[derive(Debug, Clone, Default)]
pub struct CellDetails(Option<Box<Details>>);

impl CellDetails {
    /// True when every field is empty (however it got there).
    pub fn is_empty(&self) -> bool {
        self.0.as_deref().is_none_or(|d| *d == NO_DETAILS)
    }

    pub fn into_details(self) -> Details {
        self.0.map(|b| *b).unwrap_or_default()
    }
}

impl From<Details> for CellDetails {
    fn from(d: Details) -> Self {
        CellDetails(Some(Box::new(d)))
    }
}

impl std::ops::Deref for CellDetails {
    type Target = Details;
    fn deref(&self) -> &Details {
        self.0.as_deref().unwrap_or(&NO_DETAILS)
    }
}

impl std::ops::DerefMut for CellDetails {
    fn deref_mut(&mut self) -> &mut Details {
        self.0.get_or_insert_with(Box::default)
    }
}

impl PartialEq for CellDetails {
    fn eq(&self, other: &Self) -> bool {
        **self == **other
    }
}

/// One score with its status (a case-level or an invocation-level cell).
#[derive(Debug, Clone, PartialEq)]
pub struct Cell {
    pub score: Option<f64>,
    pub status: EvalStatus,
    pub details: CellDetails,
}

impl Cell {
    pub fn new(score: Option<f64>, status: EvalStatus) -> Cell {
        Cell {
            score,
            status,
            details: CellDetails::default(),
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
            }
            .into(),
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

/// How much of a case result to write.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Detail {
    /// Echo `actual_invocation` / `expected_invocation` in each per-invocation entry.
    pub invocations: bool,
    /// Write `eval_metric_result_per_invocation` at all (false: case-level results only).
    pub per_invocation: bool,
    /// With per-invocation results: explain each trajectory mismatch (`details.trajectory`).
    pub explain: bool,
}

impl Detail {
    /// Whether metrics compute per-invocation explanations.
    pub fn explains(&self) -> bool {
        self.per_invocation && self.explain
    }
}

impl Default for Detail {
    fn default() -> Self {
        Detail {
            invocations: true,
            per_invocation: true,
            explain: true,
        }
    }
}

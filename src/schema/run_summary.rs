//! What evalcore adds to a run's EvalSetResult: the summary over several runs (SPEC §4.6), the
//! judge's counters, a dry run's planned judge calls, and the case runs that were not started.

use super::result::EvalStatus;
use serde::ser::Serializer;
use serde::Serialize;

/// A case run that was not started (cancelled, or the judge budget ran out first).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Skipped {
    pub eval_id: String,
    pub run: u32,
    #[cfg_attr(feature = "ts", ts(type = "\"budget_exhausted\" | \"cancelled\""))]
    pub reason: String,
}

/// One metric of one case over every run (SPEC §4.6).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(rename = "RunMetricSummary"))]
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
    /// The metric's NOT_EVALUATED results over every run (evalcore addition): runs whose
    /// case-level result is NOT_EVALUATED, plus the invocations it could not evaluate in the
    /// runs it scored (`not_evaluated_invocations`). ADK's verdict leaves them out.
    pub not_evaluated: u32,
}

/// One case over every run.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(rename = "RunCaseSummary"))]
pub struct CaseSummary {
    pub eval_id: String,
    /// Final statuses in run order.
    #[cfg_attr(feature = "ts", ts(type = "EvalStatus[]"))]
    pub statuses: Vec<EvalStatus>,
    pub flipped: bool,
    pub inference_failures: usize,
    pub metrics: Vec<MetricSummary>,
}

/// evalcore's summary over `num_runs` runs of an eval set.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct RunSummary {
    pub num_runs: u32,
    pub cases: Vec<CaseSummary>,
}

/// A run's judge counters (evalcore addition).
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct JudgeStats {
    /// Judge calls the metrics asked for.
    pub requests: u64,
    /// Calls sent to the judge (not answered from the cassette or the run's memo); each took
    /// at least one of the `attempts`.
    pub sent: u64,
    pub attempts: u64,
    pub retries: u64,
    pub cassette_hits: u64,
    /// Identical calls answered once within the run.
    pub deduplicated: u64,
    /// Calls that got an answer: from the judge, the cassette or an identical call of the run.
    pub answered: u64,
    /// Calls the judge was sent that failed there (HTTP error, timeout, unreadable reply).
    pub failures: u64,
    /// Calls never sent, by their NOT_EVALUATED reason (`cassette_miss`, `budget_exhausted`,
    /// `dry_run`, `judge_error` for a judge found unreachable, ...). Every call asked for is
    /// answered, failed or not sent: `requests = answered + failures + Σ not_sent`.
    #[cfg_attr(feature = "ts", ts(type = "Record<string, number>"))]
    pub not_sent: ReasonCounts,
    /// `maxCalls` was reached: later calls were NOT_EVALUATED (reason `budget_exhausted`).
    pub budget_exhausted: bool,
}

/// Counts by NOT_EVALUATED reason, written as an object `{reason: count}` in the order the
/// reasons first came (a handful of them: a list is smaller in wasm than a map type).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ReasonCounts(Vec<(&'static str, u64)>);

impl ReasonCounts {
    pub fn add(&mut self, reason: &'static str) {
        match self.0.iter_mut().find(|(r, _)| *r == reason) {
            Some((_, n)) => *n += 1,
            None => self.0.push((reason, 1)),
        }
    }

    /// The count of `reason` (0 when it never came).
    pub fn get(&self, reason: &str) -> u64 {
        self.0.iter().find(|(r, _)| *r == reason).map_or(0, |(_, n)| *n)
    }

    pub fn total(&self) -> u64 {
        self.0.iter().map(|(_, n)| n).sum()
    }
}

impl Serialize for ReasonCounts {
    fn serialize<S: Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut m = s.serialize_map(Some(self.0.len()))?;
        for (reason, n) in &self.0 {
            m.serialize_entry(reason, n)?;
        }
        m.end()
    }
}

/// One judge call a dry run listed instead of sending.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct PlannedCall {
    pub metric: String,
    pub invocation_index: usize,
    pub sample: u32,
    #[cfg_attr(
        feature = "ts",
        ts(type = "\"judge\" | \"segmenter\" | \"validator\" | \"simulator\"")
    )]
    pub kind: &'static str,
    pub provider: &'static str,
    pub model: String,
    /// The cassette key: a batching host hands replies back as cassette entries under it.
    pub key: String,
    pub estimated_tokens: u64,
    /// The request a batching host would send itself (its own auth headers added).
    pub url: String,
    pub body: String,
}

/// A dry run's listed judge calls.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct JudgePlan {
    pub count: usize,
    pub estimated_tokens: u64,
    pub calls: Vec<PlannedCall>,
    /// hallucinations_v1 validator calls depend on segmenter answers: at most this many more.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pending_validator_calls_at_most: Option<usize>,
}

impl JudgePlan {
    pub fn of(calls: Vec<PlannedCall>) -> JudgePlan {
        JudgePlan {
            count: calls.len(),
            estimated_tokens: calls.iter().map(|c| c.estimated_tokens).sum(),
            calls,
            pending_validator_calls_at_most: None,
        }
    }
}

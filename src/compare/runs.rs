//! Two sides of runs compared as COMPARE.md defines it: each case's score per metric (the mean
//! over its PASSED/FAILED runs), paired statistics per metric with Holm's adjustment, pass/fail
//! flips with McNemar's exact test, each case's change and the verdict.

use super::stats::{holm, mcnemar_exact, mean, paired_t};
use crate::schema::eval_result::{EvalCaseResult, EvalSetResult};
use crate::schema::result::EvalStatus;
use indexmap::IndexMap;
use serde::Serialize;
use std::collections::BTreeMap;

/// Which side of a comparison.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Side {
    Baseline,
    Candidate,
}

/// What happened to a case between the sides.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Change {
    Added,
    Removed,
    NotComparable,
    Regressed,
    Improved,
    Unchanged,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    Regressed,
    Improved,
    NoSignificantChange,
}

/// One metric of one case: its score on each side and the difference.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CaseMetric {
    pub baseline: Option<f64>,
    pub candidate: Option<f64>,
    pub delta: Option<f64>,
    /// The metric's status on each side over the case's runs (as a case's status is made).
    pub baseline_status: Option<EvalStatus>,
    pub candidate_status: Option<EvalStatus>,
}

/// Why something on a side was not scored: a NOT_EVALUATED metric, or a case the agent could
/// not complete.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Note<'a> {
    pub side: Side,
    /// Which of the case's runs on that side (0-based, in the order given).
    pub run: usize,
    pub metric_name: Option<&'a str>,
    pub reason: String,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CaseChange<'a> {
    pub eval_id: &'a str,
    pub eval_set_id: &'a str,
    pub change: Change,
    pub baseline_status: Option<EvalStatus>,
    pub candidate_status: Option<EvalStatus>,
    pub baseline_runs: usize,
    pub candidate_runs: usize,
    pub metrics: BTreeMap<&'a str, CaseMetric>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<Note<'a>>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct MetricStats<'a> {
    pub metric_name: &'a str,
    pub n: usize,
    pub baseline_mean: f64,
    pub candidate_mean: f64,
    pub mean_delta: f64,
    pub ci95: [f64; 2],
    pub p_value: f64,
    pub p_adjusted: f64,
    pub significant: bool,
    /// The threshold the metric's results carry (the candidate's first, else the baseline's).
    pub threshold: Option<f64>,
    /// Kept cases whose score rose / fell.
    pub higher: usize,
    pub lower: usize,
}

#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct PassFail {
    pub n: usize,
    pub baseline_passed: usize,
    pub candidate_passed: usize,
    pub b: usize,
    pub c: usize,
    pub p_value: f64,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SideCounts<T> {
    pub baseline: T,
    pub candidate: T,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Comparison<'a> {
    pub cases: Vec<CaseChange<'a>>,
    pub metrics: Vec<MetricStats<'a>>,
    pub pass_fail: PassFail,
    pub verdict: Verdict,
    pub alpha: f64,
    /// How many results each side holds.
    pub runs: SideCounts<usize>,
    /// The eval sets each side's results are of, in first-seen order.
    pub eval_set_ids: SideCounts<Vec<&'a str>>,
}

/// One metric of one case on one side.
#[derive(Default)]
struct MetricSide {
    scores: Vec<f64>,
    status: Option<EvalStatus>,
    threshold: Option<f64>,
}

/// One case on one side: its runs, status and metrics.
struct SideCase<'a> {
    eval_set_id: &'a str,
    runs: Vec<&'a EvalCaseResult<'static>>,
    metrics: BTreeMap<&'a str, MetricSide>,
}

/// A status over several runs: NOT_EVALUATED when any is, PASSED when all are, else FAILED
/// (INFORMATIONAL when every one is).
fn combine(acc: Option<EvalStatus>, s: EvalStatus) -> Option<EvalStatus> {
    use EvalStatus::*;
    Some(match (acc, s) {
        (None, s) => s,
        (Some(NotEvaluated), _) | (_, NotEvaluated) => NotEvaluated,
        (Some(Passed), Passed) => Passed,
        (Some(Informational), Informational) => Informational,
        _ => Failed,
    })
}

impl SideCase<'_> {
    fn status(&self) -> EvalStatus {
        let s = self.runs.iter().fold(None, |acc, r| combine(acc, r.final_eval_status));
        match s {
            Some(EvalStatus::Passed) => EvalStatus::Passed,
            Some(EvalStatus::NotEvaluated) => EvalStatus::NotEvaluated,
            _ => EvalStatus::Failed,
        }
    }

    /// The case's score for `metric`: the mean over its counted runs.
    fn score(&self, metric: &str) -> Option<f64> {
        self.metrics
            .get(metric)
            .filter(|m| !m.scores.is_empty())
            .map(|m| mean(&m.scores))
    }
}

/// Every case of a side, in first-seen order, with its runs gathered from all the results.
fn gather(results: &[EvalSetResult]) -> IndexMap<&str, SideCase<'_>> {
    let mut cases: IndexMap<&str, SideCase<'_>> = IndexMap::new();
    for result in results {
        for r in &result.eval_case_results {
            let set = if r.eval_set_id.is_empty() {
                &result.eval_set_id
            } else {
                &r.eval_set_id
            };
            let case = cases.entry(r.eval_id.as_str()).or_insert_with(|| SideCase {
                eval_set_id: set,
                runs: Vec::new(),
                metrics: BTreeMap::new(),
            });
            case.runs.push(r);
            for m in &r.overall_eval_metric_results {
                let entry = case.metrics.entry(m.metric_name.as_str()).or_default();
                entry.status = combine(entry.status, m.eval_status);
                let counted = matches!(m.eval_status, EvalStatus::Passed | EvalStatus::Failed);
                if let Some(score) = m.score.filter(|s| counted && s.is_finite()) {
                    entry.scores.push(score);
                    entry.threshold = entry.threshold.or(m.threshold);
                }
            }
        }
    }
    cases
}

/// Why each run of a case on one side left something unscored.
fn notes<'a>(side: Side, case: &SideCase<'a>, out: &mut Vec<Note<'a>>) {
    for (run, r) in case.runs.iter().enumerate() {
        if let Some(e) = &r.error {
            out.push(Note {
                side,
                run,
                metric_name: None,
                reason: format!("{}: {}", e.code, e.message),
            });
        }
        for m in r.overall_eval_metric_results.iter() {
            if m.eval_status != EvalStatus::NotEvaluated {
                continue;
            }
            let d = &m.details;
            let reason = match (d.reason.as_deref(), d.error.as_deref()) {
                (Some(r), Some(e)) => format!("{r}: {e}"),
                (Some(r), None) => r.to_string(),
                (None, Some(e)) => e.to_string(),
                (None, None) => "NOT_EVALUATED (the result gives no reason)".to_string(),
            };
            out.push(Note {
                side,
                run,
                metric_name: Some(&m.metric_name),
                reason,
            });
        }
    }
}

fn change(base: Option<EvalStatus>, cand: Option<EvalStatus>) -> Change {
    use EvalStatus::{NotEvaluated, Passed};
    match (base, cand) {
        (None, _) => Change::Added,
        (_, None) => Change::Removed,
        (Some(NotEvaluated), _) | (_, Some(NotEvaluated)) => Change::NotComparable,
        (Some(Passed), Some(c)) if c != Passed => Change::Regressed,
        (Some(b), Some(Passed)) if b != Passed => Change::Improved,
        _ => Change::Unchanged,
    }
}

/// Per metric over the cases scored on both sides (in baseline order): the paired statistics.
fn metric_stats<'a>(
    names: &[&'a str],
    base: &IndexMap<&'a str, SideCase<'a>>,
    cand: &IndexMap<&'a str, SideCase<'a>>,
) -> Vec<MetricStats<'a>> {
    let mut out = Vec::new();
    for name in names {
        let (mut b, mut c) = (Vec::new(), Vec::new());
        let mut threshold = None;
        for (id, bc) in base {
            let Some(cc) = cand.get(id) else { continue };
            if let (Some(x), Some(y)) = (bc.score(name), cc.score(name)) {
                b.push(x);
                c.push(y);
                let t = |s: &SideCase| s.metrics.get(name).and_then(|m| m.threshold);
                threshold = threshold.or_else(|| t(cc)).or_else(|| t(bc));
            }
        }
        let d: Vec<f64> = c.iter().zip(&b).map(|(y, x)| y - x).collect();
        let Some(t) = paired_t(&d) else { continue };
        out.push(MetricStats {
            metric_name: name,
            n: d.len(),
            baseline_mean: mean(&b),
            candidate_mean: mean(&c),
            mean_delta: t.mean,
            ci95: [t.ci95.0, t.ci95.1],
            p_value: t.p_value,
            p_adjusted: t.p_value,
            significant: false,
            threshold,
            higher: d.iter().filter(|x| **x > 0.0).count(),
            lower: d.iter().filter(|x| **x < 0.0).count(),
        });
    }
    out
}

/// Compares `baseline` with `candidate` (each one result or several runs of an eval set) at
/// significance level `alpha`.
pub fn compare_runs<'a>(baseline: &'a [EvalSetResult], candidate: &'a [EvalSetResult], alpha: f64) -> Comparison<'a> {
    let base = gather(baseline);
    let cand = gather(candidate);

    let mut names: Vec<&str> = base
        .values()
        .chain(cand.values())
        .flat_map(|c| c.metrics.keys().copied())
        .collect();
    names.sort_unstable();
    names.dedup();
    let mut metrics = metric_stats(&names, &base, &cand);
    let adjusted = holm(&metrics.iter().map(|m| m.p_value).collect::<Vec<_>>());
    for (m, p) in metrics.iter_mut().zip(adjusted) {
        m.p_adjusted = p;
        m.significant = p < alpha;
    }

    let ids = base.keys().chain(cand.keys().filter(|id| !base.contains_key(*id)));
    let cases: Vec<CaseChange> = ids
        .map(|id| case_change(id, base.get(id), cand.get(id), &metrics))
        .collect();
    let pass_fail = pass_fail(&cases);
    let verdict = verdict(&metrics, &pass_fail, alpha);
    let set_ids = |results: &'a [EvalSetResult]| {
        let mut ids: Vec<&str> = Vec::new();
        for r in results {
            if !ids.contains(&r.eval_set_id.as_str()) {
                ids.push(&r.eval_set_id);
            }
        }
        ids
    };
    Comparison {
        cases,
        metrics,
        pass_fail,
        verdict,
        alpha,
        runs: SideCounts {
            baseline: baseline.len(),
            candidate: candidate.len(),
        },
        eval_set_ids: SideCounts {
            baseline: set_ids(baseline),
            candidate: set_ids(candidate),
        },
    }
}

fn case_change<'a>(
    id: &'a str,
    b: Option<&SideCase<'a>>,
    c: Option<&SideCase<'a>>,
    listed: &[MetricStats<'a>],
) -> CaseChange<'a> {
    let mut metrics = BTreeMap::new();
    for m in listed {
        let name = m.metric_name;
        let (bs, cs) = (b.and_then(|s| s.score(name)), c.and_then(|s| s.score(name)));
        if bs.is_none() && cs.is_none() {
            continue;
        }
        let status = |s: Option<&SideCase<'a>>| s.and_then(|s| s.metrics.get(name)).and_then(|m| m.status);
        metrics.insert(
            name,
            CaseMetric {
                baseline: bs,
                candidate: cs,
                delta: bs.zip(cs).map(|(x, y)| y - x),
                baseline_status: status(b),
                candidate_status: status(c),
            },
        );
    }
    let mut notes_out = Vec::new();
    if let Some(s) = b {
        notes(Side::Baseline, s, &mut notes_out);
    }
    if let Some(s) = c {
        notes(Side::Candidate, s, &mut notes_out);
    }
    let (bst, cst) = (b.map(SideCase::status), c.map(SideCase::status));
    CaseChange {
        eval_id: id,
        eval_set_id: b.or(c).map_or("", |s| s.eval_set_id),
        change: change(bst, cst),
        baseline_status: bst,
        candidate_status: cst,
        baseline_runs: b.map_or(0, |s| s.runs.len()),
        candidate_runs: c.map_or(0, |s| s.runs.len()),
        metrics,
        notes: notes_out,
    }
}

/// Pass/fail over the cases on both sides (a NOT_EVALUATED case does not pass).
fn pass_fail(cases: &[CaseChange]) -> PassFail {
    let mut pf = PassFail {
        n: 0,
        baseline_passed: 0,
        candidate_passed: 0,
        b: 0,
        c: 0,
        p_value: 1.0,
    };
    for case in cases {
        let (Some(bs), Some(cs)) = (case.baseline_status, case.candidate_status) else {
            continue;
        };
        let (bp, cp) = (bs == EvalStatus::Passed, cs == EvalStatus::Passed);
        pf.n += 1;
        pf.baseline_passed += usize::from(bp);
        pf.candidate_passed += usize::from(cp);
        pf.b += usize::from(bp && !cp);
        pf.c += usize::from(cp && !bp);
    }
    pf.p_value = mcnemar_exact(pf.b as u64, pf.c as u64);
    pf
}

fn verdict(metrics: &[MetricStats], pf: &PassFail, alpha: f64) -> Verdict {
    let flips = pf.p_value < alpha;
    let worse = metrics.iter().any(|m| m.significant && m.mean_delta < 0.0) || (flips && pf.b > pf.c);
    let better = metrics.iter().any(|m| m.significant && m.mean_delta > 0.0) || (flips && pf.c > pf.b);
    if worse {
        Verdict::Regressed
    } else if better {
        Verdict::Improved
    } else {
        Verdict::NoSignificantChange
    }
}

//! Judges against people: each label matched to the judged verdict the results hold for it,
//! then per metric, rubric and judge model the agreement with Wilson's 95% interval, Cohen's
//! kappa and the confusion matrix; a group below the kappa threshold is flagged. A label that
//! cannot be matched is listed with the reason, never dropped silently.

use super::labels::{Label, Verdict};
use super::stats::{cohen_kappa, wilson95};
use crate::schema::eval_result::{EvalCaseResult, EvalMetricResult, EvalSetResult};
use crate::schema::result::EvalStatus;
use serde::Serialize;
use std::collections::{BTreeMap, HashMap};

/// The kappa below which a judge is flagged when the caller names none: "substantial"
/// agreement in Landis and Koch's reading.
pub const DEFAULT_KAPPA_THRESHOLD: f64 = 0.6;

/// Counts of judge verdict × person's verdict.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Confusion {
    pub judge_pass_human_pass: u64,
    pub judge_pass_human_fail: u64,
    pub judge_fail_human_pass: u64,
    pub judge_fail_human_fail: u64,
}

/// One metric (or one rubric of it) under one judge model.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Group {
    pub metric_name: String,
    pub rubric_id: Option<String>,
    pub judge_model: String,
    pub n: u64,
    pub agreement: f64,
    pub agreement_ci95: [f64; 2],
    pub kappa: Option<f64>,
    pub confusion: Confusion,
    pub flagged: bool,
    pub flag_reason: Option<String>,
}

/// A label that was not counted, and why.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Skipped<'a> {
    pub path: &'a str,
    /// `unmatched`, `stale`, `ambiguous` or `not_evaluated`.
    pub reason: &'static str,
    pub message: String,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Calibration<'a> {
    pub metrics: Vec<Group>,
    pub kappa_threshold: f64,
    /// Labels read, and how many of them were counted.
    pub labels: usize,
    pub used: usize,
    pub skipped: Vec<Skipped<'a>>,
}

/// The judge's verdict a label is about, with the model that gave it.
struct Judged {
    verdict: Verdict,
    model: String,
}

type Index<'r> = HashMap<(&'r str, &'r str), Vec<&'r EvalCaseResult<'static>>>;

fn index(results: &[EvalSetResult]) -> Index<'_> {
    let mut out: Index = HashMap::new();
    for r in results {
        for c in &r.eval_case_results {
            let set = if c.eval_set_id.is_empty() {
                &r.eval_set_id
            } else {
                &c.eval_set_id
            };
            out.entry((set.as_str(), c.eval_id.as_str())).or_default().push(c);
        }
    }
    out
}

/// The judge model of a metric result: its criterion's `judge_model_options.judge_model`.
fn criterion_model(m: &EvalMetricResult) -> Option<String> {
    let c = m.criterion.as_ref()?;
    let opts = c.get("judge_model_options").or_else(|| c.get("judgeModelOptions"))?;
    let model = opts.get("judge_model").or_else(|| opts.get("judgeModel"))?;
    model.as_str().filter(|s| !s.is_empty()).map(str::to_string)
}

/// The case result and invocation a label names, or why there is none.
fn find<'r>(l: &Label, idx: &Index<'r>) -> Result<&'r EvalCaseResult<'static>, (&'static str, String)> {
    let run = l.run.unwrap_or(0);
    let cands: Vec<_> = idx
        .get(&(l.eval_set_id.as_str(), l.eval_id.as_str()))
        .into_iter()
        .flatten()
        .copied()
        .filter(|c| c.run.unwrap_or(0) == run && c.per_invocation().get(l.invocation_index).is_some())
        .collect();
    if cands.is_empty() {
        return Err((
            "unmatched",
            format!(
                "no result of eval set \"{}\" case \"{}\" (run {run}) with an invocation {} among the results (were per-invocation results saved?)",
                l.eval_set_id, l.eval_id, l.invocation_index
            ),
        ));
    }
    let id_of = |c: &EvalCaseResult| {
        c.per_invocation()
            .get(l.invocation_index)
            .and_then(|p| p.actual_invocation.as_ref())
            .map(|a| a.invocation_id.clone())
            .filter(|id| !id.is_empty())
    };
    let cands = match &l.invocation_id {
        Some(want) if cands.iter().any(|c| id_of(c).is_some()) => {
            let same: Vec<_> = cands
                .iter()
                .copied()
                .filter(|c| id_of(c).as_deref() == Some(want.as_str()))
                .collect();
            if same.is_empty() {
                let found = cands.iter().filter_map(|c| id_of(c)).collect::<Vec<_>>().join(", ");
                return Err((
                    "stale",
                    format!("invocation {} of case \"{}\" in the results is not the one labelled (invocation_id {found}, the label's {want})", l.invocation_index, l.eval_id),
                ));
            }
            same
        }
        _ => cands,
    };
    match cands.as_slice() {
        [one] => Ok(*one),
        _ => Err((
            "ambiguous",
            format!(
                "{} results hold case \"{}\" run {run}: give the label a `run` or an `invocation_id` to say which",
                cands.len(),
                l.eval_id
            ),
        )),
    }
}

/// The judge's verdict on what `l` labels.
fn judged(l: &Label, case: &EvalCaseResult, model: Option<&str>) -> Result<Judged, (&'static str, String)> {
    let per = case.per_invocation().get(l.invocation_index);
    let Some(m) = per.and_then(|p| p.eval_metric_results.iter().find(|m| m.metric_name == l.metric_name)) else {
        return Err((
            "unmatched",
            format!(
                "invocation {} of case \"{}\" has no result for metric {}",
                l.invocation_index, l.eval_id, l.metric_name
            ),
        ));
    };
    let why = |m: &EvalMetricResult| {
        let d = &m.details;
        let r = d.reason.as_deref().or(d.error.as_deref()).unwrap_or("no reason given");
        format!(
            "the judge gave no verdict on {} (invocation {} of case \"{}\"): {r}",
            l.metric_name, l.invocation_index, l.eval_id
        )
    };
    let verdict = match &l.rubric_id {
        None => match m.eval_status {
            EvalStatus::Passed => Verdict::Pass,
            EvalStatus::Failed => Verdict::Fail,
            _ => return Err(("not_evaluated", why(m))),
        },
        Some(rubric) => {
            let scores = m.details.rubric_scores.as_deref().unwrap_or(&[]);
            let Some(r) = scores.iter().find(|r| &r.rubric_id == rubric) else {
                return Err((
                    "unmatched",
                    format!(
                        "{} has no rubric \"{rubric}\" on invocation {} of case \"{}\"",
                        l.metric_name, l.invocation_index, l.eval_id
                    ),
                ));
            };
            match r.score {
                Some(s) if s >= 0.5 => Verdict::Pass,
                Some(_) => Verdict::Fail,
                None => return Err(("not_evaluated", why(m))),
            }
        }
    };
    let overall = || {
        case.overall_eval_metric_results
            .iter()
            .find(|o| o.metric_name == l.metric_name)
    };
    let model = model
        .map(str::to_string)
        .or_else(|| criterion_model(m))
        .or_else(|| overall().and_then(criterion_model))
        .unwrap_or_else(|| "unspecified".to_string());
    Ok(Judged { verdict, model })
}

fn group(key: (String, Option<String>, String), c: Confusion, threshold: f64) -> Group {
    let n = c.judge_pass_human_pass + c.judge_pass_human_fail + c.judge_fail_human_pass + c.judge_fail_human_fail;
    let agree = c.judge_pass_human_pass + c.judge_fail_human_fail;
    let (lo, hi) = wilson95(agree, n).unwrap_or((0.0, 1.0));
    let kappa = cohen_kappa(&[
        vec![c.judge_pass_human_pass, c.judge_pass_human_fail],
        vec![c.judge_fail_human_pass, c.judge_fail_human_fail],
    ]);
    let flag_reason = match kappa {
        None => Some("kappa is undefined: the judge and the person gave one and the same verdict throughout; label cases of both kinds".to_string()),
        Some(k) if k < threshold => Some(format!("kappa {} is below {threshold}", (k * 1000.0).round() / 1000.0)),
        Some(_) => None,
    };
    let (metric_name, rubric_id, judge_model) = key;
    Group {
        metric_name,
        rubric_id,
        judge_model,
        n,
        agreement: agree as f64 / n as f64,
        agreement_ci95: [lo, hi],
        kappa,
        confusion: c,
        flagged: flag_reason.is_some(),
        flag_reason,
    }
}

/// Calibrates the judges of `results` against `labels`. `judge_model` names the model that
/// judged every result (else each metric result's criterion names it).
pub fn calibrate<'a>(
    labels: &'a [Label],
    results: &[EvalSetResult],
    kappa_threshold: f64,
    judge_model: Option<&str>,
) -> Calibration<'a> {
    let idx = index(results);
    let mut groups: BTreeMap<(String, Option<String>, String), Confusion> = BTreeMap::new();
    let mut skipped = Vec::new();
    for l in labels {
        let got = find(l, &idx).and_then(|case| judged(l, case, judge_model));
        let j = match got {
            Ok(j) => j,
            Err((reason, message)) => {
                skipped.push(Skipped {
                    path: &l.path,
                    reason,
                    message,
                });
                continue;
            }
        };
        let c = groups
            .entry((l.metric_name.clone(), l.rubric_id.clone(), j.model))
            .or_default();
        let slot = match (j.verdict, l.human) {
            (Verdict::Pass, Verdict::Pass) => &mut c.judge_pass_human_pass,
            (Verdict::Pass, Verdict::Fail) => &mut c.judge_pass_human_fail,
            (Verdict::Fail, Verdict::Pass) => &mut c.judge_fail_human_pass,
            (Verdict::Fail, Verdict::Fail) => &mut c.judge_fail_human_fail,
        };
        *slot += 1;
    }
    let used = labels.len() - skipped.len();
    Calibration {
        metrics: groups.into_iter().map(|(k, c)| group(k, c, kappa_threshold)).collect(),
        kappa_threshold,
        labels: labels.len(),
        used,
        skipped,
    }
}

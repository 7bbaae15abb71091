//! Run comparison's bookkeeping (COMPARE.md): each side's cases, runs and scores, each case's change, the pass/fail table and the verdict.

use super::stats;
use crate::schema::result::EvalStatus;
use indexmap::IndexMap;
use serde::{Serialize, Serializer};
use serde_json::Value;
use std::cmp::Ordering;

/// A result as a comparison reads it: a JSON value in the core's model (what `loadEvalSetResult`
/// gives), read through the accessors below rather than typed structs (each typed struct would
/// carry its own deserializer into the wasm).
pub type RunResult = Value;
/// One eval case result (one run of a case).
pub type CaseRun = Value;

/// The string at `key` ("" when there is none).
pub fn text<'a>(v: &'a Value, key: &str) -> &'a str {
    v.get(key).and_then(Value::as_str).unwrap_or("")
}

/// The array at `key` (empty when there is none).
pub fn list<'a>(v: &'a Value, key: &str) -> &'a [Value] {
    v.get(key).and_then(Value::as_array).map_or(&[], Vec::as_slice)
}

/// The eval status at `key` (FAILED when it is none: the JS skin sends only valid ones).
fn status(v: &Value, key: &str) -> EvalStatus {
    EvalStatus::from_name(text(v, key)).unwrap_or(EvalStatus::Failed)
}

/// The string at `key` of the object at `outer`, if both are there.
fn inner<'a>(v: &'a Value, outer: &str, key: &str) -> Option<&'a str> {
    v.get(outer)?.get(key)?.as_str()
}

/// A metric of a case on one side: its counted scores, their mean, status over the runs and threshold.
pub struct Metric<'a> {
    pub name: &'a str,
    scores: Vec<f64>,
    pub score: Option<f64>,
    status: Option<EvalStatus>,
    threshold: Option<f64>,
}

/// A case on one side: its runs, status over them and metrics in first-seen order.
pub struct Case<'a> {
    pub eval_set_id: &'a str,
    pub runs: Vec<&'a CaseRun>,
    pub status: Option<EvalStatus>,
    pub metrics: Vec<Metric<'a>>,
}

/// Every case of a side by eval id, in first-seen order.
pub type Side<'a> = IndexMap<&'a str, Case<'a>>;

/// A status over several runs: NOT_EVALUATED when any is, PASSED (INFORMATIONAL) when all are, else FAILED.
fn combine(acc: Option<EvalStatus>, s: EvalStatus) -> EvalStatus {
    use EvalStatus::*;
    match acc {
        None => s,
        Some(NotEvaluated) => NotEvaluated,
        Some(_) if s == NotEvaluated => NotEvaluated,
        Some(a) if a == s && s != Failed => s,
        Some(_) => Failed,
    }
}

impl<'a> Case<'a> {
    /// The metric named `name`, if the case has it.
    pub fn metric(&self, name: &str) -> Option<&Metric<'a>> {
        self.metrics.iter().find(|m| m.name == name)
    }

    /// Its score for metric `name`: the mean of its counted runs.
    pub fn score(&self, name: &str) -> Option<f64> {
        self.metric(name).and_then(|m| m.score)
    }
}

/// The score of metric `name` of a case that may be absent.
fn score_of(c: Option<&Case>, name: &str) -> Option<f64> {
    c.and_then(|c| c.score(name))
}

/// A side's cases: runs, statuses, and per metric the scores of PASSED/FAILED runs and their mean.
pub fn gather<'a>(results: &[&'a RunResult]) -> Side<'a> {
    let mut cases: Side<'a> = IndexMap::new();
    for result in results {
        for r in list(result, "eval_case_results") {
            let c = cases.entry(text(r, "eval_id")).or_insert_with(|| Case {
                eval_set_id: match text(r, "eval_set_id") {
                    "" => text(result, "eval_set_id"),
                    s => s,
                },
                runs: Vec::new(),
                status: None,
                metrics: Vec::new(),
            });
            c.runs.push(r);
            c.status = Some(combine(c.status, status(r, "final_eval_status")));
            for m in list(r, "overall_eval_metric_results") {
                let name = text(m, "metric_name");
                let at = match c.metrics.iter().position(|e| e.name == name) {
                    Some(i) => i,
                    None => {
                        c.metrics.push(Metric {
                            name,
                            scores: Vec::new(),
                            score: None,
                            status: None,
                            threshold: None,
                        });
                        c.metrics.len() - 1
                    }
                };
                let Some(e) = c.metrics.get_mut(at) else { continue };
                let st = status(m, "eval_status");
                e.status = Some(combine(e.status, st));
                let counted = matches!(st, EvalStatus::Passed | EvalStatus::Failed);
                let score = m.get("score").and_then(Value::as_f64).filter(|s| s.is_finite());
                if let (true, Some(s)) = (counted, score) {
                    e.scores.push(s);
                    e.threshold = e.threshold.or(m.get("threshold").and_then(Value::as_f64));
                }
            }
        }
    }
    for c in cases.values_mut() {
        c.status = Some(match c.status {
            Some(EvalStatus::Passed) => EvalStatus::Passed,
            Some(EvalStatus::NotEvaluated) => EvalStatus::NotEvaluated,
            _ => EvalStatus::Failed,
        });
        for m in &mut c.metrics {
            if !m.scores.is_empty() {
                m.score = Some(stats::mean(&m.scores));
            }
        }
    }
    cases
}

/// JavaScript's string order (UTF-16 code units), as `Array.prototype.sort` orders names.
pub fn js_order(a: &str, b: &str) -> Ordering {
    a.encode_utf16().cmp(b.encode_utf16())
}

/// The metric names of the sides' cases, each once, in JavaScript's order.
pub fn metric_names<'a>(sides: &[&Side<'a>]) -> Vec<&'a str> {
    // Kept sorted as they come (no sort's code in the wasm for one more element type).
    let mut names: Vec<&'a str> = Vec::new();
    for side in sides {
        for m in side.values().flat_map(|c| &c.metrics) {
            if let Err(at) = names.binary_search_by(|x| js_order(x, m.name)) {
                names.insert(at, m.name);
            }
        }
    }
    names
}

/// The runs of a side: the most any of its cases has.
fn runs_of(side: &Side) -> usize {
    side.values().map(|c| c.runs.len()).max().unwrap_or(0)
}

/// A number that reads as `Number.isSafeInteger(n) && n >= 0`.
fn run_number(v: &Value) -> Option<u64> {
    v.as_u64().filter(|n| *n < 1 << 53)
}

/// The run number of each of a case's runs: their own `run` when every one has a distinct one, else their places.
fn run_numbers(runs: &[&CaseRun]) -> Vec<u64> {
    let own: Vec<Option<u64>> = runs.iter().map(|r| r.get("run").and_then(run_number)).collect();
    let distinct = own
        .iter()
        .enumerate()
        .all(|(i, n)| n.is_some() && !own.iter().take(i).any(|m| m == n));
    if distinct {
        own.into_iter().flatten().collect()
    } else {
        (0..runs.len() as u64).collect()
    }
}

/// A case metric's scores on both sides (`null` where none), its delta and statuses.
#[derive(Serialize)]
pub struct CaseMetric {
    baseline: Option<f64>,
    candidate: Option<f64>,
    delta: Option<f64>,
    baseline_status: Option<EvalStatus>,
    candidate_status: Option<EvalStatus>,
}

/// Why something on a side was not scored.
#[derive(Serialize)]
pub struct Note<'a> {
    side: &'static str,
    run: u64,
    metric_name: Option<&'a str>,
    reason: Option<&'a str>,
    error: Option<&'a str>,
}

/// A case metric entries as a JSON object, in the order of the comparison's metrics.
pub struct CaseMetrics<'a>(Vec<(&'a str, CaseMetric)>);

impl Serialize for CaseMetrics<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_map(self.0.iter().map(|(k, v)| (k, v)))
    }
}

/// One case of the comparison.
#[derive(Serialize)]
pub struct CaseEntry<'a> {
    eval_id: &'a str,
    eval_set_id: &'a str,
    change: &'static str,
    baseline_status: Option<EvalStatus>,
    candidate_status: Option<EvalStatus>,
    baseline_runs: usize,
    candidate_runs: usize,
    metrics: CaseMetrics<'a>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    notes: Vec<Note<'a>>,
}

/// One metric's paired statistics over the cases scored on both sides.
#[derive(Serialize)]
pub struct MetricStats<'a> {
    metric_name: &'a str,
    n: usize,
    baseline_mean: f64,
    candidate_mean: f64,
    mean_delta: f64,
    ci95: [f64; 2],
    p_value: f64,
    p_adjusted: f64,
    significant: bool,
    threshold: Option<f64>,
    higher: usize,
    lower: usize,
}

/// The cases present on both sides: how many pass on each, the discordant pairs and McNemar's p-value.
#[derive(Serialize, Default)]
pub struct PassFail {
    n: usize,
    baseline_passed: usize,
    candidate_passed: usize,
    b: u64,
    c: u64,
    p_value: f64,
}

/// A value per side.
#[derive(Serialize)]
pub struct Pair<T> {
    pub baseline: T,
    pub candidate: T,
}

/// `compareRuns`'s answer.
#[derive(Serialize)]
pub struct Comparison<'a> {
    cases: Vec<CaseEntry<'a>>,
    metrics: Vec<MetricStats<'a>>,
    pass_fail: PassFail,
    verdict: &'static str,
    alpha: f64,
    runs: Pair<usize>,
    eval_set_ids: Pair<Vec<&'a str>>,
}

/// A case's change from its statuses on the two sides (`None`: not on that side).
fn change(b: Option<EvalStatus>, c: Option<EvalStatus>) -> &'static str {
    use EvalStatus::*;
    match (b, c) {
        (None, _) => "added",
        (_, None) => "removed",
        (Some(NotEvaluated), _) | (_, Some(NotEvaluated)) => "not_comparable",
        (Some(Passed), Some(Passed)) => "unchanged",
        (Some(Passed), _) => "regressed",
        (_, Some(Passed)) => "improved",
        _ => "unchanged",
    }
}

/// Per metric over the cases scored on both sides (in baseline order): the paired statistics; p_adjusted is Holm's.
fn metric_stats<'a>(base: &Side<'a>, cand: &Side<'a>, alpha: f64) -> Vec<MetricStats<'a>> {
    let mut out = Vec::new();
    for name in metric_names(&[base, cand]) {
        let (mut b, mut c) = (Vec::new(), Vec::new());
        let mut threshold = None;
        for (id, bc) in base {
            let cc = cand.get(id);
            let (Some(x), Some(y)) = (bc.score(name), score_of(cc, name)) else {
                continue;
            };
            b.push(x);
            c.push(y);
            let t = |c: Option<&Case>| c.and_then(|c| c.metric(name)).and_then(|m| m.threshold);
            threshold = threshold.or_else(|| t(cc).or_else(|| t(Some(bc))));
        }
        let d: Vec<f64> = b.iter().zip(&c).map(|(x, y)| y - x).collect();
        let Some(t) = stats::paired_t(&d) else { continue };
        out.push(MetricStats {
            metric_name: name,
            n: b.len(),
            baseline_mean: stats::mean(&b),
            candidate_mean: stats::mean(&c),
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
    let p: Vec<f64> = out.iter().map(|m| m.p_value).collect();
    for (m, p) in out.iter_mut().zip(stats::holm(&p)) {
        m.p_adjusted = p;
        m.significant = p < alpha;
    }
    out
}

/// The notes of a case on one side, its runs in run order.
fn notes<'a>(side: &'static str, c: &Case<'a>, out: &mut Vec<Note<'a>>) {
    // Ordered by run number, ties as they came (an insertion: a case has a few runs).
    let mut order: Vec<(u64, &CaseRun)> = Vec::with_capacity(c.runs.len());
    for (n, r) in run_numbers(&c.runs).into_iter().zip(c.runs.iter().copied()) {
        order.insert(order.partition_point(|(m, _)| *m <= n), (n, r));
    }
    for (run, r) in order {
        if r.get("error").is_some_and(Value::is_object) {
            let (reason, error) = (inner(r, "error", "code"), inner(r, "error", "message"));
            out.push(Note {
                side,
                run,
                metric_name: None,
                reason,
                error,
            });
        }
        for m in list(r, "overall_eval_metric_results") {
            if status(m, "eval_status") == EvalStatus::NotEvaluated {
                out.push(Note {
                    side,
                    run,
                    metric_name: Some(text(m, "metric_name")),
                    reason: inner(m, "details", "reason"),
                    error: inner(m, "details", "error"),
                });
            }
        }
    }
}

/// One case's entry: its change, statuses, runs, the listed metrics' scores and notes.
fn case_entry<'a>(
    id: &'a str,
    bc: Option<&Case<'a>>,
    cc: Option<&Case<'a>>,
    listed: &[MetricStats<'a>],
) -> CaseEntry<'a> {
    let mut metrics = Vec::new();
    for m in listed {
        let (x, y) = (score_of(bc, m.metric_name), score_of(cc, m.metric_name));
        if x.is_none() && y.is_none() {
            continue;
        }
        let status = |c: Option<&Case>| c.and_then(|c| c.metric(m.metric_name)).and_then(|e| e.status);
        let delta = match (x, y) {
            (Some(x), Some(y)) => Some(y - x),
            _ => None,
        };
        metrics.push((
            m.metric_name,
            CaseMetric {
                baseline: x,
                candidate: y,
                delta,
                baseline_status: status(bc),
                candidate_status: status(cc),
            },
        ));
    }
    let mut out = Vec::new();
    if let Some(b) = bc {
        notes("baseline", b, &mut out);
    }
    if let Some(c) = cc {
        notes("candidate", c, &mut out);
    }
    let (b_status, c_status) = (bc.and_then(|c| c.status), cc.and_then(|c| c.status));
    CaseEntry {
        eval_id: id,
        eval_set_id: bc.or(cc).map_or("", |c| c.eval_set_id),
        change: change(b_status, c_status),
        baseline_status: b_status,
        candidate_status: c_status,
        baseline_runs: bc.map_or(0, |c| c.runs.len()),
        candidate_runs: cc.map_or(0, |c| c.runs.len()),
        metrics: CaseMetrics(metrics),
        notes: out,
    }
}

/// The pass/fail table over the cases on both sides.
fn pass_fail(cases: &[CaseEntry]) -> PassFail {
    let mut pf = PassFail::default();
    for c in cases {
        let (Some(b), Some(cs)) = (c.baseline_status, c.candidate_status) else {
            continue;
        };
        let (bp, cp) = (b == EvalStatus::Passed, cs == EvalStatus::Passed);
        pf.n += 1;
        pf.baseline_passed += usize::from(bp);
        pf.candidate_passed += usize::from(cp);
        pf.b += u64::from(bp && !cp);
        pf.c += u64::from(cp && !bp);
    }
    pf.p_value = stats::mcnemar_exact(pf.b, pf.c);
    pf
}

/// "regressed", "improved" or "no_significant_change" (COMPARE.md).
fn verdict(metrics: &[MetricStats], pf: &PassFail, alpha: f64) -> &'static str {
    let flips = pf.p_value < alpha;
    let moved = |down: bool| {
        metrics
            .iter()
            .any(|m| m.significant && if down { m.mean_delta < 0.0 } else { m.mean_delta > 0.0 })
    };
    if moved(true) || (flips && pf.b > pf.c) {
        "regressed"
    } else if moved(false) || (flips && pf.c > pf.b) {
        "improved"
    } else {
        "no_significant_change"
    }
}

/// Each result's eval set id, each once.
fn set_ids(results: &[RunResult]) -> Vec<&str> {
    let mut out: Vec<&str> = Vec::new();
    for r in results {
        let id = text(r, "eval_set_id");
        if !out.contains(&id) {
            out.push(id);
        }
    }
    out
}

/// Compares a baseline's results with a candidate's at significance level `alpha` (COMPARE.md).
pub fn compare<'a>(baseline: &'a [RunResult], candidate: &'a [RunResult], alpha: f64) -> Comparison<'a> {
    let base = gather(&baseline.iter().collect::<Vec<_>>());
    let cand = gather(&candidate.iter().collect::<Vec<_>>());
    let metrics = metric_stats(&base, &cand, alpha);
    let mut cases = Vec::new();
    for (id, bc) in &base {
        cases.push(case_entry(id, Some(bc), cand.get(id), &metrics));
    }
    for (id, cc) in &cand {
        if !base.contains_key(id) {
            cases.push(case_entry(id, None, Some(cc), &metrics));
        }
    }
    let pf = pass_fail(&cases);
    Comparison {
        verdict: verdict(&metrics, &pf, alpha),
        cases,
        metrics,
        pass_fail: pf,
        alpha,
        runs: Pair {
            baseline: runs_of(&base),
            candidate: runs_of(&cand),
        },
        eval_set_ids: Pair {
            baseline: set_ids(baseline),
            candidate: set_ids(candidate),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn results(text: &str) -> Vec<RunResult> {
        serde_json::from_str(text).unwrap()
    }

    fn case(id: &str, status: &str, metrics: &str) -> String {
        format!(r#"{{"eval_id":"{id}","final_eval_status":"{status}","overall_eval_metric_results":[{metrics}]}}"#)
    }

    fn metric(name: &str, score: f64, status: &str) -> String {
        format!(r#"{{"metric_name":"{name}","score":{score},"threshold":0.5,"eval_status":"{status}"}}"#)
    }

    fn side(cases: &[String]) -> String {
        format!(
            r#"[{{"eval_set_result_id":"r","eval_set_id":"s","eval_case_results":[{}]}}]"#,
            cases.join(",")
        )
    }

    #[test]
    fn statuses_combine_over_runs() {
        use EvalStatus::*;
        assert_eq!(combine(None, Informational), Informational);
        assert_eq!(combine(Some(Passed), Passed), Passed);
        assert_eq!(combine(Some(Passed), Failed), Failed);
        assert_eq!(combine(Some(Failed), NotEvaluated), NotEvaluated);
        assert_eq!(combine(Some(Informational), Informational), Informational);
        assert_eq!(change(Some(Passed), Some(Failed)), "regressed");
        assert_eq!(change(Some(Failed), Some(NotEvaluated)), "not_comparable");
        assert_eq!(change(None, Some(Passed)), "added");
        assert_eq!(change(Some(Failed), Some(Passed)), "improved");
        assert_eq!(change(Some(Failed), Some(Failed)), "unchanged");
        assert_eq!(change(Some(Passed), Some(Passed)), "unchanged");
    }

    #[test]
    fn a_regression_is_counted_and_scored() {
        let base = results(&side(&[
            case("a", "PASSED", &metric("m", 1.0, "PASSED")),
            case("b", "PASSED", &metric("m", 0.9, "PASSED")),
            case("gone", "PASSED", &metric("m", 0.8, "PASSED")),
        ]));
        let cand = results(&side(&[
            case("a", "FAILED", &metric("m", 0.25, "FAILED")),
            case("b", "FAILED", &metric("m", 0.4, "FAILED")),
            case("new", "NOT_EVALUATED", &metric("m", 0.0, "NOT_EVALUATED")),
        ]));
        let cmp = compare(&base, &cand, 0.05);
        let v = serde_json::to_value(&cmp).unwrap();
        assert_eq!(v["cases"][0]["change"], "regressed");
        assert_eq!(v["cases"][2]["change"], "removed");
        assert_eq!(v["cases"][3]["change"], "added");
        assert_eq!(v["cases"][3]["notes"][0]["metric_name"], "m");
        assert!(v["cases"][0].get("notes").is_none());
        assert_eq!(v["metrics"][0]["n"], 2);
        assert_eq!(v["metrics"][0]["lower"], 2);
        assert_eq!(v["metrics"][0]["threshold"], 0.5);
        assert_eq!(v["pass_fail"]["b"], 2);
        assert_eq!(v["cases"][2]["metrics"]["m"]["candidate"], Value::Null);
        assert_eq!(v["eval_set_ids"]["baseline"][0], "s");
        assert_eq!(v["runs"]["candidate"], 1);
        let keys: Vec<&String> = v.as_object().unwrap().keys().collect();
        assert_eq!(
            keys,
            [
                "cases",
                "metrics",
                "pass_fail",
                "verdict",
                "alpha",
                "runs",
                "eval_set_ids"
            ]
        );
    }

    #[test]
    fn run_numbers_are_their_own_when_distinct() {
        let runs = results(
            r#"[{"eval_case_results":[
            {"eval_id":"a","final_eval_status":"PASSED","run":2},
            {"eval_id":"a","final_eval_status":"PASSED","run":0}]}]"#,
        );
        let side = gather(&[&runs[0]]);
        let c = side.get("a").unwrap();
        assert_eq!(run_numbers(&c.runs), vec![2, 0]);
        let same = results(
            r#"[{"eval_case_results":[
            {"eval_id":"a","final_eval_status":"PASSED","run":1},
            {"eval_id":"a","final_eval_status":"PASSED","run":1.5}]}]"#,
        );
        let side = gather(&[&same[0]]);
        assert_eq!(run_numbers(&side.get("a").unwrap().runs), vec![0, 1]);
        assert_eq!(js_order("\u{ffff}", "\u{10000}"), Ordering::Greater);
    }
}

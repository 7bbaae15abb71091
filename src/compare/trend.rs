//! A metric's course over runs (`runTrend`): each result a point, oldest first, with its cases' mean score and pass rate and their intervals.

use super::runs::{gather, metric_names, text, RunResult, Side};
use super::stats;
use crate::schema::result::EvalStatus;
use serde::Serialize;
use serde_json::Value;

/// One run (result) of the trend: its cases, how many passed and the pass rate with its 95% Wilson interval.
#[derive(Serialize)]
pub struct TrendRun<'a> {
    eval_set_result_id: &'a str,
    eval_set_id: &'a str,
    creation_timestamp: &'a Value,
    cases: usize,
    passed: usize,
    pass_rate: Option<f64>,
    pass_rate_ci95: [Option<f64>; 2],
}

/// A metric's mean over one run's scored cases, with its 95% Student-t interval.
#[derive(Serialize)]
pub struct Point {
    run: usize,
    n: usize,
    mean: f64,
    ci95: [f64; 2],
}

/// One metric's points, `null` for a run with no score for it.
#[derive(Serialize)]
pub struct TrendMetric<'a> {
    metric_name: &'a str,
    points: Vec<Option<Point>>,
}

/// `runTrend`'s answer.
#[derive(Serialize)]
pub struct Trend<'a> {
    runs: Vec<TrendRun<'a>>,
    metrics: Vec<TrendMetric<'a>>,
}

/// A result's place in time: its `creation_timestamp`, none counting as 0 (and anything but a number too).
fn time(r: &RunResult) -> f64 {
    r.get("creation_timestamp").and_then(Value::as_f64).unwrap_or(0.0)
}

/// A run's summary line.
fn run_line<'a>(r: &'a RunResult, side: &Side) -> TrendRun<'a> {
    let cases = side.len();
    let passed = side.values().filter(|c| c.status == Some(EvalStatus::Passed)).count();
    let (rate, ci) = match stats::wilson95(passed as u64, cases as u64) {
        Some((lo, hi)) => (Some(passed as f64 / cases as f64), [Some(lo), Some(hi)]),
        None => (None, [None, None]),
    };
    TrendRun {
        eval_set_result_id: text(r, "eval_set_result_id"),
        eval_set_id: text(r, "eval_set_id"),
        creation_timestamp: r.get("creation_timestamp").unwrap_or(&Value::Null),
        cases,
        passed,
        pass_rate: rate,
        pass_rate_ci95: ci,
    }
}

/// The trend of `results`, each one run, ordered by creation time (ties in the order given).
pub fn trend(results: &[RunResult]) -> Trend<'_> {
    // Ordered by time, ties as they came (an insertion: a trend has tens of runs, not millions).
    let mut order: Vec<&RunResult> = Vec::with_capacity(results.len());
    for r in results {
        let t = time(r);
        order.insert(order.partition_point(|x| time(x) <= t), r);
    }
    let sides: Vec<Side> = order.iter().map(|r| gather(&[*r])).collect();
    let runs = order.iter().zip(&sides).map(|(r, s)| run_line(r, s)).collect();
    let mut metrics = Vec::new();
    let all: Vec<&Side> = sides.iter().collect();
    for name in metric_names(&all) {
        let points: Vec<Option<Point>> = sides
            .iter()
            .enumerate()
            .map(|(k, side)| {
                let scores: Vec<f64> = side.values().filter_map(|c| c.score(name)).collect();
                let t = stats::paired_t(&scores)?;
                Some(Point {
                    run: k,
                    n: scores.len(),
                    mean: stats::mean(&scores),
                    ci95: [t.ci95.0, t.ci95.1],
                })
            })
            .collect();
        if points.iter().any(Option::is_some) {
            metrics.push(TrendMetric {
                metric_name: name,
                points,
            });
        }
    }
    Trend { runs, metrics }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runs_in_time_order_with_points() {
        let results: Vec<RunResult> = serde_json::from_str(
            r#"[
            {"eval_set_result_id":"late","eval_set_id":"s","creation_timestamp":20,"eval_case_results":[
              {"eval_id":"a","final_eval_status":"PASSED","overall_eval_metric_results":[
                {"metric_name":"m","score":1,"eval_status":"PASSED"}]}]},
            {"eval_set_result_id":"early","eval_set_id":"s","creation_timestamp":10,"eval_case_results":[
              {"eval_id":"a","final_eval_status":"FAILED","overall_eval_metric_results":[
                {"metric_name":"m","score":0.5,"eval_status":"FAILED"},
                {"metric_name":"x","eval_status":"NOT_EVALUATED"}]},
              {"eval_id":"b","final_eval_status":"PASSED","overall_eval_metric_results":[
                {"metric_name":"m","score":1,"eval_status":"PASSED"}]}]},
            {"eval_set_result_id":"none","eval_set_id":"s","eval_case_results":[]}]"#,
        )
        .unwrap();
        let v = serde_json::to_value(trend(&results)).unwrap();
        assert_eq!(v["runs"][0]["eval_set_result_id"], "none");
        assert_eq!(v["runs"][0]["pass_rate"], Value::Null);
        assert_eq!(v["runs"][0]["creation_timestamp"], Value::Null);
        assert_eq!(v["runs"][1]["eval_set_result_id"], "early");
        assert_eq!(v["runs"][1]["pass_rate"], 0.5);
        assert_eq!(v["runs"][2]["passed"], 1);
        // "x" was never scored: no metric; "m": no point for the empty run.
        assert_eq!(v["metrics"].as_array().unwrap().len(), 1);
        assert_eq!(v["metrics"][0]["points"][0], Value::Null);
        assert_eq!(v["metrics"][0]["points"][1]["mean"], 0.75);
        assert_eq!(v["metrics"][0]["points"][2]["ci95"][0], 1.0);
    }
}

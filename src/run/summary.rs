//! The summary over several runs of an eval set (SPEC §4.6): per case the statuses and whether
//! they flip, per metric the spread of case scores and ADK AgentEvaluator's verdict on the
//! exact mean of every per-invocation score of every run.

use crate::judge::vote::exact_mean;
use crate::metrics::{direction, Direction};
use crate::schema::eval_result::{CaseSummary, EvalCaseResult, EvalMetricResult, MetricSummary, RunSummary};
use crate::schema::result::EvalStatus;

/// The run summary of `results` (a case's run is its `run`, 0 when absent).
pub fn run_summary(results: &[EvalCaseResult<'_>], num_runs: u32) -> RunSummary {
    let mut ids: Vec<&str> = Vec::new();
    for r in results {
        if !ids.contains(&r.eval_id.as_str()) {
            ids.push(&r.eval_id);
        }
    }
    let cases = ids
        .into_iter()
        .map(|id| {
            let mut runs: Vec<&EvalCaseResult> = results.iter().filter(|r| r.eval_id == id).collect();
            runs.sort_by_key(|r| r.run.unwrap_or(0));
            let statuses: Vec<EvalStatus> = runs.iter().map(|r| r.final_eval_status).collect();
            let flipped = statuses.windows(2).any(|w| w.first() != w.get(1));
            let mut names: Vec<&str> = Vec::new();
            for m in runs.iter().flat_map(|r| &r.overall_eval_metric_results) {
                if !names.contains(&m.metric_name.as_str()) {
                    names.push(&m.metric_name);
                }
            }
            CaseSummary {
                eval_id: id.to_string(),
                statuses,
                flipped,
                inference_failures: runs.iter().filter(|r| r.error.is_some()).count(),
                metrics: names.into_iter().map(|n| metric_summary(n, &runs)).collect(),
            }
        })
        .collect();
    RunSummary { num_runs, cases }
}

fn overall_of<'r>(r: &'r EvalCaseResult, name: &str) -> Option<&'r EvalMetricResult> {
    r.overall_eval_metric_results.iter().find(|m| m.metric_name == name)
}

fn metric_summary(name: &str, runs: &[&EvalCaseResult]) -> MetricSummary {
    let first = runs.iter().find_map(|r| overall_of(r, name));
    let threshold = first.and_then(|m| m.threshold);
    let informational = first.is_some_and(|m| {
        m.eval_status == EvalStatus::Informational
            || (m.criterion.as_ref().is_none_or(|c| c.is_null()) && m.threshold.is_none())
    });
    let case_scores: Vec<Option<f64>> = runs.iter().map(|r| overall_of(r, name).and_then(|m| m.score)).collect();
    let present: Vec<f64> = case_scores.iter().flatten().copied().collect();
    let min = present.iter().copied().reduce(f64::min);
    let max = present.iter().copied().reduce(f64::max);
    let mean = exact_mean(&present);
    let stddev = mean.map(|m| (present.iter().map(|x| (x - m) * (x - m)).sum::<f64>() / present.len() as f64).sqrt());
    let cells: Vec<&EvalMetricResult> = runs
        .iter()
        .flat_map(|r| r.per_invocation())
        .flat_map(|p| &p.eval_metric_results)
        .filter(|m| m.metric_name == name)
        .collect();
    let scores: Vec<f64> = cells.iter().filter_map(|m| m.score).collect();
    let invocation_mean = exact_mean(&scores);
    let lower_is_better = match direction(name) {
        Some(d) => d == Direction::LowerIsBetter,
        None => statuses_say_lower(&cells, threshold),
    };
    let passed = match (informational, invocation_mean, threshold) {
        (false, Some(m), Some(t)) => Some(if lower_is_better { m <= t } else { m >= t }),
        _ => None,
    };
    let unscored_runs = runs
        .iter()
        .filter(|r| overall_of(r, name).is_some_and(|m| m.eval_status == EvalStatus::NotEvaluated))
        .count();
    let unscored_invocations: usize = runs.iter().map(|r| r.unevaluated_of(name)).sum();
    MetricSummary {
        metric_name: name.to_string(),
        threshold,
        informational,
        case_scores,
        min,
        mean,
        max,
        stddev,
        invocation_mean,
        lower_is_better,
        passed,
        not_evaluated: u32::try_from(unscored_runs + unscored_invocations).unwrap_or(u32::MAX),
    }
}

/// ADK 2.x's rule for a metric it has no direction for (a custom metric decides its own
/// statuses): lower is better when every scored invocation that passed or failed away from the
/// threshold agrees with `score <= threshold` passing, and at least one does.
fn statuses_say_lower(cells: &[&EvalMetricResult], threshold: Option<f64>) -> bool {
    let Some(t) = threshold else { return false };
    let mut seen = (false, false); // (agrees with higher-is-better, agrees with lower-is-better)
    for m in cells {
        let (Some(s), st @ (EvalStatus::Passed | EvalStatus::Failed)) = (m.score, m.eval_status) else {
            continue;
        };
        if s != t {
            if (s > t) == (st == EvalStatus::Passed) {
                seen.0 = true;
            } else {
                seen.1 = true;
            }
        }
    }
    seen == (false, true)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn case(
        id: &str,
        run: u32,
        status: EvalStatus,
        metric: &str,
        threshold: f64,
        scores: &[(f64, EvalStatus)],
    ) -> EvalCaseResult<'static> {
        let m = |score: f64, st: EvalStatus| -> serde_json::Value {
            serde_json::json!({"metric_name": metric, "threshold": threshold, "criterion": {"threshold": threshold}, "score": score, "eval_status": st.as_str()})
        };
        let per: Vec<serde_json::Value> = scores
            .iter()
            .map(|(s, st)| serde_json::json!({"eval_metric_results": [m(*s, *st)]}))
            .collect();
        let v = serde_json::json!({"eval_id": id, "run": run, "final_eval_status": status.as_str(),
            "overall_eval_metric_results": [m(scores.iter().map(|x| x.0).sum::<f64>() / scores.len() as f64, status)],
            "eval_metric_result_per_invocation": per});
        serde_json::from_value(v).unwrap()
    }

    #[test]
    fn built_in_metrics_take_their_direction_from_the_registry() {
        use EvalStatus::*;
        // Statuses that look lower-is-better do not turn a registered metric around.
        let results = [
            case(
                "c",
                0,
                Passed,
                "response_match_score",
                0.5,
                &[(0.2, Passed), (0.4, Passed)],
            ),
            case("c", 1, Failed, "response_match_score", 0.5, &[(0.9, Failed)]),
        ];
        let s = run_summary(&results, 2);
        let m = &s.cases[0].metrics[0];
        assert!(!m.lower_is_better);
        assert_eq!(m.invocation_mean, Some(0.5));
        assert_eq!(m.passed, Some(true));
        assert_eq!(s.cases[0].statuses, [Passed, Failed]);
        assert!(s.cases[0].flipped);
    }

    #[test]
    fn custom_metrics_follow_adks_inference_from_their_statuses() {
        use EvalStatus::*;
        let results = [
            case("c", 1, Failed, "length", 0.5, &[(0.9, Failed)]),
            case("c", 0, Passed, "length", 0.5, &[(0.3, Passed), (0.4, Passed)]),
        ];
        let m = &run_summary(&results, 2).cases[0].metrics[0];
        assert!(m.lower_is_better);
        assert_eq!(m.case_scores, [Some(0.35), Some(0.9)], "in run order");
        assert_eq!(m.passed, Some(false));
        // Mixed evidence: higher is better.
        let mixed = [case("c", 0, Passed, "length", 0.5, &[(0.3, Passed), (0.9, Passed)])];
        assert!(!run_summary(&mixed, 1).cases[0].metrics[0].lower_is_better);
    }

    #[test]
    fn not_evaluated_counts_unscored_runs_and_the_invocations_left_out_of_scored_ones() {
        use EvalStatus::*;
        let mut scored = case("c", 0, Passed, "m", 0.5, &[(1.0, Passed)]);
        let left_out = serde_json::json!([{"metric_name": "m", "invocation_index": 1, "reason": "judge_error"},
            {"metric_name": "other", "invocation_index": 0, "reason": "cassette_miss"}]);
        scored.not_evaluated_invocations = serde_json::from_value(left_out).unwrap();
        let mut unscored = case("c", 1, NotEvaluated, "m", 0.5, &[(0.0, NotEvaluated)]);
        unscored.overall_eval_metric_results[0].score = None;
        let m = &run_summary(&[scored.clone(), unscored], 2).cases[0].metrics[0];
        assert_eq!(m.not_evaluated, 2, "one run, one invocation of the other run");
        assert_eq!(m.passed, Some(true), "ADK's verdict on what was scored");
        assert_eq!(
            run_summary(&[case("c", 0, Passed, "m", 0.5, &[(1.0, Passed)])], 1).cases[0].metrics[0].not_evaluated,
            0
        );
    }
}

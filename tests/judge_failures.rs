//! A judge that fails is reported as the failure it is: every judged metric is NOT_EVALUATED
//! with the judge's own reason (`judge_error`, `budget_exhausted`, ...), never as an unreadable
//! answer, and the message says what went wrong.

use evalcore::judge::{JudgeFailure, JudgePort, JudgeRequest};
use evalcore::metrics::case::{evaluate_case_with, CaseRun, Ports};
use evalcore::schema::result::EvalStatus;
use evalcore::schema::{EvalCase, EvalConfig, Invocation};
use futures_util::future::LocalBoxFuture;
use serde_json::json;

/// Every call fails the same way (an HTTP 500 after the retries, a timeout, a spent budget).
struct Failing(&'static str, &'static str);

impl JudgePort for Failing {
    fn ask(&self, _req: JudgeRequest) -> LocalBoxFuture<'_, Result<String, JudgeFailure>> {
        let (reason, message) = (self.0, self.1);
        Box::pin(async move { Err(JudgeFailure::new(reason, message)) })
    }
}

fn score(metric: &str, judge: &dyn JudgePort) -> Vec<(EvalStatus, Option<&'static str>, Option<String>)> {
    let inv = json!({"user_content": {"parts": [{"text": "Is Paris in France?"}]},
        "final_response": {"parts": [{"text": "Yes. Paris is the capital of France."}]}});
    let case: EvalCase = serde_json::from_value(json!({"eval_id": "c", "conversation": [inv.clone()]})).unwrap();
    let actual: Vec<Invocation> = serde_json::from_value(json!([inv])).unwrap();
    let rubrics = json!([{"rubric_id": "r1", "rubric_content": {"text_property": "The answer is correct."}}]);
    let cfg = EvalConfig::from_value(&json!({"criteria": {metric: {"threshold": 0.5, "rubrics": rubrics}}})).unwrap();
    let run = CaseRun {
        efficiency_metrics: false,
        call_index: None,
        explain: true,
        checked: false,
        gaps: &[],
    };
    let ports = Ports {
        judge: Some(judge),
        custom: None,
        metrics: &[],
    };
    let out = futures_executor::block_on(evaluate_case_with(&case, &actual, &cfg, &run, ports)).unwrap();
    let m = &out.metrics[0];
    std::iter::once(&m.overall)
        .chain(m.per_invocation.iter())
        .map(|c| (c.status, c.details.reason, c.details.error.clone()))
        .collect()
}

#[test]
fn judge_failures_keep_their_reason_in_every_judged_metric() {
    for metric in [
        "hallucinations_v1",
        "final_response_match_v2",
        "rubric_based_final_response_quality_v1",
        "safety_v1",
    ] {
        for (reason, message) in [
            (
                "judge_error",
                "judge call failed with HTTP 500: overloaded (gave up after 7 attempts)",
            ),
            ("judge_error", "the judge did not answer within the timeout"),
            ("budget_exhausted", "the judge budget of 10 calls is spent"),
        ] {
            for (status, got_reason, got_message) in score(metric, &Failing(reason, message)) {
                assert_eq!(status, EvalStatus::NotEvaluated, "{metric} {reason}");
                assert_eq!(got_reason, Some(reason), "{metric}: {message}");
                assert!(
                    got_message.as_deref().is_some_and(|m| m.contains(message)),
                    "{metric}: {got_message:?}"
                );
            }
        }
    }
}

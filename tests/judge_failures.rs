//! A judge that fails is reported as the failure it is: every judged metric is NOT_EVALUATED
//! with the judge's own reason (`judge_error`, `budget_exhausted`, ...), never as an unreadable
//! answer, and the message says what went wrong.

use evalcore::judge::{JudgeFailure, JudgePort, JudgeRequest};
use evalcore::metrics::case::{evaluate_case_with, CaseRun, Ports};
use evalcore::schema::result::{CaseOutcome, EvalStatus};
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

/// The case scored with `judge` as its only port.
fn outcome(case: &EvalCase, actual: &[Invocation], cfg: &EvalConfig, judge: &dyn JudgePort) -> CaseOutcome {
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
    futures_executor::block_on(evaluate_case_with(case, actual, cfg, &run, ports)).unwrap()
}

fn score(metric: &str, judge: &dyn JudgePort) -> Vec<(EvalStatus, Option<&'static str>, Option<String>)> {
    let inv = json!({"user_content": {"parts": [{"text": "Is Paris in France?"}]},
        "final_response": {"parts": [{"text": "Yes. Paris is the capital of France."}]}});
    let case: EvalCase = serde_json::from_value(json!({"eval_id": "c", "conversation": [inv.clone()]})).unwrap();
    let actual: Vec<Invocation> = serde_json::from_value(json!([inv])).unwrap();
    let rubrics = json!([{"rubric_id": "r1", "rubric_content": {"text_property": "The answer is correct."}}]);
    let cfg = EvalConfig::from_value(&json!({"criteria": {metric: {"threshold": 0.5, "rubrics": rubrics}}})).unwrap();
    let out = outcome(&case, &actual, &cfg, judge);
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

/// Fails every call whose prompt mentions the second turn (an HTTP 500 after the retries).
struct FailsSecondTurn;

impl JudgePort for FailsSecondTurn {
    fn ask(&self, req: JudgeRequest) -> LocalBoxFuture<'_, Result<String, JudgeFailure>> {
        let second = req.prompt.contains("second question");
        Box::pin(async move {
            if second {
                Err(JudgeFailure::new(
                    "judge_error",
                    "judge call failed with HTTP 500: overloaded",
                ))
            } else {
                Ok(r#"{"reasoning": "fine", "is_the_agent_response_valid": "valid"}"#.to_string())
            }
        })
    }
}

#[test]
fn a_case_scored_on_its_judged_turns_lists_the_turn_the_judge_failed() {
    use evalcore::schema::eval_result::{Carried, EvalCaseResult};
    use evalcore::schema::result::Detail;
    use std::borrow::Cow;
    let turn =
        |q: &str| json!({"user_content": {"parts": [{"text": q}]}, "final_response": {"parts": [{"text": "Paris."}]}});
    let conversation = json!([turn("first question"), turn("second question")]);
    let case: EvalCase = serde_json::from_value(json!({"eval_id": "c", "conversation": conversation})).unwrap();
    let actual: Vec<Invocation> = serde_json::from_value(conversation).unwrap();
    let one = json!({"threshold": 0.5, "judge_model_options": {"num_samples": 1}});
    // multi_turn_task_success judges the whole conversation at its last turn (a turn it does not
    // judge by design, not one it failed to judge); the last turn fails, so it is NOT_EVALUATED.
    let cfg =
        EvalConfig::from_value(&json!({"criteria": {"final_response_match_v2": one, "multi_turn_task_success": one}}))
            .unwrap();
    let out = outcome(&case, &actual, &cfg, &FailsSecondTurn);
    let frm = &out.metrics[0];
    assert_eq!(
        (frm.overall.score, frm.overall.status),
        (Some(1.0), EvalStatus::Passed),
        "ADK: the judged turn's mean"
    );
    assert_eq!(out.metrics[1].overall.status, EvalStatus::NotEvaluated);
    for detail in [
        Detail::default(),
        Detail {
            per_invocation: false,
            ..Detail::default()
        },
    ] {
        let result = EvalCaseResult::of(
            "s",
            &case,
            actual.iter().map(Cow::Borrowed).collect(),
            out.clone(),
            detail,
        );
        let Some(Carried::Built(listed)) = result.not_evaluated_invocations else {
            panic!("the unjudged turn is listed");
        };
        assert_eq!(listed.len(), 1, "{listed:?}");
        assert_eq!(
            (
                listed[0].metric_name.as_str(),
                listed[0].invocation_index,
                listed[0].reason
            ),
            ("final_response_match_v2", 1, "judge_error")
        );
        assert!(listed[0].error.as_deref().is_some_and(|e| e.contains("HTTP 500")));
    }
    // Judged on every turn: nothing is listed, and nothing is written.
    let all = json!({"criteria": {"final_response_match_v2": one}});
    let conversation = json!([turn("first question"), turn("another first question")]);
    let judged: EvalCase = serde_json::from_value(json!({"eval_id": "c", "conversation": conversation})).unwrap();
    let both: Vec<Invocation> = serde_json::from_value(conversation).unwrap();
    let cfg = EvalConfig::from_value(&all).unwrap();
    let out = outcome(&judged, &both, &cfg, &FailsSecondTurn);
    let result = EvalCaseResult::of(
        "s",
        &judged,
        both.iter().map(Cow::Borrowed).collect(),
        out,
        Detail::default(),
    );
    assert_eq!(result.not_evaluated_invocations, None);
    assert!(!serde_json::to_string(&result)
        .unwrap()
        .contains("not_evaluated_invocations"));
}

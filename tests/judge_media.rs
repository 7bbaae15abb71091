//! Which media each judged metric hands its judge: the user turn's, the response's, the
//! reference's, as its prompt shows them. A recording judge keeps every request; the media share
//! the invocation's bytes (no copy per sample or metric).

use evalcore::judge::media::{MediaItem, Source};
use evalcore::judge::{CallKind, JudgeFailure, JudgePort, JudgeRequest};
use evalcore::metrics::case::{evaluate_case_with, CaseRun, Ports};
use evalcore::schema::{EvalCase, EvalConfig, Invocation};
use futures_util::future::LocalBoxFuture;
use serde_json::json;
use std::cell::RefCell;

#[derive(Default)]
struct Recording(RefCell<Vec<JudgeRequest>>);

impl JudgePort for Recording {
    fn ask(&self, req: JudgeRequest) -> LocalBoxFuture<'_, Result<String, JudgeFailure>> {
        let answer = match req.kind {
            CallKind::Segmenter => "<sentence>It is red.</sentence>".to_string(),
            CallKind::Validator => "sentence: It is red.\nlabel: supported\nrationale: r\nsupporting_excerpt: null\ncontradicting_excerpt: null".to_string(),
            _ => "{\"is_the_agent_response_valid\": \"valid\"}\nID: r1\nProperty: The answer is right.\nRationale: r\nVerdict: yes".to_string(),
        };
        self.0.borrow_mut().push(req);
        Box::pin(async move { Ok(answer) })
    }
}

fn blob(mime: &str, data: &str) -> serde_json::Value {
    json!({"inline_data": {"mime_type": mime, "data": data}})
}

/// (kind, owners of the media) of every request `metric` makes, and the requests themselves.
fn requests(metric: &str) -> Vec<(CallKind, Vec<&'static str>, JudgeRequest)> {
    let user = json!({"parts": [{"text": "What colour is it?"}, blob("image/png", "AAEC")]});
    let expected = json!({"invocation_id": "e", "user_content": user,
        "final_response": {"parts": [{"text": "Red."}, blob("image/png", "AwQF")]}});
    let actual = json!({"invocation_id": "a", "user_content": user,
        "final_response": {"parts": [{"text": "It is red."}, {"file_data": {"file_uri": "gs://b/red.png", "mime_type": "image/png"}}]}});
    let case: EvalCase = serde_json::from_value(json!({"eval_id": "c", "conversation": [expected]})).unwrap();
    let actual: Vec<Invocation> = serde_json::from_value(json!([actual])).unwrap();
    let rubrics = json!([{"rubric_id": "r1", "rubric_content": {"text_property": "The answer is right."}}]);
    let cfg = EvalConfig::from_value(&json!({"criteria": {metric: {"threshold": 0.5, "rubrics": rubrics,
        "judge_model_options": {"num_samples": 2}}}}))
    .unwrap();
    let judge = Recording::default();
    let run = CaseRun {
        efficiency_metrics: false,
        call_index: None,
        explain: true,
        checked: false,
        gaps: &[],
    };
    let ports = Ports {
        judge: Some(&judge),
        custom: None,
        metrics: &[],
    };
    futures_executor::block_on(evaluate_case_with(&case, &actual, &cfg, &run, ports)).unwrap();
    judge
        .0
        .into_inner()
        .into_iter()
        .map(|r| (r.kind, r.media.iter().map(|m| m.owner).collect(), r))
        .collect()
}

#[test]
fn each_metric_hands_the_judge_the_media_its_prompt_shows() {
    let owners = |metric: &str| -> Vec<(CallKind, Vec<&'static str>)> {
        requests(metric).into_iter().map(|(k, o, _)| (k, o)).collect()
    };
    let both = vec!["user prompt", "agent response"];
    assert_eq!(
        owners("final_response_match_v2"),
        vec![
            (
                CallKind::Judge,
                vec!["user prompt", "agent response", "reference response"]
            );
            2
        ]
    );
    assert_eq!(owners("safety_v1"), vec![(CallKind::Judge, both.clone()); 2]);
    assert_eq!(
        owners("rubric_based_final_response_quality_v1"),
        vec![(CallKind::Judge, both.clone()); 2]
    );
    assert_eq!(
        owners("rubric_based_tool_use_quality_v1"),
        vec![(CallKind::Judge, vec!["user prompt"]); 2]
    );
    assert_eq!(
        owners("rubric_based_multi_turn_trajectory_quality_v1"),
        vec![(CallKind::Judge, both); 2]
    );
    // The segmenter only splits text; the validator checks against a context holding the user's media.
    assert_eq!(
        owners("hallucinations_v1"),
        vec![
            (CallKind::Segmenter, vec![]),
            (CallKind::Validator, vec!["user prompt"])
        ]
    );
}

#[test]
fn samples_share_the_bytes_and_uris_stay_uris() {
    let reqs = requests("final_response_match_v2");
    let bytes = |r: &JudgeRequest, i: usize| -> Option<std::rc::Rc<[u8]>> {
        match r.media.get(i) {
            Some(MediaItem {
                source: Source::Inline(b),
                ..
            }) => Some(b.0.clone()),
            _ => None,
        }
    };
    let (a, b) = (&reqs[0].2, &reqs[1].2);
    // Two samples, one set of media: the same allocation, not two copies.
    assert!(std::rc::Rc::ptr_eq(&a.media, &b.media));
    assert_eq!(bytes(a, 0).as_deref(), Some(&[0u8, 1, 2][..]));
    assert_eq!(a.media[1].source, Source::Uri("gs://b/red.png".into()));
    assert_eq!(bytes(a, 2).as_deref(), Some(&[3u8, 4, 5][..]));
}

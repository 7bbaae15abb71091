//! The judge client over a fake host: retries, backoff, timeouts, budgets, cassettes, dry runs.
use super::*;
use crate::judge::CallKind;
use crate::run::{AgentError, HttpReply};
use std::collections::VecDeque;

/// A host whose fetch answers from a queue and whose sleep records the delay.
struct Fake {
    replies: RefCell<VecDeque<Result<HttpReply, FetchError>>>,
    sent: RefCell<Vec<HttpCall>>,
    slept: RefCell<Vec<f64>>,
    events: RefCell<Vec<Value>>,
    /// How many of the next fetches never answer (a host that ignores its abort signal).
    hangs: Cell<u32>,
}

fn ok(text: &str) -> Result<HttpReply, FetchError> {
    Ok(HttpReply {
        status: 200,
        headers: vec![],
        body: json!({"choices": [{"message": {"content": text}}]}).to_string(),
    })
}

fn status(code: u16, retry_after: Option<&str>) -> Result<HttpReply, FetchError> {
    Ok(HttpReply {
        status: code,
        headers: retry_after
            .map(|v| vec![("Retry-After".to_string(), v.to_string())])
            .unwrap_or_default(),
        body: json!({"error": {"message": format!("status {code}")}}).to_string(),
    })
}

impl Host for Fake {
    fn fetch(&self, call: HttpCall) -> LocalBoxFuture<'_, Result<HttpReply, FetchError>> {
        self.sent.borrow_mut().push(call);
        if self.hangs.get() > 0 {
            self.hangs.set(self.hangs.get() - 1);
            return Box::pin(futures_util::future::pending());
        }
        let r = self
            .replies
            .borrow_mut()
            .pop_front()
            .unwrap_or_else(|| Err(FetchError::Network("empty".into())));
        Box::pin(async move { r })
    }
    fn sleep(&self, ms: f64) -> LocalBoxFuture<'_, ()> {
        self.slept.borrow_mut().push(ms);
        Box::pin(async {})
    }
    fn now_ms(&self) -> f64 {
        0.0
    }
    fn random(&self) -> f64 {
        0.5
    }
    fn agent(&self, _t: String) -> LocalBoxFuture<'_, Result<String, AgentError>> {
        Box::pin(async { Err(AgentError::failed("none")) })
    }
    fn emit(&self, e: String) {
        self.events.borrow_mut().push(serde_json::from_str(&e).unwrap());
    }
    fn aborted(&self) -> bool {
        false
    }
}

fn setup(replies: Vec<Result<HttpReply, FetchError>>, extra: Value) -> (Rc<Fake>, JudgeClient) {
    let fake = Rc::new(Fake {
        replies: RefCell::new(replies.into()),
        sent: RefCell::new(vec![]),
        slept: RefCell::new(vec![]),
        events: RefCell::new(vec![]),
        hangs: Cell::new(0),
    });
    let mut o = json!({"provider": "openai", "model": "m", "baseUrl": "http://j", "retryInitialDelayMs": 100, "retryMaxDelayMs": 1000});
    if let (Some(m), Some(e)) = (o.as_object_mut(), extra.as_object()) {
        m.extend(e.clone());
    }
    let client = JudgeClient::new(fake.clone(), JudgeSettings::from_json(&o).unwrap());
    (fake, client)
}

fn req(prompt: &str, sample: u32) -> JudgeRequest {
    JudgeRequest {
        metric: "m".into(),
        invocation: 0,
        sample,
        kind: CallKind::Judge,
        prompt: prompt.into(),
        model_hint: None,
        config: None,
        media: crate::judge::media::none(),
    }
}

fn ask(c: &JudgeClient, r: JudgeRequest) -> Result<String, JudgeFailure> {
    futures_executor::block_on(c.ask(r))
}

#[test]
fn an_unreachable_judge_is_retried_once_then_every_later_call_fails_at_once() {
    let refused = || Err(FetchError::Unreachable("connect ECONNREFUSED 127.0.0.1:9".into()));
    let (fake, c) = setup(vec![refused(), refused(), ok("never")], json!({}));
    let e = ask(&c, req("p", 0)).unwrap_err();
    assert_eq!(e.reason, "judge_error");
    assert!(
        e.message.contains("unreachable") && e.message.contains("not retried"),
        "{}",
        e.message
    );
    assert_eq!(fake.sent.borrow().len(), 2, "one retry, not six");
    // The retry was announced to the host before its wait.
    let events = fake.events.borrow().clone();
    let retries: Vec<&Value> = events.iter().filter(|e| e["type"] == "judge_retry").collect();
    assert_eq!(retries.len(), 1);
    assert_eq!(retries[0]["attempt"], 1);
    assert!(retries[0]["why"].as_str().unwrap().contains("ECONNREFUSED"));
    // Later calls are not sent at all.
    let e = ask(&c, req("q", 0)).unwrap_err();
    assert!(e.message.contains("not sent"), "{}", e.message);
    assert_eq!(fake.sent.borrow().len(), 2);
    // One refusal between successes is only a retry.
    let (fake, c) = setup(vec![refused(), ok("a"), refused(), ok("b")], json!({}));
    assert_eq!(ask(&c, req("p", 0)), Ok("a".into()));
    assert_eq!(ask(&c, req("q", 0)), Ok("b".into()));
    assert_eq!(fake.sent.borrow().len(), 4);
}

#[test]
fn retries_with_backoff_and_retry_after() {
    let (fake, c) = setup(
        vec![
            status(429, Some("2")),
            status(503, None),
            Err(FetchError::Timeout),
            ok("yes"),
        ],
        json!({}),
    );
    assert_eq!(ask(&c, req("p", 0)), Ok("yes".into()));
    // Retry-After 2 s, then 100·2^1 = 200 ms and 100·2^2 = 400 ms with equal jitter at 0.5.
    assert_eq!(*fake.slept.borrow(), vec![2000.0, 150.0, 300.0]);
    assert_eq!(c.stats().retries, 3);
}

#[test]
fn judge_options_refuse_unknown_keys_with_their_path() {
    let e = JudgeSettings::from_json(&json!({"provider": "openai", "model": "m", "timeout": 5})).unwrap_err();
    assert_eq!(e.path, "$.judge.timeout");
    assert!(e.message.contains("timeoutMs"), "{}", e.message);
    let e = JudgeSettings::from_json(&json!({"provider": "openai", "cassette": {"mode": "replay", "file": "x"}}))
        .unwrap_err();
    assert_eq!(e.path, "$.judge.cassette.file");
    let e = JudgeSettings::from_json(&json!({"provider": "openai", "maxRetries": -1})).unwrap_err();
    assert_eq!(e.path, "$.judge.maxRetries");
    assert_eq!(JudgeSettings::from_json(&json!("openai")).unwrap_err().path, "$.judge");
    let s = JudgeSettings::from_json(
        &json!({"provider": "anthropic", "base_url": "http://x", "headers": {"b": "2", "a": "1"}}),
    )
    .unwrap();
    assert_eq!(s.base_url, "http://x");
    assert_eq!(
        s.headers,
        vec![("b".to_string(), "2".to_string()), ("a".to_string(), "1".to_string())]
    );
}

#[test]
fn a_fetch_that_never_answers_times_out_and_is_retried() {
    let (fake, c) = setup(vec![ok("late but here")], json!({"timeoutMs": 5000}));
    fake.hangs.set(1);
    assert_eq!(ask(&c, req("p", 0)), Ok("late but here".into()));
    assert_eq!(fake.sent.borrow().len(), 2);
    assert_eq!(c.stats().retries, 1);
    // The core's own timer (a little after the host's), then the backoff.
    assert_eq!(*fake.slept.borrow(), vec![5050.0, 75.0]);
    let (fake, c) = setup(vec![], json!({"timeoutMs": 100, "maxRetries": 1}));
    fake.hangs.set(2);
    let e = ask(&c, req("p", 0)).unwrap_err();
    assert_eq!(e.reason, "judge_error");
    assert!(e.message.contains("did not answer within the timeout"), "{}", e.message);
    assert!(e.message.contains("gave up after 2 attempts"), "{}", e.message);
}

#[test]
fn no_retry_on_client_errors_and_give_up_after_max() {
    let (fake, c) = setup(vec![status(400, None)], json!({}));
    let e = ask(&c, req("p", 0)).unwrap_err();
    assert_eq!(e.reason, "judge_error");
    assert!(e.message.contains("HTTP 400"), "{}", e.message);
    assert_eq!(fake.sent.borrow().len(), 1);
    let (fake, c) = setup(
        vec![status(500, None), status(500, None), status(500, None)],
        json!({"maxRetries": 2}),
    );
    let e = ask(&c, req("p", 0)).unwrap_err();
    assert!(e.message.contains("gave up after 3 attempts"), "{}", e.message);
    assert_eq!(fake.sent.borrow().len(), 3);
}

#[test]
fn same_request_and_sample_is_sent_once_samples_are_distinct() {
    let (fake, c) = setup(vec![ok("a"), ok("b")], json!({}));
    assert_eq!(ask(&c, req("p", 0)), Ok("a".into()));
    assert_eq!(ask(&c, req("p", 0)), Ok("a".into()));
    assert_eq!(ask(&c, req("p", 1)), Ok("b".into()));
    assert_eq!(fake.sent.borrow().len(), 2);
    assert_eq!(c.stats().deduplicated, 1);
}

#[test]
fn budget_and_dry_run() {
    let (fake, c) = setup(vec![ok("a"), ok("b")], json!({"maxCalls": 1}));
    assert!(ask(&c, req("p", 0)).is_ok());
    assert_eq!(ask(&c, req("q", 0)).unwrap_err().reason, "budget_exhausted");
    assert_eq!(fake.sent.borrow().len(), 1);
    assert!(c.budget_exhausted());
    let (fake, c) = setup(vec![], json!({"dryRun": true}));
    assert_eq!(ask(&c, req("p", 0)).unwrap_err().reason, "dry_run");
    assert!(fake.sent.borrow().is_empty());
    let plan = c.planned();
    assert_eq!(plan.len(), 1);
    assert_eq!(plan[0].url, "http://j/chat/completions");
}

#[test]
fn cassette_record_then_replay_and_miss() {
    let (fake, c) = setup(vec![ok("recorded")], json!({"cassette": {"mode": "record"}}));
    assert_eq!(ask(&c, req("p", 0)), Ok("recorded".into()));
    let ev = fake.events.borrow()[0].clone();
    assert_eq!(ev["type"], "cassette");
    let entries = json!({ ev["key"].as_str().unwrap(): ev["entry"] });
    // Replay: no network at all; a different request is a miss.
    let (fake2, c2) = setup(vec![], json!({"cassette": {"mode": "replay", "entries": entries}}));
    assert_eq!(ask(&c2, req("p", 0)), Ok("recorded".into()));
    let miss = ask(&c2, req("other", 0)).unwrap_err();
    assert_eq!(miss.reason, "cassette_miss");
    assert!(fake2.sent.borrow().is_empty());
    // The key ignores the endpoint and the auth headers.
    let (_, c3) = setup(
        vec![],
        json!({"baseUrl": "https://elsewhere/v1", "headers": {"authorization": "k"}, "cassette": {"mode": "replay", "entries": entries}}),
    );
    assert_eq!(ask(&c3, req("p", 0)), Ok("recorded".into()));
}

fn with_image(prompt: &str, bytes: &[u8]) -> JudgeRequest {
    use crate::judge::media::{MediaItem, Source};
    let item = MediaItem::new(
        "user prompt",
        Some("image/png".into()),
        Source::Inline(crate::schema::bytes::Bytes(bytes.into())),
        None,
    );
    JudgeRequest {
        media: Rc::from(vec![item]),
        ..req(prompt, 0)
    }
}

#[test]
fn media_off_sends_the_text_only_request_media_on_sends_the_image() {
    let (fake, c) = setup(vec![ok("a"), ok("b")], json!({}));
    assert!(ask(&c, with_image("p", b"png")).is_ok());
    let (_, plain) = setup(vec![ok("a")], json!({}));
    assert!(ask(&plain, req("p", 0)).is_ok());
    // Off (the default): the body is the text-only one, byte for byte.
    assert_eq!(
        fake.sent.borrow()[0].body.as_str(),
        r#"{"model":"m","messages":[{"role":"user","content":"p"}]}"#
    );
    let (fake, c) = setup(vec![ok("a")], json!({"media": true}));
    assert!(ask(&c, with_image("p", b"png")).is_ok());
    let body: Value = serde_json::from_str(&fake.sent.borrow()[0].body).unwrap();
    assert_eq!(
        body["messages"][0]["content"][2]["image_url"]["url"],
        "data:image/png;base64,cG5n"
    );
}

#[test]
fn media_budget_and_refusals_are_not_sent() {
    let (fake, c) = setup(vec![], json!({"media": true, "maxMediaBytes": 2}));
    let e = ask(&c, with_image("p", b"png")).unwrap_err();
    assert_eq!(e.reason, "media_too_large");
    assert!(
        e.message.contains("3 bytes inline, over `judge.maxMediaBytes` (2)"),
        "{}",
        e.message
    );
    let (_, c) = setup(vec![], json!({"provider": "anthropic", "media": true}));
    let mut r = with_image("p", b"RIFF");
    if let Some(m) = Rc::get_mut(&mut r.media).and_then(|m| m.first_mut()) {
        m.mime = Some("audio/wav".into());
    }
    let e = ask(&c, r).unwrap_err();
    assert_eq!(e.reason, "media_unsupported");
    assert!(e.message.contains("anthropic judges do not take"), "{}", e.message);
    assert!(fake.sent.borrow().is_empty());
    let e = JudgeSettings::from_json(&json!({"provider": "openai", "maxMediaBytes": -1})).unwrap_err();
    assert_eq!(e.path, "$.judge.maxMediaBytes");
}

#[test]
fn cassette_keys_cover_the_media_bytes() {
    let (fake, c) = setup(vec![ok("seen")], json!({"media": true, "cassette": {"mode": "record"}}));
    assert_eq!(ask(&c, with_image("p", b"png")), Ok("seen".into()));
    let ev = fake.events.borrow()[0].clone();
    let entries = json!({ ev["key"].as_str().unwrap(): ev["entry"] });
    let (_, c2) = setup(
        vec![],
        json!({"media": true, "cassette": {"mode": "replay", "entries": entries}}),
    );
    assert_eq!(ask(&c2, with_image("p", b"png")), Ok("seen".into()));
    // One byte of the image changed: another request, a miss.
    assert_eq!(ask(&c2, with_image("p", b"pnh")).unwrap_err().reason, "cassette_miss");
    // The same cassette replayed with media off is another request too.
    let (_, c3) = setup(vec![], json!({"cassette": {"mode": "replay", "entries": entries}}));
    assert_eq!(ask(&c3, with_image("p", b"png")).unwrap_err().reason, "cassette_miss");
}

#[test]
fn samples_and_retries_of_a_media_request_share_one_body() {
    use crate::judge::media::MediaItem;
    let (fake, c) = setup(vec![status(503, None), ok("a"), ok("b")], json!({"media": true}));
    let first = with_image("p", b"png");
    let media: Rc<[MediaItem]> = first.media.clone();
    let second = JudgeRequest {
        sample: 1,
        media: media.clone(),
        ..req("p", 0)
    };
    // Both samples in flight at once (the first is retried after a 503).
    let (a, b) = futures_executor::block_on(futures_util::future::join(c.ask(first), c.ask(second)));
    assert_eq!((a.is_ok(), b.is_ok()), (true, true));
    let sent = fake.sent.borrow();
    assert_eq!(sent.len(), 3);
    assert!(
        sent.iter().all(|call| Rc::ptr_eq(&call.body, &sent[0].body)),
        "one body for every call"
    );
    assert!(sent[0].body.contains("cG5n"));
}

#[test]
fn an_unsupported_part_is_refused_before_the_cassette_is_asked() {
    let (_, c) = setup(
        vec![],
        json!({"provider": "anthropic", "media": true, "cassette": {"mode": "replay"}}),
    );
    let mut r = with_image("p", b"RIFF");
    if let Some(m) = Rc::get_mut(&mut r.media).and_then(|m| m.first_mut()) {
        m.mime = Some("audio/wav".into());
    }
    assert_eq!(ask(&c, r).unwrap_err().reason, "media_unsupported");
}

/// `requests` = `answered` + `failures` + the calls not sent (by reason), and `attempts` = the
/// calls sent + the retries made (no call is counted as sent, nor a retry as made, without an
/// attempt).
fn assert_accounted(s: &JudgeStats) {
    assert_eq!(s.requests, s.answered + s.failures + s.not_sent.total(), "{s:?}");
    assert_eq!(
        s.attempts,
        s.sent + s.retries,
        "a sent call is an attempt, and so is each retry made: {s:?}"
    );
}

#[test]
fn every_call_asked_for_is_answered_failed_or_not_sent_with_its_reason() {
    // A dead judge: the first calls are sent (and refused); the later ones are not sent at all.
    let refused = || Err(FetchError::Unreachable("connect ECONNREFUSED 127.0.0.1:9".into()));
    let (fake, c) = setup(vec![refused(), refused()], json!({}));
    for p in ["a", "b", "c", "d"] {
        assert_eq!(ask(&c, req(p, 0)).unwrap_err().reason, "judge_error");
    }
    let s = c.judge_stats();
    assert_accounted(&s);
    assert_eq!((s.sent, s.attempts, s.failures), (1, 2, 1));
    assert_eq!(s.not_sent.get("judge_error"), 3);
    assert_eq!(fake.sent.borrow().len(), 2);
    // Answered (sent, deduplicated), failed, a budget spent: each counted once.
    let (_, c) = setup(vec![ok("a"), status(400, None)], json!({"maxCalls": 2}));
    assert!(ask(&c, req("p", 0)).is_ok());
    assert!(ask(&c, req("p", 0)).is_ok());
    assert!(ask(&c, req("q", 0)).is_err());
    assert_eq!(ask(&c, req("r", 0)).unwrap_err().reason, "budget_exhausted");
    let s = c.judge_stats();
    assert_accounted(&s);
    assert_eq!((s.requests, s.answered, s.failures, s.deduplicated), (4, 2, 1, 1));
    assert_eq!(s.not_sent.get("budget_exhausted"), 1);
    // A cassette that misses one call, and a dry run.
    let (fake, c) = setup(vec![ok("recorded")], json!({"cassette": {"mode": "record"}}));
    assert!(ask(&c, req("p", 0)).is_ok());
    let ev = fake.events.borrow()[0].clone();
    let entries = json!({ ev["key"].as_str().unwrap(): ev["entry"] });
    let (_, c) = setup(vec![], json!({"cassette": {"mode": "replay", "entries": entries}}));
    assert!(ask(&c, req("p", 0)).is_ok());
    assert!(ask(&c, req("changed", 0)).is_err());
    let s = c.judge_stats();
    assert_accounted(&s);
    assert_eq!((s.answered, s.cassette_hits, s.sent), (1, 1, 0));
    assert_eq!(s.not_sent.get("cassette_miss"), 1);
    let (_, c) = setup(vec![], json!({"dryRun": true}));
    assert!(ask(&c, req("p", 0)).is_err());
    assert_accounted(&c.judge_stats());
    assert_eq!(c.judge_stats().not_sent.get("dry_run"), 1);
}

#[test]
fn a_call_that_may_not_be_retried_says_so() {
    let (_, c) = setup(vec![status(500, None)], json!({"maxRetries": 0}));
    let e = ask(&c, req("p", 0)).unwrap_err();
    assert!(e.message.contains("HTTP 500"), "{}", e.message);
    assert!(!e.message.contains("after 1 attempts"), "{}", e.message);
    assert!(e.message.contains("not retried: maxRetries is 0"), "{}", e.message);
}

#[test]
fn a_prompt_over_max_prompt_bytes_is_not_sent() {
    let (fake, c) = setup(vec![ok("a")], json!({"maxPromptBytes": 1024}));
    let e = ask(&c, req(&"x".repeat(1025), 0)).unwrap_err();
    assert_eq!(e.reason, "prompt_too_large");
    assert!(
        e.message.contains("1025 bytes, over `judge.maxPromptBytes` (1024)"),
        "{}",
        e.message
    );
    assert!(fake.sent.borrow().is_empty(), "nothing was sent");
    assert!(ask(&c, req(&"x".repeat(1024), 0)).is_ok());
    assert_eq!(fake.sent.borrow().len(), 1);
    assert_eq!(c.max_prompt_bytes(), 1024);
    let (_, c) = setup(vec![], json!({}));
    assert_eq!(c.max_prompt_bytes(), DEFAULT_MAX_PROMPT_BYTES);
    let bad = JudgeSettings::from_json(&json!({"provider": "openai", "maxPromptBytes": -1}));
    assert_eq!(bad.err().map(|e| e.path), Some("$.judge.maxPromptBytes".to_string()));
}

//! The judge client: a [`JudgePort`] over the host's fetch. It formats the provider request,
//! bounds calls in flight, retries 408/429/5xx and network failures with exponential backoff,
//! jitter and `Retry-After`, sends each (request, sample) once per run, records to and replays
//! from a cassette, counts calls against a budget, and in a dry run lists calls without
//! sending them.

use super::{FetchError, Host, HttpCall, HttpReply};
use crate::error::EvalError;
use crate::judge::limit::Limit;
use crate::judge::media::MediaItem;
use crate::judge::provider::{self, Provider, Reply};
use crate::judge::{JudgeFailure, JudgePort, JudgeRequest};
use crate::schema::eval_result::{JudgeStats, PlannedCall};
use crate::schema::load;
use crate::schema::value::kind;
use futures_util::future::{FutureExt, LocalBoxFuture, Shared};
use serde::Deserialize;
use serde_json::{json, Map, Value};
use sha2::{Digest, Sha256};
use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::rc::Rc;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CassetteMode {
    /// Only the cassette answers; a missing entry is an error.
    Replay,
    /// Always send, and record every answer.
    Record,
    /// Answer from the cassette when it has the call, otherwise send and record.
    Auto,
}

/// Judge settings from the host (`judge` option), minus `fetch`.
#[derive(Debug, Clone)]
pub struct JudgeSettings {
    pub provider: Provider,
    pub model: Option<String>,
    pub base_url: String,
    pub headers: Vec<(String, String)>,
    pub concurrency: usize,
    pub timeout_ms: f64,
    pub max_retries: u32,
    pub retry_initial_ms: f64,
    pub retry_max_ms: f64,
    pub max_tokens: u32,
    pub cassette: Option<CassetteMode>,
    pub cassette_entries: Map<String, Value>,
    pub dry_run: bool,
    pub max_calls: Option<u64>,
    /// Send the media parts of what a judge is shown (off: ADK's text-only judges).
    pub media: bool,
    /// Inline media bytes one call may carry.
    pub max_media_bytes: u64,
    /// Bytes of prompt text one call may carry.
    pub max_prompt_bytes: u64,
}

/// `maxMediaBytes` by default: 15 MB of bytes is 20 MB of base64, Gemini's inline request limit.
pub const DEFAULT_MAX_MEDIA_BYTES: u64 = 15_000_000;

/// `maxPromptBytes` by default: 4 MiB of text is about a million tokens, the largest context a
/// judge model takes; a prompt past it would be refused by the provider after its upload.
pub const DEFAULT_MAX_PROMPT_BYTES: u64 = 4 * 1024 * 1024;

/// How to reach an LLM judge: the `judge` option as the host gives it, minus what only the host
/// holds (`fetch`, a cassette's file and callback). Unknown keys are refused, so a misspelt
/// option is an error with its path instead of a silent default. Credentials reach the provider
/// only through the host's `fetch` or `headers`.
#[derive(Debug, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(rename = "JudgeSettingsInput"))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct JudgeOption {
    /// Wire format: Gemini generateContent, OpenAI-compatible chat completions, Anthropic messages.
    #[cfg_attr(feature = "ts", ts(type = "\"gemini\" | \"openai\" | \"anthropic\""))]
    provider: String,
    /// Model name sent to the provider (a criterion's `judge_model` is used only when this is empty).
    #[serde(default)]
    #[cfg_attr(feature = "ts", ts(optional))]
    model: Option<String>,
    /// Defaults to the provider's public endpoint.
    #[serde(default, alias = "base_url")]
    #[cfg_attr(feature = "ts", ts(optional))]
    base_url: Option<String>,
    /// Sent with every judge call (API keys go here).
    #[serde(default)]
    #[cfg_attr(feature = "ts", ts(optional))]
    headers: Option<indexmap::IndexMap<String, String>>,
    /// Judge calls in flight across the whole run (default 8).
    #[serde(default)]
    #[cfg_attr(feature = "ts", ts(optional))]
    concurrency: Option<f64>,
    /// Per-call timeout in milliseconds (default 60000).
    #[serde(default)]
    #[cfg_attr(feature = "ts", ts(optional))]
    timeout_ms: Option<f64>,
    /// Retries on 408/429/5xx, timeouts and network errors (default 6, i.e. 7 attempts as ADK).
    #[serde(default)]
    #[cfg_attr(feature = "ts", ts(optional))]
    max_retries: Option<f64>,
    /// First backoff delay in milliseconds, doubled per retry with jitter (default 1000).
    /// `Retry-After` wins.
    #[serde(default)]
    #[cfg_attr(feature = "ts", ts(optional))]
    retry_initial_delay_ms: Option<f64>,
    /// Backoff cap in milliseconds (default 60000).
    #[serde(default)]
    #[cfg_attr(feature = "ts", ts(optional))]
    retry_max_delay_ms: Option<f64>,
    /// Anthropic's required max_tokens (default 4096).
    #[serde(default)]
    #[cfg_attr(feature = "ts", ts(optional))]
    max_tokens: Option<f64>,
    /// Record judge answers to, and replay them from, a cassette.
    #[serde(default)]
    #[cfg_attr(feature = "ts", ts(optional))]
    cassette: Option<CassetteOption>,
    /// List judge calls instead of sending them (metrics come back NOT_EVALUATED, reason dry_run).
    #[serde(default)]
    #[cfg_attr(feature = "ts", ts(optional))]
    dry_run: Option<bool>,
    /// At most this many judge calls are sent; later ones are NOT_EVALUATED (reason
    /// budget_exhausted).
    #[serde(default)]
    #[cfg_attr(feature = "ts", ts(optional))]
    max_calls: Option<f64>,
    /// Send the images, audio and documents (`inline_data`, `file_data`) of the user turn and the
    /// responses to the judge, in the provider's format (default false: text only, as ADK).
    /// Media a provider cannot take make the call NOT_EVALUATED (reason media_unsupported).
    #[serde(default)]
    #[cfg_attr(feature = "ts", ts(optional))]
    media: Option<bool>,
    /// Inline media bytes one judge call may carry (default 15000000); a call over it is
    /// NOT_EVALUATED (reason media_too_large).
    #[serde(default)]
    #[cfg_attr(feature = "ts", ts(optional))]
    max_media_bytes: Option<f64>,
    /// Bytes of prompt text (UTF-8) one judge call may carry (default 4194304); a call over it is
    /// not sent and is NOT_EVALUATED (reason prompt_too_large). A custom metric's
    /// `prompt_template` stops being filled at it.
    #[serde(default)]
    #[cfg_attr(feature = "ts", ts(optional))]
    max_prompt_bytes: Option<f64>,
}

/// A judge cassette: recorded answers keyed by request.
#[derive(Debug, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(rename = "CassetteInput"))]
#[serde(deny_unknown_fields)]
pub struct CassetteOption {
    /// replay: only the cassette answers (a miss is NOT_EVALUATED, reason cassette_miss);
    /// record: always send and record; auto (default): replay what is there, send and record
    /// the rest.
    #[serde(default)]
    #[cfg_attr(feature = "ts", ts(optional, type = "\"replay\" | \"record\" | \"auto\""))]
    mode: Option<String>,
    /// Recorded answers, `{key: {status, body}}`.
    #[serde(default)]
    #[cfg_attr(feature = "ts", ts(optional, type = "Record<string, JsonObject>"))]
    entries: Option<Map<String, Value>>,
}

impl JudgeSettings {
    /// Reads the `judge` option object (without `fetch`, which stays in the host). Errors carry
    /// the option's JSON path (`$.judge.timeoutMs`).
    pub fn from_json(v: &Value) -> Result<JudgeSettings, EvalError> {
        if !v.is_object() {
            return Err(EvalError::schema(
                "$.judge",
                format!("`judge` must be an object {{provider, model, ...}}, found {}", kind(v)),
            ));
        }
        let o: JudgeOption = load::from_value(v, "$.judge")?;
        let provider = Provider::parse(&o.provider).ok_or_else(|| {
            EvalError::schema(
                "$.judge.provider",
                format!(
                    "`judge.provider` {:?} is not one of \"gemini\", \"openai\", \"anthropic\"",
                    o.provider
                ),
            )
        })?;
        let pos = |k: &str, v: Option<f64>, d: f64| -> Result<f64, EvalError> {
            match v {
                None => Ok(d),
                Some(x) if x >= 0.0 && x.is_finite() => Ok(x),
                Some(x) => Err(EvalError::schema(
                    format!("$.judge.{k}"),
                    format!("`judge.{k}` must be a non-negative number, found {x}"),
                )),
            }
        };
        let cassette = match &o.cassette {
            None => None,
            Some(c) => Some(match c.mode.as_deref().unwrap_or("auto") {
                "replay" => CassetteMode::Replay,
                "record" => CassetteMode::Record,
                "auto" => CassetteMode::Auto,
                other => {
                    return Err(EvalError::schema(
                        "$.judge.cassette.mode",
                        format!("`judge.cassette.mode` {other:?} is not one of \"replay\", \"record\", \"auto\""),
                    ))
                }
            }),
        };
        Ok(JudgeSettings {
            provider,
            model: o.model.filter(|m| !m.is_empty()),
            base_url: o.base_url.unwrap_or_else(|| provider.default_base_url().to_string()),
            headers: o.headers.unwrap_or_default().into_iter().collect(),
            concurrency: pos("concurrency", o.concurrency, 8.0)?.max(1.0) as usize,
            timeout_ms: pos("timeoutMs", o.timeout_ms, 60_000.0)?,
            max_retries: pos("maxRetries", o.max_retries, 6.0)? as u32,
            retry_initial_ms: pos("retryInitialDelayMs", o.retry_initial_delay_ms, 1_000.0)?,
            retry_max_ms: pos("retryMaxDelayMs", o.retry_max_delay_ms, 60_000.0)?,
            max_tokens: o.max_tokens.filter(|x| *x >= 1.0).unwrap_or(4096.0) as u32,
            cassette,
            cassette_entries: o.cassette.and_then(|c| c.entries).unwrap_or_default(),
            dry_run: o.dry_run.unwrap_or(false),
            max_calls: o.max_calls.filter(|x| *x >= 0.0).map(|x| x as u64),
            media: o.media.unwrap_or(false),
            max_media_bytes: pos("maxMediaBytes", o.max_media_bytes, DEFAULT_MAX_MEDIA_BYTES as f64)? as u64,
            max_prompt_bytes: pos("maxPromptBytes", o.max_prompt_bytes, DEFAULT_MAX_PROMPT_BYTES as f64)? as u64,
        })
    }
}

type SharedAnswer = Shared<LocalBoxFuture<'static, Result<String, JudgeFailure>>>;

/// Refusals in a row after which the judge counts as unreachable for the rest of the run.
const UNREACHABLE_AFTER: u32 = 2;

struct Inner {
    host: Rc<dyn Host>,
    /// Connection refusals (or unresolvable names) in a row, across every call of the run.
    unreachable: Cell<u32>,
    unreachable_why: RefCell<String>,
    settings: JudgeSettings,
    limit: Limit,
    memo: RefCell<HashMap<String, SharedAnswer>>,
    /// The run's counters (`budget_exhausted` is set when they are read).
    stats: RefCell<JudgeStats>,
    budget_used: Cell<u64>,
    planned: RefCell<Vec<PlannedCall>>,
    /// Bodies with media by request identity (sample left out), alive while a call holds them:
    /// the samples of a request share one body instead of one copy of the media each.
    /// (A list: it holds at most the requests in flight.)
    bodies: RefCell<Vec<(String, std::rc::Weak<String>)>>,
}

/// The judge client of one run (cheap to clone).
#[derive(Clone)]
pub struct JudgeClient(Rc<Inner>);

impl JudgeClient {
    pub fn new(host: Rc<dyn Host>, settings: JudgeSettings) -> JudgeClient {
        let limit = Limit::new(settings.concurrency);
        JudgeClient(Rc::new(Inner {
            host,
            unreachable: Cell::new(0),
            unreachable_why: RefCell::new(String::new()),
            settings,
            limit,
            memo: RefCell::new(HashMap::new()),
            stats: RefCell::new(JudgeStats::default()),
            budget_used: Cell::new(0),
            planned: RefCell::new(Vec::new()),
            bodies: RefCell::new(Vec::new()),
        }))
    }

    pub fn stats(&self) -> JudgeStats {
        self.0.stats.borrow().clone()
    }

    /// Calls a dry run listed.
    pub fn planned(&self) -> Vec<PlannedCall> {
        self.0.planned.borrow().clone()
    }

    /// Drops the in-run memo of answers (it holds futures that refer back to the client).
    pub fn close(&self) {
        self.0.memo.borrow_mut().clear();
    }

    pub fn budget_exhausted(&self) -> bool {
        self.0.settings.max_calls.is_some_and(|m| self.0.budget_used.get() >= m)
    }

    pub fn judge_stats(&self) -> JudgeStats {
        JudgeStats {
            budget_exhausted: self.budget_exhausted(),
            ..self.stats()
        }
    }
}

/// A request's identity: provider, model, the text-only body, sample index, then the media
/// (each item's digest, computed once). Not the URL: the same call recorded against one endpoint
/// (a proxy, a local server) replays against another. Without media it is the key of ADK's
/// text-only request; without a sample, the identity its samples share.
fn cassette_key(provider: Provider, model: &str, body: &str, sample: Option<u32>, media: &[MediaItem]) -> String {
    let mut h = Sha256::new();
    for part in [provider.as_str(), model, body] {
        h.update(part.as_bytes());
        h.update([0u8]);
    }
    if let Some(n) = sample {
        h.update(n.to_string().as_bytes());
        h.update([0u8]);
    }
    for m in media {
        m.identify(&mut h);
    }
    h.finalize().iter().map(|b| format!("{b:02x}")).collect()
}

/// A request ready for the host: its body shared by retries and by the samples of one request.
struct Call {
    url: String,
    headers: Vec<(String, String)>,
    body: Rc<String>,
}

/// The host's fetch raced against the core's own timer: the host is asked to abort at the
/// timeout too, but a fetch that ignores its signal (or a body that never ends) still ends here
/// as a timeout, and so as a retry. A timeout of 0 means none.
async fn race_timeout(
    host: &dyn Host,
    mut call: LocalBoxFuture<'_, Result<HttpReply, FetchError>>,
    timeout_ms: f64,
) -> Result<HttpReply, FetchError> {
    if timeout_ms <= 0.0 {
        return call.await;
    }
    // An answer that is already there needs no timer.
    if let Some(result) = (&mut call).now_or_never() {
        return result;
    }
    // A little after the host's own timer, so a host that honours it reports first.
    let timer = host.sleep(timeout_ms + 50.0);
    match futures_util::future::select(call, timer).await {
        futures_util::future::Either::Left((result, _)) => result,
        futures_util::future::Either::Right(((), _)) if host.aborted() => Err(FetchError::Aborted),
        futures_util::future::Either::Right(((), _)) => Err(FetchError::Timeout),
    }
}

fn failure(reason: &'static str, m: impl Into<String>) -> JudgeFailure {
    JudgeFailure::new(reason, m)
}

/// A failure of a call that went to the judge (`sent`), or one that never left (`!sent`).
fn failure_of(sent: bool, reason: &'static str, m: impl Into<String>) -> JudgeFailure {
    JudgeFailure {
        sent,
        ..JudgeFailure::new(reason, m)
    }
}

impl Inner {
    fn describe(req: &JudgeRequest) -> String {
        format!(
            "{} invocation {} sample {} ({})",
            req.metric,
            req.invocation + 1,
            req.sample + 1,
            req.kind.as_str()
        )
    }

    /// A reply's answer; a failure of it is one of a call the judge answered (`sent`).
    fn answer_of(&self, status: u16, body: &str, what: &str) -> Result<String, JudgeFailure> {
        self.read_answer(status, body, what)
            .map_err(|e| JudgeFailure { sent: true, ..e })
    }

    fn read_answer(&self, status: u16, body: &str, what: &str) -> Result<String, JudgeFailure> {
        if !(200..300).contains(&status) {
            let msg = crate::schema::budget::check_reply(body, "the error body")
                .ok()
                .and_then(|()| serde_json::from_str::<Value>(body).ok())
                .and_then(|v| v.get("error").map(provider::error_text))
                .unwrap_or_else(|| body.chars().take(200).collect());
            return Err(failure(
                "judge_error",
                format!("judge call for {what} failed with HTTP {status}: {msg}"),
            ));
        }
        match provider::read_reply(self.settings.provider, body) {
            Reply::Text(t) => Ok(t),
            Reply::Empty(m) => Err(failure("judge_error", format!("judge call for {what}: {m}"))),
            Reply::Malformed(m) => Err(failure("judge_error", format!("judge call for {what}: {m}"))),
        }
    }

    async fn send(
        self: Rc<Self>,
        req: JudgeRequest,
        http: Call,
        model: String,
        key: String,
    ) -> Result<String, JudgeFailure> {
        let s = &self.settings;
        let what = Self::describe(&req);
        let mut attempt: u32 = 0;
        loop {
            // From the second attempt on, what ends the call is a failure of a sent call.
            let went = attempt > 0;
            if self.host.aborted() {
                return Err(failure_of(went, "cancelled", "the run was cancelled"));
            }
            let permit = self.limit.acquire().await;
            // After the wait for a permit: a call queued behind a dead judge is not sent to it.
            if self.unreachable.get() >= UNREACHABLE_AFTER {
                return Err(failure_of(
                    went,
                    "judge_error",
                    format!(
                        "judge call for {what}: not sent, the judge at {} was unreachable {UNREACHABLE_AFTER} times in a row in this run ({})",
                        s.base_url,
                        self.unreachable_why.borrow()
                    ),
                ));
            }
            {
                // Counted as made: a retry that a dead judge or a cancel stops is not one.
                let mut stats = self.stats.borrow_mut();
                stats.sent += u64::from(!went);
                stats.retries += u64::from(went);
                stats.attempts += 1;
            }
            let call = self.host.fetch(HttpCall {
                url: http.url.clone(),
                headers: http.headers.clone(),
                body: http.body.clone(),
                timeout_ms: s.timeout_ms,
            });
            let result = race_timeout(&*self.host, call, s.timeout_ms).await;
            drop(permit);
            match &result {
                Err(FetchError::Unreachable(m)) => {
                    self.unreachable.set(self.unreachable.get() + 1);
                    m.clone_into(&mut self.unreachable_why.borrow_mut());
                }
                Ok(_) => self.unreachable.set(0),
                Err(_) => {}
            }
            let (retry, why, after) = match result {
                Ok(reply) if (200..300).contains(&reply.status) => {
                    let answer = self.answer_of(reply.status, &reply.body, &what);
                    if answer.is_ok() && matches!(s.cassette, Some(CassetteMode::Record | CassetteMode::Auto)) {
                        let entry = json!({"status": reply.status, "body": reply.body, "metric": req.metric,
                            "kind": req.kind.as_str(), "provider": s.provider.as_str(), "model": model});
                        self.host
                            .emit(json!({"type": "cassette", "key": key, "entry": entry}).to_string());
                    }
                    return answer;
                }
                Ok(reply) => {
                    let after = reply
                        .headers
                        .iter()
                        .find(|(k, _)| k.eq_ignore_ascii_case("retry-after"))
                        .and_then(|(_, v)| provider::retry_after_ms(v, self.host.now_ms()));
                    let err = self.answer_of(reply.status, &reply.body, &what).err();
                    let msg = err.map(|e| e.message).unwrap_or_default();
                    (provider::retryable_status(reply.status), msg, after)
                }
                Err(FetchError::Aborted) => return Err(failure_of(true, "cancelled", "the run was cancelled")),
                Err(e) => (e.retryable(), format!("judge call for {what}: {}", e.describe()), None),
            };
            let dead = self.unreachable.get() >= UNREACHABLE_AFTER;
            if !retry || attempt >= s.max_retries || dead {
                let suffix = if dead {
                    format!(" (not retried: refused {UNREACHABLE_AFTER} times in a row; judge calls of this run now fail at once)")
                } else if retry && attempt == 0 {
                    " (not retried: maxRetries is 0)".to_string()
                } else if retry {
                    format!(" (gave up after {} attempts)", attempt + 1)
                } else {
                    String::new()
                };
                return Err(failure_of(true, "judge_error", format!("{why}{suffix}")));
            }
            let backoff = (s.retry_initial_ms * 2f64.powi(attempt as i32)).min(s.retry_max_ms);
            // Equal jitter: half fixed, half random, so concurrent retries spread out.
            let jittered = backoff / 2.0 + backoff / 2.0 * self.host.random();
            let delay = after.map_or(jittered, |a| a.clamp(0.0, 600_000.0));
            attempt += 1;
            // Seen by the host's progress display: a wait is never silent.
            self.host.emit(
                json!({"type": "judge_retry", "metric": req.metric, "attempt": attempt, "maxRetries": s.max_retries,
                    "delayMs": delay.round(), "why": why})
                .to_string(),
            );
            self.host.sleep(delay).await;
        }
    }
}

impl JudgePort for JudgeClient {
    fn max_prompt_bytes(&self) -> u64 {
        self.0.settings.max_prompt_bytes
    }

    fn ask(&self, req: JudgeRequest) -> LocalBoxFuture<'_, Result<String, JudgeFailure>> {
        let inner = self.0.clone();
        Box::pin(async move {
            inner.stats.borrow_mut().requests += 1;
            let out = inner.clone().answer(req).await;
            let mut stats = inner.stats.borrow_mut();
            match &out {
                Ok(_) => stats.answered += 1,
                Err(f) if f.sent => stats.failures += 1,
                Err(f) => stats.not_sent.add(f.reason),
            }
            drop(stats);
            out
        })
    }
}

impl Inner {
    /// One call's answer: from the run's memo, the cassette or the judge; or why there is none.
    async fn answer(self: Rc<Self>, req: JudgeRequest) -> Result<String, JudgeFailure> {
        let s = &self.settings;
        let Some(model) = s.model.clone().or_else(|| req.model_hint.clone()) else {
            return Err(failure("judge_error", "the judge names no model: set `judge.model`"));
        };
        if req.prompt.len() as u64 > s.max_prompt_bytes {
            return Err(failure(
                "prompt_too_large",
                format!(
                    "judge call for {}: its prompt is {} bytes, over `judge.maxPromptBytes` ({}); nothing was sent",
                    Inner::describe(&req),
                    req.prompt.len(),
                    s.max_prompt_bytes
                ),
            ));
        }
        let media: &[MediaItem] = if s.media { &req.media } else { &[] };
        let inline: u64 = media.iter().map(|m| m.inline_len()).sum();
        if inline > s.max_media_bytes {
            return Err(failure(
                "media_too_large",
                format!(
                    "judge call for {}: its media are {inline} bytes inline, over `judge.maxMediaBytes` ({}); raise it, or send text only (`judge.media: false`)",
                    Inner::describe(&req),
                    s.max_media_bytes
                ),
            ));
        }
        let build = |media: &[MediaItem]| {
            provider::build(
                s.provider,
                &s.base_url,
                &model,
                &req.prompt,
                media,
                req.config.as_ref(),
                &s.headers,
                s.max_tokens,
            )
            .map_err(|r| {
                failure(
                    r.reason,
                    format!("judge call for {}: {}", Inner::describe(&req), r.message),
                )
            })
        };
        provider::check_media(s.provider, media).map_err(|r| {
            failure(
                r.reason,
                format!("judge call for {}: {}", Inner::describe(&req), r.message),
            )
        })?;
        // The text-only request (ADK's): its body and the media's digests make the key, so a
        // replay answers only for the very same image, and the bytes are hashed once.
        let text = build(&[])?;
        let key = cassette_key(s.provider, &model, &text.body, Some(req.sample), media);
        let existing = self.memo.borrow().get(&key).cloned();
        if let Some(shared) = existing {
            self.stats.borrow_mut().deduplicated += 1;
            return shared.await;
        }
        if matches!(s.cassette, Some(CassetteMode::Replay | CassetteMode::Auto)) {
            if let Some(e) = s.cassette_entries.get(&key) {
                self.stats.borrow_mut().cassette_hits += 1;
                let status = e.get("status").and_then(Value::as_u64).unwrap_or(200) as u16;
                let body = e.get("body").and_then(Value::as_str).unwrap_or("");
                return self.answer_of(status, body, &Inner::describe(&req));
            }
            if s.cassette == Some(CassetteMode::Replay) {
                return Err(failure(
                    "cassette_miss",
                    format!("the cassette has no answer for {} (key {key}); record it with cassette mode \"record\" or \"auto\"", Inner::describe(&req)),
                ));
            }
        }
        // With media, the body is built only now (a replay never needs it), once for all the
        // samples of the request.
        let http = if media.is_empty() {
            Call {
                url: text.url,
                headers: text.headers,
                body: Rc::new(text.body),
            }
        } else {
            let id = cassette_key(s.provider, &model, &text.body, None, media);
            let shared = self
                .bodies
                .borrow()
                .iter()
                .find(|(k, _)| *k == id)
                .and_then(|(_, w)| w.upgrade());
            let body = match shared {
                Some(b) => b,
                None => {
                    let b = Rc::new(build(media)?.body);
                    let mut bodies = self.bodies.borrow_mut();
                    bodies.retain(|(_, w)| w.strong_count() > 0);
                    bodies.push((id, Rc::downgrade(&b)));
                    b
                }
            };
            Call {
                url: text.url,
                headers: text.headers,
                body,
            }
        };
        if s.dry_run {
            self.planned.borrow_mut().push(PlannedCall {
                metric: req.metric.clone(),
                invocation_index: req.invocation,
                sample: req.sample,
                kind: req.kind.as_str(),
                provider: s.provider.as_str(),
                model: model.to_string(),
                key: key.clone(),
                estimated_tokens: provider::estimate_tokens(&req.prompt),
                // What a batching host sends itself (auth headers are its own); it hands the
                // replies back as cassette entries {key: {status, body}} in replay mode.
                url: http.url.clone(),
                body: (*http.body).clone(),
            });
            return Err(failure("dry_run", "dry run: the judge call was listed, not sent"));
        }
        if let Some(max) = s.max_calls {
            if self.budget_used.get() >= max {
                return Err(failure(
                    "budget_exhausted",
                    format!(
                        "the judge budget of {max} calls is used up; {} was not sent",
                        Inner::describe(&req)
                    ),
                ));
            }
        }
        self.budget_used.set(self.budget_used.get() + 1);
        let fut: LocalBoxFuture<'static, Result<String, JudgeFailure>> =
            Box::pin(self.clone().send(req, http, model, key.clone()));
        let shared = fut.shared();
        self.memo.borrow_mut().insert(key, shared.clone());
        shared.await
    }
}

#[cfg(test)]
#[path = "client_tests.rs"]
mod tests;

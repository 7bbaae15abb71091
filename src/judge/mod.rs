//! The judge protocol, pure: the inputs each judge sees, prompts,
//! answer parsing, sample voting and the providers' wire formats. Nothing here awaits; the
//! metrics ask a [`JudgePort`] for answers and `run/` implements it over the host's fetch.

pub mod context;
pub mod limit;
pub mod media;
mod media_wire;
pub mod parse;
pub mod prompts;
pub mod provider;
pub mod score;
pub mod vote;

pub use crate::schema::criteria::JudgeModelOptions;
use futures_util::future::LocalBoxFuture;
use serde_json::Value;

/// A judge provider, by its wire format (`provider` writes requests, `media_wire` media parts).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Provider {
    Gemini,
    OpenAi,
    Anthropic,
}

impl Provider {
    pub fn parse(s: &str) -> Option<Provider> {
        match s.to_ascii_lowercase().as_str() {
            "gemini" | "google" => Some(Provider::Gemini),
            "openai" | "openai-compatible" | "openai_compatible" => Some(Provider::OpenAi),
            "anthropic" | "claude" => Some(Provider::Anthropic),
            _ => None,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Provider::Gemini => "gemini",
            Provider::OpenAi => "openai",
            Provider::Anthropic => "anthropic",
        }
    }

    pub fn default_base_url(self) -> &'static str {
        match self {
            Provider::Gemini => "https://generativelanguage.googleapis.com/v1beta",
            Provider::OpenAi => "https://api.openai.com/v1",
            Provider::Anthropic => "https://api.anthropic.com/v1",
        }
    }
}

/// What a judge call is for: the metric's verdict, or one stage of hallucinations_v1, or the
/// simulated user's next message.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CallKind {
    Judge,
    Segmenter,
    Validator,
    Simulator,
}

impl CallKind {
    pub fn as_str(self) -> &'static str {
        match self {
            CallKind::Judge => "judge",
            CallKind::Segmenter => "segmenter",
            CallKind::Validator => "validator",
            CallKind::Simulator => "simulator",
        }
    }
}

/// One judge call: a prompt for one invocation (or one conversation).
#[derive(Debug, Clone)]
pub struct JudgeRequest {
    pub metric: String,
    pub invocation: usize,
    /// Sample index: samples of one invocation are distinct calls.
    pub sample: u32,
    pub kind: CallKind,
    pub prompt: String,
    /// The criterion's `judge_model`, used when the host's judge names no model.
    pub model_hint: Option<String>,
    /// The criterion's `judge_model_config` (generation settings passed to the provider).
    pub config: Option<Value>,
    /// The media parts of what the prompt shows, sent only when the judge option `media` is on.
    pub media: media::Media,
}

/// Why a judge call produced no answer; becomes NOT_EVALUATED with this reason.
#[derive(Debug, Clone, PartialEq)]
pub struct JudgeFailure {
    /// `judge_error`, `cassette_miss`, `budget_exhausted`, `dry_run`, `needs_judge`, `cancelled`,
    /// `media_unsupported`, `media_too_large`, `prompt_too_large`.
    pub reason: &'static str,
    pub message: String,
    /// The call went to the judge (and failed there); false when it was never sent.
    pub sent: bool,
}

impl JudgeFailure {
    pub fn new(reason: &'static str, message: impl Into<String>) -> Self {
        JudgeFailure {
            reason,
            message: message.into(),
            sent: false,
        }
    }
}

/// Where judged metrics get answers: the text of the judge's reply.
pub trait JudgePort {
    /// The longest prompt (UTF-8 bytes) the judge is sent; a prompt builder may stop past it.
    fn max_prompt_bytes(&self) -> u64 {
        u64::MAX
    }

    fn ask(&self, req: JudgeRequest) -> LocalBoxFuture<'_, Result<String, JudgeFailure>>;
}

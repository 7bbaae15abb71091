//! The part of evalcore that awaits: the judge client over the host's fetch, the agent run
//! loop and the simulated user. The host enters through the [`Host`] trait (fetch, sleep,
//! clock, randomness, agent, events); `wasm/` implements it over JS callbacks and native tests
//! over in-process fakes.

pub mod agent;
pub mod client;
pub mod eval_set;
pub mod simulator;
pub mod summary;

use futures_util::future::LocalBoxFuture;

/// An HTTP exchange the host performs.
#[derive(Debug, Clone)]
pub struct HttpCall {
    pub url: String,
    pub headers: Vec<(String, String)>,
    pub body: String,
    pub timeout_ms: f64,
}

#[derive(Debug, Clone)]
pub struct HttpReply {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: String,
}

/// Why the host's fetch produced no reply.
#[derive(Debug, Clone, PartialEq)]
pub enum FetchError {
    /// No reply within the call's timeout.
    Timeout,
    /// The request failed on the network (refused, reset, DNS...).
    Network(String),
    /// `fetch` threw synchronously (a bug or misconfiguration in the host's fetch).
    Thrown(String),
    /// `fetch` resolved to something that is not a Response.
    NotAResponse(String),
    /// The reply is over `maxReplyBytes` (or would not fit the parse budget).
    TooLarge(String),
    /// The run was cancelled.
    Aborted,
}

impl FetchError {
    pub fn retryable(&self) -> bool {
        matches!(self, FetchError::Timeout | FetchError::Network(_))
    }
    pub fn describe(&self) -> String {
        match self {
            FetchError::Timeout => "the judge did not answer within the timeout".into(),
            FetchError::Network(m) => format!("network error: {m}"),
            FetchError::Thrown(m) => format!("the judge fetch threw: {m}"),
            FetchError::NotAResponse(m) => format!("the judge fetch did not return a Response: {m}"),
            FetchError::TooLarge(m) => format!("the judge's reply was refused: {m}"),
            FetchError::Aborted => "cancelled".into(),
        }
    }
}

/// What the agent callback answered for one turn (JSON text), or why it failed.
#[derive(Debug, Clone, PartialEq)]
pub enum AgentError {
    Failed(String),
    Aborted,
}

/// The host's capabilities.
pub trait Host {
    fn fetch(&self, call: HttpCall) -> LocalBoxFuture<'_, Result<HttpReply, FetchError>>;
    fn sleep(&self, ms: f64) -> LocalBoxFuture<'_, ()>;
    fn now_ms(&self) -> f64;
    /// Uniform in [0, 1).
    fn random(&self) -> f64;
    /// Runs the agent for one turn: the turn as JSON in, the reply as JSON out.
    fn agent(&self, turn_json: String) -> LocalBoxFuture<'_, Result<String, AgentError>>;
    /// Progress, streamed case results and cassette records, as JSON events.
    fn emit(&self, event_json: String);
    /// Whether the run was cancelled.
    fn aborted(&self) -> bool;
}

//! The part of evalcore that awaits: the judge client over the host's fetch, the agent run
//! loop and the simulated user. The host enters through the [`Host`] trait (fetch, sleep,
//! clock, randomness, agent, events); `wasm/` implements it over JS callbacks and native tests
//! over in-process fakes.

pub mod agent;
mod agent_details;
pub mod client;
pub mod eval_set;
pub mod session;
pub mod simulator;
pub mod summary;
pub mod timing;

use futures_util::future::LocalBoxFuture;

/// An HTTP exchange the host performs.
#[derive(Debug, Clone)]
pub struct HttpCall {
    pub url: String,
    pub headers: Vec<(String, String)>,
    /// Shared: a retry, or another sample of the same request, sends the same body without a copy.
    pub body: std::rc::Rc<String>,
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
    /// The request failed on the network (reset, timeout at a lower layer, ...).
    Network(String),
    /// Nobody is listening there: the connection was refused or the host name does not resolve.
    /// Retried once; after two in a row the judge counts as unreachable for the rest of the run.
    Unreachable(String),
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
        matches!(
            self,
            FetchError::Timeout | FetchError::Network(_) | FetchError::Unreachable(_)
        )
    }
    pub fn describe(&self) -> String {
        match self {
            FetchError::Timeout => "the judge did not answer within the timeout".into(),
            FetchError::Network(m) => format!("network error: {m}"),
            FetchError::Unreachable(m) => format!("the judge is unreachable: {m}"),
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
    /// The agent threw or rejected (the message, and the JS stack when there is one), or
    /// answered something that is not a reply.
    Failed {
        message: String,
        stack: Option<String>,
    },
    Aborted,
}

impl AgentError {
    pub fn failed(message: impl Into<String>) -> AgentError {
        AgentError::Failed {
            message: message.into(),
            stack: None,
        }
    }
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

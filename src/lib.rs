//! evalcore: Google ADK's agent evaluation (eval sets, metrics, results) as a pure Rust core,
//! with a thin wasm skin for JavaScript hosts.
//!
//! Arrows point one way: `wasm -> api -> (traces, agents_cli) -> run -> metrics -> text -> schema -> error`.

pub mod agents_cli;
pub mod api;
pub mod compare;
pub mod error;
pub mod judge;
pub mod metrics;
pub mod report;
pub mod run;
pub mod schema;
pub mod text;
pub mod traces;

#[cfg(all(target_arch = "wasm32", not(feature = "traces-wasm")))]
mod wasm;
/// The trace import's own, lazily loaded wasm module: only its exports, so the main module keeps
/// to its size ceiling (scripts/build.sh builds it second).
#[cfg(all(target_arch = "wasm32", feature = "traces-wasm"))]
#[path = "wasm/traces.rs"]
mod wasm;

pub use error::{ErrorCode, EvalError};

//! evalcore: Google ADK's agent evaluation (eval sets, metrics, results) as a pure Rust core,
//! with a thin wasm skin for JavaScript hosts.
//!
//! Arrows point one way: `wasm -> api -> agents_cli -> run -> metrics -> text -> schema -> error`.

pub mod agents_cli;
pub mod api;
pub mod error;
pub mod judge;
pub mod metrics;
pub mod report;
pub mod run;
pub mod schema;
pub mod text;

#[cfg(target_arch = "wasm32")]
mod wasm;

pub use error::{ErrorCode, EvalError};

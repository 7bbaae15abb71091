//! evalcore: Google ADK's agent evaluation (eval sets, metrics, results) as a pure Rust core,
//! with a thin wasm skin for JavaScript hosts.
//!
//! Arrows point one way: `wasm -> api -> {config -> agents_cli, traces} -> run -> metrics -> text -> schema -> error`
//! (`config`: ADK's eval config rules; `api`: the JSON-text surface over them).

pub mod agents_cli;
pub mod api;
pub mod compare;
pub mod config;
pub mod error;
pub mod judge;
pub mod metrics;
pub mod report;
pub mod run;
pub mod schema;
pub mod text;
pub mod traces;

/// Every wasm export, declared once (src/wasm/table.rs): the rows the wasm skin binds and the
/// generators of the JS bindings read.
#[doc(hidden)]
#[path = "wasm/table.rs"]
pub mod export_table;
#[cfg(all(target_arch = "wasm32", not(feature = "extras-wasm")))]
mod wasm;
/// The extras module, lazily loaded: what is not on the scoring path (traces, comparison
/// statistics, agents-cli datasets), so the main module keeps to its size ceiling
/// (scripts/build.sh builds it second).
#[cfg(all(target_arch = "wasm32", feature = "extras-wasm"))]
#[path = "wasm/extras.rs"]
mod wasm;

pub use error::{ErrorCode, EvalError, HostErrorCode};

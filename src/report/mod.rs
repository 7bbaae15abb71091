//! Reports over finished results: ADK's console summary and detailed text, and ADK's result and
//! eval set files as pydantic writes them.

pub mod adk_api;
pub mod adk_file;
mod adk_models;
pub mod console;
mod invocation;
mod out;
pub(crate) mod pyfmt;
mod wrap;

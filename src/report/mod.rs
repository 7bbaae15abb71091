//! Reports over finished results: ADK's console summary and detailed text (more formats to come).

pub mod console;
mod invocation;
mod pyfmt;
mod view;
mod wrap;

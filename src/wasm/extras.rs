//! The second, lazily loaded wasm module ("extras"): what is not on the scoring path — the trace
//! import, run comparison's statistics, agents-cli datasets and configs, legacy and @iqai/adk eval
//! sets, a scenario's eval id (the CLI's `add_eval_case`). Its exports are
//! the `extras` rows of `table.rs`, with the same conventions as the main module's (JSON in,
//! envelopes out). The main module stays under its size ceiling (STYLE.md §15); the package
//! loads this one on first use (pkg/lib/wasm/extras.js).

#[path = "alloc.rs"]
mod alloc;
#[path = "bind.rs"]
mod bind;

use crate::api;
use bind::{bind, invalid_report};
use wasm_bindgen::prelude::*;

crate::export_table::table!(bind);

/// Runs once when the instance starts: NFKC from the JS engine, as in the main module (an
/// agents-cli dataset's invocations are read by the same rules).
#[wasm_bindgen(start)]
pub fn start() {
    crate::text::unicode::set_host_nfkc(host_nfkc);
}

fn host_nfkc(text: &str) -> String {
    String::from(js_sys::JsString::from(text).normalize("NFKC"))
}

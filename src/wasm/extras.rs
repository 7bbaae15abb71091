//! The second, lazily loaded wasm module ("extras"): what is not on the scoring path — the trace
//! import, run comparison and calibration's statistics, agents-cli datasets and configs, legacy and @iqai/adk eval
//! sets, ADK's console report, a scenario's eval id (the CLI's `add_eval_case`) — with the same
//! conventions as the
//! main module's exports (JSON in, envelopes out). The main module stays under its size ceiling
//! (STYLE.md §15); the package loads this one on first use (pkg/lib/extras.js).

#[path = "alloc.rs"]
mod alloc;
#[path = "traces.rs"]
mod traces;

use crate::api;
use wasm_bindgen::prelude::*;

/// `setLimits` for this module (the package passes the main module's limits on).
#[wasm_bindgen(js_name = setLimitsJson)]
pub fn set_limits_json(update: &str) -> String {
    api::envelope(api::set_limits(update))
}

/// Runs once when the instance starts: NFKC from the JS engine, as in the main module (an
/// agents-cli dataset's invocations are read by the same rules).
#[wasm_bindgen(start)]
pub fn start() {
    crate::text::unicode::set_host_nfkc(host_nfkc);
}

fn host_nfkc(text: &str) -> String {
    String::from(js_sys::JsString::from(text).normalize("NFKC"))
}

/// `compareRuns` of the two sides' results (the core's model). Returns an envelope.
#[wasm_bindgen(js_name = compareRunsJson)]
pub fn compare_runs_json(input: &str, options: &str) -> String {
    api::envelope(api::compare::compare_runs(input, options))
}

/// `runTrend` of a list of results (the core's model). Returns an envelope.
#[wasm_bindgen(js_name = runTrendJson)]
pub fn run_trend_json(input: &str) -> String {
    api::envelope(api::compare::run_trend(input))
}

/// The statistics of `calibrate` (`api::compare::stats`: `kind` selects the function, `a` and
/// `b` its numbers).
#[wasm_bindgen(js_name = statsF64)]
pub fn stats_f64(kind: u32, a: &[f64], b: &[f64]) -> Vec<f64> {
    api::compare::stats(kind, a, b)
}

/// `loadEvalSet` of what the main module hands over (an agents-cli dataset, a legacy or @iqai/adk
/// eval set), for UTF-8 bytes.
/// Returns an envelope.
#[wasm_bindgen(js_name = loadEvalSetBytes)]
pub fn load_eval_set_bytes(input: &[u8], options: &str) -> String {
    api::envelope(api::utf8(input).and_then(|text| api::load_eval_set(text, options)))
}

/// `validateEvalSet` of what the main module hands over, for UTF-8 bytes: `{"ok", "errors"}`.
#[wasm_bindgen(js_name = validateEvalSetBytes)]
pub fn validate_eval_set_bytes(input: &[u8]) -> String {
    match api::utf8(input) {
        Ok(text) => api::validate_eval_set(text),
        Err(e) => format!("{{\"ok\":false,\"errors\":[{}]}}", api::error_body(&e)),
    }
}

/// `loadEvaluationDataset(input, options)` for UTF-8 bytes: an agents-cli dataset (or any eval
/// set) as `{eval_set, actual, grading, inference}`. Returns an envelope.
#[wasm_bindgen(js_name = loadEvaluationDatasetBytes)]
pub fn load_evaluation_dataset_bytes(input: &[u8], options: &str) -> String {
    api::envelope(api::utf8(input).and_then(|text| api::load_evaluation_dataset(text, options)))
}

/// `toEvaluationDataset({evalSet, actual?})` as JSON text: the agents-cli dataset. Returns an
/// envelope.
#[wasm_bindgen(js_name = toEvaluationDatasetJson)]
pub fn to_evaluation_dataset_json(args: &str) -> String {
    api::envelope(api::to_evaluation_dataset(args))
}

/// `formatReport(results, options)`: ADK's console summary (and, with `{"detailed": true}`,
/// the per-case detailed output) for a list of EvalCaseResult JSON objects. Returns an envelope.
#[wasm_bindgen(js_name = formatReportJson)]
pub fn format_report_json(results: &str, options: &str) -> String {
    api::envelope(crate::report::console::format_report_json(results, options))
}

/// ADK's eval id of a conversation scenario (JSON). Returns an envelope.
#[wasm_bindgen(js_name = scenarioEvalIdJson)]
pub fn scenario_eval_id_json(input: &str) -> String {
    api::envelope(api::scenario_eval_id(input))
}

/// `loadEvalConfig` of what the main module hands over (an agents-cli config). Returns an envelope.
#[wasm_bindgen(js_name = loadEvalConfigJson)]
pub fn load_eval_config_json(input: &str, options: &str) -> String {
    api::envelope(api::load_eval_config(input, options))
}

/// `validateEvalConfig` of what the main module hands over: `{"ok", "errors", "warnings"}`.
#[wasm_bindgen(js_name = validateEvalConfigJson)]
pub fn validate_eval_config_json(input: &str, options: &str) -> String {
    api::validate_config(input, options)
}

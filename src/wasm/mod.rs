//! The only place that knows it runs in wasm: JSON strings in, JSON envelopes out.
//!
//! Every export returns either a plain value or an envelope string
//! `{"ok": <value>}` / `{"error": {"code","path","message"}}`; the JS skin in `pkg/`
//! turns the latter into a thrown `EvalError`. No Rust error ever crosses as a JS
//! exception, so a bad input can never leave the instance in a broken state.

mod alloc;
mod host;

use crate::api;
use wasm_bindgen::prelude::*;

/// Runs once when the instance starts: the core's NFKC comes from the JS engine (the build
/// leaves the Unicode normalisation tables out; see `text::unicode`).
#[wasm_bindgen(start)]
pub fn start() {
    crate::text::unicode::set_host_nfkc(host_nfkc);
}

fn host_nfkc(text: &str) -> String {
    String::from(js_sys::JsString::from(text).normalize("NFKC"))
}

/// `loadEvalSet(input, options)`: `input` is JSON text, `options` is `{"id"?, "sessionInput"?}` JSON or "".
/// An agents-cli dataset, a legacy list or an @iqai/adk set is answered `{"extras":true}`
/// (`api::TO_EXTRAS`): the extras module reads it.
#[wasm_bindgen(js_name = loadEvalSetJson)]
pub fn load_eval_set_json(input: &str, options: &str) -> String {
    to_extras_or(api::load_eval_set_main(input, options).map(api::envelope))
}

/// `loadEvalSet` for UTF-8 bytes (a file as Node reads it): skips the host's UTF-16 to UTF-8 copy.
#[wasm_bindgen(js_name = loadEvalSetBytes)]
pub fn load_eval_set_bytes(input: &[u8], options: &str) -> String {
    match api::utf8(input) {
        Ok(text) => load_eval_set_json(text, options),
        Err(e) => api::error_json(&e),
    }
}

/// The answer, or `{"extras":true}` when only the extras module can give it.
fn to_extras_or(answer: Option<String>) -> String {
    answer.unwrap_or_else(|| api::TO_EXTRAS.to_string())
}

/// `validateEvalSet` for UTF-8 bytes.
#[wasm_bindgen(js_name = validateEvalSetBytes)]
pub fn validate_eval_set_bytes(input: &[u8]) -> String {
    match api::utf8(input) {
        Ok(text) => validate_eval_set_json(text),
        Err(e) => format!("{{\"ok\":false,\"errors\":[{}]}}", api::error_body(&e)),
    }
}

/// `validateEvalSet(input)`: `{"ok": bool, "errors": [EvalError...]}` (never an envelope), or
/// `{"extras":true}` for a dataset, legacy or @iqai/adk text (the extras module validates it).
#[wasm_bindgen(js_name = validateEvalSetJson)]
pub fn validate_eval_set_json(input: &str) -> String {
    to_extras_or(api::validate_eval_set_main(input))
}

/// `loadEvalConfig(input, options)`: `input` is JSON text ("" or "null" gives ADK's default
/// criteria), `options` is `{"strict"?: bool}` JSON or "".
/// An agents-cli config is answered `{"extras":true}`: the extras module converts it.
#[wasm_bindgen(js_name = loadEvalConfigJson)]
pub fn load_eval_config_json(input: &str, options: &str) -> String {
    if api::is_agents_cli_config(input) {
        return api::TO_EXTRAS.to_string();
    }
    api::envelope(api::load_eval_config(input, options))
}

/// `validateEvalConfig(input, options)`: `{"ok", "errors", "warnings"}` (never an envelope).
/// An agents-cli config is answered `{"extras":true}`.
#[wasm_bindgen(js_name = validateEvalConfigJson)]
pub fn validate_eval_config_json(input: &str, options: &str) -> String {
    if api::is_agents_cli_config(input) {
        return api::TO_EXTRAS.to_string();
    }
    api::validate_config(input, options)
}

/// `setLimits(update)`: `{maxTextBytes?, maxParseBytes?, maxReplyBytes?, maxIdBytes?}` JSON ("" to read);
/// returns an envelope of the limits in force.
#[wasm_bindgen(js_name = setLimitsJson)]
pub fn set_limits_json(update: &str) -> String {
    api::envelope(api::set_limits(update))
}

/// `rouge1(candidate, reference)`: `[precision, recall, fmeasure]`.
#[wasm_bindgen(js_name = rouge1)]
pub fn rouge1(candidate: &str, reference: &str) -> Vec<f64> {
    let s = crate::text::rouge::rouge1(candidate, reference);
    vec![s.precision, s.recall, s.fmeasure]
}

/// `rouge1Spans(candidate, reference)`: where the ROUGE-1 overlap falls in each text
/// (`text::highlight::rouge1_spans_flat`'s layout).
#[wasm_bindgen(js_name = rouge1Spans)]
pub fn rouge1_spans(candidate: &str, reference: &str) -> Vec<u32> {
    crate::text::highlight::rouge1_spans_flat(candidate, reference)
}

/// `rouge1Batch`: every candidate and reference concatenated (c0, r0, c1, r1, ...) plus their
/// UTF-16 lengths; returns `[p, r, f, ...]`, or an empty array when the lengths do not fit
/// (the JS skin builds both, so that cannot happen through it).
#[wasm_bindgen(js_name = rouge1Batch)]
pub fn rouge1_batch(joined: &str, utf16_lens: &[u32]) -> Vec<f64> {
    api::rouge1_batch(joined, utf16_lens).unwrap_or_default()
}

/// `evaluateInvocations(args)`: the JSON texts of `args.evalCase` and `args.actual` (each
/// absent when the caller left it out), and the rest of args as a JSON object
/// `{"config"?,"evalSetId"?,"includeInvocations"?,"perInvocation"?,...}`. The skin passes the two
/// large members as it has them rather than joining them into one string.
#[wasm_bindgen(js_name = evaluateInvocationsJson)]
pub fn evaluate_invocations_json(eval_case: Option<String>, actual: Option<String>, rest: &str) -> String {
    api::envelope(api::evaluate_invocations_parts(
        eval_case.as_deref(),
        actual.as_deref(),
        rest,
    ))
}

/// A case parsed once and scored many times (different configs) without re-parsing.
#[wasm_bindgen]
pub struct PreparedCase {
    inner: api::PreparedCase,
}

#[wasm_bindgen]
impl PreparedCase {
    /// Returns an envelope whose `ok` is null on success; the case is then held in `this`.
    /// The arguments as [`evaluate_invocations_json`] takes them.
    #[wasm_bindgen(js_name = fromJson)]
    pub fn from_json(eval_case: Option<String>, actual: Option<String>, rest: &str) -> Result<PreparedCase, JsValue> {
        match api::PreparedCase::prepare_parts(eval_case.as_deref(), actual.as_deref(), rest) {
            Ok(inner) => Ok(PreparedCase { inner }),
            Err(e) => Err(JsValue::from_str(&api::envelope(Err(e)))),
        }
    }

    /// Scores the held case under `config` (JSON text, "" for defaults); `options` is
    /// `{"includeInvocations"?: bool, "perInvocation"?: bool}` JSON or "". Returns an envelope.
    #[wasm_bindgen(js_name = evaluateJson)]
    pub fn evaluate_json(&self, config: &str, options: &str) -> String {
        api::envelope(self.inner.evaluate(config, options))
    }
}

/// `metricsInfo()`: every metric evalcore knows, as a JSON array (see `api::metrics_info`).
#[wasm_bindgen(js_name = metricsInfoJson)]
pub fn metrics_info_json() -> String {
    api::metrics_info()
}

/// The crate version, for diagnostics.
#[wasm_bindgen(js_name = coreVersion)]
pub fn core_version() -> String {
    env!("CARGO_PKG_VERSION").to_string()
}

fn promise_of<F>(fut: F) -> js_sys::Promise
where
    F: std::future::Future<Output = String> + 'static,
{
    wasm_bindgen_futures::future_to_promise(async move { Ok(JsValue::from_str(&fut.await)) })
}

/// `evaluateInvocations` with a judge and/or custom metrics: resolves to an envelope string.
/// `judge` is the judge option as JSON ("" for none); `host` is the JS host object.
#[wasm_bindgen(js_name = evaluateInvocationsAsync)]
/// The case's arguments as [`evaluate_invocations_json`] takes them.
pub fn evaluate_invocations_async(
    eval_case: Option<String>,
    actual: Option<String>,
    rest: String,
    judge: String,
    host: host::JsHost,
) -> js_sys::Promise {
    promise_of(async move {
        let shared = std::rc::Rc::new(host::WasmHost(host));
        let custom = host::WasmCustom(&shared.0);
        let h: std::rc::Rc<dyn crate::run::Host> = shared.clone();
        let args = parts(&eval_case, &actual, &rest);
        api::envelope(api::evaluate_invocations_with(args, &judge, h, Some(&custom)).await)
    })
}

fn parts<'a>(eval_case: &'a Option<String>, actual: &'a Option<String>, rest: &'a str) -> api::CaseText<'a> {
    api::CaseText::Parts {
        eval_case: eval_case.as_deref(),
        actual: actual.as_deref(),
        rest,
    }
}

/// `planJudgeCalls`: the judge calls `evaluateInvocations` would make. Resolves to an envelope.
#[wasm_bindgen(js_name = planJudgeCallsAsync)]
pub fn plan_judge_calls_async(
    eval_case: Option<String>,
    actual: Option<String>,
    rest: String,
    judge: String,
    host: host::JsHost,
) -> js_sys::Promise {
    promise_of(async move {
        let h: std::rc::Rc<dyn crate::run::Host> = std::rc::Rc::new(host::WasmHost(host));
        api::envelope(api::plan_judge_calls(parts(&eval_case, &actual, &rest), &judge, h).await)
    })
}

/// `evaluate`: runs the agent over an eval set. Resolves to an envelope string.
#[wasm_bindgen(js_name = evaluateAsync)]
pub fn evaluate_async(args: String, judge: String, host: host::JsHost) -> js_sys::Promise {
    promise_of(async move {
        let shared = std::rc::Rc::new(host::WasmHost(host));
        let custom = host::WasmCustom(&shared.0);
        let h: std::rc::Rc<dyn crate::run::Host> = shared.clone();
        api::envelope(api::evaluate_eval_set(&args, &judge, h, Some(&custom)).await)
    })
}

/// `loadEvalSetResult(input, options)`: `input` is JSON text (ADK 2.x, 1.x double-encoded or
/// ours); `options` is `{"runSummary"?: bool}` JSON or "". Returns an envelope.
#[wasm_bindgen(js_name = loadEvalSetResultJson)]
pub fn load_eval_set_result_json(input: &str, options: &str) -> String {
    api::envelope(api::load_eval_set_result(input, options))
}

/// `loadEvalSetResult` for UTF-8 bytes (a file as Node reads it).
#[wasm_bindgen(js_name = loadEvalSetResultBytes)]
pub fn load_eval_set_result_bytes(input: &[u8], options: &str) -> String {
    api::envelope(api::utf8(input).and_then(|text| api::load_eval_set_result(text, options)))
}

/// An EvalSetResult as the text ADK 2.13 writes to its eval history. Returns an envelope whose
/// `ok` is that text.
#[wasm_bindgen(js_name = formatEvalSetResultJson)]
pub fn format_eval_set_result_json(input: &str) -> String {
    api::envelope(api::format_eval_set_result(input))
}

/// An eval set as ADK writes its files (`compact`: only non-null, non-default fields). Returns
/// an envelope whose `ok` is that text.
#[wasm_bindgen(js_name = formatEvalSetFileJson)]
pub fn format_eval_set_file_json(input: &str, compact: bool) -> String {
    api::envelope(api::format_eval_set_file(input, compact))
}

/// ADK's snake_case JSON as its dev server answers it (camelCase, no nulls). Returns an envelope.
#[wasm_bindgen(js_name = adkApiJson)]
pub fn adk_api_json(input: &str) -> String {
    api::envelope(api::adk_api_json(input))
}

/// A recorded session's events as ADK Invocations. Returns an envelope.
#[wasm_bindgen(js_name = sessionInvocationsJson)]
pub fn session_invocations_json(input: &str) -> String {
    api::envelope(api::session_invocations(input))
}

/// Python's text of a JSON value: `form` "repr" (`repr()` of `json.loads`) or "json"
/// (`json.dumps(sort_keys=True)`). Returns an envelope whose `ok` is the text.
#[wasm_bindgen(js_name = pythonTextJson)]
pub fn python_text_json(input: &str, form: &str) -> String {
    api::envelope(api::python_text(input, form))
}

/// `repr(x)` of a Python float (`1.0`, `1e-05`, `nan`).
#[wasm_bindgen(js_name = pythonFloat)]
pub fn python_float(x: f64) -> String {
    crate::report::pyfmt::float_repr(x)
}

/// An eval status (a name or ADK's integer, as JSON) as its name. Returns an envelope.
#[wasm_bindgen(js_name = evalStatusJson)]
pub fn eval_status_json(input: &str) -> String {
    api::envelope(api::eval_status_name(input))
}

/// Any JSON text as bytes, read by the core's parser (its depth and size rules) and written back
/// compactly: the CLI's small JSON files (session input, scenarios) go through it, so the host's
/// own `JSON.parse` only ever sees text the core has bounded. Returns an envelope.
#[wasm_bindgen(js_name = parseJsonBytes)]
pub fn parse_json_bytes(input: &[u8]) -> String {
    api::envelope(
        api::utf8(input)
            .and_then(crate::schema::load::parse_json)
            .map(|v| v.to_string()),
    )
}

/// Test hook, not API: grows the heap by `mib` MiB, then traps (`unreachable`), so the JS
/// skin's trap recovery can be tested deterministically.
#[doc(hidden)]
#[wasm_bindgen(js_name = __trapForTesting)]
pub fn trap_for_testing(mib: u32) {
    let held = vec![1u8; (mib as usize) << 20];
    std::mem::forget(held);
    core::arch::wasm32::unreachable()
}

/// Test hook, not API: the same trap inside a future, one microtask later, where the
/// wasm-bindgen executor polls it (as a trap inside the run loop happens).
#[doc(hidden)]
#[wasm_bindgen(js_name = __trapForTestingAsync)]
pub fn trap_for_testing_async(mib: u32) -> js_sys::Promise {
    promise_of(async move {
        let _ = wasm_bindgen_futures::JsFuture::from(js_sys::Promise::resolve(&JsValue::NULL)).await;
        trap_for_testing(mib);
        String::new()
    })
}

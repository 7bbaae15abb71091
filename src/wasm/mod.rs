//! The only place that knows it runs in wasm: JSON strings in, JSON envelopes out. The
//! exports themselves are the rows of `table.rs`; this file holds what their bodies share.
//!
//! Every export returns either a plain value or an envelope string
//! `{"ok": <value>}` / `{"error": {"code","path","message"}}`; the JS skin in `pkg/`
//! turns the latter into a thrown `EvalError`. No Rust error ever crosses as a JS
//! exception, so a bad input can never leave the instance in a broken state.

mod alloc;
mod bind;
mod host;

use crate::api;
use bind::{bind, invalid_report};
use wasm_bindgen::prelude::*;

crate::export_table::table!(bind);

/// Runs once when the instance starts: the core's NFKC comes from the JS engine (the build
/// leaves the Unicode normalisation tables out; see `text::unicode`).
#[wasm_bindgen(start)]
pub fn start() {
    crate::text::unicode::set_host_nfkc(host_nfkc);
}

fn host_nfkc(text: &str) -> String {
    String::from(js_sys::JsString::from(text).normalize("NFKC"))
}

/// The answer, or `{"extras":true}` when only the extras module can give it.
fn to_extras_or(answer: Option<String>) -> String {
    answer.unwrap_or_else(|| api::TO_EXTRAS.to_string())
}

fn rouge1_triple(candidate: &str, reference: &str) -> Vec<f64> {
    let s = crate::text::rouge::rouge1(candidate, reference);
    vec![s.precision, s.recall, s.fmeasure]
}

/// `PreparedCase.fromJson`'s parse: a bad case is thrown as its error envelope (a string).
fn prepare_case(eval_case: Option<String>, actual: Option<String>, rest: &str) -> Result<api::PreparedCase, JsValue> {
    api::PreparedCase::prepare_parts(eval_case.as_deref(), actual.as_deref(), rest)
        .map_err(|e| JsValue::from_str(&api::envelope(Err(e))))
}

fn promise_of<F>(fut: F) -> js_sys::Promise
where
    F: std::future::Future<Output = String> + 'static,
{
    wasm_bindgen_futures::future_to_promise(async move { Ok(JsValue::from_str(&fut.await)) })
}

fn parts<'a>(eval_case: &'a Option<String>, actual: &'a Option<String>, rest: &'a str) -> api::CaseText<'a> {
    api::CaseText::Parts {
        eval_case: eval_case.as_deref(),
        actual: actual.as_deref(),
        rest,
    }
}

fn evaluate_invocations_promise(
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

fn plan_judge_calls_promise(
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

fn evaluate_promise(args: String, judge: String, host: host::JsHost) -> js_sys::Promise {
    promise_of(async move {
        let shared = std::rc::Rc::new(host::WasmHost(host));
        let custom = host::WasmCustom(&shared.0);
        let h: std::rc::Rc<dyn crate::run::Host> = shared.clone();
        api::envelope(api::evaluate_eval_set(&args, &judge, h, Some(&custom)).await)
    })
}

/// `__trapForTesting`: grows the heap by `mib` MiB, then traps.
fn trap_now(mib: u32) {
    let held = vec![1u8; (mib as usize) << 20];
    std::mem::forget(held);
    core::arch::wasm32::unreachable()
}

/// `__trapForTestingAsync`: the same trap one microtask later, inside the executor.
fn trap_later(mib: u32) -> js_sys::Promise {
    promise_of(async move {
        let _ = wasm_bindgen_futures::JsFuture::from(js_sys::Promise::resolve(&JsValue::NULL)).await;
        trap_now(mib);
        String::new()
    })
}

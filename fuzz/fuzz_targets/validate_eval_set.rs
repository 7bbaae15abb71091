//! `validateEvalSetBytes`: every problem of an eval set, never an envelope; and a yes from the
//! quick scan (`schema::accept`) is never wrong.
#![no_main]

use evalcore::api;
use evalcore::schema::{accept, load};
use evalcore_fuzz::assert_json;
use libfuzzer_sys::fuzz_target;
use serde_json::Value;

fuzz_target!(|data: &[u8]| {
    let out = match api::utf8(data) {
        Ok(text) => api::validate_eval_set(text),
        Err(e) => format!("{{\"ok\":false,\"errors\":[{}]}}", api::error_body(&e)),
    };
    let v = assert_json(&out);
    let ok = v.get("ok").and_then(Value::as_bool);
    let n = v.get("errors").and_then(Value::as_array).map(Vec::len);
    // `ok` is exactly "no errors".
    assert_eq!(ok, n.map(|n| n == 0), "{out}");
    if let Ok(text) = api::utf8(data) {
        if accept::surely_valid(text) {
            let loaded = load::load_eval_set(text, &load::LoadOptions::default());
            assert!(loaded.is_ok(), "the quick scan said valid: {:?}", loaded.err());
        }
    }
});

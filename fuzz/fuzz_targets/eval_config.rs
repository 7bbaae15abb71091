//! Configs (`test_config.json`), as `loadEvalConfigJson` and `validateEvalConfigJson` read them:
//! the options JSON after a NUL byte. What validation accepts, loading accepts (strict or not).
#![no_main]

use evalcore::api;
use evalcore_fuzz::{assert_envelope, assert_json, split2};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let (text, opts) = split2(data);
    let Ok(text) = std::str::from_utf8(text) else { return };
    let loaded = api::envelope(api::load_eval_config(text, &opts));
    assert_envelope(&loaded);
    let report = assert_json(&api::validate_config(text, &opts));
    let ok = report.get("ok").and_then(|v| v.as_bool());
    assert!(ok.is_some(), "validateEvalConfig without ok: {report}");
    if ok == Some(true) {
        assert!(loaded.starts_with("{\"ok\""), "valid but not loadable: {report} / {loaded}");
    }
});

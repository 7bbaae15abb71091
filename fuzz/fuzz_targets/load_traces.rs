//! OTLP inputs (JSON, JSON lines, protobuf) as `loadTracesBytes` and `tracesToEvalSetBytes` read
//! them: never a panic, always an envelope; what loads also makes an eval set.
#![no_main]

use evalcore::api;
use evalcore_fuzz::{assert_envelope, assert_json};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    // One input (protobuf holds NUL bytes, so the data is not split into several).
    let inputs = [data];
    let loaded = api::envelope(api::load_traces(&inputs, ""));
    assert_envelope(&loaded);
    let set = api::envelope(api::traces_to_eval_set(&inputs, r#"{"evalSetId":"fuzz","text":true}"#));
    assert_envelope(&set);
    if loaded.starts_with("{\"ok\"") {
        assert!(set.starts_with("{\"ok\""), "loads but makes no eval set: {set}");
        let v = assert_json(&set);
        let text = v["ok"]["text"].as_str().unwrap_or("");
        let reread = api::envelope(api::load_eval_set(text, ""));
        assert!(reread.starts_with("{\"ok\""), "the eval set text does not load back: {reread}");
    }
});

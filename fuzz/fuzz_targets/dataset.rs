//! agents-cli datasets as bytes, as the wasm skin's `loadEvaluationDatasetBytes` takes them (the
//! file's bytes, then after a NUL byte the options JSON); what loads is written back with
//! `toEvaluationDataset` and must load again.
#![no_main]

use evalcore::api;
use evalcore_fuzz::{assert_envelope, assert_json, split2};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let (file, opts) = split2(data);
    let out = api::envelope(api::utf8(file).and_then(|text| api::load_evaluation_dataset(text, &opts)));
    assert_envelope(&out);
    let loaded = assert_json(&out);
    let Some(d) = loaded.get("ok") else { return };
    let args = serde_json::json!({"evalSet": d["eval_set"], "actual": d["actual"]}).to_string();
    let written = api::envelope(api::to_evaluation_dataset(&args));
    assert_envelope(&written);
    if let Some(w) = assert_json(&written).get("ok") {
        let again = api::envelope(api::load_evaluation_dataset(&w.to_string(), r#"{"id": "x"}"#));
        assert!(assert_json(&again).get("ok").is_some(), "a written dataset does not load: {again}");
    }
});

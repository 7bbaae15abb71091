//! Result files, as `loadEvalSetResultJson` reads them (ours, ADK 2.x, ADK 1.x double-encoded),
//! with the options JSON after a NUL byte; what it reads, ADK's file writer writes back.
#![no_main]

use evalcore::api;
use evalcore_fuzz::{assert_envelope, split2};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let (text, opts) = split2(data);
    let Ok(text) = std::str::from_utf8(text) else { return };
    let read = api::load_eval_set_result(text, &opts);
    assert_envelope(&api::envelope(read.clone()));
    if let Ok(json) = read {
        // What was read is a result ADK's writer can write, and evalcore can read again.
        let written = api::format_eval_set_result(&json);
        assert_envelope(&api::envelope(written.clone()));
        assert!(written.is_ok(), "read but not writable: {json}");
        assert!(api::load_eval_set_result(&json, "").is_ok(), "read but not read again: {json}");
    }
});

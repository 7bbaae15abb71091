//! Eval sets as bytes, as the wasm skin's `loadEvalSetBytes` takes them: the file's bytes and,
//! after a NUL byte, the options JSON (`{"id"?, "sessionInput"?}`).
#![no_main]

use evalcore::api;
use evalcore_fuzz::{assert_envelope, split2};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let (set, opts) = split2(data);
    let out = api::envelope(api::utf8(set).and_then(|text| api::load_eval_set(text, &opts)));
    assert_envelope(&out);
});

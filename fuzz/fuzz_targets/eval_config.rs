//! Configs (`test_config.json`), as `loadEvalConfigJson` reads them.
#![no_main]

use evalcore::api;
use evalcore_fuzz::assert_envelope;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    assert_envelope(&api::envelope(api::load_eval_config(text)));
});

//! Scoring one case from JSON args (`evaluateInvocationsJson`), and the same args as a
//! `PreparedCase` scored twice under its own config (the second run reuses the call index).
#![no_main]

use evalcore::api::{self, PreparedCase};
use evalcore_fuzz::{assert_envelope, split2};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let (args, config) = split2(data);
    let Ok(args) = std::str::from_utf8(args) else { return };
    assert_envelope(&api::envelope(api::evaluate_invocations(args)));
    if let Ok(p) = PreparedCase::prepare(args) {
        let first = api::envelope(p.evaluate(&config, ""));
        assert_envelope(&first);
        assert_eq!(
            first,
            api::envelope(p.evaluate(&config, "")),
            "a prepared case scored twice differs"
        );
    }
});

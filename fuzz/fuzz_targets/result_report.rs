//! Result files: the console report over EvalCaseResult / EvalSetResult JSON, with the
//! options JSON after a NUL byte, as `formatReportJson` takes them.
#![no_main]

use evalcore::api;
use evalcore::report::console::format_report_json;
use evalcore_fuzz::{assert_envelope, split2};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let (results, opts) = split2(data);
    let Ok(results) = std::str::from_utf8(results) else {
        return;
    };
    assert_envelope(&api::envelope(format_report_json(results, &opts)));
});

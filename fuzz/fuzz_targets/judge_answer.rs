//! Every judge-answer parser over the same answer text: the verdict labels of
//! final_response_match_v2 and the user simulator, rubric blocks, the segmenter's sentences and
//! the validator's sentence labels, and the property normalisation.
#![no_main]

use evalcore::judge::parse;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let _ = parse::response_match_label(&text);
    let _ = parse::is_valid_label(&text);
    for answer in parse::rubric_answers(&text) {
        if let Some(s) = answer.score {
            assert!(s == 0.0 || s == 1.0, "rubric score {s}");
        }
        let _ = parse::normalize_property(&answer.property);
    }
    let _ = parse::normalize_property(&text);
    for s in parse::sentences(&text) {
        assert!(text.contains(s));
    }
    for l in parse::sentence_labels(&text) {
        assert!(l <= 1, "sentence label {l}");
    }
});

//! ADK's Unicode-aware tokenizer and the Porter stemmer. Beyond not crashing: tokenizing twice
//! gives the same tokens (the second time through the token cache), an ASCII text tokenizes the
//! same on the ASCII fast path as on the Unicode path, and the stemmer accepts any word.
#![no_main]

use evalcore::text::porter::stem;
use evalcore::text::tokenize;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let first = tokenize(&text);
    assert_eq!(first, tokenize(&text), "tokenize is not deterministic for {text:?}");
    if text.is_ascii() {
        // A trailing non-ASCII word sends the whole text down the Unicode path.
        let mut slow = tokenize(&format!("{text} é"));
        assert_eq!(slow.pop().as_deref(), Some("é"), "{text:?}");
        assert_eq!(first, slow, "ASCII fast path and Unicode path differ for {text:?}");
    }
    for word in text.split_whitespace().take(64) {
        let _ = stem(word);
    }
});

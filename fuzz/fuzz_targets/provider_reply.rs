//! Provider replies: a 2xx body read as each provider's wire format, and a failed call's body
//! read for its error message the way the judge client does.
#![no_main]

use evalcore::judge::provider::{error_text, read_reply, Provider, Reply};
use libfuzzer_sys::fuzz_target;
use serde_json::Value;

fuzz_target!(|data: &[u8]| {
    let Ok(body) = std::str::from_utf8(data) else { return };
    for p in [Provider::OpenAi, Provider::Gemini, Provider::Anthropic] {
        match read_reply(p, body) {
            Reply::Text(_) | Reply::Empty(_) | Reply::Malformed(_) => {}
        }
    }
    if let Ok(v) = serde_json::from_str::<Value>(body) {
        let _ = error_text(&v);
        if let Some(e) = v.get("error") {
            let _ = error_text(e);
        }
    }
});

//! `Retry-After` header values (delta seconds or an HTTP date) against a clock reading taken
//! from the first 6 bytes (a non-negative Unix time in ms, as `Date.now()` gives).
#![no_main]

use evalcore::judge::provider::retry_after_ms;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let (clock, value) = data.split_at(data.len().min(6));
    let now_ms = clock.iter().fold(0u64, |n, &b| (n << 8) | u64::from(b)) as f64;
    let value = String::from_utf8_lossy(value);
    if let Some(ms) = retry_after_ms(&value, now_ms) {
        assert!(ms >= 0.0, "negative delay {ms} for {value:?}");
    }
});

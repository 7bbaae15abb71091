//! ROUGE-1: a candidate and a reference (split at a NUL byte), scored on their own and through
//! `rouge1Batch`'s joined-text path, which must agree; scores are in [0, 1].
#![no_main]

use evalcore::api;
use evalcore::text::rouge::rouge1;
use evalcore_fuzz::split2;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let (cand, reference) = split2(data);
    let cand = String::from_utf8_lossy(cand);
    let s = rouge1(&cand, &reference);
    for x in [s.precision, s.recall, s.fmeasure] {
        assert!((0.0..=1.0).contains(&x), "score {x} for {cand:?} / {reference:?}");
    }
    let joined = format!("{cand}{reference}");
    let lens = [
        cand.encode_utf16().count() as u32,
        reference.encode_utf16().count() as u32,
    ];
    let batch = api::rouge1_batch(&joined, &lens);
    assert_eq!(batch.ok(), Some(vec![s.precision, s.recall, s.fmeasure]));
    // Arbitrary lengths (the tail bytes) must give an error or a score, never a crash.
    let odd: Vec<u32> = data.iter().rev().take(5).map(|&b| u32::from(b % 16)).collect();
    let _ = api::rouge1_batch(&joined, &odd);
});

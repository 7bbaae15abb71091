//! Conformance of the text module against the shared vectors: NLTK Porter stems
//! and ADK 2.13 ROUGE-1 scores, compared to the last bit.

use evalcore::text::{porter::stem, rouge::rouge1};
use serde_json::Value;

/// How many mismatches to print in full.
const SHOW: usize = 10;

/// Reads a JSON-lines vector file from `tests/data` (refreshed from ../shared by
/// scripts/refresh-test-data.sh).
fn vectors(name: &str) -> Result<Vec<Value>, String> {
    let path = format!("{}/tests/data/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).map_err(|e| format!("cannot read {path}: {e}"))?;
    text.lines()
        .enumerate()
        .filter(|(_, line)| !line.trim().is_empty())
        .map(|(i, line)| serde_json::from_str(line).map_err(|e| format!("{name}:{}: {e}", i + 1)))
        .collect()
}

fn text<'a>(v: &'a Value, key: &str) -> Result<&'a str, String> {
    v.get(key)
        .and_then(Value::as_str)
        .ok_or_else(|| format!("no string {key:?} in {v}"))
}

fn number(v: &Value, key: &str) -> Result<f64, String> {
    v.get(key)
        .and_then(Value::as_f64)
        .ok_or_else(|| format!("no number {key:?} in {v}"))
}

/// Prints the tally and the first mismatches; fails if there are any.
fn report(what: &str, total: usize, failures: &[String]) -> Result<(), String> {
    println!("{what} vectors: {}/{total} equal", total - failures.len());
    for failure in failures.iter().take(SHOW) {
        println!("  {failure}");
    }
    match failures.first() {
        None => Ok(()),
        Some(first) => Err(format!("{} {what} mismatches, first: {first}", failures.len())),
    }
}

/// The vector file holds what rouge-score's tokenizer makes of each word: it
/// stems only words longer than three characters, so a word of up to three
/// characters is its own "stem" there (NLTK itself turns "sos" into "so"). The
/// same rule is applied here; longer words test `stem` directly.
fn rouge_stem(word: &str) -> String {
    if word.chars().count() > 3 {
        stem(word)
    } else {
        word.to_owned()
    }
}

#[test]
fn porter_stem_vectors() -> Result<(), String> {
    let lines = vectors("porter_stem_vectors.jsonl")?;
    let mut failures = Vec::new();
    for v in &lines {
        let (word, want) = (text(v, "word")?, text(v, "stem")?);
        let got = rouge_stem(word);
        if got != want {
            failures.push(format!("stem({word:?}): expected {want:?}, got {got:?}"));
        }
    }
    report("porter", lines.len(), &failures)
}

#[test]
fn rouge1_vectors() -> Result<(), String> {
    let lines = vectors("rouge1_vectors.jsonl")?;
    let mut failures = Vec::new();
    for v in &lines {
        let (candidate, reference) = (text(v, "candidate")?, text(v, "reference")?);
        let got = rouge1(candidate, reference);
        let mut diffs = Vec::new();
        for (key, got) in [
            ("precision", got.precision),
            ("recall", got.recall),
            ("fmeasure", got.fmeasure),
        ] {
            let want = number(v, key)?;
            if got.to_bits() != want.to_bits() {
                diffs.push(format!(
                    "{key} expected {want:?} ({:#018x}) got {got:?} ({:#018x})",
                    want.to_bits(),
                    got.to_bits()
                ));
            }
        }
        if !diffs.is_empty() {
            failures.push(format!(
                "candidate {candidate:?}, reference {reference:?}: {}",
                diffs.join("; ")
            ));
        }
    }
    report("rouge1", lines.len(), &failures)
}

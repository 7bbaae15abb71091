//! ROUGE-1 as rouge-score 0.1.2 computes it for ADK's `response_match_score`.

use super::cache::with_cache;

/// rouge-score's `Score` for the `rouge1` type.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Rouge1 {
    pub precision: f64,
    pub recall: f64,
    pub fmeasure: f64,
}

/// ROUGE-1 of `candidate` (rouge-score's "prediction") against `reference` (its
/// "target"), tokenized by ADK 2.13's Unicode-aware stemming tokenizer.
pub fn rouge1(candidate: &str, reference: &str) -> Rouge1 {
    scored(candidate, reference, true)
}

/// [`rouge1`]; `shortcut: false` counts every token even of identical texts (for tests).
fn scored(candidate: &str, reference: &str, shortcut: bool) -> Rouge1 {
    let same = shortcut && candidate == reference;
    let (overlap, candidate_total, reference_total) = with_cache(|cache| {
        if same {
            // The same text on both sides: every token overlaps, so precision, recall and F
            // are all n / n = 1 when it has a token and all 0 when it has none. Only the first
            // token needs finding (common in regression suites, where most responses repeat
            // the expected ones).
            let n = usize::from(cache.has_token(candidate));
            return (n, n, n);
        }
        let mut cand = Vec::with_capacity(64);
        let mut refs = Vec::with_capacity(64);
        cache.token_ids(candidate, &mut cand);
        cache.token_ids(reference, &mut refs);
        (cache.multiset_overlap(&cand, &refs), cand.len(), refs.len())
    });
    score(overlap, candidate_total, reference_total)
}

/// rouge-score's `_score_ngrams` and `scoring.fmeasure`, in Python's operation
/// order: int / int true division is the correctly rounded quotient (as is f64
/// division of exactly representable counts), then `2 * p * r / (p + r)`
/// evaluated left to right.
fn score(overlap: usize, candidate_total: usize, reference_total: usize) -> Rouge1 {
    // Token counts are far below 2^53, so these conversions are exact.
    let as_f64 = |n: usize| n as f64;
    let precision = as_f64(overlap) / as_f64(candidate_total.max(1));
    let recall = as_f64(overlap) / as_f64(reference_total.max(1));
    let fmeasure = if precision + recall > 0.0 {
        2.0 * precision * recall / (precision + recall)
    } else {
        0.0
    };
    Rouge1 {
        precision,
        recall,
        fmeasure,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(got: Rouge1, p: f64, r: f64, f: f64) {
        let ok = |a: f64, b: f64| (a - b).abs() < 5e-5;
        assert!(
            ok(got.precision, p) && ok(got.recall, r) && ok(got.fmeasure, f),
            "{got:?}"
        );
    }

    #[test]
    fn spec_table() {
        close(rouge1("Running runs ran runner", "run running"), 0.5, 1.0, 0.666667);
        close(
            rouge1("The cats are running quickly", "A cat runs quick"),
            0.4,
            0.5,
            0.444444,
        );
        close(rouge1("the the the", "the"), 1.0 / 3.0, 1.0, 0.5);
        close(
            rouge1("caresses ponies ties", "caress poni ti"),
            2.0 / 3.0,
            2.0 / 3.0,
            2.0 / 3.0,
        );
        close(
            rouge1("it's 3.14 and $100", "its 3 14 and 100"),
            2.0 / 3.0,
            0.8,
            0.727273,
        );
        close(rouge1("café naïve résumé", "cafe naive resume"), 0.0, 0.0, 0.0);
        close(rouge1("東京は晴れです", "東京は雨です"), 5.0 / 7.0, 5.0 / 6.0, 0.769231);
        close(rouge1("สวัสดีครับ", "สวัสดีค่ะ"), 4.0 / 7.0, 4.0 / 6.0, 0.615385);
        close(rouge1("Привет мир", "привет Мир!"), 1.0, 1.0, 1.0);
        close(rouge1("ﬁne ＡＢＣ", "fine abc"), 1.0, 1.0, 1.0);
        close(rouge1("x²", "x2"), 1.0, 1.0, 1.0);
    }

    /// The identical-text shortcut gives exactly what counting gives, with and without tokens.
    #[test]
    fn identical_texts_score_as_counted() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/rouge1_vectors.jsonl");
        let vectors = std::fs::read_to_string(path).unwrap();
        let mut texts: Vec<String> = [
            "", " ", "!!!", "a", "... the", "ﬁne", "東京", "\u{301}", "x²  y", "Σ.", "é! b",
        ]
        .iter()
        .map(|t| t.to_string())
        .collect();
        for line in vectors.lines().filter(|l| !l.trim().is_empty()) {
            let v: serde_json::Value = serde_json::from_str(line).unwrap();
            for key in ["candidate", "reference", "prediction", "target"] {
                if let Some(t) = v.get(key).and_then(|t| t.as_str()) {
                    texts.push(t.to_string());
                }
            }
        }
        assert!(texts.len() > 100, "{} texts", texts.len());
        for t in &texts {
            let (fast, slow) = (rouge1(t, t), scored(t, t, false));
            assert_eq!(
                [fast.precision, fast.recall, fast.fmeasure].map(f64::to_bits),
                [slow.precision, slow.recall, slow.fmeasure].map(f64::to_bits),
                "{t:?}"
            );
        }
    }

    #[test]
    fn empty_texts_score_zero() {
        let zero = Rouge1 {
            precision: 0.0,
            recall: 0.0,
            fmeasure: 0.0,
        };
        assert_eq!(rouge1("", ""), zero);
        assert_eq!(rouge1("hello", ""), zero);
        assert_eq!(rouge1("", "hello"), zero);
        assert_eq!(rouge1("!!!", "..."), zero);
    }

    #[test]
    fn python_operation_order() {
        // 2 * p * r / (p + r) left to right, not 2 * (p * r) / (p + r).
        let s = score(3, 7, 11);
        let (p, r): (f64, f64) = (3.0 / 7.0, 3.0 / 11.0);
        assert_eq!(s.fmeasure.to_bits(), (2.0 * p * r / (p + r)).to_bits());
    }
}

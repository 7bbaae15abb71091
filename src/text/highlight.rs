//! Where ROUGE-1's token overlap falls in the original texts, for the viewer's highlight: the
//! same tokenizer, stemmer and multiset counting as `rouge1`, mapped back to spans of the input.

use super::cache::{with_cache, TokenCache};
use super::tokenize::{classify, Class};

/// One word of the original text: UTF-16 offsets `[start, end)`, how many ROUGE tokens it
/// yields and how many of those are counted in the overlap.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Span {
    pub start: u32,
    pub end: u32,
    pub tokens: u32,
    pub matched: u32,
}

/// The spans of one text. `aligned` is false when the words, tokenized one by one, do not give
/// the text's own token list (a normalisation that crosses a word boundary); then `spans` is one
/// span over the whole text carrying its totals, so the counts still agree with the score.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Marked {
    pub aligned: bool,
    pub spans: Vec<Span>,
}

/// The overlap of `candidate` and `reference` as spans of each. A token is matched while the
/// other text still has an unmatched copy of it (left to right), so each side's matched total is
/// exactly the overlap count `rouge1` uses.
pub fn rouge1_spans(candidate: &str, reference: &str) -> (Marked, Marked) {
    with_cache(|cache| {
        let (cand_words, cand_ids) = words(cache, candidate);
        let (ref_words, ref_ids) = words(cache, reference);
        (
            mark(candidate, cand_words, &cand_ids, &ref_ids),
            mark(reference, ref_words, &ref_ids, &cand_ids),
        )
    })
}

/// A word's UTF-16 span and its token ids (in order).
type Word = (u32, u32, Vec<u32>);

/// The text's words with their token ids, or `None` for the words when tokenizing them one by
/// one disagrees with tokenizing the whole text; plus the whole text's token ids.
fn words(cache: &mut TokenCache, text: &str) -> (Option<Vec<Word>>, Vec<u32>) {
    let mut all = Vec::new();
    cache.token_ids(text, &mut all);
    let mut out: Vec<Word> = Vec::new();
    let mut pos16 = 0u32;
    let mut run: Option<(usize, u32)> = None; // byte start, utf16 start
    let mut flush = |cache: &mut TokenCache, run: &mut Option<(usize, u32)>, end: usize, end16: u32| {
        if let Some((b, s16)) = run.take() {
            let mut ids = Vec::new();
            cache.token_ids(text.get(b..end).unwrap_or_default(), &mut ids);
            if !ids.is_empty() {
                out.push((s16, end16, ids));
            }
        }
    };
    for (i, c) in text.char_indices() {
        let w = c.len_utf16() as u32;
        match classify(c) {
            Class::Word => {
                run.get_or_insert((i, pos16));
            }
            Class::Separator => flush(cache, &mut run, i, pos16),
            Class::Alone => {
                flush(cache, &mut run, i, pos16);
                run = Some((i, pos16));
                flush(cache, &mut run, i + c.len_utf8(), pos16 + w);
            }
            Class::ClusterStart => {
                flush(cache, &mut run, i, pos16);
                run = Some((i, pos16));
            }
        }
        pos16 += w;
    }
    flush(cache, &mut run, text.len(), pos16);
    let joined = out.iter().flat_map(|(_, _, ids)| ids.iter().copied());
    if joined.eq(all.iter().copied()) {
        (Some(out), all)
    } else {
        (None, all)
    }
}

fn mark(text: &str, words: Option<Vec<Word>>, mine: &[u32], other: &[u32]) -> Marked {
    let mut left: std::collections::HashMap<u32, u32> = std::collections::HashMap::new();
    for id in other {
        *left.entry(*id).or_insert(0) += 1;
    }
    let mut take = |id: u32| match left.get_mut(&id) {
        Some(n) if *n > 0 => {
            *n -= 1;
            1u32
        }
        _ => 0u32,
    };
    match words {
        Some(words) => Marked {
            aligned: true,
            spans: words
                .into_iter()
                .map(|(start, end, ids)| Span {
                    start,
                    end,
                    tokens: ids.len() as u32,
                    matched: ids.iter().map(|id| take(*id)).sum(),
                })
                .collect(),
        },
        None => {
            let matched = mine.iter().map(|id| take(*id)).sum();
            let end = text.encode_utf16().count() as u32;
            Marked {
                aligned: false,
                spans: vec![Span {
                    start: 0,
                    end,
                    tokens: mine.len() as u32,
                    matched,
                }],
            }
        }
    }
}

/// Both sides flattened for the wasm boundary: per side `aligned (0/1), n, then n times start,
/// end, tokens, matched`, candidate first.
pub fn rouge1_spans_flat(candidate: &str, reference: &str) -> Vec<u32> {
    let (c, r) = rouge1_spans(candidate, reference);
    let mut out = Vec::with_capacity(4 + 4 * (c.spans.len() + r.spans.len()));
    for side in [c, r] {
        out.push(u32::from(side.aligned));
        out.push(side.spans.len() as u32);
        for s in side.spans {
            out.extend([s.start, s.end, s.tokens, s.matched]);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::rouge::rouge1;

    fn matched_total(m: &Marked) -> u32 {
        m.spans.iter().map(|s| s.matched).sum()
    }

    fn slice16(text: &str, s: &Span) -> String {
        let units: Vec<u16> = text.encode_utf16().collect();
        String::from_utf16_lossy(&units[s.start as usize..s.end as usize])
    }

    #[test]
    fn stemmed_words_match_and_counts_agree_with_the_score() {
        let (cand, refr) = ("The cats are running quickly!", "A cat runs, quickly.");
        let (c, r) = rouge1_spans(cand, refr);
        assert!(c.aligned && r.aligned);
        let words: Vec<(String, u32)> = c.spans.iter().map(|s| (slice16(cand, s), s.matched)).collect();
        assert_eq!(
            words,
            [
                ("The".into(), 0),
                ("cats".into(), 1),
                ("are".into(), 0),
                ("running".into(), 1),
                ("quickly".into(), 1)
            ]
        );
        let score = rouge1(cand, refr);
        let total_c: u32 = c.spans.iter().map(|s| s.tokens).sum();
        let total_r: u32 = r.spans.iter().map(|s| s.tokens).sum();
        assert_eq!(f64::from(matched_total(&c)) / f64::from(total_c), score.precision);
        assert_eq!(f64::from(matched_total(&r)) / f64::from(total_r), score.recall);
        assert_eq!(matched_total(&c), matched_total(&r));
    }

    #[test]
    fn repeated_tokens_match_only_as_often_as_the_other_side_has_them() {
        let (c, r) = rouge1_spans("yes yes yes", "yes no");
        assert_eq!(c.spans.iter().map(|s| s.matched).collect::<Vec<_>>(), [1, 0, 0]);
        assert_eq!(r.spans.iter().map(|s| s.matched).collect::<Vec<_>>(), [1, 0]);
    }

    #[test]
    fn offsets_are_utf16_and_scripts_split_like_the_tokenizer() {
        let (c, _) = rouge1_spans("😀 東京 café", "東 cafe café");
        assert!(c.aligned);
        let text = "😀 東京 café";
        let got: Vec<(String, u32)> = c.spans.iter().map(|s| (slice16(text, s), s.matched)).collect();
        assert_eq!(got, [("東".into(), 1), ("京".into(), 0), ("café".into(), 1)]);
        assert_eq!(c.spans[0].start, 3);
    }

    #[test]
    fn empty_and_symbol_only_texts_have_no_spans() {
        let (c, r) = rouge1_spans("", "!!! ...");
        assert_eq!(
            c,
            Marked {
                aligned: true,
                spans: vec![]
            }
        );
        assert_eq!(
            r,
            Marked {
                aligned: true,
                spans: vec![]
            }
        );
    }

    #[test]
    fn flat_layout() {
        assert_eq!(
            rouge1_spans_flat("a b", "b"),
            vec![1, 2, 0, 1, 1, 0, 2, 3, 1, 1, 1, 1, 0, 1, 1, 1]
        );
    }
}

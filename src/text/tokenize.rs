//! ADK 2.13's `_UnicodeAwareTokenizer` (with rouge-score's classic tokenizer and stemming for
//! ASCII words), pinned to the Unicode 14 tables of the Python 3.11 reference.

use unicode_general_category::{get_general_category, GeneralCategory as Gc};

use super::unicode::unassigned_in_14;

/// General category as Python 3.11 sees it (`None` = unassigned in Unicode 14).
fn category14(c: char) -> Option<Gc> {
    if unassigned_in_14(c) {
        None
    } else {
        Some(get_general_category(c))
    }
}

fn is_mark(gc: Option<Gc>) -> bool {
    matches!(gc, Some(Gc::NonspacingMark | Gc::SpacingMark | Gc::EnclosingMark))
}

/// Python's `str.isalnum()` (exactly categories L* and N* in Unicode 14) or a mark.
fn is_word(gc: Option<Gc>) -> bool {
    is_mark(gc)
        || matches!(
            gc,
            Some(
                Gc::UppercaseLetter
                    | Gc::LowercaseLetter
                    | Gc::TitlecaseLetter
                    | Gc::ModifierLetter
                    | Gc::OtherLetter
                    | Gc::DecimalNumber
                    | Gc::LetterNumber
                    | Gc::OtherNumber
            )
        )
}

/// Word_Break MidLetter, MidNumLet and Single_Quote: the case-ignorable
/// characters outside categories Mn, Me, Cf, Lm and Sk (Unicode 14).
const MID_WORD: [char; 17] = [
    '\'', '.', ':', '\u{B7}', '\u{387}', '\u{55F}', '\u{5F4}', '\u{2018}', '\u{2019}', '\u{2024}', '\u{2027}',
    '\u{FE13}', '\u{FE52}', '\u{FE55}', '\u{FF07}', '\u{FF0E}', '\u{FF1A}',
];

/// Unicode 14 `Case_Ignorable`. U+1171E was Mn in Unicode 14 (Mc since).
fn case_ignorable14(c: char) -> bool {
    MID_WORD.contains(&c)
        || c == '\u{1171E}'
        || matches!(
            category14(c),
            Some(Gc::NonspacingMark | Gc::EnclosingMark | Gc::Format | Gc::ModifierLetter | Gc::ModifierSymbol)
        )
}

/// Unicode 14 `Cased`; U+0295 lost the property after Unicode 14.
fn cased14(c: char) -> bool {
    !unassigned_in_14(c)
        && (c == '\u{295}' || c.is_lowercase() || c.is_uppercase() || get_general_category(c) == Gc::TitlecaseLetter)
}

/// Python's `Final_Sigma` test for the capital sigma at byte `i` of `s`: a cased
/// letter before it and none after it (case-ignorable characters skipped).
fn is_final_sigma(s: &str, i: usize) -> bool {
    let before = s.get(..i).unwrap_or_default();
    let after = s.get(i + 'Σ'.len_utf8()..).unwrap_or_default();
    let cased_before = before
        .chars()
        .rev()
        .find(|&c| !case_ignorable14(c))
        .is_some_and(cased14);
    cased_before && !after.chars().find(|&c| !case_ignorable14(c)).is_some_and(cased14)
}

/// Python's `str.lower()` on Unicode 14: full mappings (`İ` -> `i̇`), final sigma,
/// and no mapping for code points Unicode 14 does not know.
fn lower14(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for (i, c) in s.char_indices() {
        if c.is_ascii() {
            out.push(c.to_ascii_lowercase());
        } else if c == 'Σ' {
            out.push(if is_final_sigma(s, i) { 'ς' } else { 'σ' });
        } else if unassigned_in_14(c) {
            out.push(c);
        } else {
            out.extend(c.to_lowercase());
        }
    }
    out
}

/// What a character does to the chunking in ADK's scan.
pub(super) enum Class {
    /// Kept and glued to its neighbours (alphanumeric or a combining mark).
    Word,
    /// Replaced by a space.
    Separator,
    /// CJK ideograph, kana or Hangul syllable: a chunk on its own.
    Alone,
    /// Thai/Lao/Khmer/Myanmar non-mark: starts a new grapheme-like cluster.
    ClusterStart,
}

pub(super) fn classify(c: char) -> Class {
    if c.is_ascii() {
        return if c.is_ascii_alphanumeric() {
            Class::Word
        } else {
            Class::Separator
        };
    }
    let cp = u32::from(c);
    if matches!(cp, 0x4E00..=0x9FFF | 0x3040..=0x309F | 0x30A0..=0x30FF | 0xAC00..=0xD7AF) {
        return Class::Alone;
    }
    let gc = category14(c);
    if matches!(cp, 0x0E00..=0x0E7F | 0x0E80..=0x0EFF | 0x1780..=0x17FF | 0x1000..=0x109F) {
        // In these scripts every non-mark starts a cluster, punctuation included.
        return if is_mark(gc) { Class::Word } else { Class::ClusterStart };
    }
    if is_word(gc) {
        Class::Word
    } else {
        Class::Separator
    }
}

/// `[0-9A-Za-z]` by table lookup: the ASCII scan's innermost loop (about 10%
/// fewer instructions per pair than range tests).
fn ascii_alnum(b: u8) -> bool {
    // Evaluated at compile time, where an out-of-range index fails the build.
    #[allow(clippy::indexing_slicing)]
    static TABLE: [bool; 256] = {
        let mut t = [false; 256];
        let mut b = 0u8;
        while b < 128 {
            if b.is_ascii_alphanumeric() {
                t[b as usize] = true;
            }
            b += 1;
        }
        t
    };
    TABLE.get(usize::from(b)).copied().unwrap_or(false)
}

/// Calls `f` with every whitespace-separated chunk ADK's scan produces, before
/// the per-chunk rouge tokenizer.
pub(super) fn for_each_chunk(text: &str, mut f: impl FnMut(&str)) {
    if text.is_ascii() {
        ascii_chunks(text, &mut f);
        return;
    }
    // NFKC, lower-casing and chunking never reach across ASCII whitespace: it is a
    // starter that composes with nothing, it is neither cased nor case-ignorable (so it
    // ends the final-sigma context) and it separates chunks. Each whitespace-separated
    // segment is therefore done on its own, and only the segments holding non-ASCII
    // characters go through the Unicode tables.
    for segment in text.split([' ', '\t', '\n', '\r']) {
        if segment.is_ascii() {
            ascii_chunks(segment, &mut f);
        } else {
            unicode_chunks(segment, &mut f);
        }
    }
}

/// `for_each_chunk` of ASCII text: NFKC is the identity on ASCII, and lower-casing
/// cannot move a chunk boundary, so only chunks holding capitals need a lower-cased copy.
fn ascii_chunks(text: &str, f: &mut impl FnMut(&str)) {
    let mut lowered = String::new();
    let bytes = text.as_bytes();
    let mut i = 0;
    loop {
        while bytes.get(i).is_some_and(|&b| !ascii_alnum(b)) {
            i += 1;
        }
        let start = i;
        // One pass over the chunk finds its end and whether it holds capitals.
        let mut upper = false;
        while let Some(&b) = bytes.get(i).filter(|&&b| ascii_alnum(b)) {
            upper |= b.is_ascii_uppercase();
            i += 1;
        }
        if start == i {
            return;
        }
        let chunk = text.get(start..i).unwrap_or_default();
        if upper {
            lowered.clear();
            lowered.push_str(chunk);
            lowered.make_ascii_lowercase();
            f(&lowered);
        } else {
            f(chunk);
        }
    }
}

/// `for_each_chunk` of any text through the Unicode tables: every chunk is a substring
/// of the normalised, lower-cased text.
fn unicode_chunks(text: &str, f: &mut impl FnMut(&str)) {
    let lowered = lower14(&super::unicode::nfkc14(text));
    let mut start: Option<usize> = None;
    for (i, c) in lowered.char_indices() {
        let class = classify(c);
        if matches!(class, Class::Word) {
            start.get_or_insert(i);
            continue;
        }
        if let Some(s) = start.take() {
            f(lowered.get(s..i).unwrap_or_default());
        }
        match class {
            Class::Alone => f(lowered.get(i..i + c.len_utf8()).unwrap_or_default()),
            Class::ClusterStart => start = Some(i),
            Class::Word | Class::Separator => {}
        }
    }
    if let Some(s) = start {
        f(lowered.get(s..).unwrap_or_default());
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::tokenize;

    fn chunks(text: &str, by_segments: bool) -> Vec<String> {
        let mut out = Vec::new();
        let mut push = |c: &str| out.push(c.to_string());
        if by_segments {
            for_each_chunk(text, &mut push);
        } else {
            unicode_chunks(text, &mut push);
        }
        out
    }

    /// Splitting non-ASCII text at ASCII whitespace changes no chunk: texts built from
    /// pieces that meet at the boundaries where it could matter (final sigma, combining
    /// marks and compatibility spaces next to the whitespace, capitals, CJK, Thai).
    #[test]
    fn segments_give_the_whole_texts_chunks() {
        let pieces = [
            "ΟΔΟΣ",
            "Σ",
            "aΣ",
            "Σa",
            "\u{301}",
            "e\u{301}",
            "caf\u{e9}",
            "\u{a0}",
            "\u{a8}",
            "\u{2003}",
            "ﬁne",
            "ＡＢＣ",
            "x²",
            "東京は",
            "สวัสดีครับ",
            "Привет",
            "İ",
            "ß",
            "Word",
            "it's",
            "3.14",
            "'",
            "-",
            "\u{345}",
            "\u{3a3}\u{301}",
            "ǅ",
            "",
        ];
        let seps = [" ", "\t", "\n", "\r\n", "  ", "", ".", " \u{301}", "\u{a0}"];
        let mut n = 0;
        for a in pieces {
            for sep in seps {
                for b in pieces {
                    for sep2 in [" ", ""] {
                        let text = format!("{a}{sep}{b}{sep2}{a}");
                        assert_eq!(chunks(&text, true), chunks(&text, false), "{text:?}");
                        n += 1;
                    }
                }
            }
        }
        assert!(n > 10_000);
    }

    #[test]
    fn spec_table() {
        let cases: &[(&str, &[&str])] = &[
            ("Running runs ran runner", &["run", "run", "ran", "runner"]),
            ("The cats are running quickly", &["the", "cat", "are", "run", "quickli"]),
            ("caresses ponies ties", &["caress", "poni", "tie"]),
            ("it's 3.14 and $100", &["it", "s", "3", "14", "and", "100"]),
            ("café naïve résumé", &["café", "naïve", "résumé"]),
            ("東京は晴れです", &["東", "京", "は", "晴", "れ", "で", "す"]),
            ("สวัสดีครับ", &["ส", "วั", "ส", "ดี", "ค", "รั", "บ"]),
            ("Привет мир", &["привет", "мир"]),
            ("ﬁne ＡＢＣ", &["fine", "abc"]),
            ("x²", &["x2"]),
            ("I ❤️ NY", &["i", "\u{FE0F}", "ny"]),
            ("don't can't", &["don", "t", "can", "t"]),
            ("1,000,000 1.5", &["1", "000", "000", "1", "5"]),
            ("Straße STRASSE", &["straße", "strass"]),
        ];
        for &(text, want) in cases {
            assert_eq!(tokenize(text), want, "tokenize({text:?})");
        }
    }

    #[test]
    fn python_lower_details() {
        assert_eq!(tokenize("İstanbul"), ["i\u{307}stanbul"]);
        assert_eq!(tokenize("ΟΔΟΣ ΣΑΣ"), ["οδος", "σας"]);
        // "." is case-ignorable, so the sigma sees the "Β" after it.
        assert_eq!(tokenize("ΑΣ.Β"), ["ασ", "β"]);
        assert_eq!(tokenize("Σ"), ["σ"]);
        // Unassigned in Unicode 14: no case mapping, no category (a separator).
        assert_eq!(tokenize("a\u{1C89}b"), ["a", "b"]);
        assert_eq!(tokenize("\u{A7CB}x"), ["x"]);
    }

    #[test]
    fn scripts_and_marks() {
        assert_eq!(tokenize("abc東def"), ["abc", "東", "def"]);
        assert_eq!(tokenize("ก.ข"), ["ก", "ข"]);
        assert_eq!(tokenize("฿5"), ["฿5"]);
        assert_eq!(tokenize("a\u{301}"), ["á"]);
        assert_eq!(tokenize("e\u{301}!"), ["é"]);
        assert_eq!(tokenize(""), Vec::<String>::new());
        assert_eq!(tokenize(" \t\n"), Vec::<String>::new());
    }

    #[test]
    fn unassigned_table_is_sorted_pairs() {
        assert!(super::super::unicode::UNASSIGNED_IN_14
            .windows(2)
            .all(|w| w.first() <= w.get(1)));
        assert!(unassigned_in_14('\u{557}') && unassigned_in_14('\u{558}'));
        assert!(unassigned_in_14('\u{209E}') && !unassigned_in_14('\u{209C}'));
        assert!(unassigned_in_14('\u{E0000}') && !unassigned_in_14('\u{E0001}'));
        assert!(!unassigned_in_14('a') && !unassigned_in_14('\u{559}'));
    }

    #[test]
    fn unicode_tables_are_the_audited_ones() {
        // UNASSIGNED_IN_14 and the case-property exceptions were derived against
        // exactly these versions; a newer table may assign more code points.
        let versions = (
            char::UNICODE_VERSION,
            unicode_normalization::UNICODE_VERSION,
            unicode_general_category::UNICODE_VERSION,
        );
        assert_eq!(
            versions,
            ((17, 0, 0), (18, 0, 0), (16, 0, 0)),
            "re-derive UNASSIGNED_IN_14"
        );
    }
}

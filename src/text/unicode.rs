//! NFKC as Python 3.11 computes it (Unicode 14), from one of two sources: the
//! `unicode-normalization` tables (feature `unicode-tables`, on by default), or a normaliser
//! the host registers with `set_host_nfkc` (the wasm build leaves the tables out and uses the
//! JS engine's `String.prototype.normalize`, ~60 KB gzip less). Both are exact here: Unicode's
//! normalization stability policy fixes the normal form of every assigned code point, so any
//! later Unicode version normalises text assigned in 14 as 14 does, and code points unassigned
//! in 14 are cut out before either source sees them.

/// Code points unassigned in Unicode 14.0 to which a newer table of ours (std
/// 17.0 case mappings, unicode-normalization 18.0, unicode-general-category 16.0)
/// gives a category, decomposition, combining class or case mapping, as inclusive
/// `start, end` pairs. Each pair is a whole run of Unicode 14 `Cn`, so later
/// additions inside these runs are covered too. Python 3.11 treats all of them as
/// unassigned (no category, no mapping), and so do we. Derived by comparing every
/// code point against `unicodedata` / `str.lower` of Python 3.11; re-derive when
/// the guard test `unicode_tables_are_the_audited_ones` fails.
#[rustfmt::skip]
pub const UNASSIGNED_IN_14: [u32; 134] = [
    0x557, 0x558, 0x58B, 0x58C, 0x5C8, 0x5CF, 0x88F, 0x88F, 0x892, 0x897, 0xC5B, 0xC5C,
    0xCD7, 0xCDC, 0xCF3, 0xCFF, 0xECE, 0xECF, 0x1ACF, 0x1AFF, 0x1B4D, 0x1B4F, 0x1B7F, 0x1B7F,
    0x1C89, 0x1C8F, 0x209D, 0x209F, 0x2427, 0x243F, 0x2FFC, 0x2FFF, 0x31E4, 0x31EF,
    0xA7CB, 0xA7CF, 0xA7D2, 0xA7D2, 0xA7D4, 0xA7D4, 0xA7DA, 0xA7F1, 0x105BD, 0x105FF,
    0x107BB, 0x107FF, 0x10940, 0x1097F, 0x10D3A, 0x10E5F, 0x10EB2, 0x10EFF, 0x1123F, 0x1127F,
    0x11375, 0x113FF, 0x116CA, 0x116FF, 0x11AF9, 0x11BFF, 0x11DAA, 0x11EDF, 0x11EF9, 0x11FAF,
    0x1342F, 0x1342F, 0x13439, 0x143FF, 0x14647, 0x167FF, 0x16B90, 0x16E3F, 0x16E9B, 0x16EFF,
    0x16FF2, 0x16FFF, 0x187F8, 0x187FF, 0x18CD6, 0x18CFF, 0x18D09, 0x1AFEF, 0x1B123, 0x1B14F,
    0x1B153, 0x1B163, 0x1BCA4, 0x1CEFF, 0x1D127, 0x1D128, 0x1D246, 0x1D2DF, 0x1D6A6, 0x1D6A7,
    0x1DF1F, 0x1DFFF, 0x1E02B, 0x1E0FF, 0x1E300, 0x1E7DF, 0x1F6D8, 0x1F6DC, 0x1F774, 0x1F77F,
    0x1F7D9, 0x1F7DF, 0x1F8B2, 0x1F8FF, 0x1FA75, 0x1FA77, 0x1FA87, 0x1FA8F, 0x1FAAD, 0x1FAAF,
    0x1FABB, 0x1FABF, 0x1FAC6, 0x1FACF, 0x1FADA, 0x1FADF, 0x1FAE8, 0x1FAEF, 0x1FAF7, 0x1FAFF,
    0x1FBCB, 0x1FBEF, 0x2B739, 0x2B73F, 0x2CEA2, 0x2CEAF, 0x2EBE1, 0x2F7FF, 0x3134B, 0xE0000,
];

pub fn unassigned_in_14(c: char) -> bool {
    let cp = u32::from(c);
    if cp < 0x557 {
        return false;
    }
    // Number of pair boundaries at or below `cp`: odd means inside a pair.
    let bounds_below = UNASSIGNED_IN_14.partition_point(|&b| b < cp);
    let on_bound = UNASSIGNED_IN_14.get(bounds_below) == Some(&cp);
    bounds_below % 2 == 1 || on_bound
}

/// NFKC as Python 3.11 computes it: code points unassigned in Unicode 14 are starters without
/// decomposition there, so they split the text into pieces that normalise independently and
/// pass through unchanged themselves.
pub fn nfkc14(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + text.len() / 4);
    if !text.chars().any(unassigned_in_14) {
        normalize_into(text, &mut out);
        return out;
    }
    let mut piece_start = 0;
    for (i, c) in text.char_indices() {
        if unassigned_in_14(c) {
            normalize_into(text.get(piece_start..i).unwrap_or_default(), &mut out);
            out.push(c);
            piece_start = i + c.len_utf8();
        }
    }
    normalize_into(text.get(piece_start..).unwrap_or_default(), &mut out);
    out
}

/// Whether `piece` is its own NFKC without looking it up: ASCII and the Latin letters
/// U+00C0-U+017F (Western and Central European text), except the six of them that have
/// compatibility mappings. None of these decomposes to anything but itself after
/// recomposition, and none is the second half of a canonical composition, so no neighbour
/// changes them either (checked against the tables for every pair in `latin_fast_path_is_exact`).
fn latin_stable(piece: &str) -> bool {
    piece.chars().all(|c| {
        let cp = u32::from(c);
        cp < 0x80 || ((0xC0..=0x17F).contains(&cp) && !matches!(cp, 0x132 | 0x133 | 0x13F | 0x140 | 0x149 | 0x17F))
    })
}

#[cfg(feature = "unicode-tables")]
fn normalize_into(piece: &str, out: &mut String) {
    if latin_stable(piece) {
        out.push_str(piece);
        return;
    }
    use unicode_normalization::UnicodeNormalization;
    // Always normalising beats the crate's quick check, whose NFKC_QC lookup is a long
    // `match` that costs more than the perfect-hash decomposition.
    out.extend(piece.nfkc());
}

#[cfg(not(feature = "unicode-tables"))]
fn normalize_into(piece: &str, out: &mut String) {
    if latin_stable(piece) {
        // No call out to the host for most European text.
        out.push_str(piece);
        return;
    }
    match HOST_NFKC.get() {
        Some(nfkc) => out.push_str(&nfkc(piece)),
        // Only a skin that forgot to register would get here; the text is then scored as given.
        None => out.push_str(piece),
    }
}

#[cfg(not(feature = "unicode-tables"))]
static HOST_NFKC: std::sync::OnceLock<fn(&str) -> String> = std::sync::OnceLock::new();

/// Registers the host's NFKC for a build without the tables (the wasm skin does, at start).
/// A build with the tables keeps them and ignores it.
pub fn set_host_nfkc(nfkc: fn(&str) -> String) {
    #[cfg(not(feature = "unicode-tables"))]
    {
        let _ = HOST_NFKC.set(nfkc);
    }
    #[cfg(feature = "unicode-tables")]
    let _ = nfkc;
}

#[cfg(all(test, feature = "unicode-tables"))]
mod tests {
    use super::*;
    use unicode_normalization::UnicodeNormalization;

    /// Every text `latin_stable` accepts of one or two characters (and so, composition being
    /// pairwise, of any length) is its own NFKC by the tables; the six it refuses are not.
    #[test]
    fn latin_fast_path_is_exact() {
        let set: Vec<char> = (0u32..0x180)
            .filter_map(char::from_u32)
            .filter(|c| latin_stable(&c.to_string()))
            .collect();
        assert!(set.len() > 300);
        for &a in &set {
            for &b in &set {
                let t: String = [a, b].iter().collect();
                assert_eq!(t.nfkc().collect::<String>(), t, "{t:?}");
            }
            // Nor does it combine with a following combining mark in a way the fast path would
            // miss: such a text is refused (the mark is outside the set).
            assert!(!latin_stable(&format!("{a}\u{301}")));
        }
        for cp in [0x132u32, 0x133, 0x13F, 0x140, 0x149, 0x17F] {
            let t = char::from_u32(cp).map(String::from).unwrap_or_default();
            assert_ne!(t.nfkc().collect::<String>(), t);
        }
    }
}

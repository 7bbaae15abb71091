//! NFKC as Python 3.11 computes it (Unicode 14), from one of two sources: the
//! `unicode-normalization` tables (feature `unicode-tables`, on by default), or a normaliser
//! the host registers with `set_host_nfkc` (the wasm build leaves the tables out and uses the
//! JS engine's `String.prototype.normalize`, ~60 KB gzip less). Both are exact here: Unicode's
//! normalization stability policy fixes the normal form of every assigned code point, so any
//! later Unicode version normalises text assigned in 14 as 14 does, and code points unassigned
//! in 14 are cut out before either source sees them.

use super::tokenize::unassigned_in_14;

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
        let set: Vec<char> = (0u32..0x180).filter_map(char::from_u32).filter(|c| latin_stable(&c.to_string())).collect();
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

//! Whether two JSON texts give the same value to a JavaScript reader (`JSON.parse`): the same
//! structure, keys in the same order, strings written alike, and numbers that read as the same
//! double (`1763800000.0` and `1763800000` do; `-0` and `0` do not). Whitespace between tokens
//! is ignored. Used to tell when the invocations the core would echo back equal the caller's own
//! objects, so a result can refer to those instead of carrying a copy (`api::columns`).
//!
//! Conservative: a difference it cannot rule out (a string escaped differently, text that is not
//! JSON) counts as a difference.

use crate::schema::value::parse_f64;

/// The value of the member `key` of the JSON object `text` (its text, without surrounding
/// whitespace), or `None` when `text` is not an object or has no such member.
pub fn member<'a>(text: &'a str, key: &str) -> Option<&'a str> {
    let b = text.as_bytes();
    let mut i = skip_ws(b, 0);
    if b.get(i) != Some(&b'{') {
        return None;
    }
    i += 1;
    loop {
        i = skip_ws(b, i);
        if b.get(i) != Some(&b'"') {
            return None;
        }
        let key_end = string_end(b, i)?;
        let name = text.get(i + 1..key_end - 1)?;
        i = skip_ws(b, key_end);
        if b.get(i) != Some(&b':') {
            return None;
        }
        let start = skip_ws(b, i + 1);
        let end = value_end(b, start)?;
        if name == key {
            return text.get(start..end);
        }
        i = skip_ws(b, end);
        match b.get(i) {
            Some(b',') => i += 1,
            _ => return None,
        }
    }
}

/// Whether `a` and `b` read as the same JavaScript value (see the module's notes).
pub fn same(a: &str, b: &str) -> bool {
    let (x, y) = (a.as_bytes(), b.as_bytes());
    let (mut i, mut j) = (0, 0);
    loop {
        i = skip_ws(x, i);
        j = skip_ws(y, j);
        let (Some(&p), Some(&q)) = (x.get(i), y.get(j)) else {
            return i >= x.len() && j >= y.len();
        };
        if p == b'"' || q == b'"' {
            let (Some(ei), Some(ej)) = (string_end(x, i), string_end(y, j)) else {
                return false;
            };
            if x.get(i..ei) != y.get(j..ej) {
                return false;
            }
            (i, j) = (ei, ej);
        } else if is_number_start(p) || is_number_start(q) {
            let ei = number_end(x, i);
            let ej = number_end(y, j);
            let (Some(s), Some(t)) = (a.get(i..ei), b.get(j..ej)) else {
                return false;
            };
            match (parse_f64(s), parse_f64(t)) {
                (Some(u), Some(v)) if u.to_bits() == v.to_bits() => {}
                _ => return false,
            }
            (i, j) = (ei, ej);
        } else {
            // Punctuation and the letters of true, false and null: byte for byte.
            if p != q {
                return false;
            }
            i += 1;
            j += 1;
        }
    }
}

fn skip_ws(b: &[u8], mut i: usize) -> usize {
    while matches!(b.get(i), Some(b' ' | b'\t' | b'\n' | b'\r')) {
        i += 1;
    }
    i
}

fn is_number_start(c: u8) -> bool {
    c == b'-' || c.is_ascii_digit()
}

fn number_end(b: &[u8], mut i: usize) -> usize {
    while matches!(b.get(i), Some(c) if c.is_ascii_digit() || matches!(c, b'-' | b'+' | b'.' | b'e' | b'E')) {
        i += 1;
    }
    i
}

/// The index just past the closing quote of the string opening at `i`.
fn string_end(b: &[u8], i: usize) -> Option<usize> {
    if b.get(i) != Some(&b'"') {
        return None;
    }
    let mut k = i + 1;
    loop {
        match b.get(k)? {
            b'"' => return Some(k + 1),
            b'\\' => k += 2,
            _ => k += 1,
        }
    }
}

/// The index just past the value starting at `i`.
fn value_end(b: &[u8], i: usize) -> Option<usize> {
    match b.get(i)? {
        b'"' => string_end(b, i),
        b'{' | b'[' => {
            let mut depth = 0usize;
            let mut k = i;
            loop {
                match b.get(k)? {
                    b'"' => {
                        k = string_end(b, k)?;
                        continue;
                    }
                    b'{' | b'[' => depth += 1,
                    b'}' | b']' => {
                        depth -= 1;
                        if depth == 0 {
                            return Some(k + 1);
                        }
                    }
                    _ => {}
                }
                k += 1;
            }
        }
        _ => {
            let mut k = i;
            while matches!(b.get(k), Some(c) if !matches!(c, b',' | b'}' | b']' | b' ' | b'\t' | b'\n' | b'\r')) {
                k += 1;
            }
            Some(k)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_compare_as_doubles_and_the_rest_byte_for_byte() {
        assert!(same(r#"{"a":[1,2.0,"x"]}"#, "{ \"a\" : [ 1.0 , 2, \"x\" ] }"));
        assert!(same("1763800000.0", "1763800000"));
        assert!(same("1e21", "1e+21"));
        // Integers past 2^53 read as the nearest double on both sides.
        assert!(same("9007199254740993", "9007199254740992"));
        assert!(!same("0", "-0"));
        assert!(!same("0.1", "0.2"));
        assert!(!same(r#"{"a":1,"b":2}"#, r#"{"b":2,"a":1}"#));
        assert!(
            !same(r#""é""#, r#""\u00e9""#),
            "differently escaped strings count as different"
        );
        assert!(!same(r#""a\"b""#, r#""a\"c""#));
        assert!(!same("[1,2]", "[1,2,3]"));
        assert!(!same("[1,2]", "[1,2] x"));
        assert!(!same("null", "nul"));
        assert!(!same(r#"{"a":"#, r#"{"a":1}"#));
        assert!(same("", "  "));
        assert!(!same("\"open", "\"open"));
    }

    #[test]
    fn finds_top_level_members_only() {
        let t =
            r#" { "x" : {"conversation": 1}, "s": "\"conversation\":", "conversation" : [ {"a": 1} ] , "z": null } "#;
        assert_eq!(member(t, "conversation"), Some(r#"[ {"a": 1} ]"#));
        assert_eq!(member(t, "z"), Some("null"));
        assert_eq!(member(t, "missing"), None);
        assert_eq!(member("[1]", "a"), None);
        assert_eq!(member(r#"{"a": [1, "]"}"#, "b"), None);
        assert_eq!(member(r#"{"a": [1, "]"]}"#, "a"), Some(r#"[1, "]"]"#));
        for broken in ["{", "{\"a\"", "{\"a\":", "{\"a\":[", "{\"a\":\"x", "{\"a\":1 \"b\":2}"] {
            assert_eq!(member(broken, "b"), None, "{broken}");
        }
    }
}

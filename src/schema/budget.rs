//! What parsing a JSON text will cost, checked before it is spent.
//!
//! A parsed JSON tree is many times larger than its text (measured in wasm: about 8x for a real
//! eval set, up to 80x for a long list of small numbers, because each value is a 48-byte node and
//! growing a list copies it). Past wasm's 4 GiB the allocator aborts, which traps the instance.
//! So every text the core parses from outside (eval sets, configs, results, judge and agent
//! replies) is first scanned once, its values counted, and rejected with `too_large` when the
//! estimated cost exceeds the limits below. The scan runs at memory speed, far faster than the
//! parse it guards.

use crate::error::{ErrorCode, EvalError, Result};
use std::cell::Cell;

/// The limits in force (per thread; wasm has one). Settable from JS with `setLimits`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Largest JSON text accepted at all, in bytes (UTF-8).
    pub max_text_bytes: u64,
    /// Largest estimated parse cost, in bytes of memory.
    pub max_parse_bytes: u64,
    /// Largest single answer from the host: a judge's reply body, an agent's reply, a custom
    /// metric's result.
    pub max_reply_bytes: u64,
    /// Longest identifier (`eval_set_id`, `eval_id`), in bytes: results repeat them in every
    /// case, so one long id in a small request would make a large answer.
    pub max_id_bytes: u64,
}

const MIB: u64 = 1024 * 1024;

/// wasm32's address space: no limit may promise more.
pub const ADDRESS_SPACE: u64 = 4096 * MIB;

/// `maxIdBytes` by default: four times a file name's 255 bytes (an eval set id names a file).
const DEFAULT_MAX_ID_BYTES: u64 = 1024;

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_text_bytes: 512 * MIB,
            max_parse_bytes: 2048 * MIB,
            max_reply_bytes: 32 * MIB,
            max_id_bytes: DEFAULT_MAX_ID_BYTES,
        }
    }
}

thread_local! {
    static LIMITS: Cell<Limits> = Cell::new(Limits::default());
}

pub fn limits() -> Limits {
    LIMITS.with(Cell::get)
}

/// Replaces the limits; each must be at least 1 KiB and at most the 4 GiB address space.
pub fn set_limits(l: Limits) -> Result<Limits> {
    for (name, v) in [
        ("maxTextBytes", l.max_text_bytes),
        ("maxParseBytes", l.max_parse_bytes),
        ("maxReplyBytes", l.max_reply_bytes),
        ("maxIdBytes", l.max_id_bytes),
    ] {
        if !(1024..=ADDRESS_SPACE).contains(&v) {
            return Err(EvalError::schema(
                format!("$.{name}"),
                format!("`{name}` must be between 1024 and {ADDRESS_SPACE} bytes (wasm's 4 GiB), found {v}"),
            ));
        }
    }
    LIMITS.with(|c| c.set(l));
    Ok(l)
}

/// Memory per JSON value, an upper bound measured on wasm32: the 48-byte node, its slot in a
/// list or map (maps also keep a hash index and the key), and the copy a growing list makes.
const PER_VALUE: u64 = 288;
/// Memory per byte of text: the text itself, string contents copied into the tree, and the
/// JSON written back out.
const PER_BYTE: u64 = 3;

/// serde_json's nesting limit: a parse stops with an error the moment it goes deeper.
const MAX_DEPTH: u32 = 128;

/// How many values the parser will build from a JSON text (each `[`, `{` and `,` outside
/// strings, plus one), and how many bytes it reads, found without parsing: up to the end, or up
/// to where the nesting passes serde_json's limit and the parse stops. Invalid JSON gets a count
/// too; the parser then says what is wrong.
pub fn scan(text: &[u8]) -> (u64, usize) {
    let mut n: u64 = 1;
    let mut depth: u32 = 0;
    let mut i = 0;
    while let Some(&b) = text.get(i) {
        match b {
            b'"' => i = string_end(text, i + 1),
            b'[' | b'{' => {
                n += 1;
                depth += 1;
                if depth > MAX_DEPTH {
                    return (n, i + 1);
                }
            }
            b']' | b'}' => depth = depth.saturating_sub(1),
            b',' => n += 1,
            _ => {}
        }
        i += 1;
    }
    (n, text.len())
}

/// Where the string whose contents start at `i` ends (the index of its closing quote, or the
/// text's length): eight bytes at a time while they hold neither a quote nor a backslash.
fn string_end(text: &[u8], mut i: usize) -> usize {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGHS: u64 = 0x8080_8080_8080_8080;
    let has = |w: u64, b: u8| {
        let v = w ^ (ONES * u64::from(b));
        v.wrapping_sub(ONES) & !v & HIGHS != 0
    };
    loop {
        // A fixed-size array reference: a plain 8-byte load (a `copy_from_slice` here stayed a
        // call per word in the size-optimised wasm build, most of this scan's time).
        if let Some((&word, _)) = text.get(i..).and_then(|rest| rest.split_first_chunk::<8>()) {
            let w = u64::from_le_bytes(word);
            if !has(w, b'"') && !has(w, b'\\') {
                i += 8;
                continue;
            }
        }
        match text.get(i) {
            None => return text.len(),
            Some(b'"') => return i,
            Some(b'\\') => i += 2,
            Some(_) => i += 1,
        }
    }
}

/// One plus the number of `[`, `{` and `,` bytes anywhere in `text` (inside strings too): at
/// least the count [`scan`] gives.
pub fn structural_bound(text: &[u8]) -> u64 {
    const LOWS: u64 = 0x7F7F_7F7F_7F7F_7F7F;
    // Bytes equal to zero, exactly: the high bit of each zero byte (no borrow between bytes).
    let zeros = |v: u64| !(((v & LOWS).wrapping_add(LOWS)) | v | LOWS);
    // `[` (0x5B) and `{` (0x7B) are the only bytes that become 0x7B with bit 0x20 set.
    let count = |w: u64| {
        let brackets = zeros((w | 0x2020_2020_2020_2020) ^ 0x7B7B_7B7B_7B7B_7B7B);
        let commas = zeros(w ^ 0x2C2C_2C2C_2C2C_2C2C);
        u64::from(brackets.count_ones() + commas.count_ones())
    };
    let mut n: u64 = 1;
    let mut rest = text;
    while let Some((&word, tail)) = rest.split_first_chunk::<8>() {
        n += count(u64::from_le_bytes(word));
        rest = tail;
    }
    n + rest.iter().filter(|&&b| matches!(b, b'[' | b'{' | b',')).count() as u64
}

/// How many values a JSON text holds (see [`scan`]).
pub fn count_values(text: &[u8]) -> u64 {
    scan(text).0
}

/// The estimated memory parsing `text` takes, in bytes.
pub fn parse_cost(text: &[u8]) -> u64 {
    let (values, read) = scan(text);
    cost(values, read)
}

fn cost(values: u64, read: usize) -> u64 {
    (read as u64)
        .saturating_mul(PER_BYTE)
        .saturating_add(values.saturating_mul(PER_VALUE))
}

fn human(bytes: u64) -> String {
    if bytes >= MIB {
        format!("{:.1} MiB", bytes as f64 / MIB as f64)
    } else {
        format!("{:.1} KiB", bytes as f64 / 1024.0)
    }
}

/// `Ok` when `text` may be parsed under the current limits; `too_large` otherwise, saying what
/// it would cost and which limit to raise. `what` names the input ("the eval set", ...).
pub fn check(text: &str, what: &str) -> Result<()> {
    check_all(&[text], what)
}

/// [`check`] for one input that arrives as several JSON texts (members of one argument object,
/// parsed one by one): their sizes and costs add up against the same limits.
pub fn check_all(texts: &[&str], what: &str) -> Result<()> {
    let l = limits();
    let len = texts.iter().map(|t| t.len() as u64).sum::<u64>();
    if len > l.max_text_bytes {
        return Err(EvalError::new(
            ErrorCode::TooLarge,
            "",
            format!(
                "{what} is {} of JSON, over the limit of {} (raise `maxTextBytes` with setLimits)",
                human(len),
                human(l.max_text_bytes)
            ),
        ));
    }
    let bytes = usize::try_from(len).unwrap_or(usize::MAX);
    // Every value the scan counts takes at least one byte of text (a `[`, `{` or `,`), plus the
    // first: when even that many values fit the limit, the scan cannot find too many.
    if cost(len.saturating_add(texts.len() as u64), bytes) <= l.max_parse_bytes {
        return Ok(());
    }
    // The scan counts the `[`, `{` and `,` outside strings; counting them everywhere, eight bytes
    // at a time without following strings, bounds that from above at a fraction of its cost.
    let bound = texts.iter().map(|t| structural_bound(t.as_bytes())).sum::<u64>();
    if cost(bound, bytes) <= l.max_parse_bytes {
        return Ok(());
    }
    let (mut values, mut read) = (0u64, 0usize);
    for t in texts {
        let (v, r) = scan(t.as_bytes());
        values += v;
        read += r;
    }
    let cost = cost(values, read);
    if cost > l.max_parse_bytes {
        return Err(EvalError::new(
            ErrorCode::TooLarge,
            "",
            format!(
                "{what} ({} of JSON, {} values) would take about {} of memory to parse, over the limit of {} \
                 (raise `maxParseBytes` with setLimits, or split the input)",
                human(len),
                values,
                human(cost),
                human(l.max_parse_bytes)
            ),
        ));
    }
    Ok(())
}

/// `too_large` at `path()` when the identifier `id` (`what`: "eval_set_id") is longer than
/// `maxIdBytes` (results repeat ids in every case: a long one would make a large answer).
pub fn check_id(id: &str, what: &str, path: &dyn Fn() -> String) -> Result<()> {
    let max = limits().max_id_bytes;
    if id.len() as u64 <= max {
        return Ok(());
    }
    Err(EvalError::new(
        ErrorCode::TooLarge,
        path(),
        format!(
            "{what} is {} bytes, over `maxIdBytes` ({max}; setLimits raises it)",
            id.len()
        ),
    ))
}

/// Like [`check`] for an answer from the host, which must also fit `max_reply_bytes`.
pub fn check_reply(text: &str, what: &str) -> std::result::Result<(), String> {
    let max = limits().max_reply_bytes;
    if text.len() as u64 > max {
        return Err(format!(
            "{what} is too large: {}, over the limit of {} (raise `maxReplyBytes` with setLimits)",
            human(text.len() as u64),
            human(max)
        ));
    }
    check(text, what).map_err(|e| e.message)
}

/// Whether an answer of `utf16_len` UTF-16 code units (the reply in a small envelope) can be
/// under `max_reply_bytes` as UTF-8 (never fewer bytes than code units), so a host can refuse a
/// huge answer before copying it into the core.
pub fn reply_may_fit(utf16_len: u64) -> bool {
    utf16_len <= limits().max_reply_bytes.saturating_add(4096)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The byte-at-a-time scan the fast one must equal.
    fn reference_scan(text: &[u8]) -> (u64, usize) {
        let (mut n, mut depth, mut in_string, mut escaped) = (1u64, 0u32, false, false);
        for (i, &b) in text.iter().enumerate() {
            if in_string {
                if escaped {
                    escaped = false;
                } else if b == b'\\' {
                    escaped = true;
                } else if b == b'"' {
                    in_string = false;
                }
            } else {
                match b {
                    b'"' => in_string = true,
                    b'[' | b'{' => {
                        n += 1;
                        depth += 1;
                        if depth > MAX_DEPTH {
                            return (n, i + 1);
                        }
                    }
                    b']' | b'}' => depth = depth.saturating_sub(1),
                    b',' => n += 1,
                    _ => {}
                }
            }
        }
        (n, text.len())
    }

    #[test]
    fn fast_scan_equals_the_byte_scan() {
        let pieces: [&[u8]; 14] = [
            b"\"",
            b"\\",
            b"\\\"",
            b",",
            b"[",
            b"]",
            b"{",
            b"}",
            b"abcdefgh",
            b"a",
            b"\\u00e9",
            "é,\"".as_bytes(),
            b"\"\\\"x\"",
            b"[[[[[[[[",
        ];
        // Every text of up to four pieces, at every offset of a 0-7 byte prefix (so quotes and
        // backslashes fall on every position of an 8-byte word).
        let mut seen = 0;
        for a in pieces {
            for b in pieces {
                for c in pieces {
                    for d in pieces {
                        for pad in 0..8 {
                            let mut t = b"xxxxxxx"[..pad].to_vec();
                            for p in [a, b, c, d] {
                                t.extend_from_slice(p);
                            }
                            assert_eq!(scan(&t), reference_scan(&t), "{:?}", String::from_utf8_lossy(&t));
                            seen += 1;
                        }
                    }
                }
            }
        }
        assert!(seen > 300_000);
        let deep = "[".repeat(200);
        assert_eq!(scan(deep.as_bytes()), reference_scan(deep.as_bytes()));
    }

    #[test]
    fn the_structural_bound_counts_every_bracket_and_comma_and_bounds_the_scan() {
        let pieces: [&[u8]; 12] = [
            b",",
            b"[",
            b"{",
            b"\"",
            b"]",
            b"}",
            b"a",
            b"\\",
            b";",
            b"K",
            b"\xfb",
            "é".as_bytes(),
        ];
        let mut seen = 0;
        for a in pieces {
            for b in pieces {
                for c in pieces {
                    for pad in 0..9 {
                        // Every byte value next to the ones counted, on every position of a word.
                        for filler in [0u8, b'[' ^ 0x20, b',' ^ 0x80, 0x7F, 0xFF, b'+', b'-', 0x1B] {
                            let mut t = vec![filler; pad];
                            for p in [a, b, c] {
                                t.extend_from_slice(p);
                            }
                            let exact = 1 + t.iter().filter(|&&x| matches!(x, b'[' | b'{' | b',')).count() as u64;
                            assert_eq!(structural_bound(&t), exact, "{t:?}");
                            assert!(structural_bound(&t) >= scan(&t).0, "{t:?}");
                            seen += 1;
                        }
                    }
                }
            }
        }
        assert!(seen > 100_000);
        let all: Vec<u8> = (0..=255u8).cycle().take(4096).collect();
        assert_eq!(structural_bound(&all), 1 + 3 * 16);
    }

    #[test]
    fn the_worst_case_bound_is_never_below_the_scan() {
        for text in [
            &b"[[[[[[]]]]]]"[..],
            b"[,,,,,,]",
            b"{}",
            b"1",
            b"",
            b"[1,{\"a\":[]},\"x,[\"]",
        ] {
            let len = text.len() as u64;
            assert!(
                parse_cost(text) <= cost(len + 1, text.len()),
                "{:?}",
                String::from_utf8_lossy(text)
            );
        }
    }

    #[test]
    fn counts_values_outside_strings() {
        assert_eq!(count_values(b"1"), 1);
        assert_eq!(count_values(b"[1,2,3]"), 4);
        assert_eq!(count_values(br#"{"a,[{": [1, {"b": "x\",y"}]}"#), 5);
        assert_eq!(count_values(br#""\\",[""#), 3);
        // Past serde_json's nesting limit the parse stops: what follows costs nothing.
        let deep = format!("{}{}", "[".repeat(200), "0,".repeat(10_000));
        assert_eq!(scan(deep.as_bytes()), (130, 129));
        assert!(parse_cost(deep.as_bytes()) < 64 * 1024);
    }

    #[test]
    fn rejects_what_would_not_fit_and_names_the_limit() {
        let l = Limits {
            max_text_bytes: 4096,
            max_parse_bytes: 64 * 1024,
            max_reply_bytes: 2048,
            max_id_bytes: 1024,
        };
        // Each thread has its own limits, so this test does not disturb the others.
        set_limits(l).unwrap();
        assert!(check("[1,2,3]", "x").is_ok());
        let many = format!("[{}0]", "0,".repeat(1000));
        let e = check(&many, "the eval set").unwrap_err();
        assert_eq!(e.code, ErrorCode::TooLarge);
        assert!(e.message.contains("maxParseBytes"), "{}", e.message);
        let long = format!("\"{}\"", "a".repeat(5000));
        assert!(check(&long, "x").unwrap_err().message.contains("maxTextBytes"));
        let reply = format!("\"{}\"", "a".repeat(3000));
        assert!(check_reply(&reply, "the judge's reply")
            .unwrap_err()
            .contains("maxReplyBytes"));
        assert!(set_limits(Limits {
            max_parse_bytes: 8 * ADDRESS_SPACE,
            ..l
        })
        .is_err());
        assert!(check_id(&"i".repeat(1024), "eval_id", &|| "$.x".into()).is_ok());
        let e = check_id(&"i".repeat(1025), "eval_id", &|| "$.eval_cases[0].eval_id".into()).unwrap_err();
        assert_eq!(
            (e.code, e.path.as_str()),
            (ErrorCode::TooLarge, "$.eval_cases[0].eval_id")
        );
        assert!(
            e.message.contains("1025 bytes") && e.message.contains("maxIdBytes"),
            "{}",
            e.message
        );
        assert!(set_limits(Limits { max_id_bytes: 8, ..l }).is_err());
        set_limits(Limits::default()).unwrap();
    }
}

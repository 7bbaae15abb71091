//! Small rules on JSON values and key names that ADK's readers share: a value's kind for
//! messages, a key as a path segment, pydantic's lax coercions, the nearest known name (for
//! "did you mean"), snake and camel spellings, and Python's `round(x, 3)`. A leaf: it knows no
//! ADK type.

use serde_json::Value;

/// `$.criteria.name` for identifier-like keys, `$.criteria["odd key"]` otherwise.
pub fn key_path(name: &str) -> String {
    if !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
        format!(".{name}")
    } else {
        format!("[{}]", Value::String(name.to_string()))
    }
}

/// An object's entries in key order (code point order, as Python's `sort_keys`). Every sorted
/// walk of an object goes through this one function, so the module carries one sort for them.
pub fn sorted_entries(m: &serde_json::Map<String, Value>) -> Vec<(&String, &Value)> {
    let mut entries: Vec<(&String, &Value)> = m.iter().collect();
    // A JSON object's keys are unique, so the order is total and stability does not matter.
    entries.sort_unstable_by(|a, b| a.0.cmp(b.0));
    entries
}

/// `s.parse::<f64>().ok()`: Rust's float syntax exactly (a sign, `1.`, `.5`, `1e5`, `inf`,
/// `infinity` and `nan` in any case; no whitespace or `_`), the digits read by serde_json's
/// correctly rounded parser, which every JSON text links anyway. core's own float parser (its
/// table of powers of five and its code, ~16 KB) then stays out of the wasm module.
pub fn parse_f64(s: &str) -> Option<f64> {
    let (negative, body) = match s.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, s.strip_prefix('+').unwrap_or(s)),
    };
    let signed = |x: f64| if negative { -x } else { x };
    if body.eq_ignore_ascii_case("inf") || body.eq_ignore_ascii_case("infinity") {
        return Some(signed(f64::INFINITY));
    }
    if body.eq_ignore_ascii_case("nan") {
        return Some(signed(f64::NAN));
    }
    let (int, rest) = body.split_at(digits_len(body));
    let (frac, rest) = match rest.strip_prefix('.') {
        Some(r) => r.split_at(digits_len(r)),
        None => ("", rest),
    };
    if int.is_empty() && frac.is_empty() {
        return None;
    }
    let exp = match rest.strip_prefix(['e', 'E']) {
        None if rest.is_empty() => "",
        None => return None,
        Some(e) => {
            let digits = e.strip_prefix(['+', '-']).unwrap_or(e);
            if digits.is_empty() || digits_len(digits) != digits.len() {
                return None;
            }
            e
        }
    };
    // The same number as JSON text: no `+`, no leading zeros, a digit before any point.
    let mut json = String::with_capacity(s.len() + 2);
    if negative {
        json.push('-');
    }
    let int = int.trim_start_matches('0');
    json.push_str(if int.is_empty() { "0" } else { int });
    if !frac.is_empty() {
        json.push('.');
        json.push_str(frac);
    }
    if !exp.is_empty() {
        json.push('e');
        json.push_str(exp);
    }
    // serde_json refuses only a magnitude past f64's range, where Rust's parse gives infinity.
    Some(serde_json::from_str::<f64>(&json).unwrap_or_else(|_| signed(f64::INFINITY)))
}

fn digits_len(s: &str) -> usize {
    s.bytes().take_while(u8::is_ascii_digit).count()
}

/// A value's kind as a message names it (`a string`, `an object`, `null`).
pub fn kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// pydantic's lax float: numbers, booleans, and numeric strings (surrounding whitespace ignored).
pub fn lax_float(v: &Value) -> Option<f64> {
    match v {
        Value::Number(n) => n.as_f64(),
        Value::Bool(b) => Some(if *b { 1.0 } else { 0.0 }),
        Value::String(s) => parse_float_text(s),
        _ => None,
    }
}

/// A numeric string as pydantic reads it: surrounding whitespace ignored, `_` allowed between
/// digits (`"1_000"`), `inf` / `nan` in any case.
fn parse_float_text(s: &str) -> Option<f64> {
    let t = s.trim();
    if !t.contains('_') {
        return parse_f64(t);
    }
    let b = t.as_bytes();
    let ok = b.iter().enumerate().all(|(i, &c)| {
        c != b'_'
            || (i > 0 && b.get(i - 1).is_some_and(u8::is_ascii_digit) && b.get(i + 1).is_some_and(u8::is_ascii_digit))
    });
    if !ok {
        return None;
    }
    parse_f64(&t.replace('_', ""))
}

/// pydantic's lax bool: booleans, 0/1, and the usual words.
pub fn lax_bool(v: &Value) -> Option<bool> {
    match v {
        Value::Bool(b) => Some(*b),
        Value::Number(n) => {
            let x = n.as_f64();
            if x == Some(0.0) {
                Some(false)
            } else if x == Some(1.0) {
                Some(true)
            } else {
                None
            }
        }
        // No trimming: pydantic rejects " true ".
        Value::String(s) => match s.to_ascii_lowercase().as_str() {
            "0" | "off" | "f" | "false" | "n" | "no" => Some(false),
            "1" | "on" | "t" | "true" | "y" | "yes" => Some(true),
            _ => None,
        },
        _ => None,
    }
}

/// pydantic's lax int (ints, integral floats, numeric strings, booleans).
pub fn lax_int(v: &Value) -> Option<i64> {
    match v {
        Value::Number(n) => n.as_i64().or_else(|| {
            n.as_f64()
                .filter(|f| f.fract() == 0.0 && f.abs() < 9.0e15)
                .map(|f| f as i64)
        }),
        Value::Bool(b) => Some(i64::from(*b)),
        Value::String(s) => s.trim().parse::<i64>().ok(),
        _ => None,
    }
}

/// The candidate nearest to `word` by edit distance, when it is near enough to be a typo.
pub fn closest<'a>(word: &str, candidates: impl Iterator<Item = &'a str>) -> Option<&'a str> {
    let w = snake_of(word).to_lowercase();
    let len = w.chars().count();
    candidates
        // A length difference alone past the limit rules a candidate out without the distance.
        .filter(|c| len.abs_diff(c.len()) <= (c.len() / 3).max(2))
        .map(|c| (distance(&w, c), c))
        .filter(|(d, c)| *d > 0 && *d <= (c.len() / 3).max(2))
        .min_by_key(|(d, _)| *d)
        .map(|(_, c)| c)
}

/// Levenshtein distance over chars (short names only: callers pass keys and metric names).
fn distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().take(64).collect();
    let b: Vec<char> = b.chars().take(64).collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.iter().enumerate() {
        let mut cur = Vec::with_capacity(b.len() + 1);
        cur.push(i + 1);
        for (j, cb) in b.iter().enumerate() {
            let sub = prev.get(j).copied().unwrap_or(0) + usize::from(ca != cb);
            let del = prev.get(j + 1).copied().unwrap_or(0) + 1;
            let ins = cur.get(j).copied().unwrap_or(0) + 1;
            cur.push(sub.min(del).min(ins));
        }
        prev = cur;
    }
    prev.last().copied().unwrap_or(0)
}

/// A snake_case key in camelCase (`match_type` -> `matchType`): pydantic's alias spelling.
pub fn camel(snake: &str) -> String {
    let mut out = String::with_capacity(snake.len());
    let mut up = false;
    for ch in snake.chars() {
        if ch == '_' {
            up = true;
        } else if up {
            out.extend(ch.to_uppercase());
            up = false;
        } else {
            out.push(ch);
        }
    }
    out
}

/// A camelCase key in snake_case (`matchType` -> `match_type`).
pub fn snake_of(key: &str) -> String {
    let mut out = String::with_capacity(key.len() + 4);
    for ch in key.chars() {
        if ch.is_ascii_uppercase() {
            out.push('_');
            out.push(ch.to_ascii_lowercase());
        } else {
            out.push(ch);
        }
    }
    out
}

/// Python's `round(x, 3)`: the double nearest the correctly rounded 3-decimal value (ties to even
/// on the exact binary value). Scaling by 1000 is exact enough except within a hair of a tie,
/// where the decimal formatter (exact) decides.
pub fn round3(x: f64) -> f64 {
    let scaled = x * 1000.0;
    let frac = scaled - scaled.floor();
    if !scaled.is_finite() || scaled.abs() > 1e15 || (frac - 0.5).abs() < 1e-6 {
        return parse_f64(&format!("{x:.3}")).unwrap_or(x);
    }
    scaled.round() / 1000.0
}

#[cfg(test)]
mod tests {
    use super::parse_f64;

    fn same(s: &str) {
        let ours = parse_f64(s);
        let rust = s.parse::<f64>().ok();
        let agree = match (ours, rust) {
            (Some(a), Some(b)) => {
                a.to_bits() == b.to_bits() || (a.is_nan() && b.is_nan() && a.is_sign_negative() == b.is_sign_negative())
            }
            (None, None) => true,
            _ => false,
        };
        assert!(agree, "{s:?}: parse_f64 {ours:?}, str::parse {rust:?}");
    }

    struct Rng(u64);
    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0
        }
    }

    /// core's float parser stays out of the wasm module: `parse_f64` must read every string as it does.
    #[test]
    fn parse_f64_reads_as_rusts_float_parser() {
        for s in [
            "",
            "+",
            "-",
            ".",
            "-.",
            "e",
            "e5",
            ".e5",
            "1e",
            "1e+",
            "1e-",
            "1.",
            "-1.",
            ".5",
            "+.5",
            "-.5",
            "1.e5",
            "1.5E-3",
            "0",
            "-0",
            "+0",
            "-0.0",
            "-0e5",
            "0e999999999999999999999",
            "-0e-99999999999999",
            "007",
            "-007.50",
            "00.000",
            "1e400",
            "-1e400",
            "1e-400",
            "-1e-400",
            "1e99999999999999999999",
            "1e-99999999999999999999",
            "1.7976931348623157e308",
            "1.7976931348623158e308",
            "1.7976931348623159e308",
            "2.4703282292062327e-324",
            "2.4703282292062328e-324",
            "4.9406564584124654e-324",
            "2.2250738585072011e-308",
            "9007199254740993",
            "18446744073709551615",
            "18446744073709551616",
            "-9223372036854775808",
            "-9223372036854775809",
            "inf",
            "-inf",
            "+inf",
            "Inf",
            "INFINITY",
            "-Infinity",
            "infinit",
            "nan",
            "-nan",
            "NaN",
            "+NAN",
            "nana",
            " 1",
            "1 ",
            "1_000",
            "1,5",
            "0x10",
            "1e5.5",
            "1..2",
            "--1",
            "+-1",
            "1e+-5",
            "١",
        ] {
            same(s);
        }
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
        let alphabet = b"0123456789.eE+-0000099999";
        for _ in 0..20_000 {
            let len = (rng.next() % 24) as usize;
            let s: String = (0..len)
                .map(|_| {
                    char::from(
                        *alphabet
                            .get((rng.next() % alphabet.len() as u64) as usize)
                            .unwrap_or(&b'0'),
                    )
                })
                .collect();
            same(&s);
        }
        for _ in 0..10_000 {
            let x = f64::from_bits(rng.next());
            let p = (rng.next() % 40) as usize;
            for s in [
                format!("{x}"),
                format!("{x:e}"),
                format!("{x:?}"),
                format!("{x:.p$e}"),
                format!("{x:.p$}"),
            ] {
                same(&s);
            }
            let digits: String = (0..(17 + rng.next() % 30))
                .map(|_| char::from(b'0' + (rng.next() % 10) as u8))
                .collect();
            let exp = (rng.next() % 700) as i64 - 350;
            same(&format!("{digits}e{exp}"));
            same(&format!("0.{digits}e{exp}"));
        }
        // Long texts: exactly halfway between two doubles, and a hair either side.
        let half = format!("{:.1100}", 2.0f64.powi(-1074) * 1.5);
        same(&half);
        same(&format!("{half}1"));
        same(&format!("1{}", "0".repeat(400)));
        same(&format!("0.{}1", "0".repeat(330)));
    }
}

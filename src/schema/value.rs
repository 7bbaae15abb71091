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
        return t.parse().ok();
    }
    let b = t.as_bytes();
    let ok = b.iter().enumerate().all(|(i, &c)| {
        c != b'_'
            || (i > 0 && b.get(i - 1).is_some_and(u8::is_ascii_digit) && b.get(i + 1).is_some_and(u8::is_ascii_digit))
    });
    if !ok {
        return None;
    }
    t.replace('_', "").parse().ok()
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
        return format!("{x:.3}").parse().unwrap_or(x);
    }
    scaled.round() / 1000.0
}

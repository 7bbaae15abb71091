//! Python's text forms of values as ADK's console prints them: `repr()` of floats, strings and
//! decoded JSON, and the `:g` / `:.2f` format specs.

use serde_json::Value;
use unicode_general_category::{get_general_category, GeneralCategory};

/// Sign, significant digits and decimal exponent of a float's shortest round-trip form
/// (`1.25e-3` -> `("", "125", -3)`). Rust's `{:e}` finds the shortest length; when two strings
/// of that length round-trip and tie, Python takes the correctly rounded (ties-to-even) one,
/// which Rust's exact formatting to the same length gives.
fn shortest_digits(x: f64) -> (&'static str, String, i32) {
    let shortest = format!("{:e}", x);
    let (_, digits, _) = split_exp(&shortest);
    let rounded = format!("{:.*e}", digits.len().saturating_sub(1), x);
    if crate::schema::value::parse_f64(&rounded) == Some(x) {
        split_exp(&rounded)
    } else {
        split_exp(&shortest)
    }
}

/// Splits Rust's `LowerExp` output (`-1.2345e6`) into sign, digits and exponent.
fn split_exp(s: &str) -> (&'static str, String, i32) {
    let (sign, body) = match s.strip_prefix('-') {
        Some(rest) => ("-", rest),
        None => ("", s),
    };
    let (mantissa, exp) = body.split_once('e').unwrap_or((body, "0"));
    let digits: String = mantissa.chars().filter(char::is_ascii_digit).collect();
    (sign, digits, exp.parse().unwrap_or(0))
}

/// `digits` (no point, first digit non-zero) scaled so the first digit has weight 10^exp,
/// written in fixed notation; an integral value gets `.0` when `keep_point_zero`.
fn fixed(digits: &str, exp: i32, keep_point_zero: bool) -> String {
    if exp < 0 {
        let zeros = "0".repeat(exp.unsigned_abs().saturating_sub(1) as usize);
        return format!("0.{zeros}{digits}");
    }
    let int_len = exp as usize + 1;
    if digits.len() <= int_len {
        let pad = "0".repeat(int_len - digits.len());
        if keep_point_zero {
            format!("{digits}{pad}.0")
        } else {
            format!("{digits}{pad}")
        }
    } else {
        let (int, frac) = digits.split_at(int_len);
        format!("{int}.{frac}")
    }
}

/// Python's exponent suffix: sign always, at least two digits (`e+16`, `e-05`).
fn exp_suffix(exp: i32) -> String {
    let sign = if exp < 0 { '-' } else { '+' };
    format!("e{sign}{:02}", exp.unsigned_abs())
}

/// `digits` in scientific notation (`1.5e+16`, `1e-05`).
fn scientific(digits: &str, exp: i32) -> String {
    let mut chars = digits.chars();
    let first = chars.next().unwrap_or('0');
    let rest: String = chars.collect();
    let point = if rest.is_empty() {
        String::new()
    } else {
        format!(".{rest}")
    };
    format!("{first}{point}{}", exp_suffix(exp))
}

/// Non-finite floats as Python writes them, for every format.
fn non_finite(x: f64) -> Option<String> {
    if x.is_nan() {
        Some("nan".to_string())
    } else if x.is_infinite() {
        Some(if x > 0.0 { "inf" } else { "-inf" }.to_string())
    } else {
        None
    }
}

/// `repr(x)` for a Python float: shortest round-trip digits, scientific below 1e-4 and from 1e16.
pub fn float_repr(x: f64) -> String {
    if let Some(s) = non_finite(x) {
        return s;
    }
    if x == 0.0 {
        return if x.is_sign_negative() { "-0.0" } else { "0.0" }.to_string();
    }
    let (sign, digits, exp) = shortest_digits(x);
    if (-4..16).contains(&exp) {
        format!("{sign}{}", fixed(&digits, exp, true))
    } else {
        format!("{sign}{}", scientific(&digits, exp))
    }
}

/// A float as pydantic's JSON writes it: shortest round-trip digits, `1.0` for whole numbers,
/// scientific below 1e-5 and from 1e16 without exponent padding (`1e-6`, `1e+16`); JSON has no
/// non-finite numbers, so those are `null`.
pub fn pydantic_float(x: f64) -> String {
    if !x.is_finite() {
        return "null".to_string();
    }
    if x == 0.0 {
        return if x.is_sign_negative() { "-0.0" } else { "0.0" }.to_string();
    }
    let (sign, digits, exp) = shortest_digits(x);
    if (-5..16).contains(&exp) {
        return format!("{sign}{}", fixed(&digits, exp, true));
    }
    let (first, rest) = digits.split_at(digits.len().min(1));
    let point = if rest.is_empty() {
        String::new()
    } else {
        format!(".{rest}")
    };
    let exp_sign = if exp < 0 { '-' } else { '+' };
    format!("{sign}{first}{point}e{exp_sign}{}", exp.unsigned_abs())
}

/// Python's `json.dumps(value, sort_keys=True)`: `", "` and `": "` separators, ASCII only
/// (`\uXXXX`, surrogate pairs above the BMP), keys in code point order. JSON text cannot tell
/// `1` from `1.0` once a JS host has written it, so a whole number is written as Python's int.
pub fn json_dumps_sorted(v: &Value) -> String {
    let mut out = String::new();
    dumps_into(v, &mut out);
    out
}

fn dumps_into(v: &Value, out: &mut String) {
    match v {
        Value::Null => out.push_str("null"),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Number(n) => match n.as_f64() {
            Some(x) if n.is_f64() => {
                let whole = x.fract() == 0.0 && x.abs() < 9.0e18 && !(x == 0.0 && x.is_sign_negative());
                out.push_str(&if whole { format!("{}", x as i64) } else { float_repr(x) })
            }
            _ => out.push_str(&n.to_string()),
        },
        Value::String(s) => ascii_str(s, out),
        Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                dumps_into(item, out);
            }
            out.push(']');
        }
        Value::Object(map) => {
            out.push('{');
            for (i, (k, x)) in crate::schema::value::sorted_entries(map).into_iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                ascii_str(k, out);
                out.push_str(": ");
                dumps_into(x, out);
            }
            out.push('}');
        }
    }
}

fn ascii_str(s: &str, out: &mut String) {
    out.push('"');
    for c in s.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '"' => out.push_str("\\\""),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            ' '..='~' => out.push(c),
            c => {
                let mut units = [0u16; 2];
                for u in c.encode_utf16(&mut units) {
                    out.push_str(&format!("\\u{:04x}", u));
                }
            }
        }
    }
    out.push('"');
}

/// `format(x, "g")`: six significant digits, trailing zeros dropped, scientific below 1e-4
/// and from 1e6.
pub fn format_g(x: f64) -> String {
    if let Some(s) = non_finite(x) {
        return s;
    }
    if x == 0.0 {
        return if x.is_sign_negative() { "-0" } else { "0" }.to_string();
    }
    // Rust rounds exactly (ties to even on the exact binary value), as Python does.
    let (sign, digits, exp) = split_exp(&format!("{:.5e}", x));
    let digits = digits.trim_end_matches('0');
    let digits = if digits.is_empty() { "0" } else { digits };
    if (-4..6).contains(&exp) {
        format!("{sign}{}", fixed(digits, exp, false))
    } else {
        format!("{sign}{}", scientific(digits, exp))
    }
}

/// `format(x, ".2f")`.
pub fn format_2f(x: f64) -> String {
    non_finite(x).unwrap_or_else(|| format!("{:.2}", x))
}

/// Python's `str.isprintable()` for one character (Unicode tables of this crate's version).
fn is_printable(c: char) -> bool {
    if c == ' ' {
        return true;
    }
    !matches!(
        get_general_category(c),
        GeneralCategory::Control
            | GeneralCategory::Format
            | GeneralCategory::Surrogate
            | GeneralCategory::PrivateUse
            | GeneralCategory::Unassigned
            | GeneralCategory::LineSeparator
            | GeneralCategory::ParagraphSeparator
            | GeneralCategory::SpaceSeparator
    )
}

/// `repr(s)` for a Python str: single quotes unless only `'` occurs, Python's escapes.
pub fn str_repr(s: &str) -> String {
    let quote = if s.contains('\'') && !s.contains('"') {
        '"'
    } else {
        '\''
    };
    let mut out = String::with_capacity(s.len() + 2);
    out.push(quote);
    for c in s.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\t' => out.push_str("\\t"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            c if c == quote => {
                out.push('\\');
                out.push(c);
            }
            c if (c as u32) < 0x20 || c as u32 == 0x7f => out.push_str(&format!("\\x{:02x}", c as u32)),
            c if (c as u32) < 0x7f || is_printable(c) => out.push(c),
            c if (c as u32) <= 0xff => out.push_str(&format!("\\x{:02x}", c as u32)),
            c if (c as u32) <= 0xffff => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push_str(&format!("\\U{:08x}", c as u32)),
        }
    }
    out.push(quote);
    out
}

/// `repr()` of the Python value `json.loads` would give: `'str'`, `True`, `None`, `1`, `1.0`,
/// `[1, 2]`, `{'k': 'v'}`.
pub fn value_repr(v: &Value) -> String {
    match v {
        Value::Null => "None".to_string(),
        Value::Bool(true) => "True".to_string(),
        Value::Bool(false) => "False".to_string(),
        Value::Number(n) => {
            if n.is_f64() {
                float_repr(n.as_f64().unwrap_or(f64::NAN))
            } else {
                n.to_string()
            }
        }
        Value::String(s) => str_repr(s),
        Value::Array(items) => {
            let parts: Vec<String> = items.iter().map(value_repr).collect();
            format!("[{}]", parts.join(", "))
        }
        Value::Object(map) => {
            let parts: Vec<String> = map
                .iter()
                .map(|(k, v)| format!("{}: {}", str_repr(k), value_repr(v)))
                .collect();
            format!("{{{}}}", parts.join(", "))
        }
    }
}

/// `str(x)` of an `Optional[float]` field: `float_repr` or `None`.
pub fn opt_float_repr(v: Option<f64>) -> String {
    v.map_or_else(|| "None".to_string(), float_repr)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn float_repr_matches_python() {
        let cases = [
            (1.0, "1.0"),
            (0.5, "0.5"),
            (2.0 / 3.0, "0.6666666666666666"),
            (0.1 + 0.2, "0.30000000000000004"),
            (1e-9, "1e-09"),
            (1e16, "1e+16"),
            (1.5e16, "1.5e+16"),
            (1e15, "1000000000000000.0"),
            (0.0001, "0.0001"),
            (0.00012, "0.00012"),
            (1.2e-5, "1.2e-05"),
            (123456.0, "123456.0"),
            (-2.5, "-2.5"),
            (0.0, "0.0"),
            (-0.0, "-0.0"),
            (1e300, "1e+300"),
            (5e-324, "5e-324"),
            (f64::INFINITY, "inf"),
            (f64::NAN, "nan"),
            (0.9446319045923367, "0.9446319045923367"),
        ];
        for (x, want) in cases {
            assert_eq!(float_repr(x), want, "repr({x:e})");
        }
    }

    #[test]
    fn pydantic_float_matches_pydantic() {
        let cases = [
            (1.0, "1.0"),
            (0.5, "0.5"),
            (1e-5, "0.00001"),
            (1e-6, "1e-6"),
            (1.5e-6, "1.5e-6"),
            (1e-7, "1e-7"),
            (1e15, "1000000000000000.0"),
            (1e16, "1e+16"),
            (2.5e17, "2.5e+17"),
            (-0.0, "-0.0"),
            (f64::NAN, "null"),
            (f64::INFINITY, "null"),
            (1763800003.1234567, "1763800003.1234567"),
            (443.0, "443.0"),
        ];
        for (x, want) in cases {
            assert_eq!(pydantic_float(x), want, "{x:e}");
        }
    }

    #[test]
    fn json_dumps_sorted_matches_python() {
        let v = json!({"b": [1, 2.5, null, true], "a": "é\u{1F600}\n\"x\"", "c": {"z": 1e-5, "y": 6.0}});
        assert_eq!(
            json_dumps_sorted(&v),
            r#"{"a": "\u00e9\ud83d\ude00\n\"x\"", "b": [1, 2.5, null, true], "c": {"y": 6, "z": 1e-05}}"#
        );
    }

    #[test]
    fn format_g_matches_python() {
        let cases = [
            (240.0, "240"),
            (0.0, "0"),
            (1234565.0, "1.23456e+06"),
            (1234575.0, "1.23458e+06"),
            (999999.5, "1e+06"),
            (999999.0, "999999"),
            (0.0001234565, "0.000123457"),
            (0.00001, "1e-05"),
            (0.12, "0.12"),
            (1.5, "1.5"),
            (100000.0, "100000"),
            (-3.25, "-3.25"),
            (2.0 / 3.0, "0.666667"),
        ];
        for (x, want) in cases {
            assert_eq!(format_g(x), want, "format({x:e}, 'g')");
        }
        assert_eq!(format_2f(0.125), "0.12");
        assert_eq!(format_2f(1.005), "1.00");
        assert_eq!(format_2f(2.0), "2.00");
    }

    #[test]
    fn str_repr_matches_python() {
        assert_eq!(str_repr("Paris"), "'Paris'");
        assert_eq!(str_repr("it's"), "\"it's\"");
        assert_eq!(str_repr("it's \"x\""), "'it\\'s \"x\"'");
        assert_eq!(str_repr("a\\b\n\t\r"), "'a\\\\b\\n\\t\\r'");
        assert_eq!(str_repr("\u{7}\u{7f}\u{85}\u{a0}"), "'\\x07\\x7f\\x85\\xa0'");
        assert_eq!(str_repr("café 東京 ❤"), "'café 東京 ❤'");
        assert_eq!(str_repr("\u{200b}\u{2028}"), "'\\u200b\\u2028'");
        assert_eq!(str_repr("\u{e000}"), "'\\ue000'");
        assert_eq!(str_repr("\u{f0000}"), "'\\U000f0000'");
    }

    #[test]
    fn value_repr_matches_python() {
        let v = json!({"a": 1, "b": 1.0, "c": [true, false, null], "d": {"e": "x"}, "f": [], "g": {}});
        assert_eq!(
            value_repr(&v),
            "{'a': 1, 'b': 1.0, 'c': [True, False, None], 'd': {'e': 'x'}, 'f': [], 'g': {}}"
        );
        assert_eq!(value_repr(&json!(-7)), "-7");
        assert_eq!(value_repr(&json!(2.5e-7)), "2.5e-07");
    }

    #[test]
    fn optional_floats() {
        assert_eq!(opt_float_repr(None), "None");
        assert_eq!(opt_float_repr(Some(1.0)), "1.0");
        assert_eq!(opt_float_repr(Some(0.8)), "0.8");
    }
}

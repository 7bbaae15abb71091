//! Typed parsing whose errors name a JSON path without a path-tracking deserializer: serde_json
//! reports where in the text it stopped, and a small scanner turns that position into
//! `$.a[0].b`. One generic scanner instead of a path-tracking copy of every typed deserializer
//! keeps the wasm small.

use crate::error::{ErrorCode, EvalError, Result};
use serde::de::DeserializeOwned;

/// Deserializes `T` from JSON text; a schema error carries the JSON path of the offending value
/// (a missing field: the path of the field itself).
pub fn from_str<T: DeserializeOwned>(text: &str) -> Result<T> {
    super::budget::check(text, "the input")?;
    from_str_within_budget(text)
}

/// [`from_str`] for a text whose cost the caller has checked already (with others it arrived
/// with: [`super::budget::check_all`]).
pub fn from_str_within_budget<'a, T: serde::Deserialize<'a>>(text: &'a str) -> Result<T> {
    serde_json::from_str(text).map_err(|e| error_at(text, &e))
}

/// serde_json's error as an EvalError: `invalid_json` for text that is not JSON, else `schema`
/// with the path of the value being read where it stopped.
#[inline(never)]
fn error_at(text: &str, e: &serde_json::Error) -> EvalError {
    if !e.is_data() {
        return invalid_json(e);
    }
    let mut message = e.to_string();
    if let Some(at) = message.rfind(" at line ") {
        message.truncate(at);
    }
    let mut path = path_at(text, e.line(), e.column());
    let missing = message
        .strip_prefix("missing field `")
        .and_then(|rest| rest.split('`').next());
    if let Some(field) = missing {
        path = format!("{path}.{field}");
    }
    if let Some(hint) = unknown_field_hint(&message) {
        message.push_str(&hint);
    }
    EvalError::new(ErrorCode::Schema, path, message)
}

/// serde's "unknown field `conversations`, expected one of `eval_id`, `conversation`, ..." gets
/// the field that was probably meant: `; did you mean `conversation`?`.
fn unknown_field_hint(message: &str) -> Option<String> {
    let rest = message.strip_prefix("unknown field `")?;
    let (field, expected) = rest.split_once('`')?;
    let meant = super::value::closest(field, expected.split('`').skip(1).step_by(2))?;
    Some(format!("; did you mean `{meant}`?"))
}

/// Text that is not JSON: serde_json's reason and where it stopped, as a person finds it in an
/// editor (serde_json's own `at line 3 column 5`; columns count bytes).
#[inline(never)]
pub fn invalid_json(e: &serde_json::Error) -> EvalError {
    let mut message = e.to_string();
    if message.contains("recursion limit exceeded") {
        message.push_str(" (JSON nested more than 128 levels deep)");
    }
    EvalError::new(ErrorCode::InvalidJson, "", message)
}

/// One open container while scanning: an object and the key being read, or an array and the
/// index of the element being read.
enum Frame {
    Object(Option<String>),
    Array(usize),
}

/// The JSON path of the value being read at `line`/`column` (1-based, columns in bytes, as
/// serde_json counts them) of `text`.
pub fn path_at(text: &str, line: usize, column: usize) -> String {
    let mut start = 0;
    for _ in 1..line {
        match text.get(start..).and_then(|rest| rest.find('\n')) {
            Some(i) => start += i + 1,
            None => break,
        }
    }
    let end = (start + column).min(text.len());
    let bytes = text.as_bytes().get(..end).unwrap_or(text.as_bytes());
    let mut stack: Vec<Frame> = Vec::new();
    // In an object: whether the next string is a key (after `{` or `,`).
    let mut expect_key = false;
    let mut i = 0;
    while let Some(&b) = bytes.get(i) {
        match b {
            b'"' => {
                let from = i + 1;
                i += 1;
                while let Some(&c) = bytes.get(i) {
                    match c {
                        b'\\' => i += 2,
                        b'"' => break,
                        _ => i += 1,
                    }
                }
                if expect_key {
                    let raw = text.get(from..i.min(bytes.len())).unwrap_or("");
                    let key = serde_json::from_str::<String>(&format!("\"{raw}\"")).unwrap_or_else(|_| raw.to_string());
                    if let Some(Frame::Object(k)) = stack.last_mut() {
                        *k = Some(key);
                    }
                    expect_key = false;
                }
            }
            b'{' => {
                stack.push(Frame::Object(None));
                expect_key = true;
            }
            b'[' => stack.push(Frame::Array(0)),
            b'}' | b']' => {
                stack.pop();
            }
            b',' => match stack.last_mut() {
                Some(Frame::Array(n)) => *n += 1,
                Some(Frame::Object(_)) => expect_key = true,
                None => {}
            },
            _ => {}
        }
        i += 1;
    }
    let mut path = String::from("$");
    for f in &stack {
        match f {
            Frame::Object(Some(k)) => {
                path.push('.');
                path.push_str(k);
            }
            Frame::Object(None) => {}
            Frame::Array(n) => path.push_str(&format!("[{n}]")),
        }
    }
    path
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(serde::Deserialize, Debug)]
    #[allow(dead_code)]
    struct Inner {
        a: u8,
        b: String,
    }

    #[derive(serde::Deserialize, Debug)]
    #[allow(dead_code)]
    struct Outer {
        #[serde(default)]
        name: String,
        items: Vec<Inner>,
    }

    fn path_of(text: &str) -> (ErrorCode, String) {
        let e = from_str::<Outer>(text).unwrap_err();
        (e.code, e.path)
    }

    #[test]
    fn errors_name_the_offending_value() {
        assert_eq!(
            path_of(r#"{"items": [{"a": 1, "b": "x"}, {"a": 300, "b": "y"}]}"#).1,
            "$.items[1].a"
        );
        assert_eq!(
            path_of("{\"name\": \"a,b[{\\\"\",\n \"items\": [{\"a\": 1, \"b\": 2}]}").1,
            "$.items[0].b"
        );
        assert_eq!(path_of(r#"{"items": [{"a": 1}]}"#).1, "$.items[0].b");
        assert_eq!(path_of(r#"{"name": "x"}"#).1, "$.items");
        assert_eq!(path_of(r#"{"items": {}}"#).1, "$.items");
        assert_eq!(path_of(r#"{"items": [], "x": [1, {"y": 2}]"#).0, ErrorCode::InvalidJson);
        assert_eq!(path_of("[]"), (ErrorCode::Schema, "$".to_string()));
    }

    /// Issue 24: an unknown key of the eval set names the one that was probably meant.
    #[test]
    fn unknown_fields_get_a_did_you_mean() {
        let hint = |m: &str| unknown_field_hint(m);
        assert_eq!(
            hint("unknown field `conversations`, expected one of `eval_id`, `conversation`, `session_input`")
                .as_deref(),
            Some("; did you mean `conversation`?")
        );
        assert_eq!(
            hint("unknown field `evalid`, expected `eval_id` or `conversation`").as_deref(),
            Some("; did you mean `eval_id`?")
        );
        assert_eq!(
            hint("unknown field `zzzzzzzz`, expected `eval_id` or `conversation`"),
            None
        );
        assert_eq!(hint("missing field `eval_id`"), None);
    }
}

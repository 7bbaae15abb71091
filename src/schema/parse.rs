//! Parsing entry points: JSON text (or UTF-8 bytes) to typed values and to generic values, with
//! each error's JSON path from where the parser stopped ([`super::json_path`]) and the parse
//! budget checked first ([`super::budget`]).

use crate::error::{ErrorCode, EvalError, Result};
use serde::de::DeserializeOwned;
use serde_json::Value;

/// Input bytes as text; anything but UTF-8 is `invalid_json` (JSON text is UTF-8).
pub fn utf8(bytes: &[u8]) -> Result<&str> {
    std::str::from_utf8(bytes).map_err(|e| {
        EvalError::new(
            ErrorCode::InvalidJson,
            "",
            format!(
                "the input is not UTF-8 text (invalid byte sequence at byte {})",
                e.valid_up_to()
            ),
        )
    })
}

/// Deserializes `T` from JSON text; the error carries the JSON path of the offending value.
///
/// The path comes from where the parser stopped (see [`super::json_path`]): one typed parse,
/// and no path-tracking copy of every deserializer in the wasm binary.
/// A missing field is reported at the object that lacks it (`$.eval_cases[2]`), as eval set
/// errors always were.
pub fn from_str<T: DeserializeOwned>(text: &str) -> Result<T> {
    super::budget::check(text, "the input")?;
    from_str_within_budget(text)
}

/// [`from_str`] for a text whose cost the caller has checked already (with the other texts it
/// arrived with: [`super::budget::check_all`]).
pub fn from_str_within_budget<'a, T: serde::Deserialize<'a>>(text: &'a str) -> Result<T> {
    super::json_path::from_str_within_budget::<T>(text).map_err(|e| refine(text, e))
}

/// A typed parse's error, refined: out of line, so each typed parse does not carry a copy.
#[inline(never)]
fn refine(text: &str, e: EvalError) -> EvalError {
    if e.code != ErrorCode::Schema {
        return e;
    }
    // Text the generic parser cannot read either (nested past its depth limit) is not
    // JSON we accept, whatever the typed parse stumbled on first.
    if let Err(j) = serde_json::from_str::<Value>(text) {
        if !j.is_data() {
            return super::json_path::invalid_json(&j);
        }
    }
    at_object(e)
}

fn at_object(mut e: EvalError) -> EvalError {
    let missing = e
        .message
        .strip_prefix("missing field `")
        .and_then(|rest| rest.split('`').next())
        .map(|f| format!(".{f}"));
    if let Some(suffix) = missing {
        if let Some(stripped) = e.path.strip_suffix(&suffix) {
            e.path = stripped.to_string();
        }
    }
    e
}

/// Deserializes `T` from an already parsed value; `prefix` is the value's own path (e.g.
/// `$.eval_cases[3]`). Read through its text, so errors get their paths as in [`from_str`].
pub fn from_value<T: DeserializeOwned>(v: &Value, prefix: &str) -> Result<T> {
    from_str(&v.to_string()).map_err(|e| {
        if prefix.is_empty() || e.code != ErrorCode::Schema {
            e
        } else {
            EvalError {
                path: format!("{prefix}{}", e.path.trim_start_matches('$')),
                ..e
            }
        }
    })
}

/// Parses JSON text into a generic value (invalid JSON gives `invalid_json`).
pub fn parse_json(text: &str) -> Result<Value> {
    from_str::<Value>(text)
}

/// A typed value as a JSON tree, by way of its text: reuses the text serializer every result
/// already instantiates instead of a second (value) serializer per type, which keeps the wasm
/// small.
pub fn value_of<T: serde::Serialize + ?Sized>(x: &T) -> Value {
    serde_json::to_string(x)
        .ok()
        .and_then(|t| serde_json::from_str(&t).ok())
        .unwrap_or(Value::Null)
}

/// A JSON tree read as a typed value, by way of its text (see [`value_of`]).
pub fn parse_as<T: DeserializeOwned>(v: &Value) -> std::result::Result<T, String> {
    serde_json::from_str(&v.to_string()).map_err(|e| e.to_string())
}

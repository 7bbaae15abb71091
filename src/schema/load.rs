//! ADK's eval set reader: `loadEvalSet` and `validateEvalSet` (every problem with its path).

use super::eval_set::{EvalCase, EvalSet};
use super::iqai;
#[cfg(feature = "other-shapes")]
use super::legacy;
pub use super::legacy::LoadOptions;
pub use super::parse::{from_str, from_str_within_budget, from_value, parse_as, parse_json, utf8, value_of};
use crate::error::{ErrorCode, EvalError, Result};
use serde_json::Value;
use std::collections::HashMap;

fn first_char(text: &str) -> Option<char> {
    text.trim_start_matches(|c: char| c.is_ascii_whitespace() || c == '\u{feff}')
        .chars()
        .next()
}

/// `loadEvalSet`: the current schema, the legacy test-file list or the legacy named list.
pub fn load_eval_set(text: &str, opts: &LoadOptions) -> Result<EvalSet> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    match first_char(text) {
        Some('{') => {
            let set: EvalSet = match from_str(text) {
                Ok(set) => set,
                // The typed parse comes first: an ADK eval set pays nothing for the other shape.
                Err(e) if text.contains("\"evalSetId\"") || text.contains("\"evalCases\"") => {
                    let v = parse_json(text)?;
                    if !iqai::is_iqai(&v) {
                        return Err(camel_hint(e, text.contains("\"evalSetId\"")));
                    }
                    return iqai_set(&v);
                }
                Err(e) => return Err(e),
            };
            check_ids(&set)?;
            Ok(set)
        }
        Some('[') => {
            let v = parse_json(text)?;
            let set = legacy_set(&v, opts)?;
            check_ids(&set)?;
            Ok(set)
        }
        None => Err(EvalError::new(
            ErrorCode::InvalidJson,
            "",
            "the input is empty; expected an eval set JSON object",
        )),
        Some(_) => {
            // Not an object or array: let the JSON parser say what it is.
            let v = parse_json(text)?;
            Err(EvalError::schema(
                "$",
                format!(
                    "an eval set is a JSON object (`eval_set_id`, `eval_cases`) or a legacy list; found {}",
                    super::value::kind(&v)
                ),
            ))
        }
    }
}

/// Like `load_eval_set` on an already parsed value.
pub fn load_eval_set_value(v: &Value, opts: &LoadOptions) -> Result<EvalSet> {
    let set = match v {
        Value::Array(_) => legacy_set(v, opts)?,
        Value::Object(_) if iqai::is_iqai(v) => return iqai_set(v),
        Value::Object(_) => from_value(v, "")?,
        other => {
            return Err(EvalError::schema(
                "$",
                format!(
                    "an eval set is a JSON object or a legacy list; found {}",
                    super::value::kind(other)
                ),
            ))
        }
    };
    check_ids(&set)?;
    Ok(set)
}

/// A legacy list as an eval set.
#[cfg(feature = "other-shapes")]
fn legacy_set(v: &Value, opts: &LoadOptions) -> Result<EvalSet> {
    legacy::from_value(v, opts)
}

/// @iqai/adk's camelCase eval set as ADK's.
#[cfg(feature = "other-shapes")]
fn iqai_set(v: &Value) -> Result<EvalSet> {
    iqai::load(v, |c| {
        let set: EvalSet = from_value(c, "")?;
        check_ids(&set).map(|()| set)
    })
}

#[cfg(feature = "other-shapes")]
fn iqai_to_adk(v: &Value) -> Result<Value> {
    iqai::to_adk(v)
}

// A build without the other shapes (the main wasm module) recognises them and says which module
// reads them; its skin hands such a text there before this is reached (`is_other_shape`).
#[cfg(not(feature = "other-shapes"))]
fn legacy_set(_: &Value, _: &LoadOptions) -> Result<EvalSet> {
    Err(elsewhere("a legacy eval set list"))
}

#[cfg(not(feature = "other-shapes"))]
fn iqai_set(_: &Value) -> Result<EvalSet> {
    Err(elsewhere("an @iqai/adk eval set"))
}

#[cfg(not(feature = "other-shapes"))]
fn iqai_to_adk(_: &Value) -> Result<Value> {
    Err(elsewhere("an @iqai/adk eval set"))
}

/// The error of a build that does not read `what` (read it with `loadEvalSet` first).
#[cfg(not(feature = "other-shapes"))]
fn elsewhere(what: &str) -> EvalError {
    EvalError::new(
        ErrorCode::Unsupported,
        "$",
        format!("{what} is read by evalcore's extras module: load it with loadEvalSet first"),
    )
}

/// Whether `text` is an eval set in a shape other than ADK's current one (a legacy list,
/// @iqai/adk's camelCase), which the main wasm module hands to the extras module.
pub fn is_other_shape(text: &str) -> bool {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    match first_char(text) {
        Some('[') => true,
        Some('{') if text.contains("\"evalSetId\"") || text.contains("\"evalCases\"") => {
            parse_json(text).is_ok_and(|v| iqai::is_iqai(&v))
        }
        _ => false,
    }
}

/// ADK's EvalSet has no camelCase aliases at the top level; say so instead of "missing field".
fn camel_hint(e: EvalError, has_camel_id: bool) -> EvalError {
    if has_camel_id && e.code == ErrorCode::Schema && e.message.contains("missing field `eval_set_id`") {
        return EvalError::schema(
            "$",
            "missing field `eval_set_id`: the eval set's top level mixes snake_case and camelCase keys; use \
             `eval_set_id`, `eval_cases` (ADK's schema) or `evalSetId`, `evalCases` (@iqai/adk's) throughout",
        );
    }
    e
}

fn duplicate_id(id: &str, first: usize, i: usize) -> EvalError {
    EvalError::new(
        ErrorCode::DuplicateId,
        format!("$.eval_cases[{i}].eval_id"),
        format!("eval_id {id:?} is used by eval_cases[{first}] and eval_cases[{i}]; eval ids must be unique"),
    )
}

/// Every eval id unique, and no identifier longer than `maxIdBytes`.
fn check_ids(set: &EvalSet) -> Result<()> {
    super::budget::check_id(&set.eval_set_id, "eval_set_id", &|| "$.eval_set_id".into())?;
    let mut seen: HashMap<&str, usize> = HashMap::with_capacity(set.eval_cases.len());
    for (i, c) in set.eval_cases.iter().enumerate() {
        super::budget::check_id(&c.eval_id, "eval_id", &|| format!("$.eval_cases[{i}].eval_id"))?;
        if let Some(first) = seen.insert(c.eval_id.as_str(), i) {
            return Err(duplicate_id(&c.eval_id, first, i));
        }
    }
    Ok(())
}

/// `validateEvalSet`: every problem, each with its path (one per invocation at the finest).
pub fn validate_eval_set(text: &str) -> Vec<EvalError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    // Fast paths: a valid set in the usual shape is known valid from one scan that builds
    // nothing; any other valid set parses straight into typed values; only a broken one pays for
    // the slower walk that collects every problem.
    if super::budget::check(text, "the input").is_ok() && super::accept::surely_valid(text) {
        return Vec::new();
    }
    if load_eval_set(text, &LoadOptions::default()).is_ok() {
        return Vec::new();
    }
    let v = match parse_json(text) {
        Ok(v) => v,
        Err(e) => return vec![e],
    };
    if iqai::is_iqai(&v) {
        return match iqai_to_adk(&v) {
            Ok(c) => validate_value(&c)
                .into_iter()
                .map(|e| EvalError {
                    path: iqai::path_in_file(&e.path),
                    ..e
                })
                .collect(),
            Err(e) => vec![e],
        };
    }
    validate_value(&v)
}

/// Every problem of a parsed eval set (see [`validate_eval_set`]).
fn validate_value(v: &Value) -> Vec<EvalError> {
    let obj = match v {
        Value::Object(o) => o,
        Value::Array(_) => {
            return match legacy_set(v, &LoadOptions::default()).and_then(|s| check_ids(&s)) {
                Ok(()) => Vec::new(),
                Err(e) => vec![e],
            }
        }
        other => {
            return vec![EvalError::schema(
                "$",
                format!(
                    "an eval set is a JSON object or a legacy list; found {}",
                    super::value::kind(other)
                ),
            )]
        }
    };
    let mut errors = Vec::new();
    #[derive(serde::Deserialize)]
    #[allow(dead_code)]
    struct Header {
        eval_set_id: String,
        #[serde(default)]
        name: Option<String>,
        #[serde(default)]
        description: Option<String>,
        eval_cases: Vec<serde::de::IgnoredAny>,
        #[serde(default)]
        creation_timestamp: f64,
    }
    if let Err(e) = from_value::<Header>(v, "") {
        errors.push(camel_hint(e, obj.contains_key("evalSetId")));
    }
    if let Some(Value::String(id)) = obj.get("eval_set_id") {
        errors.extend(super::budget::check_id(id, "eval_set_id", &|| "$.eval_set_id".into()).err());
    }
    let cases = match obj.get("eval_cases") {
        Some(Value::Array(cases)) => cases,
        _ => return errors,
    };
    let mut seen: HashMap<&str, usize> = HashMap::new();
    for (i, case) in cases.iter().enumerate() {
        let prefix = format!("$.eval_cases[{i}]");
        if let Err(e) = from_value::<EvalCase>(case, &prefix) {
            // Report each broken invocation, not only the first one (the case-level error is
            // usually the first invocation's own, so skip a repeat of its path).
            let first_path = e.path.clone();
            errors.push(e);
            let conv = case.get("conversation").and_then(Value::as_array);
            for (j, inv) in conv.into_iter().flatten().enumerate() {
                let p = format!("{prefix}.conversation[{j}]");
                if let Err(e) = from_value::<super::invocation::Invocation>(inv, &p) {
                    if e.path != first_path {
                        errors.push(e);
                    }
                }
            }
        }
        let id = case
            .get("eval_id")
            .or_else(|| case.get("evalId"))
            .and_then(Value::as_str);
        if let Some(id) = id {
            errors.extend(super::budget::check_id(id, "eval_id", &|| format!("{prefix}.eval_id")).err());
            if let Some(first) = seen.insert(id, i) {
                errors.push(duplicate_id(id, first, i));
            }
        }
    }
    errors
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn many_broken_invocations_are_each_reported_once() {
        // Issue 9's reproducer: one case with 100,000 `{}` invocations took 78 s (a scan of the
        // errors found so far per invocation). Every invocation lacks `user_content`.
        let n = 100_000;
        let conv = vec!["{}"; n].join(",");
        let text = format!(r#"{{"eval_set_id": "s", "eval_cases": [{{"eval_id": "c", "conversation": [{conv}]}}]}}"#);
        let errors = validate_eval_set(&text);
        assert_eq!(errors.len(), n);
        assert_eq!(errors[0].path, "$.eval_cases[0].conversation[0]");
        assert_eq!(errors[n - 1].path, format!("$.eval_cases[0].conversation[{}]", n - 1));
    }

    /// Issue 24: a misspelt key an eval case keeps (as ADK 2.13 does) shows up in the error of
    /// the field it was meant to be.
    #[test]
    fn a_missing_field_names_its_misspelt_key() {
        let case = |c: &str| {
            let e = load_eval_set(
                &format!(r#"{{"eval_set_id": "s", "eval_cases": [{c}]}}"#),
                &LoadOptions::default(),
            )
            .unwrap_err();
            assert_eq!(e.path, "$.eval_cases[0]");
            e.message
        };
        let m = case(r#"{"eval_id": "a", "conversations": []}"#);
        assert!(
            m.ends_with("; the case has `conversations`: did you mean `conversation`?"),
            "{m}"
        );
        assert_eq!(
            case(r#"{"evalid": "a", "conversation": []}"#),
            "missing field `eval_id`; the case has `evalid`: did you mean `eval_id`?"
        );
    }
}

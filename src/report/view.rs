//! Lenient reading of ADK result JSON: statuses by name or number, snake_case or camelCase
//! keys, JSON null as absent.

use crate::error::{EvalError, Result};
use serde_json::Value;

/// ADK's `EvalStatus`, read from its name or its integer value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Status {
    Passed,
    Failed,
    NotEvaluated,
    Informational,
}

impl Status {
    pub(super) fn name(self) -> &'static str {
        match self {
            Status::Passed => "PASSED",
            Status::Failed => "FAILED",
            Status::NotEvaluated => "NOT_EVALUATED",
            Status::Informational => "INFORMATIONAL",
        }
    }

    pub(super) fn read(v: Option<&Value>, path: &str) -> Result<Status> {
        let status = match v {
            Some(Value::String(s)) => match s.as_str() {
                "PASSED" => Some(Status::Passed),
                "FAILED" => Some(Status::Failed),
                "NOT_EVALUATED" => Some(Status::NotEvaluated),
                "INFORMATIONAL" => Some(Status::Informational),
                _ => None,
            },
            Some(Value::Number(n)) => match n.as_u64() {
                Some(1) => Some(Status::Passed),
                Some(2) => Some(Status::Failed),
                Some(3) => Some(Status::NotEvaluated),
                Some(4) => Some(Status::Informational),
                _ => None,
            },
            _ => None,
        };
        status.ok_or_else(|| {
            EvalError::schema(
                path,
                format!(
                    "expected an eval status (\"PASSED\", \"FAILED\", \"NOT_EVALUATED\", \
                     \"INFORMATIONAL\" or 1-4), found {}",
                    describe(v)
                ),
            )
        })
    }
}

/// A short description of what was found, for error messages.
pub(super) fn describe(v: Option<&Value>) -> String {
    match v {
        None => "nothing".to_string(),
        Some(Value::Null) => "null".to_string(),
        Some(Value::Bool(b)) => format!("the boolean {b}"),
        Some(Value::Number(n)) => format!("the number {n}"),
        Some(Value::String(s)) => format!("the string {}", serde_json::Value::String(s.clone())),
        Some(Value::Array(_)) => "an array".to_string(),
        Some(Value::Object(_)) => "an object".to_string(),
    }
}

/// `obj[key]`, also under its camelCase alias; JSON null counts as absent.
pub(super) fn get<'a>(obj: Option<&'a Value>, key: &str) -> Option<&'a Value> {
    let map = obj?.as_object()?;
    let found = map.get(key).or_else(|| {
        let mut camel = String::with_capacity(key.len());
        let mut upper = false;
        for c in key.chars() {
            if c == '_' {
                upper = true;
            } else if upper {
                camel.extend(c.to_uppercase());
                upper = false;
            } else {
                camel.push(c);
            }
        }
        map.get(&camel)
    })?;
    (!found.is_null()).then_some(found)
}

pub(super) fn get_str<'a>(obj: Option<&'a Value>, key: &str) -> Option<&'a str> {
    get(obj, key).and_then(Value::as_str)
}

pub(super) fn get_list<'a>(obj: Option<&'a Value>, key: &str) -> &'a [Value] {
    get(obj, key).and_then(Value::as_array).map_or(&[], Vec::as_slice)
}

/// Python `str()` of an `Optional[str]` field.
pub(super) fn opt_str(obj: Option<&Value>, key: &str) -> String {
    get_str(obj, key).unwrap_or("None").to_string()
}

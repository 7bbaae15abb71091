//! Eval sets in @iqai/adk's shape (the TypeScript port of ADK): camelCase at the top level too
//! (`evalSetId`, `evalCases`, `creationTimestamp`), timestamps in milliseconds (`Date.now()`),
//! and, from its migration, expected tool uses left in the legacy `{tool_name, tool_input}` form.
//! Read like the legacy shapes: converted to ADK's schema, errors at the file's own paths.

use crate::error::{EvalError, Result};
use serde_json::{Map, Value};

/// Top-level keys: @iqai/adk's spelling and ADK's.
const TOP: [(&str, &str); 5] = [
    ("evalSetId", "eval_set_id"),
    ("evalCases", "eval_cases"),
    ("creationTimestamp", "creation_timestamp"),
    ("name", "name"),
    ("description", "description"),
];

/// Whether `v` is an eval set in @iqai/adk's shape: an object with its camelCase top-level keys
/// and none of ADK's snake_case ones (a file mixing both is neither, and gets ADK's error).
pub fn is_iqai(v: &Value) -> bool {
    let Value::Object(o) = v else { return false };
    let camel = o.contains_key("evalSetId") || o.contains_key("evalCases");
    let snake = ["eval_set_id", "eval_cases", "creation_timestamp"]
        .iter()
        .any(|k| o.contains_key(*k));
    camel && !snake
}

/// Milliseconds since the epoch (JavaScript's `Date.now()`) as ADK's seconds.
fn seconds(v: &mut Value) {
    if let Some(ms) = v.as_f64() {
        if let Some(n) = serde_json::Number::from_f64(ms / 1000.0) {
            *v = Value::Number(n);
        }
    }
}

fn timestamp_to_seconds(o: &mut Map<String, Value>) {
    for k in ["creationTimestamp", "creation_timestamp"] {
        if let Some(t) = o.get_mut(k) {
            seconds(t);
        }
    }
}

/// A tool use as @iqai/adk's migration writes it (`{tool_name, tool_input}`) as a FunctionCall.
fn tool_use(v: &mut Value) {
    let Value::Object(o) = v else { return };
    if o.contains_key("name") || !o.contains_key("tool_name") {
        return;
    }
    let mut call = Map::new();
    if let Some(name) = o.remove("tool_name") {
        call.insert("name".into(), name);
    }
    call.insert(
        "args".into(),
        o.remove("tool_input").unwrap_or_else(|| Value::Object(Map::new())),
    );
    *v = Value::Object(call);
}

fn invocation(v: &mut Value) {
    let Value::Object(o) = v else { return };
    timestamp_to_seconds(o);
    for k in ["intermediateData", "intermediate_data"] {
        let uses = o
            .get_mut(k)
            .and_then(Value::as_object_mut)
            .and_then(|d| d.get_mut("toolUses"))
            .and_then(Value::as_array_mut);
        for u in uses.into_iter().flatten() {
            tool_use(u);
        }
    }
}

fn eval_case(v: &mut Value) {
    let Value::Object(o) = v else { return };
    timestamp_to_seconds(o);
    if let Some(conv) = o.get_mut("conversation").and_then(Value::as_array_mut) {
        conv.iter_mut().for_each(invocation);
    }
}

/// The eval set in ADK's schema (top level renamed, timestamps in seconds, legacy tool uses as
/// calls); anything it does not know is left for the typed parse to judge. Call only when
/// [`is_iqai`] holds.
pub fn to_adk(v: &Value) -> Result<Value> {
    let Value::Object(o) = v else {
        return Err(EvalError::schema("$", "an @iqai/adk eval set is a JSON object"));
    };
    for key in ["evalSetId", "evalCases"] {
        if !o.contains_key(key) {
            return Err(EvalError::schema(
                "$",
                format!("missing field `{key}`: an eval set in @iqai/adk's camelCase shape needs `evalSetId` and `evalCases`"),
            ));
        }
    }
    let mut out = Map::new();
    for (camel, snake) in TOP {
        if let Some(x) = o.get(camel) {
            out.insert(snake.to_string(), x.clone());
        }
    }
    if let Some(t) = out.get_mut("creation_timestamp") {
        seconds(t);
    }
    if let Some(cases) = out.get_mut("eval_cases").and_then(Value::as_array_mut) {
        cases.iter_mut().for_each(eval_case);
    }
    Ok(Value::Object(out))
}

/// An error's path in the converted set, as a path in the @iqai/adk file.
pub fn path_in_file(path: &str) -> String {
    for (camel, snake) in TOP {
        if let Some(rest) = path.strip_prefix(&format!("$.{snake}")) {
            if rest.is_empty() || rest.starts_with(['.', '[']) {
                return format!("$.{camel}{rest}");
            }
        }
    }
    path.to_string()
}

/// [`to_adk`] then `parse`, errors at the file's paths.
pub fn load<T>(v: &Value, parse: impl FnOnce(&Value) -> Result<T>) -> Result<T> {
    let converted = to_adk(v)?;
    parse(&converted).map_err(|e| EvalError {
        path: path_in_file(&e.path),
        message: e
            .message
            .replace("`eval_set_id`", "`evalSetId`")
            .replace("`eval_cases`", "`evalCases`"),
        ..e
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_shape_is_told_from_adk_and_mixed_files() {
        assert!(is_iqai(&json!({"evalSetId": "s", "evalCases": []})));
        assert!(is_iqai(&json!({"evalCases": []})));
        assert!(!is_iqai(&json!({"eval_set_id": "s", "evalCases": []})));
        assert!(!is_iqai(&json!({"eval_set_id": "s", "eval_cases": []})));
        assert!(!is_iqai(&json!([])));
    }

    #[test]
    fn paths_map_back_to_the_files_keys() {
        assert_eq!(
            path_in_file("$.eval_cases[2].conversation[0]"),
            "$.evalCases[2].conversation[0]"
        );
        assert_eq!(path_in_file("$.eval_set_id"), "$.evalSetId");
        assert_eq!(path_in_file("$.eval_set_idx"), "$.eval_set_idx");
        assert_eq!(path_in_file("$"), "$");
    }

    #[test]
    fn timestamps_become_seconds_and_legacy_tool_uses_become_calls() {
        let v = json!({"evalSetId": "s", "creationTimestamp": 1_700_000_000_000u64, "evalCases": [
            {"evalId": "c", "conversation": [{"creationTimestamp": 1500, "userContent": {"parts": [{"text": "q"}]},
              "intermediateData": {"toolUses": [{"tool_name": "t", "tool_input": {"a": 1}}, {"name": "u", "args": {}}],
                                   "intermediateResponses": []}}]}]});
        let out = to_adk(&v).unwrap();
        assert_eq!(out["creation_timestamp"], json!(1_700_000_000.0));
        let inv = &out["eval_cases"][0]["conversation"][0];
        assert_eq!(inv["creationTimestamp"], json!(1.5));
        assert_eq!(
            inv["intermediateData"]["toolUses"][0],
            json!({"name": "t", "args": {"a": 1}})
        );
        assert_eq!(inv["intermediateData"]["toolUses"][1], json!({"name": "u", "args": {}}));
    }
}

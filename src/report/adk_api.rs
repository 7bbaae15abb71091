//! ADK's dev-server JSON: what FastAPI sends for an ADK model with `response_model_exclude_none`,
//! i.e. pydantic's dump by alias (camelCase field names) with `None` fields left out. Input is the
//! snake_case JSON ADK writes to files (the core's writers make it); user data inside (state,
//! tool args and responses, JSON schemas, metadata) keeps its keys and its nulls.

use crate::schema::value::camel;
use serde_json::{Map, Value};

/// Fields whose value is user data, dumped as it is (a `dict[str, Any]` or raw JSON in ADK).
const RAW: &[&str] = &[
    "state",
    "args",
    "partial_args",
    "response",
    "state_delta",
    "artifact_delta",
    "requested_auth_configs",
    "requested_tool_confirmations",
    "custom_metadata",
    "agent_state",
    "parameters_json_schema",
    "response_json_schema",
    "default",
    "example",
    "enum",
];

/// Fields that map names the user chose (properties, agents) to models: keys kept, values dumped.
const NAMED: &[&str] = &["properties", "defs", "agent_details"];

/// `v` (snake_case, as ADK writes files) as ADK's dev server answers it.
pub fn by_alias(v: &Value) -> Value {
    match v {
        Value::Array(items) => Value::Array(items.iter().map(by_alias).collect()),
        Value::Object(o) => Value::Object(model(o)),
        other => other.clone(),
    }
}

fn model(o: &Map<String, Value>) -> Map<String, Value> {
    let mut out = Map::new();
    for (key, value) in o {
        if value.is_null() {
            continue;
        }
        let dumped = if RAW.contains(&key.as_str()) {
            value.clone()
        } else if NAMED.contains(&key.as_str()) {
            match value {
                Value::Object(m) => Value::Object(m.iter().map(|(k, x)| (k.clone(), by_alias(x))).collect()),
                other => by_alias(other),
            }
        } else {
            by_alias(value)
        };
        out.insert(camel(key), dumped);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn model_fields_are_camel_and_nulls_left_out() {
        let v = json!({"eval_id": "c1", "final_eval_status": 1, "session_details": null,
            "eval_metric_result_per_invocation": [{"actual_invocation": {"user_content": {"parts": [{"text": "hi", "function_call": null}]}},
                "expected_invocation": null}]});
        assert_eq!(
            by_alias(&v),
            json!({"evalId": "c1", "finalEvalStatus": 1,
                "evalMetricResultPerInvocation": [{"actualInvocation": {"userContent": {"parts": [{"text": "hi"}]}}}]})
        );
    }

    #[test]
    fn user_data_keeps_its_keys_and_nulls() {
        let v = json!({"session_input": {"app_name": "a", "user_id": "u", "state": {"rng_seed": 1, "last_roll": null}},
            "parts": [{"function_call": {"name": "f", "args": {"num_sides": 6, "x": null}}},
                      {"function_response": {"name": "f", "response": {"the_result": [1]}}}],
            "app_details": {"agent_details": {"my_agent": {"name": "my_agent", "tool_declarations": [
                {"function_declarations": [{"parameters": {"properties": {"num_sides": {"type": "INTEGER", "any_of": null}}}}]}]}}}});
        assert_eq!(
            by_alias(&v),
            json!({"sessionInput": {"appName": "a", "userId": "u", "state": {"rng_seed": 1, "last_roll": null}},
                "parts": [{"functionCall": {"name": "f", "args": {"num_sides": 6, "x": null}}},
                          {"functionResponse": {"name": "f", "response": {"the_result": [1]}}}],
                "appDetails": {"agentDetails": {"my_agent": {"name": "my_agent", "toolDeclarations": [
                    {"functionDeclarations": [{"parameters": {"properties": {"num_sides": {"type": "INTEGER"}}}}]}]}}}})
        );
    }

    #[test]
    fn digits_follow_pydantic() {
        assert_eq!(by_alias(&json!({"rouge_1": 0.5})), json!({"rouge1": 0.5}));
    }
}

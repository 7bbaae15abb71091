//! EvalConfig / test_config.json: numeric-shorthand and object criteria, with pydantic's lax coercions.

use super::content::JsonObject;
use super::value::{key_path, kind, lax_bool, lax_float};
use crate::error::{EvalError, Result};
use indexmap::IndexMap;
use serde::Serialize;
use serde_json::{Map, Value};

/// One criteria entry after config loading: ADK's `BaseCriterion` (threshold, the
/// `include_intermediate_responses_in_final` flag and every other key kept verbatim).
#[derive(Debug, Clone, PartialEq)]
pub struct Criterion {
    pub threshold: f64,
    pub include_intermediate_responses_in_final: bool,
    /// Keys other than the two above, as the user wrote them (snake or camel); results echo
    /// them as ADK does.
    pub extra: JsonObject,
    /// `extra` read into the metric's criterion class, once, when the config is loaded.
    pub typed: super::criteria::Typed,
}

impl Criterion {
    pub fn from_threshold(threshold: f64) -> Criterion {
        Criterion {
            threshold,
            include_intermediate_responses_in_final: false,
            extra: Map::new(),
            typed: super::criteria::Typed::Unchecked,
        }
    }

    /// The criterion as ADK dumps it into results: threshold, the flag, then the extras.
    pub fn to_json(&self) -> Value {
        let mut m = Map::new();
        m.insert("threshold".into(), num(self.threshold));
        m.insert(
            "include_intermediate_responses_in_final".into(),
            Value::Bool(self.include_intermediate_responses_in_final),
        );
        for (k, v) in &self.extra {
            m.insert(k.clone(), v.clone());
        }
        Value::Object(m)
    }

    /// Object form for `loadEvalConfig`: `{threshold, ...fields as written}`.
    pub fn to_config_json(&self) -> Value {
        let mut m = Map::new();
        m.insert("threshold".into(), num(self.threshold));
        if self.include_intermediate_responses_in_final {
            m.insert("include_intermediate_responses_in_final".into(), Value::Bool(true));
        }
        for (k, v) in &self.extra {
            m.insert(k.clone(), v.clone());
        }
        Value::Object(m)
    }

    /// Looks up an extra field under its snake_case name or camelCase alias
    /// (pydantic with populate_by_name: the alias wins when both are present).
    pub fn field(&self, snake: &str, camel: &str) -> Option<&Value> {
        self.extra.get(camel).or_else(|| self.extra.get(snake))
    }
}

/// A JSON number for f64, falling back to null for NaN/inf (JSON has neither).
pub fn num(x: f64) -> Value {
    serde_json::Number::from_f64(x)
        .map(Value::Number)
        .unwrap_or(Value::Null)
}

#[derive(Debug, Clone, PartialEq, Default)]
pub struct EvalConfig {
    pub criteria: IndexMap<String, Criterion>,
    pub custom_metrics: Option<JsonObject>,
    pub user_simulator_config: Option<Value>,
    pub live_model_config: Option<LiveModelConfig>,
}

/// ADK's `LiveModelConfig`: how long a Live API (bidirectional streaming) model may take for a
/// turn. Read as pydantic reads it: `timeout_seconds` or `timeoutSeconds` (the alias wins when
/// both are given), a lax integer, 300 when absent; other keys are ignored (and warned about by
/// the config check). evalcore calls agents, not Live models, so it validates and keeps it.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct LiveModelConfig {
    pub timeout_seconds: i64,
}

impl LiveModelConfig {
    /// ADK's `DEFAULT_LIVE_TIMEOUT_SECONDS`.
    pub const DEFAULT_TIMEOUT_SECONDS: i64 = 300;
    /// The keys ADK's model reads (snake, camel).
    pub const KEYS: [&'static str; 2] = ["timeout_seconds", "timeoutSeconds"];

    fn from_object(o: &Map<String, Value>) -> Result<LiveModelConfig> {
        let given = o
            .get("timeoutSeconds")
            .map(|v| ("timeoutSeconds", v))
            .or_else(|| o.get("timeout_seconds").map(|v| ("timeout_seconds", v)));
        let timeout_seconds = match given {
            None => Self::DEFAULT_TIMEOUT_SECONDS,
            Some((key, v)) => super::value::lax_int(v).ok_or_else(|| {
                EvalError::schema(
                    format!("$.live_model_config.{key}"),
                    format!("`{key}` must be a whole number of seconds, found {}", describe(v)),
                )
            })?,
        };
        Ok(LiveModelConfig { timeout_seconds })
    }
}

/// A value for a message: numbers and strings as written, other kinds by name.
fn describe(v: &Value) -> String {
    match v {
        Value::Number(_) | Value::String(_) => v.to_string(),
        other => kind(other).to_string(),
    }
}

#[derive(Serialize)]
struct ConfigOut<'a> {
    criteria: Map<String, Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    custom_metrics: &'a Option<JsonObject>,
    #[serde(skip_serializing_if = "Option::is_none")]
    user_simulator_config: &'a Option<Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    live_model_config: &'a Option<LiveModelConfig>,
}

impl EvalConfig {
    /// ADK's default when no config is given: trajectory 1.0, response match 0.8.
    pub fn default_criteria() -> EvalConfig {
        let mut criteria = IndexMap::new();
        criteria.insert("tool_trajectory_avg_score".to_string(), Criterion::from_threshold(1.0));
        criteria.insert("response_match_score".to_string(), Criterion::from_threshold(0.8));
        EvalConfig {
            criteria,
            ..EvalConfig::default()
        }
    }

    pub fn to_json(&self) -> Value {
        let criteria = self
            .criteria
            .iter()
            .map(|(k, c)| (k.clone(), c.to_config_json()))
            .collect();
        let out = ConfigOut {
            criteria,
            custom_metrics: &self.custom_metrics,
            user_simulator_config: &self.user_simulator_config,
            live_model_config: &self.live_model_config,
        };
        serde_json::to_value(out).unwrap_or(Value::Null)
    }

    /// Parses a config value (`null` gives the default criteria). All problems are reported at once
    /// in the returned error list; the first is returned as the error.
    pub fn from_value(v: &Value) -> std::result::Result<EvalConfig, Vec<EvalError>> {
        let obj = match v {
            Value::Null => return Ok(EvalConfig::default_criteria()),
            Value::Object(o) => o,
            other => {
                return Err(vec![EvalError::schema(
                    "$",
                    format!(
                        "an eval config must be a JSON object with `criteria`, found {}",
                        kind(other)
                    ),
                )])
            }
        };
        let mut errors = Vec::new();
        let mut cfg = EvalConfig::default();
        if let Some(c) = obj.get("criteria") {
            match c {
                Value::Object(m) => {
                    for (name, val) in m {
                        let path = format!("$.criteria{}", key_path(name));
                        match parse_criterion(val, &path) {
                            Ok(c) => {
                                cfg.criteria.insert(name.clone(), c);
                            }
                            Err(e) => errors.push(e),
                        }
                    }
                }
                other => errors.push(EvalError::schema(
                    "$.criteria",
                    format!(
                        "`criteria` maps metric names to thresholds or criterion objects, found {}",
                        kind(other)
                    ),
                )),
            }
        }
        match obj.get("customMetrics").or_else(|| obj.get("custom_metrics")) {
            None | Some(Value::Null) => {}
            Some(Value::Object(m)) => cfg.custom_metrics = Some(m.clone()),
            Some(other) => errors.push(EvalError::schema(
                "$.custom_metrics",
                format!(
                    "`custom_metrics` must be an object of metric name -> {{code_config: {{name}}}}, found {}",
                    kind(other)
                ),
            )),
        }
        let mut object = |snake: &str, camel: &str| match obj.get(camel).or_else(|| obj.get(snake)) {
            None | Some(Value::Null) => None,
            Some(Value::Object(o)) => Some(o),
            Some(other) => {
                errors.push(EvalError::schema(
                    format!("$.{snake}"),
                    format!("`{snake}` must be an object, found {}", kind(other)),
                ));
                None
            }
        };
        cfg.user_simulator_config =
            object("user_simulator_config", "userSimulatorConfig").map(|o| Value::Object(o.clone()));
        if let Some(o) = object("live_model_config", "liveModelConfig") {
            match LiveModelConfig::from_object(o) {
                Ok(l) => cfg.live_model_config = Some(l),
                Err(e) => errors.push(e),
            }
        }
        if errors.is_empty() {
            Ok(cfg)
        } else {
            Err(errors)
        }
    }
}

fn parse_criterion(v: &Value, path: &str) -> Result<Criterion> {
    match v {
        Value::Object(m) => {
            let threshold = match m.get("threshold") {
                None => {
                    return Err(EvalError::schema(
                        path,
                        "a criterion object needs a `threshold` (e.g. {\"threshold\": 0.8, ...}); \
                         or give the threshold alone as a number",
                    ))
                }
                Some(t) => lax_float(t).ok_or_else(|| {
                    EvalError::schema(
                        format!("{path}.threshold"),
                        format!("`threshold` must be a number, found {}", kind(t)),
                    )
                })?,
            };
            let flag = m
                .get("includeIntermediateResponsesInFinal")
                .or_else(|| m.get("include_intermediate_responses_in_final"));
            let include = match flag {
                None => false,
                Some(f) => lax_bool(f).ok_or_else(|| {
                    EvalError::schema(
                        format!("{path}.include_intermediate_responses_in_final"),
                        format!("must be a boolean, found {}", kind(f)),
                    )
                })?,
            };
            let extra = m
                .iter()
                .filter(|(k, _)| {
                    !matches!(
                        k.as_str(),
                        "threshold" | "include_intermediate_responses_in_final" | "includeIntermediateResponsesInFinal"
                    )
                })
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect();
            Ok(Criterion {
                threshold,
                include_intermediate_responses_in_final: include,
                extra,
                typed: super::criteria::Typed::Unchecked,
            })
        }
        other => lax_float(other).map(Criterion::from_threshold).ok_or_else(|| {
            EvalError::schema(
                path,
                format!(
                    "a criterion is a number (the threshold) or an object with `threshold`; found {}{}",
                    kind(other),
                    match other {
                        Value::String(s) => format!(" {s:?} that is not a number"),
                        _ => String::new(),
                    }
                ),
            )
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn live_model_config_is_read_as_adks_model() {
        let timeout = |v: Value| {
            EvalConfig::from_value(&json!({"criteria": {}, "liveModelConfig": v})).map(|c| c.live_model_config)
        };
        let t = |n| Ok(Some(LiveModelConfig { timeout_seconds: n }));
        assert_eq!(timeout(json!({"timeoutSeconds": 60})), t(60));
        assert_eq!(timeout(json!({"timeout_seconds": "45"})), t(45));
        assert_eq!(timeout(json!({"timeout_seconds": 30.0})), t(30));
        assert_eq!(timeout(json!({"timeout_seconds": 1, "timeoutSeconds": 2})), t(2));
        assert_eq!(timeout(json!({})), t(300));
        assert_eq!(timeout(json!({"timeoutSecond": 5})), t(300));
        for bad in [
            json!({"timeoutSeconds": 1.5}),
            json!({"timeoutSeconds": "soon"}),
            json!({"timeoutSeconds": null}),
        ] {
            let e = timeout(bad.clone()).unwrap_err();
            assert_eq!(e[0].path, "$.live_model_config.timeoutSeconds", "{bad}");
        }
        let c = EvalConfig::from_value(&json!({"criteria": {}, "live_model_config": {"timeoutSeconds": 60}})).unwrap();
        assert_eq!(c.to_json()["live_model_config"], json!({"timeout_seconds": 60}));
    }

    #[test]
    fn shorthand_and_objects() {
        let c =
            EvalConfig::from_value(&json!({"criteria": {"a": "0.5", "b": true, "c": {"threshold": " 1 ", "x": 1}}}))
                .unwrap();
        assert_eq!(c.criteria["a"].threshold, 0.5);
        assert_eq!(c.criteria["b"].threshold, 1.0);
        assert_eq!(c.criteria["c"].to_config_json(), json!({"threshold": 1.0, "x": 1}));
        let e = EvalConfig::from_value(&json!({"criteria": {"a": {"match_type": "EXACT"}, "b": "high"}})).unwrap_err();
        assert_eq!(e.len(), 2);
        assert_eq!(e[0].path, "$.criteria.a");
        assert_eq!(
            EvalConfig::from_value(&Value::Null).unwrap(),
            EvalConfig::default_criteria()
        );
        let c = EvalConfig::from_value(&json!({"criteria": {"a": "1_000", "b": " 2.5e-1 "}})).unwrap();
        assert_eq!((c.criteria["a"].threshold, c.criteria["b"].threshold), (1000.0, 0.25));
        for bad in [
            json!({"criteria": {"a": "1__0"}}),
            json!({"criteria": {"a": "_1"}}),
            json!({"criteria": null}),
            json!({"criteria": {}, "userSimulatorConfig": 3}),
            json!({"criteria": {}, "live_model_config": "x"}),
            json!({"criteria": {"a": {"threshold": 1, "include_intermediate_responses_in_final": " true "}}}),
        ] {
            assert!(EvalConfig::from_value(&bad).is_err(), "{bad}");
        }
        assert_eq!(lax_bool(&json!("ON")), Some(true));
        assert_eq!(lax_bool(&json!("off ")), None);
    }
}

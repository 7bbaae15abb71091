//! ADK's eval config rules: a config read once, criteria typed into their metric's class, and
//! every problem found at load with its JSON path: errors for what ADK rejects, warnings for
//! what ADK accepts but ignores or cannot evaluate. An agents-cli config is converted to ADK's
//! first and its problems point back at the file's own entries. Below the text surface
//! (`api`), which only encodes what these return.

mod load;

pub use load::{load_config, run_config, validate, ConfigOptions, Validation};

use crate::agents_cli;
#[cfg(not(feature = "other-shapes"))]
use crate::error::ErrorCode;
use crate::error::EvalError;
use crate::metrics::judged::llm_metric;
use crate::metrics::{criterion_class, is_informational, known_metrics};
use crate::run::simulator::SimulatorConfig;
use crate::schema::config::LiveModelConfig;
use crate::schema::criteria::{self, Typed};
use crate::schema::value::key_path;
use crate::schema::EvalConfig;
use serde_json::Value;

/// What loading a config found.
pub struct ConfigReport {
    /// The config, criteria typed; None when it does not load at all.
    pub config: Option<EvalConfig>,
    /// What ADK rejects when it loads the file.
    pub errors: Vec<EvalError>,
    /// What ADK accepts but ignores, or cannot evaluate (that metric is NOT_EVALUATED).
    pub warnings: Vec<EvalError>,
}

/// Top-level keys of ADK's EvalConfig (camelCase accepted too).
const TOP_LEVEL: [&str; 4] = [
    "criteria",
    "custom_metrics",
    "user_simulator_config",
    "live_model_config",
];

/// Reads a config value (ADK's, or agents-cli's converted to it); `null` gives ADK's default
/// criteria.
pub fn check_config(v: &Value) -> ConfigReport {
    check_config_with(v, None)
}

/// [`check_config`] with agents-cli's `--metrics` replacing its `metrics_to_run`.
pub fn check_config_with(v: &Value, metrics: Option<&[String]>) -> ConfigReport {
    if !agents_cli::config::is_agents_cli_config(v) {
        return match metrics {
            Some(m) => check_adk_config(&select(v, m)),
            None => check_adk_config(v),
        };
    }
    #[cfg(not(feature = "other-shapes"))]
    return ConfigReport {
        config: None,
        errors: vec![EvalError::new(
            ErrorCode::Unsupported,
            "$",
            "an agents-cli config (metrics_to_run) is converted by evalcore's extras module: read it with \
             loadEvalConfig first",
        )],
        warnings: Vec::new(),
    };
    #[cfg(feature = "other-shapes")]
    convert(v, metrics)
}

/// An agents-cli config converted and checked as ADK's, each problem at its entry of the file.
#[cfg(feature = "other-shapes")]
fn convert(v: &Value, metrics: Option<&[String]>) -> ConfigReport {
    let converted = agents_cli::config::convert(v, metrics);
    let (mut errors, mut warnings) = (converted.errors, converted.warnings);
    if !errors.is_empty() {
        return ConfigReport {
            config: None,
            errors,
            warnings,
        };
    }
    let report = check_adk_config(&converted.config);
    // Problems of the converted criteria point at the entry of the file they came from.
    let origin = |e: EvalError| -> EvalError {
        let found = converted
            .origins
            .iter()
            .find(|(name, _)| e.path.starts_with(&format!("$.criteria{}", key_path(name))));
        match found {
            Some((_, path)) => EvalError {
                path: path.clone(),
                ..e
            },
            None => e,
        }
    };
    errors.extend(report.errors.into_iter().map(origin));
    warnings.extend(report.warnings.into_iter().map(origin));
    ConfigReport {
        config: report.config,
        errors,
        warnings,
    }
}

/// An ADK config with only the `metrics` named, in that order: a criterion it gives is kept, a
/// metric it does not name runs at threshold 1.
fn select(v: &Value, metrics: &[String]) -> Value {
    let given = v.get("criteria").and_then(Value::as_object);
    let criteria: serde_json::Map<String, Value> = metrics
        .iter()
        .map(|m| {
            let c = given.and_then(|g| g.get(m)).cloned();
            (m.clone(), c.unwrap_or_else(|| serde_json::json!({ "threshold": 1.0 })))
        })
        .collect();
    let mut out = v.as_object().cloned().unwrap_or_default();
    out.insert("criteria".into(), Value::Object(criteria));
    Value::Object(out)
}

fn check_adk_config(v: &Value) -> ConfigReport {
    let mut config = match EvalConfig::from_value(v) {
        Ok(c) => c,
        Err(errors) => {
            return ConfigReport {
                config: None,
                errors,
                warnings: Vec::new(),
            }
        }
    };
    let mut errors = Vec::new();
    let mut warnings = Vec::new();
    if let Value::Object(top) = v {
        for key in top.keys() {
            let snake = criteria::snake_of(key);
            if !TOP_LEVEL.contains(&snake.as_str()) {
                let hint = criteria::closest(key, TOP_LEVEL.iter().copied())
                    .map(|c| format!("; did you mean {c:?}?"))
                    .unwrap_or_default();
                warnings.push(EvalError::schema(
                    format!("${}", key_path(key)),
                    format!(
                        "ADK ignores the top-level key `{key}` (an eval config has criteria, custom_metrics, \
                         user_simulator_config, live_model_config){hint}"
                    ),
                ));
            }
        }
    }
    let custom: Vec<String> = config
        .custom_metrics
        .as_ref()
        .map(|m| m.keys().cloned().collect())
        .unwrap_or_default();
    for (name, c) in config.criteria.iter_mut() {
        let path = format!("$.criteria{}", key_path(name));
        if llm_metric::is_llm_metric(c) {
            if let Err(m) = llm_metric::read_spec(c, name) {
                warnings.push(EvalError::schema(
                    path,
                    format!("{m} (the metric will be NOT_EVALUATED)"),
                ));
            }
            c.typed = Typed::Base;
            continue;
        }
        if llm_metric::is_code_metric(c) && !custom.iter().any(|n| n == name) {
            warnings.push(EvalError::schema(path, llm_metric::code_metric(name).message));
            c.typed = Typed::Base;
            continue;
        }
        if custom.iter().any(|n| n == name) {
            // A custom metric's criterion is its own business: kept as written.
            c.typed = Typed::Base;
            continue;
        }
        let Some(class) = criterion_class(name) else {
            let hint = criteria::closest(name, known_metrics())
                .map(|k| format!("; did you mean {k:?}?"))
                .unwrap_or_default();
            warnings.push(EvalError::schema(
                path,
                format!(
                    "unknown metric {name:?}{hint} (a custom metric must be listed in `custom_metrics`, or passed \
                     as `customMetrics` to evaluate){}",
                    criteria::NOT_EVALUATED_NOTE
                ),
            ));
            c.typed = Typed::Base;
            continue;
        };
        if is_informational(name) {
            warnings.push(EvalError::schema(
                path.clone(),
                format!(
                    "{name} is informational and always reported; it takes no threshold, so ADK reports it \
                     NOT_EVALUATED when it is named in `criteria`: remove it"
                ),
            ));
        }
        let checked = criteria::check(class, &c.extra, name, &path);
        warnings.extend(checked.warnings);
        errors.extend(checked.errors);
        c.typed = checked.typed;
    }
    let live = v
        .get("liveModelConfig")
        .or_else(|| v.get("live_model_config"))
        .and_then(Value::as_object);
    for key in live.into_iter().flat_map(|o| o.keys()) {
        if !LiveModelConfig::KEYS.contains(&key.as_str()) {
            let hint = criteria::closest(key, LiveModelConfig::KEYS.iter().copied())
                .map(|c| format!("; did you mean {c:?}?"))
                .unwrap_or_default();
            warnings.push(EvalError::schema(
                format!("$.live_model_config{}", key_path(key)),
                format!("ADK ignores `{key}` in live_model_config (it reads only timeout_seconds){hint}"),
            ));
        }
    }
    if let Some(sim) = &config.user_simulator_config {
        if let Err(m) = SimulatorConfig::from_config(Some(sim)) {
            errors.push(EvalError::schema("$.user_simulator_config", m));
        }
    }
    ConfigReport {
        config: Some(config),
        errors,
        warnings,
    }
}

#[cfg(test)]
mod tests;

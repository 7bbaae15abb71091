//! Loading an eval config once: criteria typed into their metric's class, and every problem
//! found at load with its JSON path — errors for what ADK rejects, warnings for what ADK
//! accepts but ignores or cannot evaluate (`validateEvalConfig`, strict `loadEvalConfig`).

use crate::agents_cli;
use crate::error::{ErrorCode, EvalError, Result};
use crate::metrics::judged::llm_metric;
use crate::metrics::{criterion_class, is_informational, known_metrics};
use crate::run::simulator::SimulatorConfig;
use crate::schema::config::LiveModelConfig;
use crate::schema::criteria::{self, Typed};
use crate::schema::load;
use crate::schema::value::key_path;
use crate::schema::EvalConfig;
use serde::Deserialize;
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

/// `{"strict"?: bool, "metrics"?: [names]}`: warnings count as errors; `metrics` selects the
/// metrics to run (agents-cli's `--metrics`, replacing the config's `metrics_to_run`).
#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct ConfigOptions {
    #[serde(default)]
    pub strict: bool,
    #[serde(default)]
    pub metrics: Option<Vec<String>>,
}

fn parse(input: &str) -> Result<Value> {
    if input.trim().is_empty() {
        return Ok(Value::Null);
    }
    load::parse_json(input)
}

/// `validateEvalConfig(input, {strict?})`: `{ok, errors, warnings}` (never an envelope).
pub fn validate_eval_config(input: &str, options: &ConfigOptions) -> String {
    let (mut errors, mut warnings) = match parse(input) {
        Ok(v) => {
            let r = check_config_with(&v, options.metrics.as_deref());
            (r.errors, r.warnings)
        }
        Err(e) => (vec![e], Vec::new()),
    };
    if options.strict {
        errors.append(&mut warnings);
        errors = errors.into_iter().map(strict_message).collect();
    }
    let out = serde_json::json!({ "ok": errors.is_empty(), "errors": errors, "warnings": warnings });
    serde_json::to_string(&out).unwrap_or_else(|_| "{\"ok\":false,\"errors\":[],\"warnings\":[]}".into())
}

/// A problem as a strict load reports it: nothing runs, so the note of what a run would do goes.
fn strict_message(mut e: EvalError) -> EvalError {
    if let Some(m) = e.message.strip_suffix(criteria::NOT_EVALUATED_NOTE) {
        e.message = m.to_string();
    }
    e
}

/// One error that lists several: the first's code and path, every message.
fn combined(mut list: Vec<EvalError>, what: &str) -> EvalError {
    if list.len() == 1 {
        if let Some(e) = list.pop() {
            return e;
        }
    }
    let code = list.first().map_or(ErrorCode::Schema, |e| e.code);
    let path = list.first().map(|e| e.path.clone()).unwrap_or_default();
    let lines: Vec<String> = list
        .iter()
        .map(|e| {
            if e.path.is_empty() {
                format!("- {}", e.message)
            } else {
                format!("- {}: {}", e.path, e.message)
            }
        })
        .collect();
    EvalError::new(code, path, format!("{} {what}:\n{}", list.len(), lines.join("\n")))
}

/// The config for `loadEvalConfig`: what ADK rejects is an error; with `strict`, so is every
/// warning.
pub fn load_config(input: &str, options: &ConfigOptions) -> Result<EvalConfig> {
    let v = parse(input)?;
    let r = check_config_with(&v, options.metrics.as_deref());
    let mut problems = r.errors;
    if options.strict {
        problems.extend(r.warnings);
        problems = problems.into_iter().map(strict_message).collect();
    }
    match r.config {
        Some(c) if problems.is_empty() => Ok(c),
        None if !options.strict => Err(first_of(problems)),
        _ => Err(combined(
            problems,
            if options.strict {
                "problems in this config (strict: warnings count)"
            } else {
                "problems in this config"
            },
        )),
    }
}

/// The first problem, saying how many more there are.
fn first_of(mut errors: Vec<EvalError>) -> EvalError {
    let n = errors.len();
    if n == 0 {
        return EvalError::schema("$", "the config could not be read");
    }
    let mut first = errors.swap_remove(0);
    if n > 1 {
        first.message = format!(
            "{} (and {} more problem{} in this config)",
            first.message,
            n - 1,
            if n > 2 { "s" } else { "" }
        );
    }
    first
}

/// The config a run scores with: criteria typed; what ADK cannot evaluate is reported per
/// metric as NOT_EVALUATED, and a simulator config ADK rejects fails only the cases that need a
/// simulated user (nothing else is lost).
pub fn run_config(v: &Value) -> Result<EvalConfig> {
    let r = check_config(v);
    r.config.ok_or_else(|| first_of(r.errors))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn report(v: Value) -> (Vec<(String, String)>, Vec<(String, String)>) {
        let r = check_config(&v);
        let pairs = |l: Vec<EvalError>| l.into_iter().map(|e| (e.path, e.message)).collect();
        (pairs(r.errors), pairs(r.warnings))
    }

    #[test]
    fn the_mistakes_users_make_are_found_once_with_paths() {
        let (errors, warnings) = report(json!({
            "criterias": {},
            "criteria": {
                "respone_match_score": 0.8,
                "final_response_match_v2": {"threshold": 0.5, "num_samples": 3},
                "tool_trajectory_avg_score": {"threshold": 1, "match_type": "INORDER"},
                "safety_v1": {"threshold": 1, "judge_model_options": {"num_samples": 0}}
            }
        }));
        assert!(errors.is_empty(), "{errors:?}");
        let paths: Vec<&str> = warnings.iter().map(|(p, _)| p.as_str()).collect();
        assert_eq!(
            paths,
            [
                "$.criterias",
                "$.criteria.respone_match_score",
                "$.criteria.final_response_match_v2.num_samples",
                "$.criteria.tool_trajectory_avg_score.match_type",
                "$.criteria.safety_v1.judge_model_options.num_samples",
            ]
        );
        assert!(warnings[0].1.contains("did you mean \"criteria\""), "{}", warnings[0].1);
        assert!(
            warnings[1].1.contains("did you mean \"response_match_score\""),
            "{}",
            warnings[1].1
        );
        assert!(warnings[2].1.contains("inside `judge_model_options`"));
        assert!(warnings[3].1.contains("NOT_EVALUATED"));
    }

    #[test]
    fn what_adk_rejects_is_an_error_and_strict_counts_warnings() {
        let audio = json!({"criteria": {}, "user_simulator_config": {"type": "llm_audio", "audio_model": "cloud_tts",
            "include_text_with_audio": false, "max_allowed_invocations": 5}});
        assert_eq!(report(audio), (vec![], vec![]), "llm_audio loads as ADK loads it");
        let bad_audio = json!({"criteria": {}, "user_simulator_config": {"type": "llm_audio", "audio_model": 3}});
        assert_eq!(report(bad_audio).0.len(), 1);
        let v = json!({"criteria": {"response_match_score": 0.8}, "user_simulator_config": {"type": "llm_video"}});
        let (errors, _) = report(v.clone());
        assert_eq!(errors.len(), 1);
        assert_eq!(errors[0].0, "$.user_simulator_config");
        assert!(load_config(&v.to_string(), &ConfigOptions::default()).is_err());
        // A run still loads it: only the cases that need a simulated user fail.
        assert!(run_config(&v).is_ok());

        let typo = json!({"criteria": {"tool_trajectory_avg_score": {"threshold": 1, "ignoreArg": true}}}).to_string();
        assert!(load_config(&typo, &ConfigOptions::default()).is_ok());
        let e = load_config(
            &typo,
            &ConfigOptions {
                strict: true,
                metrics: None,
            },
        )
        .unwrap_err();
        assert_eq!(e.path, "$.criteria.tool_trajectory_avg_score.ignoreArg");
        let out: Value = serde_json::from_str(&validate_eval_config(
            &typo,
            &ConfigOptions {
                strict: true,
                metrics: None,
            },
        ))
        .unwrap();
        assert_eq!(out["ok"], false);
        assert_eq!(out["errors"].as_array().map(Vec::len), Some(1));
        let out: Value = serde_json::from_str(&validate_eval_config(&typo, &ConfigOptions::default())).unwrap();
        assert_eq!(out["ok"], true);
        assert_eq!(out["warnings"][0]["code"], "schema");
    }

    /// Issue 24: under strict nothing runs, so no message says what a run would do.
    #[test]
    fn strict_messages_do_not_promise_not_evaluated() {
        let v = json!({"criteria": {"respone_match_score": 0.8, "rouge_score": 1,
            "tool_trajectory_avg_score": {"threshold": 1, "match_type": "INORDER"}}})
        .to_string();
        let messages = |strict: bool, key: &str| -> Vec<String> {
            let out: Value = serde_json::from_str(&validate_eval_config(
                &v,
                &ConfigOptions {
                    strict,
                    ..Default::default()
                },
            ))
            .unwrap();
            out[key]
                .as_array()
                .unwrap()
                .iter()
                .map(|w| w["message"].as_str().unwrap().to_string())
                .collect()
        };
        let warned = messages(false, "warnings");
        assert_eq!(warned.len(), 3);
        assert!(
            warned.iter().all(|m| m.ends_with(criteria::NOT_EVALUATED_NOTE)),
            "{warned:?}"
        );
        let errors = messages(true, "errors");
        assert_eq!(errors.len(), 3);
        assert!(
            errors.iter().all(|m| !m.contains("will be NOT_EVALUATED")),
            "{errors:?}"
        );
        let e = load_config(
            &v,
            &ConfigOptions {
                strict: true,
                ..Default::default()
            },
        )
        .unwrap_err();
        assert!(!e.message.contains("will be NOT_EVALUATED"), "{}", e.message);
    }

    #[test]
    fn live_model_config_keys_adk_ignores_are_warned_about() {
        let (errors, warnings) = report(json!({"criteria": {}, "live_model_config": {"timeoutSecond": 5}}));
        assert!(errors.is_empty());
        assert_eq!(warnings.len(), 1);
        assert_eq!(warnings[0].0, "$.live_model_config.timeoutSecond");
        assert!(
            warnings[0].1.contains("did you mean \"timeout_seconds\""),
            "{}",
            warnings[0].1
        );
        let (errors, warnings) = report(json!({"criteria": {}, "liveModelConfig": {"timeoutSeconds": "x"}}));
        assert_eq!(errors[0].0, "$.live_model_config.timeoutSeconds");
        assert!(warnings.is_empty());
        let (errors, warnings) = report(json!({"criteria": {}, "liveModelConfig": {"timeoutSeconds": 60}}));
        assert!(errors.is_empty() && warnings.is_empty());
    }

    #[test]
    fn criteria_are_typed_at_load() {
        let c = run_config(&json!({"criteria": {
            "tool_trajectory_avg_score": {"threshold": 1, "matchType": "any order"},
            "my_metric": {"threshold": 1, "anything": [1]}},
            "custom_metrics": {"my_metric": {"code_config": {"name": "m.f"}}}}))
        .unwrap();
        assert_eq!(
            c.criteria["tool_trajectory_avg_score"].typed,
            Typed::ToolTrajectory(criteria::TrajectoryFields {
                match_type: criteria::MatchType::AnyOrder,
                ..Default::default()
            })
        );
        assert_eq!(c.criteria["my_metric"].typed, Typed::Base);
        let (_, warnings) = report(json!({"criteria": {"my_metric": 1},
            "custom_metrics": {"my_metric": {"code_config": {"name": "m.f"}}}}));
        assert!(warnings.is_empty(), "{warnings:?}");
        let (errors, warnings) = report(Value::Null);
        assert!(errors.is_empty() && warnings.is_empty());
    }
}

//! Loading a config for a caller: `loadEvalConfig` (what ADK rejects is an error; with
//! `strict`, so is every warning), `validateEvalConfig`'s report, and the config a run scores
//! with.

use super::{check_config, check_config_with};
use crate::error::{ErrorCode, EvalError, Result};
use crate::schema::criteria;
use crate::schema::load;
use crate::schema::EvalConfig;
use serde::{Deserialize, Serialize};
use serde_json::Value;

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

/// What `validateEvalConfig` answers: `{ok, errors, warnings}`.
#[derive(Serialize)]
pub struct Validation {
    pub ok: bool,
    pub errors: Vec<EvalError>,
    pub warnings: Vec<EvalError>,
}

/// `validateEvalConfig(input, {strict?})`: every problem, never an error.
pub fn validate(input: &str, options: &ConfigOptions) -> Validation {
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
    Validation {
        ok: errors.is_empty(),
        errors,
        warnings,
    }
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

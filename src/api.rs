//! The JSON-text surface shared by the wasm skin, native tests and benches: text in, text out.

use crate::error::{EvalError, Result};
use crate::metrics::case::evaluate_case;
use crate::schema::load::{self, LoadOptions};
use crate::schema::result::case_result_json;
use crate::schema::{EvalCase, EvalConfig, Invocation};
use serde::Deserialize;
use serde_json::Value;

/// `{"ok": <json>}` or `{"error": {code, path, message}}`.
pub fn envelope(r: Result<String>) -> String {
    match r {
        Ok(json) => format!("{{\"ok\":{json}}}"),
        Err(e) => error_json(&e),
    }
}

pub fn error_json(e: &EvalError) -> String {
    let body = serde_json::to_string(e).unwrap_or_else(|_| "{}".to_string());
    format!("{{\"error\":{body}}}")
}

fn to_json<T: serde::Serialize>(v: &T) -> String {
    serde_json::to_string(v).unwrap_or_else(|_| "null".to_string())
}

fn options<T: for<'de> Deserialize<'de> + Default>(text: &str) -> Result<T> {
    if text.trim().is_empty() {
        return Ok(T::default());
    }
    load::from_str(text).map_err(|e| EvalError {
        path: e.path.replacen('$', "$options", 1),
        ..e
    })
}

pub fn load_eval_set(input: &str, opts: &str) -> Result<String> {
    let opts: LoadOptions = options(opts)?;
    load::load_eval_set(input, &opts).map(|s| to_json(&s))
}

pub fn validate_eval_set(input: &str) -> String {
    let errors = load::validate_eval_set(input);
    to_json(&serde_json::json!({ "ok": errors.is_empty(), "errors": errors }))
}

/// Parses a config from JSON text; "" and "null" give ADK's default criteria.
pub fn parse_config(input: &str) -> Result<EvalConfig> {
    if input.trim().is_empty() {
        return Ok(EvalConfig::default_criteria());
    }
    let v = load::parse_json(input)?;
    config_from_value(&v)
}

pub fn config_from_value(v: &Value) -> Result<EvalConfig> {
    EvalConfig::from_value(v).map_err(|mut errors| {
        let n = errors.len();
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
    })
}

pub fn load_eval_config(input: &str) -> Result<String> {
    parse_config(input).map(|c| to_json(&c.to_json()))
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct CaseArgs {
    #[serde(alias = "eval_case")]
    eval_case: EvalCase,
    actual: Vec<Invocation>,
    #[serde(default)]
    config: Value,
    #[serde(default, alias = "eval_set_id")]
    eval_set_id: Option<String>,
    #[serde(default, alias = "include_invocations")]
    include_invocations: Option<bool>,
}

/// A case and its actual invocations, parsed once.
pub struct PreparedCase {
    case: EvalCase,
    actual: Vec<Invocation>,
    eval_set_id: String,
    config: Value,
    include_invocations: bool,
}

#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase")]
struct EvalOptions {
    #[serde(default, alias = "include_invocations")]
    include_invocations: Option<bool>,
}

impl PreparedCase {
    pub fn parse(args: &str) -> Result<PreparedCase> {
        let a: CaseArgs = load::from_str(args)?;
        Ok(PreparedCase {
            case: a.eval_case,
            actual: a.actual,
            eval_set_id: a.eval_set_id.unwrap_or_default(),
            config: a.config,
            include_invocations: a.include_invocations.unwrap_or(true),
        })
    }

    fn run(&self, config: &EvalConfig, include: bool) -> Result<String> {
        let outcome = evaluate_case(&self.case, &self.actual, config)?;
        Ok(case_result_json(
            &self.eval_set_id,
            &self.case,
            &self.actual,
            &outcome,
            include,
        ))
    }

    /// Scores under `config` (JSON text; "" = the config given at parse time, or ADK's defaults).
    pub fn evaluate(&self, config: &str, opts: &str) -> Result<String> {
        let cfg = if config.trim().is_empty() {
            config_from_value(&self.config)?
        } else {
            parse_config(config)?
        };
        let o: EvalOptions = options(opts)?;
        self.run(&cfg, o.include_invocations.unwrap_or(self.include_invocations))
    }
}

/// `evaluateInvocations` for deterministic metrics: one case, scored without running an agent.
pub fn evaluate_invocations(args: &str) -> Result<String> {
    let p = PreparedCase::parse(args)?;
    let cfg = config_from_value(&p.config)?;
    p.run(&cfg, p.include_invocations)
}

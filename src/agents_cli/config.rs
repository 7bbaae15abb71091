//! agents-cli's eval config (`metrics_to_run`, the `custom_metrics` pool; YAML is parsed by the
//! host) read as ADK's EvalConfig: each selected metric becomes a criteria entry, a custom LLM
//! metric a criterion carrying its `prompt_template`, a Python metric a criterion that says so.
//! Problems are reported at the file's own paths.

use crate::error::EvalError;
use crate::schema::value::lax_int;
use crate::schema::value::{key_path, kind};
use serde_json::{json, Map, Value};

/// What converting a config found.
pub struct Converted {
    /// ADK's EvalConfig (`{"criteria": {...}}`); null when the config cannot be read at all.
    pub config: Value,
    pub errors: Vec<EvalError>,
    pub warnings: Vec<EvalError>,
    /// Where each criteria entry came from in the file (`$.metrics_to_run[2]`,
    /// `$.custom_metrics[0]`), for the problems found in the converted config.
    pub origins: Vec<(String, String)>,
}

/// Whether `v` is agents-cli's config rather than ADK's: `metrics_to_run`, or `custom_metrics`
/// as a list (ADK's is an object), and no `criteria`.
pub fn is_agents_cli_config(v: &Value) -> bool {
    let Value::Object(o) = v else { return false };
    !o.contains_key("criteria")
        && (o.contains_key("metrics_to_run") || o.get("custom_metrics").is_some_and(Value::is_array))
}

/// The threshold of a metric the config gives none: every built-in's best score (every rubric
/// met, fully safe, every sentence supported), which is what the hosted service's `pass_rate`
/// counts as passing.
const DEFAULT_THRESHOLD: f64 = 1.0;

/// Keys of a `custom_metrics` entry evalcore reads.
const ENTRY_KEYS: [&str; 12] = [
    "name",
    "prompt_template",
    "custom_function",
    "custom_function_file",
    "remote_custom_function",
    "execution",
    "judge_model",
    "judge_model_sampling_count",
    "judge_model_system_instruction",
    "judge_model_generation_config",
    "metric_spec_parameters",
    "threshold",
];

/// A metric name as the registry knows it: `hallucination_v1` is `hallucination`, as agents-cli
/// resolves a bare name to the service's latest version; names the registry knows stay.
pub fn resolve_name(name: &str) -> String {
    let lower = name.to_ascii_lowercase();
    if crate::metrics::is_known(&lower) {
        return lower;
    }
    if let Some((base, v)) = lower.rsplit_once("_v") {
        if !v.is_empty() && v.chars().all(|c| c.is_ascii_digit()) && crate::metrics::is_known(base) {
            return base.to_string();
        }
    }
    name.to_string()
}

/// Converts an agents-cli config; `metrics` (the CLI's `--metrics a,b`) replaces `metrics_to_run`.
pub fn convert(v: &Value, metrics: Option<&[String]>) -> Converted {
    let mut out = Converted {
        config: Value::Null,
        errors: Vec::new(),
        warnings: Vec::new(),
        origins: Vec::new(),
    };
    let Some(top) = v.as_object() else {
        out.errors.push(EvalError::schema(
            "$",
            format!(
                "an agents-cli config is a mapping with `metrics_to_run` and `custom_metrics`, found {}",
                kind(v)
            ),
        ));
        return out;
    };
    for key in top
        .keys()
        .filter(|k| !["metrics_to_run", "custom_metrics"].contains(&k.as_str()))
    {
        out.warnings.push(EvalError::schema(
            format!("${}", key_path(key)),
            format!("agents-cli reads only `metrics_to_run` and `custom_metrics`; `{key}` is ignored"),
        ));
    }
    let pool = pool(top, &mut out);
    let requested: Vec<(String, String)> = match metrics {
        Some(m) => m.iter().map(|n| (n.clone(), "$options.metrics".to_string())).collect(),
        None => match top.get("metrics_to_run") {
            None | Some(Value::Null) => Vec::new(),
            Some(Value::Array(a)) => a
                .iter()
                .enumerate()
                .filter_map(|(i, n)| match n {
                    Value::String(s) => Some((s.clone(), format!("$.metrics_to_run[{i}]"))),
                    other => {
                        out.errors.push(EvalError::schema(
                            format!("$.metrics_to_run[{i}]"),
                            format!("a metric name must be a string, found {}", kind(other)),
                        ));
                        None
                    }
                })
                .collect(),
            Some(other) => {
                out.errors.push(EvalError::schema(
                    "$.metrics_to_run",
                    format!("`metrics_to_run` must be a list of metric names, found {}", kind(other)),
                ));
                Vec::new()
            }
        },
    };
    if requested.is_empty() && out.errors.is_empty() {
        out.errors.push(EvalError::schema(
            "$.metrics_to_run",
            "no metrics to run: list them in `metrics_to_run` (or pass --metrics a,b)",
        ));
    }
    let mut criteria = Map::new();
    for (name, at) in requested {
        let (key, criterion, origin) = match pool.iter().find(|(n, _, _)| *n == name) {
            Some((_, entry, path)) => match entry_criterion(&name, entry, path, &mut out) {
                Some((k, c)) => (k, c, path.clone()),
                None => continue,
            },
            None => (resolve_name(&name), json!({ "threshold": DEFAULT_THRESHOLD }), at),
        };
        if criteria.insert(key.clone(), criterion).is_some() {
            out.warnings.push(EvalError::schema(
                origin.as_str(),
                format!("{key} is selected twice; it runs once"),
            ));
        }
        out.origins.push((key, origin));
    }
    if out.errors.is_empty() {
        out.config = json!({ "criteria": criteria });
    }
    out
}

/// The `custom_metrics` pool: (name, entry, path), later entries of a name replacing earlier ones.
fn pool<'a>(top: &'a Map<String, Value>, out: &mut Converted) -> Vec<(String, &'a Map<String, Value>, String)> {
    let mut pool: Vec<(String, &Map<String, Value>, String)> = Vec::new();
    let list = match top.get("custom_metrics") {
        None | Some(Value::Null) => return pool,
        Some(Value::Array(a)) => a,
        Some(other) => {
            out.errors.push(EvalError::schema(
                "$.custom_metrics",
                format!(
                    "`custom_metrics` must be a list of metric objects, found {}",
                    kind(other)
                ),
            ));
            return pool;
        }
    };
    for (i, m) in list.iter().enumerate() {
        let at = format!("$.custom_metrics[{i}]");
        let Some(o) = m.as_object() else {
            out.errors.push(EvalError::schema(
                at,
                format!("a custom metric must be an object, found {}", kind(m)),
            ));
            continue;
        };
        let Some(name) = o.get("name").and_then(Value::as_str).filter(|n| !n.is_empty()) else {
            out.warnings.push(EvalError::schema(
                at,
                "a custom metric without a `name` is ignored (as agents-cli does)",
            ));
            continue;
        };
        pool.retain(|(n, _, _)| n != name);
        pool.push((name.to_string(), o, at));
    }
    pool
}

/// The criteria entry of a `custom_metrics` entry: its key and criterion, or None after an error.
fn entry_criterion(name: &str, e: &Map<String, Value>, at: &str, out: &mut Converted) -> Option<(String, Value)> {
    let mut err = |field: &str, message: String| {
        let path = if field.is_empty() {
            at.to_string()
        } else {
            format!("{at}.{field}")
        };
        out.errors.push(EvalError::schema(path, message));
    };
    if e.contains_key("rubric_group_name") {
        err(
            "rubric_group_name",
            format!(
                "custom metric {name:?}: `rubric_group_name` is not supported (agents-cli rejects it too); grade a \
                 case's rubric_groups with a built-in metric and `metric_spec_parameters.rubric_group_key`"
            ),
        );
        return None;
    }
    if e.contains_key("custom_function") && e.contains_key("custom_function_file") {
        err(
            "",
            format!("custom metric {name:?}: give either `custom_function` or `custom_function_file`, not both"),
        );
        return None;
    }
    if let Some(x) = e
        .get("execution")
        .filter(|x| !matches!(x.as_str(), Some("local" | "remote")))
    {
        err(
            "execution",
            format!("custom metric {name:?}: `execution` must be \"local\" or \"remote\", found {x}"),
        );
        return None;
    }
    let threshold = match e.get("threshold") {
        None | Some(Value::Null) => None,
        Some(t) => match crate::schema::value::lax_float(t) {
            Some(t) => Some(t),
            None => {
                err(
                    "threshold",
                    format!("custom metric {name:?}: `threshold` must be a number"),
                );
                return None;
            }
        },
    };
    let mut c = Map::new();
    c.insert("threshold".into(), json!(threshold.unwrap_or(DEFAULT_THRESHOLD)));
    for key in e.keys().filter(|k| !ENTRY_KEYS.contains(&k.as_str())) {
        out.warnings.push(EvalError::schema(
            format!("{at}{}", key_path(key)),
            format!("custom metric {name:?}: evalcore ignores `{key}`"),
        ));
    }
    let code = ["custom_function", "custom_function_file", "remote_custom_function"];
    if let Some(k) = code.iter().find(|k| e.contains_key(**k)) {
        c.insert((*k).into(), e.get(*k).cloned().unwrap_or(Value::Null));
        return Some((name.to_string(), Value::Object(c)));
    }
    judge_fields(name, e, at, &mut c, out)?;
    if let Some(t) = e.get("prompt_template") {
        if t.as_str().is_none_or(|s| s.trim().is_empty()) {
            out.errors.push(EvalError::schema(
                format!("{at}.prompt_template"),
                format!("custom metric {name:?}: `prompt_template` must be a non-empty string"),
            ));
            return None;
        }
        c.insert("prompt_template".into(), t.clone());
        if let Some(s) = e.get("judge_model_system_instruction") {
            c.insert("judge_model_system_instruction".into(), s.clone());
        }
        if threshold.is_none() {
            c.insert("informational".into(), Value::Bool(true));
        }
        return Some((name.to_string(), Value::Object(c)));
    }
    // Neither a prompt nor a function: the parameters of the built-in metric of that name.
    let key = resolve_name(name);
    if !crate::metrics::is_known(&key) {
        out.errors.push(EvalError::schema(
            at,
            format!(
                "custom metric {name:?} needs a `prompt_template` or a `custom_function`, unless it names a built-in \
                 metric to parameterize (see `evalcore metrics`)"
            ),
        ));
        return None;
    }
    let params = e.get("metric_spec_parameters").and_then(Value::as_object);
    if let Some(k) = params.and_then(|p| p.get("rubric_group_key")) {
        c.insert("rubric_group_key".into(), k.clone());
    }
    Some((key, Value::Object(c)))
}

/// The judge settings of an entry as ADK's `judge_model_options`.
fn judge_fields(
    name: &str,
    e: &Map<String, Value>,
    at: &str,
    c: &mut Map<String, Value>,
    out: &mut Converted,
) -> Option<()> {
    let mut options = Map::new();
    if let Some(m) = e.get("judge_model").filter(|m| !m.is_null()) {
        options.insert("judge_model".into(), m.clone());
    }
    if let Some(n) = e.get("judge_model_sampling_count").filter(|n| !n.is_null()) {
        match lax_int(n) {
            Some(k) if (1..=32).contains(&k) => {
                options.insert("num_samples".into(), json!(k));
            }
            _ => {
                out.errors.push(EvalError::schema(
                    format!("{at}.judge_model_sampling_count"),
                    format!("custom metric {name:?}: `judge_model_sampling_count` must be an integer from 1 to 32"),
                ));
                return None;
            }
        }
    }
    if let Some(g) = e.get("judge_model_generation_config").filter(|g| !g.is_null()) {
        options.insert("judge_model_config".into(), g.clone());
    }
    if !options.is_empty() {
        c.insert("judge_model_options".into(), Value::Object(options));
    }
    Some(())
}

//! The judge protocol, pure: judged-criterion options, the inputs each judge sees, prompts,
//! answer parsing, sample voting and the providers' wire formats. Nothing here awaits; the
//! metrics ask a [`JudgePort`] for answers and `run/` implements it over the host's fetch.

pub mod context;
pub mod limit;
pub mod parse;
pub mod prompts;
pub mod provider;
pub mod vote;

use crate::metrics::NotEvaluated;
use crate::schema::config::lax_bool;
use crate::schema::eval_set::Rubric;
use crate::schema::Criterion;
use futures_util::future::LocalBoxFuture;
use serde_json::Value;

/// What a judge call is for: the metric's verdict, or one stage of hallucinations_v1, or the
/// simulated user's next message.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CallKind {
    Judge,
    Segmenter,
    Validator,
    Simulator,
}

impl CallKind {
    pub fn as_str(self) -> &'static str {
        match self {
            CallKind::Judge => "judge",
            CallKind::Segmenter => "segmenter",
            CallKind::Validator => "validator",
            CallKind::Simulator => "simulator",
        }
    }
}

/// One judge call: a prompt for one invocation (or one conversation).
#[derive(Debug, Clone)]
pub struct JudgeRequest {
    pub metric: String,
    pub invocation: usize,
    /// Sample index: samples of one invocation are distinct calls.
    pub sample: u32,
    pub kind: CallKind,
    pub prompt: String,
    /// The criterion's `judge_model`, used when the host's judge names no model.
    pub model_hint: Option<String>,
    /// The criterion's `judge_model_config` (generation settings passed to the provider).
    pub config: Option<Value>,
}

/// Why a judge call produced no answer; becomes NOT_EVALUATED with this reason.
#[derive(Debug, Clone, PartialEq)]
pub struct JudgeFailure {
    /// `judge_error`, `cassette_miss`, `budget_exhausted`, `dry_run`, `needs_judge`, `cancelled`.
    pub reason: &'static str,
    pub message: String,
}

impl JudgeFailure {
    pub fn new(reason: &'static str, message: impl Into<String>) -> Self {
        JudgeFailure {
            reason,
            message: message.into(),
        }
    }
}

impl From<JudgeFailure> for NotEvaluated {
    fn from(f: JudgeFailure) -> Self {
        NotEvaluated::new(f.reason, f.message)
    }
}

/// Where judged metrics get answers: the text of the judge's reply.
pub trait JudgePort {
    fn ask(&self, req: JudgeRequest) -> LocalBoxFuture<'_, Result<String, JudgeFailure>>;
}

/// ADK's JudgeModelOptions (extras forbidden).
#[derive(Debug, Clone, PartialEq)]
pub struct JudgeModelOptions {
    pub judge_model: Option<String>,
    pub judge_model_config: Option<Value>,
    pub num_samples: u32,
    /// Only when given: ADK's default of 1 would serialise every call.
    pub parallelism_limit: Option<usize>,
}

impl Default for JudgeModelOptions {
    fn default() -> Self {
        JudgeModelOptions {
            judge_model: None,
            judge_model_config: None,
            num_samples: 5,
            parallelism_limit: None,
        }
    }
}

fn bad(metric: &str, field: &str, v: &Value, expected: &str) -> NotEvaluated {
    NotEvaluated::new(
        "invalid_criterion",
        format!(
            "`{metric}` criterion: `{field}` must be {expected}, found {}",
            crate::schema::config::kind(v)
        ),
    )
}

/// pydantic's lax int (ints, integral floats, numeric strings, booleans).
pub fn lax_int(v: &Value) -> Option<i64> {
    match v {
        Value::Number(n) => n.as_i64().or_else(|| {
            n.as_f64()
                .filter(|f| f.fract() == 0.0 && f.abs() < 9.0e15)
                .map(|f| f as i64)
        }),
        Value::Bool(b) => Some(i64::from(*b)),
        Value::String(s) => s.trim().parse::<i64>().ok(),
        _ => None,
    }
}

/// Reads `judge_model_options` (snake or camel) of a judged criterion.
pub fn judge_options(metric: &str, c: &Criterion) -> Result<JudgeModelOptions, NotEvaluated> {
    let mut o = JudgeModelOptions::default();
    let Some(v) = c.field("judge_model_options", "judgeModelOptions") else {
        return Ok(o);
    };
    let Value::Object(m) = v else {
        return Err(bad(metric, "judge_model_options", v, "an object"));
    };
    for (k, v) in m {
        match k.as_str() {
            "judge_model" | "judgeModel" => match v {
                Value::String(s) => o.judge_model = Some(s.clone()),
                _ => return Err(bad(metric, "judge_model_options.judge_model", v, "a string")),
            },
            "judge_model_config" | "judgeModelConfig" => match v {
                Value::Null => o.judge_model_config = None,
                Value::Object(_) => o.judge_model_config = Some(v.clone()),
                _ => {
                    return Err(bad(
                        metric,
                        "judge_model_options.judge_model_config",
                        v,
                        "an object or null",
                    ))
                }
            },
            "num_samples" | "numSamples" => match lax_int(v) {
                Some(n) if (1..=1000).contains(&n) => o.num_samples = n as u32,
                _ => return Err(bad(metric, "judge_model_options.num_samples", v, "an integer >= 1")),
            },
            "parallelism_limit" | "parallelismLimit" => match lax_int(v) {
                Some(n) if n >= 1 => o.parallelism_limit = Some(n as usize),
                _ => {
                    return Err(bad(
                        metric,
                        "judge_model_options.parallelism_limit",
                        v,
                        "an integer >= 1",
                    ))
                }
            },
            other => {
                return Err(NotEvaluated::new(
                    "invalid_criterion",
                    format!(
                        "`{metric}` criterion: judge_model_options has an unknown field {other:?} (known: judge_model, \
                         judge_model_config, num_samples, parallelism_limit)"
                    ),
                ))
            }
        }
    }
    Ok(o)
}

/// A criterion's `rubrics` list (RubricsBasedCriterion).
pub fn criterion_rubrics(metric: &str, c: &Criterion) -> Result<Vec<Rubric>, NotEvaluated> {
    match c.field("rubrics", "rubrics") {
        None => Ok(Vec::new()),
        Some(v @ Value::Array(_)) => crate::schema::load::parse_as::<Vec<Rubric>>(v)
            .map_err(|e| NotEvaluated::new("invalid_criterion", format!("`{metric}` criterion: rubrics: {e}"))),
        Some(v) => Err(bad(metric, "rubrics", v, "a list of rubrics")),
    }
}

/// A boolean criterion field (lax), default false.
pub fn criterion_flag(metric: &str, c: &Criterion, snake: &str, camel: &str) -> Result<bool, NotEvaluated> {
    match c.field(snake, camel) {
        None => Ok(false),
        Some(v) => lax_bool(v).ok_or_else(|| bad(metric, snake, v, "a boolean")),
    }
}

/// A string criterion field with a default.
pub fn criterion_text(
    metric: &str,
    c: &Criterion,
    snake: &str,
    camel: &str,
    default: &str,
) -> Result<String, NotEvaluated> {
    match c.field(snake, camel) {
        None => Ok(default.to_string()),
        Some(Value::String(s)) => Ok(s.clone()),
        Some(v) => Err(bad(metric, snake, v, "a string")),
    }
}

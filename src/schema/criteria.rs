//! ADK's criterion classes as data (SPEC §2.3): what a criteria entry may hold beyond its
//! threshold, read once when the config is loaded. Which class a metric takes is the metric
//! registry's business; this file knows only the classes, their fields and ADK's coercions.
//!
//! ADK keeps every extra key of a criteria entry and re-validates it into the metric's class
//! when the metric runs: a wrong value makes that metric NOT_EVALUATED, a key the class does not
//! have is ignored. Here both are found at load, with their JSON paths: a wrong value gives a
//! [`Typed::Invalid`] the metric reports as NOT_EVALUATED (as ADK does), and a warning; an
//! ignored or misplaced key gives a warning.

use super::content::JsonObject;
use super::rubric::Rubric;
pub use super::trajectory_fields::{parse_match_type, Alignment, ArgPolicies, ArgPolicy, MatchType, TrajectoryFields};
pub use super::value::{camel, closest, lax_int, snake_of};
use super::value::{kind, lax_bool};
use crate::error::EvalError;
use serde_json::{Map, Value};

/// The criterion class a metric validates its criterion into.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CriterionClass {
    /// `BaseCriterion`: threshold and `include_intermediate_responses_in_final` only.
    Base,
    /// `ToolTrajectoryCriterion`: `match_type`, `ignore_args`, and evalcore's `arg_policies`
    /// (an extra ADK keeps and ignores).
    ToolTrajectory,
    /// evalcore's `tool_parameter_match`: `arg_policies`.
    ToolParameters,
    /// evalcore's `tool_trajectory_f1`: `alignment`, `ignore_args`, `arg_policies`.
    TrajectoryF1,
    /// evalcore's `trajectory_single_tool_use`: `tool_name` (required).
    ToolName,
    /// `LlmAsAJudgeCriterion`: `judge_model_options`.
    LlmAsAJudge,
    /// `RubricsBasedCriterion`: `judge_model_options`, `rubrics`.
    RubricsBased,
    /// `HallucinationsCriterion`: `judge_model_options`, `evaluate_intermediate_nl_responses`.
    Hallucinations,
    /// `LlmBackedUserSimulatorCriterion`: `judge_model_options`, `stop_signal`.
    UserSimulator,
    /// evalcore's hosted-service metrics: `judge_model_options`, `rubrics` (instead of the built-in
    /// ones) and `rubric_group_key` (which of an agents-cli case's `rubric_groups` to grade).
    Hosted,
}

/// What a criterion field holds (for messages, and for the generated TypeScript types).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FieldKind {
    Bool,
    Int,
    Text,
    /// A JSON object or null (a provider's generation config).
    Object,
    MatchType,
    JudgeModelOptions,
    Rubrics,
    /// evalcore's per-tool, per-argument comparison policies.
    ArgPolicies,
    /// `ordered` or `unordered`.
    Alignment,
}

impl CriterionClass {
    pub const ALL: [CriterionClass; 10] = [
        CriterionClass::Base,
        CriterionClass::ToolTrajectory,
        CriterionClass::ToolParameters,
        CriterionClass::TrajectoryF1,
        CriterionClass::ToolName,
        CriterionClass::LlmAsAJudge,
        CriterionClass::RubricsBased,
        CriterionClass::Hallucinations,
        CriterionClass::UserSimulator,
        CriterionClass::Hosted,
    ];

    /// ADK's class name (evalcore's own for `ToolName`).
    pub fn name(self) -> &'static str {
        match self {
            CriterionClass::Base => "BaseCriterion",
            CriterionClass::ToolTrajectory => "ToolTrajectoryCriterion",
            CriterionClass::ToolParameters => "ToolParameterMatchCriterion",
            CriterionClass::TrajectoryF1 => "ToolTrajectoryF1Criterion",
            CriterionClass::ToolName => "ToolNameCriterion",
            CriterionClass::LlmAsAJudge => "LlmAsAJudgeCriterion",
            CriterionClass::RubricsBased => "RubricsBasedCriterion",
            CriterionClass::Hallucinations => "HallucinationsCriterion",
            CriterionClass::UserSimulator => "LlmBackedUserSimulatorCriterion",
            CriterionClass::Hosted => "HostedMetricCriterion",
        }
    }

    /// The class's own fields and what they hold (snake_case; each also accepted in camelCase).
    pub fn fields(self) -> &'static [(&'static str, FieldKind)] {
        use FieldKind::*;
        match self {
            CriterionClass::Base => &[],
            CriterionClass::ToolTrajectory => &[
                ("match_type", MatchType),
                ("ignore_args", Bool),
                ("arg_policies", ArgPolicies),
            ],
            CriterionClass::ToolParameters => &[("arg_policies", ArgPolicies)],
            CriterionClass::TrajectoryF1 => &[
                ("alignment", Alignment),
                ("ignore_args", Bool),
                ("arg_policies", ArgPolicies),
            ],
            CriterionClass::ToolName => &[("tool_name", Text)],
            CriterionClass::LlmAsAJudge => &[("judge_model_options", JudgeModelOptions)],
            CriterionClass::RubricsBased => &[("judge_model_options", JudgeModelOptions), ("rubrics", Rubrics)],
            CriterionClass::Hallucinations => &[
                ("judge_model_options", JudgeModelOptions),
                ("evaluate_intermediate_nl_responses", Bool),
            ],
            CriterionClass::UserSimulator => &[("judge_model_options", JudgeModelOptions), ("stop_signal", Text)],
            CriterionClass::Hosted => &[
                ("judge_model_options", JudgeModelOptions),
                ("rubrics", Rubrics),
                ("rubric_group_key", Text),
            ],
        }
    }

    fn has(self, name: &str) -> bool {
        self.fields().iter().any(|(f, _)| *f == name)
    }

    fn field_names(self) -> impl Iterator<Item = &'static str> {
        self.fields().iter().map(|(f, _)| *f)
    }

    pub fn judged(self) -> bool {
        self.has("judge_model_options")
    }
}

/// ADK's JudgeModelOptions (extras forbidden). `None` where the user gave nothing, so a metric
/// can tell its own default from an explicit value.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct JudgeModelOptions {
    pub judge_model: Option<String>,
    pub judge_model_config: Option<Value>,
    pub num_samples: Option<u32>,
    /// Only when given: ADK's default of 1 would serialise every call.
    pub parallelism_limit: Option<usize>,
}

impl JudgeModelOptions {
    pub const FIELDS: [&'static str; 4] = ["judge_model", "judge_model_config", "num_samples", "parallelism_limit"];
    pub const KINDS: [FieldKind; 4] = [FieldKind::Text, FieldKind::Object, FieldKind::Int, FieldKind::Int];

    /// `num_samples`, or the metric's default (5 in ADK; 1 for the metrics that say so).
    pub fn samples(&self, default: u32) -> u32 {
        self.num_samples.unwrap_or(default)
    }
}

/// The fields of a judged criterion.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct JudgeCriterion {
    pub options: JudgeModelOptions,
    pub rubrics: Vec<Rubric>,
    pub evaluate_intermediate_nl_responses: bool,
    /// `stop_signal` as given (the metric knows its default).
    pub stop_signal: Option<String>,
}

/// A criterion read into its class.
#[derive(Debug, Clone, PartialEq, Default)]
pub enum Typed {
    /// Not read yet: a criterion made in code, not loaded from a config. Metrics read it on use.
    #[default]
    Unchecked,
    Base,
    ToolTrajectory(TrajectoryFields),
    ToolName(String),
    Judge(JudgeCriterion),
    /// A value the class rejects: the metric is NOT_EVALUATED with this message (ADK's rule).
    Invalid {
        path: String,
        message: String,
    },
}

/// What reading a criterion found: the typed value and the warnings (keys ADK would ignore or
/// that sit at the wrong level, and the invalid value, if any).
#[derive(Debug, Clone, PartialEq)]
pub struct Checked {
    pub typed: Typed,
    pub warnings: Vec<EvalError>,
    /// A value of one of evalcore's own fields that cannot be read (`arg_policies`, `alignment`):
    /// ADK would ignore the field, so only evalcore can tell it is wrong, and it says so as an error.
    pub errors: Vec<EvalError>,
}

/// A field under its snake_case name or camelCase alias (pydantic with populate_by_name: the
/// alias wins when both are present).
fn field<'a>(m: &'a Map<String, Value>, snake: &str) -> Option<&'a Value> {
    m.get(&camel(snake)).or_else(|| m.get(snake))
}

/// evalcore's own criterion fields of the trajectory metrics, whose unreadable values are errors
/// (ADK would ignore them, so nothing but evalcore can say they are wrong).
const EVALCORE_FIELDS: [&str; 2] = ["arg_policies", "alignment"];

/// The invalid-value outcome: a path below the criterion and a message naming the metric.
struct Bad {
    field: String,
    message: String,
}

fn bad(field: &str, v: &Value, expected: &str) -> Bad {
    let shown = match v {
        Value::String(s) => format!(" {s:?}"),
        Value::Number(n) => format!(" {n}"),
        _ => String::new(),
    };
    Bad {
        field: field.to_string(),
        message: format!("`{field}` must be {expected}; found {}{shown}", kind(v)),
    }
}

fn judge_model_options(v: &Value) -> Result<JudgeModelOptions, Bad> {
    let mut o = JudgeModelOptions::default();
    let Value::Object(m) = v else {
        return Err(bad("judge_model_options", v, "an object"));
    };
    for (k, v) in m {
        let name = snake_of(k);
        match name.as_str() {
            "judge_model" => match v {
                Value::String(s) => o.judge_model = Some(s.clone()),
                _ => return Err(bad("judge_model_options.judge_model", v, "a string")),
            },
            "judge_model_config" => match v {
                Value::Null => o.judge_model_config = None,
                Value::Object(_) => o.judge_model_config = Some(v.clone()),
                _ => return Err(bad("judge_model_options.judge_model_config", v, "an object or null")),
            },
            "num_samples" => match lax_int(v) {
                Some(n) if (1..=1000).contains(&n) => o.num_samples = Some(n as u32),
                _ => return Err(bad("judge_model_options.num_samples", v, "an integer from 1 to 1000")),
            },
            "parallelism_limit" => match lax_int(v) {
                Some(n) if n >= 1 => o.parallelism_limit = Some(n as usize),
                _ => return Err(bad("judge_model_options.parallelism_limit", v, "an integer >= 1")),
            },
            _ => {
                let hint = closest(k, JudgeModelOptions::FIELDS.iter().copied())
                    .map(|c| format!("; did you mean {c:?}?"))
                    .unwrap_or_default();
                return Err(Bad {
                    field: format!("judge_model_options.{k}"),
                    message: format!(
                        "`judge_model_options` has no field {k:?} (it takes judge_model, judge_model_config, \
                         num_samples, parallelism_limit){hint}"
                    ),
                });
            }
        }
    }
    Ok(o)
}

fn read_typed(class: CriterionClass, m: &Map<String, Value>) -> Result<Typed, Bad> {
    let flag = |name: &str| -> Result<bool, Bad> {
        match field(m, name) {
            None => Ok(false),
            Some(v) => lax_bool(v).ok_or_else(|| bad(name, v, "a boolean")),
        }
    };
    let judge = |c: &mut JudgeCriterion| -> Result<(), Bad> {
        if let Some(v) = field(m, "judge_model_options") {
            c.options = judge_model_options(v)?;
        }
        Ok(())
    };
    Ok(match class {
        CriterionClass::Base => Typed::Base,
        CriterionClass::ToolTrajectory | CriterionClass::ToolParameters | CriterionClass::TrajectoryF1 => {
            let mut t = TrajectoryFields::default();
            if class.has("match_type") {
                if let Some(v) = field(m, "match_type") {
                    t.match_type = parse_match_type(v).ok_or_else(|| {
                        bad(
                            "match_type",
                            v,
                            "EXACT, IN_ORDER or ANY_ORDER (or 0, 1, 2), or evalcore's SUBSET or SUPERSET",
                        )
                    })?;
                }
            }
            if class.has("ignore_args") {
                t.ignore_args = flag("ignore_args")?;
            }
            if class.has("alignment") {
                if let Some(v) = field(m, "alignment").filter(|v| !v.is_null()) {
                    t.alignment = Alignment::ALL
                        .into_iter()
                        .find(|a| v.as_str().map(|s| s.trim().to_lowercase()).as_deref() == Some(a.as_str()))
                        .ok_or_else(|| bad("alignment", v, "\"ordered\" or \"unordered\""))?;
                }
            }
            if let Some(v) = field(m, "arg_policies").filter(|v| !v.is_null()) {
                t.arg_policies = super::arg_policies::parse(v).map_err(|e| Bad {
                    field: format!("arg_policies{}", e.at),
                    message: format!("`arg_policies{}`: {}", e.at, e.message),
                })?;
            }
            Typed::ToolTrajectory(t)
        }
        CriterionClass::ToolName => match field(m, "tool_name") {
            Some(Value::String(s)) => Typed::ToolName(s.clone()),
            Some(v) => return Err(bad("tool_name", v, "a string")),
            None => {
                return Err(Bad {
                    field: String::new(),
                    message: "`tool_name` is required, e.g. {\"threshold\": 1, \"tool_name\": \"roll_die\"}".into(),
                })
            }
        },
        CriterionClass::LlmAsAJudge
        | CriterionClass::RubricsBased
        | CriterionClass::Hallucinations
        | CriterionClass::UserSimulator
        | CriterionClass::Hosted => {
            let mut c = JudgeCriterion::default();
            judge(&mut c)?;
            if let Some(v) = field(m, "rubric_group_key").filter(|v| !v.is_string() && !v.is_null()) {
                return Err(bad("rubric_group_key", v, "a string"));
            }
            if matches!(class, CriterionClass::RubricsBased | CriterionClass::Hosted) {
                c.rubrics = match field(m, "rubrics") {
                    None | Some(Value::Null) => Vec::new(),
                    Some(v @ Value::Array(_)) => super::parse::from_value::<Vec<Rubric>>(v, "$").map_err(|e| Bad {
                        field: format!("rubrics{}", e.path.trim_start_matches('$')),
                        message: format!("`rubrics`: {}", e.message),
                    })?,
                    Some(v) => return Err(bad("rubrics", v, "a list of rubrics")),
                };
            }
            if class == CriterionClass::Hallucinations {
                c.evaluate_intermediate_nl_responses = flag("evaluate_intermediate_nl_responses")?;
            }
            if class == CriterionClass::UserSimulator {
                c.stop_signal = match field(m, "stop_signal") {
                    None => None,
                    Some(Value::String(s)) => Some(s.clone()),
                    Some(v) => return Err(bad("stop_signal", v, "a string")),
                };
            }
            Typed::Judge(c)
        }
    })
}

/// Reads a criterion's keys beyond its threshold (`extra`) into `class`. `path` is the criterion's own JSON path (`$.criteria.name`), `metric`
/// its metric name for messages.
pub fn check(class: CriterionClass, extra: &JsonObject, metric: &str, path: &str) -> Checked {
    let mut warnings = Vec::new();
    for key in extra.keys() {
        let name = snake_of(key);
        if class.has(&name) {
            continue;
        }
        let at = format!("{path}{}", super::value::key_path(key));
        let message = if class.judged() && JudgeModelOptions::FIELDS.contains(&name.as_str()) {
            format!(
                "`{key}` belongs inside `judge_model_options` ({{\"judge_model_options\": {{\"{key}\": ...}}}}); \
                 beside `threshold` ADK ignores it"
            )
        } else if JudgeModelOptions::FIELDS.contains(&name.as_str()) {
            format!("`{key}` only applies to LLM-judged metrics; {metric} ignores it")
        } else {
            let hint = closest(key, class.field_names())
                .map(|c| format!("; did you mean {c:?}?"))
                .unwrap_or_default();
            let takes = if class.fields().is_empty() {
                "takes only `threshold` (and `include_intermediate_responses_in_final`)".to_string()
            } else {
                format!("takes {}", class.field_names().collect::<Vec<_>>().join(", "))
            };
            format!("{metric} ignores `{key}`: its criterion {takes}{hint}")
        };
        warnings.push(EvalError::schema(at, message));
    }
    let mut errors = Vec::new();
    let typed = match read_typed(class, extra) {
        Ok(t) => t,
        Err(b) => {
            let at = if b.field.is_empty() {
                path.to_string()
            } else {
                format!("{path}.{}", b.field)
            };
            let message = format!("{metric}: {}{NOT_EVALUATED_NOTE}", b.message);
            if EVALCORE_FIELDS.iter().any(|f| b.field.starts_with(f)) {
                errors.push(EvalError::schema(at.clone(), message.clone()));
            } else {
                warnings.push(EvalError::schema(at.clone(), message.clone()));
            }
            Typed::Invalid { path: at, message }
        }
    };
    Checked {
        typed,
        warnings,
        errors,
    }
}

/// How a problem's message ends when a run would report the metric NOT_EVALUATED for it; a
/// strict load, where nothing runs, leaves it out.
pub const NOT_EVALUATED_NOTE: &str = " (the metric will be NOT_EVALUATED)";

#[cfg(test)]
#[path = "criteria_tests.rs"]
mod tests;

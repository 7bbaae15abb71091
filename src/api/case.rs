//! One case's evaluation: its arguments (one JSON object, or the case and its invocations as
//! their own texts beside the rest), parsed once into a [`PreparedCase`] and scored under a
//! config, with the result in evalcore's JSON or the skin's column wire.

use super::{columns, config_from_value, options, parse_config, to_json};
use crate::error::{EvalError, Result};
use crate::metrics::call_index::CallIndex;
use crate::metrics::case::{check_case, evaluate_case, CaseRun};
use crate::schema::eval_result::EvalCaseResult;
use crate::schema::load;
use crate::schema::result::Detail;
use crate::schema::{EvalCase, EvalConfig, Invocation};
use serde::Deserialize;
use serde_json::Value;
use std::borrow::Cow;
use std::cell::OnceCell;

/// The argument object of `evaluateInvocations` / `prepareCase`. The two large members may
/// instead come as their own texts ([`PreparedCase::parse_parts`]); either way a missing one is
/// an error.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct CaseArgs {
    #[serde(default, alias = "eval_case")]
    eval_case: Option<EvalCase>,
    #[serde(default)]
    actual: Option<Vec<Invocation>>,
    #[serde(default)]
    config: Value,
    #[serde(default, alias = "eval_set_id")]
    eval_set_id: Option<String>,
    #[serde(default, alias = "include_invocations")]
    include_invocations: Option<bool>,
    #[serde(default, alias = "per_invocation")]
    per_invocation: Option<bool>,
    #[serde(default, alias = "efficiency_metrics")]
    efficiency_metrics: Option<bool>,
    #[serde(default)]
    explain: Option<bool>,
    /// The JS skin's wire: per-invocation results as columns (`api::columns`).
    #[serde(default)]
    columns: Option<bool>,
    /// With `columns`: the skin holds the invocation objects; do not echo them.
    #[serde(default)]
    caller_invocations: Option<bool>,
    /// With `columns`: `evalCase` and `actual` are the texts of the caller's objects, which the
    /// skin holds; echo the invocations only where they would not read the same
    /// (`columns::Echo::CallerIfSame`).
    #[serde(default)]
    caller_objects: Option<bool>,
    /// What the actual invocations' recording did not hold (`loadTraces`' session `missing`).
    #[serde(default)]
    missing: Option<Value>,
    /// The recorded session the invocations come from (`{session_id, user_id?, app_name?}`): it
    /// names the result's session and user, and without `evalCase` it is the case
    /// (reference-free: no expected invocation). Read by hand ([`named`]), as `missing` is.
    #[serde(default)]
    session: Option<Value>,
}

/// `case` with the recorded session's id and user for its result; without a case, a case of the
/// session alone: neither a conversation nor a scenario, so every metric that compares against
/// expected invocations is NOT_EVALUATED for want of them.
fn named(session: &Value, case: Option<EvalCase>) -> Result<EvalCase> {
    let text = |k: &str, alias: &str| session.get(k).or_else(|| session.get(alias)).and_then(Value::as_str);
    let id = text("session_id", "sessionId")
        .ok_or_else(|| EvalError::schema("$.session", "`session` needs a `session_id` (a string)"))?;
    let mut case = case.unwrap_or_else(|| EvalCase {
        eval_id: id.to_string(),
        ..EvalCase::default()
    });
    let input = case.session_input.get_or_insert_with(Default::default);
    if input.app_name.is_empty() {
        input.app_name = text("app_name", "appName").unwrap_or_default().to_string();
    }
    if let Some(user) = text("user_id", "userId") {
        input.user_id = user.to_string();
    }
    input.session_id = Some(id.to_string());
    Ok(case)
}

/// The arguments of one case's evaluation as JSON text: one object, or (as the JS skin sends
/// them) the two large members as their own texts beside an object of the rest, so a 20 MB
/// `actual` read from a file is never copied into a joined string first.
#[derive(Clone, Copy)]
pub enum CaseText<'a> {
    Joined(&'a str),
    Parts {
        eval_case: Option<&'a str>,
        actual: Option<&'a str>,
        rest: &'a str,
    },
}

impl CaseText<'_> {
    pub(crate) fn parse(self) -> Result<PreparedCase> {
        match self {
            CaseText::Joined(args) => PreparedCase::parse(args),
            CaseText::Parts {
                eval_case,
                actual,
                rest,
            } => PreparedCase::parse_parts(eval_case, actual, rest),
        }
    }
}

/// One member of the argument object, given as its own JSON text: parsed alone, its error
/// paths rooted at the member (`$.actual[3].final_response`), as when it is inside the object.
/// Text that is not JSON is reported at the member (the joined object could only say "").
fn member<T: serde::de::DeserializeOwned>(text: &str, name: &str) -> Result<T> {
    load::from_str_within_budget(text).map_err(|e| {
        let path = if e.path.is_empty() {
            format!("$.{name}")
        } else {
            e.path.replacen('$', &format!("$.{name}"), 1)
        };
        EvalError { path, ..e }
    })
}

/// The wire a result is written in: rows (evalcore's JSON) or, for the JS skin, columns.
fn wire_of(columns: Option<bool>, caller_invocations: Option<bool>) -> Option<columns::Echo<'static>> {
    columns
        .unwrap_or(false)
        .then_some(if caller_invocations.unwrap_or(false) {
            columns::Echo::Caller
        } else {
            columns::Echo::Here
        })
}

/// A case and its actual invocations, parsed once.
pub struct PreparedCase {
    pub(super) case: EvalCase,
    pub(super) actual: Vec<Invocation>,
    eval_set_id: String,
    config: Value,
    pub(super) detail: Detail,
    pub(super) efficiency_metrics: bool,
    /// Tool calls interned on the first run that needs them, reused by every later run.
    call_index: OnceCell<CallIndex>,
    /// [`check_case`]'s verdict on the case and its invocations, which never change.
    checked: OnceCell<Result<()>>,
    /// Set for prepared cases (scored many times); a one-shot evaluation compares calls directly.
    reusable: bool,
    /// `None`: results as evalcore's JSON; `Some`: per-invocation results as columns.
    wire: Option<columns::Echo<'static>>,
    /// The skin holds the caller's objects the case and invocations were parsed from.
    caller_objects: bool,
    /// What the actual invocations' recording did not hold.
    pub(super) gaps: Vec<crate::metrics::case::Gap>,
}

#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase")]
struct EvalOptions {
    #[serde(default, alias = "include_invocations")]
    include_invocations: Option<bool>,
    #[serde(default, alias = "per_invocation")]
    per_invocation: Option<bool>,
    #[serde(default, alias = "efficiency_metrics")]
    efficiency_metrics: Option<bool>,
    #[serde(default)]
    explain: Option<bool>,
    #[serde(default)]
    columns: Option<bool>,
    #[serde(default)]
    caller_invocations: Option<bool>,
}

pub(super) fn detail(
    base: Detail,
    include_invocations: Option<bool>,
    per_invocation: Option<bool>,
    explain: Option<bool>,
) -> Detail {
    Detail {
        invocations: include_invocations.unwrap_or(base.invocations),
        per_invocation: per_invocation.unwrap_or(base.per_invocation),
        explain: explain.unwrap_or(base.explain),
    }
}

impl PreparedCase {
    /// A case to be scored several times: tool calls are interned on first use and reused.
    pub fn prepare(args: &str) -> Result<PreparedCase> {
        let mut p = Self::parse(args)?;
        p.reusable = true;
        Ok(p)
    }

    /// A case for one evaluation.
    pub fn parse(args: &str) -> Result<PreparedCase> {
        let a: CaseArgs = load::from_str(args)?;
        Self::from_args(None, None, a)
    }

    /// [`PreparedCase::parse`] of `{"evalCase": eval_case, "actual": actual, ...rest}` with the
    /// two large members as their own texts: the JS skin passes them as it has them (a file's
    /// text, `JSON.stringify`'s output) instead of joining them into one string first. The
    /// result, errors included, is that of the joined text.
    pub fn parse_parts(eval_case: Option<&str>, actual: Option<&str>, rest: &str) -> Result<PreparedCase> {
        let texts: Vec<&str> = [eval_case, actual, Some(rest)].into_iter().flatten().collect();
        crate::schema::budget::check_all(&texts, "the input")?;
        let case: Option<EvalCase> = eval_case.map(|t| member(t, "evalCase")).transpose()?;
        let actual: Option<Vec<Invocation>> = actual.map(|t| member(t, "actual")).transpose()?;
        let a: CaseArgs = load::from_str_within_budget(rest)?;
        Self::from_args(case, actual, a)
    }

    /// The case from the parsed arguments, its members taken from `case` and `actual` when given
    /// apart.
    fn from_args(case: Option<EvalCase>, actual: Option<Vec<Invocation>>, a: CaseArgs) -> Result<PreparedCase> {
        // A missing member is reported at the object, as a typed parse reports a missing field.
        let missing = |field: &str| EvalError::schema("$", format!("missing field `{field}`"));
        let case = match (case.or(a.eval_case), &a.session) {
            (case, Some(session)) if !session.is_null() => named(session, case)?,
            (Some(case), _) => case,
            (None, _) => return Err(missing("evalCase")),
        };
        let actual = actual.or(a.actual).ok_or_else(|| missing("actual"))?;
        Ok(PreparedCase {
            case,
            actual,
            eval_set_id: a.eval_set_id.unwrap_or_default(),
            config: a.config,
            detail: detail(Detail::default(), a.include_invocations, a.per_invocation, a.explain),
            efficiency_metrics: a.efficiency_metrics.unwrap_or(true),
            call_index: OnceCell::new(),
            checked: OnceCell::new(),
            reusable: false,
            wire: wire_of(a.columns, a.caller_invocations),
            caller_objects: a.caller_objects.unwrap_or(false),
            gaps: match &a.missing {
                None | Some(Value::Null) => Vec::new(),
                Some(m) => crate::metrics::case::Gap::list(m).map_err(|e| EvalError::schema("$.missing", e))?,
            },
        })
    }

    /// [`PreparedCase::prepare`] from parts (see [`PreparedCase::parse_parts`]).
    pub fn prepare_parts(eval_case: Option<&str>, actual: Option<&str>, rest: &str) -> Result<PreparedCase> {
        let mut p = Self::parse_parts(eval_case, actual, rest)?;
        p.reusable = true;
        Ok(p)
    }

    /// Whether to intern tool calls: only a case that can be scored again gains from it, and only
    /// when a trajectory metric will use the index.
    fn reuse_index(&self, config: &EvalConfig) -> bool {
        self.reusable
            && config
                .criteria
                .keys()
                .any(|k| k.starts_with("tool_trajectory") || k.starts_with("trajectory_"))
    }

    /// The config that came with the case, its error paths rooted at `$.config`.
    pub(super) fn own_config(&self) -> Result<EvalConfig> {
        config_from_value(&self.config).map_err(|e| EvalError {
            path: e.path.replacen('$', "$.config", 1),
            ..e
        })
    }

    fn run(
        &self,
        config: &EvalConfig,
        detail: Detail,
        efficiency_metrics: bool,
        wire: Option<columns::Echo<'_>>,
    ) -> Result<String> {
        let call_index = self.reuse_index(config).then(|| {
            self.call_index
                .get_or_init(|| CallIndex::build(&self.actual, self.case.conversation.as_deref()))
        });
        self.checked
            .get_or_init(|| check_case(&self.case, &self.actual))
            .clone()?;
        let run = CaseRun {
            efficiency_metrics,
            call_index,
            explain: detail.explains(),
            checked: true,
            gaps: &self.gaps,
        };
        let outcome = evaluate_case(&self.case, &self.actual, config, &run)?;
        Ok(self.result_json(outcome, detail, wire))
    }

    /// The EvalCaseResult of `outcome` as evalcore's JSON (the invocations borrowed), or in the
    /// skin's column wire.
    pub(super) fn result_json(
        &self,
        outcome: crate::schema::result::CaseOutcome,
        detail: Detail,
        wire: Option<columns::Echo<'_>>,
    ) -> String {
        if let Some(echo) = wire {
            return columns::result_json(&self.eval_set_id, &self.case, &self.actual, outcome, detail, echo);
        }
        let actual = self.actual.iter().map(Cow::Borrowed).collect();
        to_json(&EvalCaseResult::of(
            &self.eval_set_id,
            &self.case,
            actual,
            outcome,
            detail,
        ))
    }

    /// Scores under `config` (JSON text; "" = the config given at parse time, or ADK's defaults).
    pub fn evaluate(&self, config: &str, opts: &str) -> Result<String> {
        let cfg = if config.trim().is_empty() {
            self.own_config()?
        } else {
            parse_config(config)?
        };
        let o: EvalOptions = options(opts)?;
        let efficiency = o.efficiency_metrics.unwrap_or(self.efficiency_metrics);
        let wire = match o.columns {
            Some(_) => wire_of(o.columns, o.caller_invocations),
            None => self.wire,
        };
        self.run(
            &cfg,
            detail(self.detail, o.include_invocations, o.per_invocation, o.explain),
            efficiency,
            wire,
        )
    }
}

/// `evaluateInvocations` for deterministic metrics: one case, scored without running an agent.
pub fn evaluate_invocations(args: &str) -> Result<String> {
    let p = PreparedCase::parse(args)?;
    let cfg = p.own_config()?;
    p.run(&cfg, p.detail, p.efficiency_metrics, p.wire)
}

/// [`evaluate_invocations`] from parts (see [`PreparedCase::parse_parts`]).
pub fn evaluate_invocations_parts(eval_case: Option<&str>, actual: Option<&str>, rest: &str) -> Result<String> {
    let p = PreparedCase::parse_parts(eval_case, actual, rest)?;
    let cfg = p.own_config()?;
    let wire = p.echo_for(CaseText::Parts {
        eval_case,
        actual,
        rest,
    });
    p.run(&cfg, p.detail, p.efficiency_metrics, wire)
}

impl PreparedCase {
    /// The wire of a one-shot result: when the skin holds the caller's objects the case and
    /// invocations were parsed from (given apart), they may stand in for the echo.
    pub(super) fn echo_for<'a>(&self, args: CaseText<'a>) -> Option<columns::Echo<'a>> {
        match (self.wire, args) {
            (
                Some(columns::Echo::Here),
                CaseText::Parts {
                    eval_case: Some(case),
                    actual: Some(actual),
                    ..
                },
            ) if self.caller_objects => Some(columns::Echo::CallerIfSame { actual, case }),
            (wire, _) => wire,
        }
    }
}

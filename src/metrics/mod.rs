//! The metric registry, the evaluator contract and the aggregation rules every metric shares.

pub mod alignment;
pub mod args;
pub mod call_index;
pub mod case;
pub mod custom;
pub mod efficiency;
pub mod explain;
pub mod info;
pub mod judged;
pub mod pyeq;
pub mod response_match;
pub mod tool_parameter_match;
pub mod trajectory;
pub mod trajectory_f1;

use crate::schema::criteria::{self, CriterionClass, JudgeCriterion, Typed};
use crate::schema::eval_set::ConversationScenario;
use crate::schema::result::{Cell, EvalStatus};
use crate::schema::{Criterion, Invocation};
use std::borrow::Cow;

/// What an evaluator sees: actual invocations, expected ones (static cases) and the scenario.
pub struct Ctx<'a> {
    pub actual: &'a [Invocation],
    pub expected: Option<&'a [Invocation]>,
    pub scenario: Option<&'a ConversationScenario>,
    /// Interned tool calls, when the caller keeps them between runs (prepared cases).
    pub call_index: Option<&'a call_index::CallIndex>,
    /// The case's own rubrics (copied onto every actual invocation by ADK).
    pub case_rubrics: Option<&'a [crate::schema::eval_set::Rubric]>,
    /// Per-invocation results will be written: metrics explain an invocation (a trajectory's
    /// mismatch) only then, since a case-level result would throw the explanation away.
    pub explain: bool,
    /// The case's keys beyond ADK's (an agents-cli case's `reference`, `context`,
    /// `rubric_groups` and custom fields), which custom LLM metrics and hosted metrics read.
    pub case_extra: Option<&'a crate::schema::content::JsonObject>,
}

/// An evaluator's answer: the case-level cell and one cell per actual invocation.
pub struct Outcome {
    pub overall: Cell,
    pub per_invocation: Vec<Cell>,
}

/// Why a metric could not be computed; becomes a NOT_EVALUATED result with `details.error`.
#[derive(Debug, Clone, PartialEq)]
pub struct NotEvaluated {
    pub reason: &'static str,
    pub message: String,
}

impl NotEvaluated {
    pub fn new(reason: &'static str, message: impl Into<String>) -> Self {
        NotEvaluated {
            reason,
            message: message.into(),
        }
    }
}

pub type MetricFn = fn(&Ctx, &Criterion) -> Result<Outcome, NotEvaluated>;
pub type InfoFn = fn(&Ctx) -> Outcome;

/// How a registered metric is computed.
#[derive(Clone, Copy)]
pub enum Kind {
    /// Deterministic metric with a threshold.
    Scored(MetricFn),
    /// Always-on informational metric (takes no threshold).
    Informational(InfoFn),
    /// Judged by an LLM through a [`crate::judge::JudgePort`].
    Judged(judged::JudgedFn),
}

/// Which way a metric's score is better.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Direction {
    HigherIsBetter,
    LowerIsBetter,
}

impl Kind {
    /// Every ADK 2.13 built-in passes on `score >= threshold` (SPEC §3.1), so a higher score is
    /// better; informational metrics have no threshold, and report counts for which the same holds.
    pub fn direction(self) -> Direction {
        match self {
            Kind::Scored(_) | Kind::Informational(_) | Kind::Judged(_) => Direction::HigherIsBetter,
        }
    }
}

/// The direction of a registered metric; None for a metric the registry does not know (a host's
/// custom metric, whose direction only its own statuses can tell, as ADK's AgentEvaluator does).
pub fn direction(name: &str) -> Option<Direction> {
    lookup(name).map(Kind::direction)
}

/// ADK 2.13's four always-on efficiency metrics, in the order ADK appends them.
pub const EFFICIENCY: [(&str, InfoFn); 4] = [
    ("tool_call_count_v1", efficiency::tool_call_count),
    ("inference_call_count_v1", efficiency::inference_call_count),
    ("token_usage_v1", efficiency::token_usage),
    ("invocation_duration_v1", efficiency::invocation_duration),
];

/// Every metric evalcore knows (ADK 2.13's registry, the trajectory extras and agents-cli's names
/// for the hosted service's metrics), how it is computed and which criterion class it reads; the
/// efficiency metrics are in EFFICIENCY. Read at compile time only: the code runs on the two
/// tables made from it below, so what only checks names and criteria (a config's reader, the
/// extras module's converters) links no metric's code.
const REGISTRY: [(&str, Kind, CriterionClass); 25] = [
    (
        "tool_trajectory_avg_score",
        Kind::Scored(trajectory::avg_score),
        CriterionClass::ToolTrajectory,
    ),
    (
        "response_match_score",
        Kind::Scored(response_match::score),
        CriterionClass::Base,
    ),
    (
        "trajectory_precision",
        Kind::Scored(trajectory::precision),
        CriterionClass::ToolTrajectory,
    ),
    (
        "trajectory_recall",
        Kind::Scored(trajectory::recall),
        CriterionClass::ToolTrajectory,
    ),
    (
        "trajectory_single_tool_use",
        Kind::Scored(trajectory::single_tool_use),
        CriterionClass::ToolName,
    ),
    (
        "tool_parameter_match",
        Kind::Scored(tool_parameter_match::score),
        CriterionClass::ToolParameters,
    ),
    (
        "tool_trajectory_f1",
        Kind::Scored(trajectory_f1::score),
        CriterionClass::TrajectoryF1,
    ),
    (
        "final_response_match_v2",
        Kind::Judged(judged::response_match_v2),
        CriterionClass::LlmAsAJudge,
    ),
    (
        "rubric_based_final_response_quality_v1",
        Kind::Judged(judged::final_response_quality),
        CriterionClass::RubricsBased,
    ),
    (
        "rubric_based_tool_use_quality_v1",
        Kind::Judged(judged::tool_use_quality),
        CriterionClass::RubricsBased,
    ),
    (
        "rubric_based_multi_turn_trajectory_quality_v1",
        Kind::Judged(judged::multi_turn_trajectory),
        CriterionClass::RubricsBased,
    ),
    (
        "hallucinations_v1",
        Kind::Judged(judged::hallucinations),
        CriterionClass::Hallucinations,
    ),
    ("safety_v1", Kind::Judged(judged::safety), CriterionClass::LlmAsAJudge),
    (
        "per_turn_user_simulator_quality_v1",
        Kind::Judged(judged::user_turn_quality),
        CriterionClass::UserSimulator,
    ),
    // ADK 2.13's names for metrics of Google's hosted evaluation service, judged here.
    (
        "response_evaluation_score",
        Kind::Judged(judged::coherence),
        CriterionClass::LlmAsAJudge,
    ),
    ("multi_turn_task_success_v1", HOSTED, CriterionClass::Hosted),
    ("multi_turn_trajectory_quality_v1", HOSTED, CriterionClass::Hosted),
    ("multi_turn_tool_use_quality_v1", HOSTED, CriterionClass::Hosted),
    // agents-cli's names for the hosted service's metrics, judged here.
    ("multi_turn_task_success", HOSTED, CriterionClass::Hosted),
    ("multi_turn_trajectory_quality", HOSTED, CriterionClass::Hosted),
    ("multi_turn_tool_use_quality", HOSTED, CriterionClass::Hosted),
    ("final_response_quality", HOSTED, CriterionClass::Hosted),
    ("tool_use_quality", HOSTED, CriterionClass::Hosted),
    (
        "hallucination",
        Kind::Judged(judged::hallucinations),
        CriterionClass::Hallucinations,
    ),
    ("safety", Kind::Judged(judged::safety), CriterionClass::LlmAsAJudge),
];

const HOSTED: Kind = Kind::Judged(judged::hosted);

/// EFFICIENCY's names, without the code that computes them.
// Evaluated at compile time: an index out of bounds is a build error, not a panic.
#[allow(clippy::indexing_slicing)]
static EFFICIENCY_NAMES: [&str; EFFICIENCY.len()] = {
    let mut out = [""; EFFICIENCY.len()];
    let mut i = 0;
    while i < EFFICIENCY.len() {
        out[i] = EFFICIENCY[i].0;
        i += 1;
    }
    out
};

/// REGISTRY's names and criterion classes, without the code that computes them.
// Evaluated at compile time: an index out of bounds is a build error, not a panic.
#[allow(clippy::indexing_slicing)]
static CATALOG: [(&str, CriterionClass); REGISTRY.len()] = {
    let mut out = [("", CriterionClass::Base); REGISTRY.len()];
    let mut i = 0;
    while i < REGISTRY.len() {
        out[i] = (REGISTRY[i].0, REGISTRY[i].2);
        i += 1;
    }
    out
};

/// REGISTRY's computations, in CATALOG's order.
// Evaluated at compile time: an index out of bounds is a build error, not a panic.
#[allow(clippy::indexing_slicing)]
static KINDS: [Kind; REGISTRY.len()] = {
    let mut out = [HOSTED; REGISTRY.len()];
    let mut i = 0;
    while i < REGISTRY.len() {
        out[i] = REGISTRY[i].1;
        i += 1;
    }
    out
};

/// A metric written in Rust by an application embedding the core: registered per evaluation
/// through [`case::Ports::metrics`], looked up by name before the built-ins (so it can also
/// replace one), and given the judge when the evaluation has one. The built-ins are served
/// through the same trait ([`Builtin`]).
pub trait Metric {
    fn name(&self) -> &str;
    fn evaluate<'a>(
        &'a self,
        ctx: &'a Ctx<'a>,
        criterion: &'a Criterion,
        judge: Option<&'a dyn crate::judge::JudgePort>,
    ) -> futures_util::future::LocalBoxFuture<'a, Result<Outcome, NotEvaluated>>;
}

/// A built-in metric of the registry table, as a [`Metric`].
pub struct Builtin {
    pub name: &'static str,
    pub kind: Kind,
}

impl Metric for Builtin {
    fn name(&self) -> &str {
        self.name
    }

    fn evaluate<'a>(
        &'a self,
        ctx: &'a Ctx<'a>,
        criterion: &'a Criterion,
        judge: Option<&'a dyn crate::judge::JudgePort>,
    ) -> futures_util::future::LocalBoxFuture<'a, Result<Outcome, NotEvaluated>> {
        let name = self.name;
        match (self.kind, judge) {
            (Kind::Judged(f), Some(j)) => f(ctx, criterion, j, name),
            (Kind::Judged(_), None) => Box::pin(async move {
                Err(NotEvaluated::new(
                    "needs_judge",
                    format!("{name} is judged by an LLM: pass a `judge` ({{provider, model, baseUrl?, fetch?}}) to evaluate it"),
                ))
            }),
            (Kind::Scored(f), _) => Box::pin(async move { f(ctx, criterion) }),
            (Kind::Informational(_), _) => Box::pin(async move {
                Err(NotEvaluated::new(
                    "threshold_not_allowed",
                    format!("{name} is informational and always reported; it takes no threshold, so remove it from `criteria`"),
                ))
            }),
        }
    }
}

/// The built-in metric of this name, as a [`Metric`].
pub fn builtin(name: &str) -> Option<Builtin> {
    let name: &'static str = known_metrics().find(|n| *n == name)?;
    lookup(name).map(|kind| Builtin { name, kind })
}

/// Looks a metric up by name.
pub fn lookup(name: &str) -> Option<Kind> {
    let scored = CATALOG
        .iter()
        .position(|(n, _)| *n == name)
        .and_then(|i| KINDS.get(i).copied());
    scored.or_else(|| {
        EFFICIENCY
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, f)| Kind::Informational(*f))
    })
}

/// Whether evalcore knows a metric of this name (links no metric's code, as `lookup` does).
pub fn is_known(name: &str) -> bool {
    known_metrics().any(|n| n == name)
}

/// Every metric name evalcore knows, for error messages and listings.
pub fn known_metrics() -> impl Iterator<Item = &'static str> {
    CATALOG.iter().map(|(n, _)| *n).chain(EFFICIENCY_NAMES.iter().copied())
}

/// Whether the metric is one of ADK's always-on informational (efficiency) metrics.
pub fn is_informational(name: &str) -> bool {
    EFFICIENCY_NAMES.contains(&name)
}

/// The criterion class a known metric reads (Base for the efficiency metrics).
pub fn criterion_class(name: &str) -> Option<CriterionClass> {
    CATALOG
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, c)| *c)
        .or_else(|| is_informational(name).then_some(CriterionClass::Base))
}

/// The criterion of `metric` in its class: as typed at config load, or read now when the
/// criterion was made in code.
pub fn typed<'a>(metric: &str, c: &'a Criterion) -> Cow<'a, Typed> {
    match &c.typed {
        Typed::Unchecked => {
            let class = criterion_class(metric).unwrap_or(CriterionClass::Base);
            Cow::Owned(criteria::check(class, &c.extra, metric, "$").typed)
        }
        t => Cow::Borrowed(t),
    }
}

/// The NOT_EVALUATED of a criterion its class rejected at load.
pub(crate) fn invalid(t: &Typed) -> Option<NotEvaluated> {
    match t {
        Typed::Invalid { message, .. } => Some(NotEvaluated::new("invalid_criterion", message.clone())),
        _ => None,
    }
}

/// The fields of a judged criterion (defaults when the criterion has none).
pub fn judge_criterion<'a>(metric: &str, c: &'a Criterion) -> Result<Cow<'a, JudgeCriterion>, NotEvaluated> {
    match typed(metric, c) {
        Cow::Borrowed(Typed::Judge(j)) => Ok(Cow::Borrowed(j)),
        Cow::Owned(Typed::Judge(j)) => Ok(Cow::Owned(j)),
        t => match invalid(&t) {
            Some(e) => Err(e),
            None => Ok(Cow::Owned(JudgeCriterion::default())),
        },
    }
}

/// ADK's pass rule: `score >= threshold` (plain float comparison), NOT_EVALUATED without a score.
pub fn pass(score: Option<f64>, threshold: f64) -> EvalStatus {
    match score {
        None => EvalStatus::NotEvaluated,
        Some(s) if s >= threshold => EvalStatus::Passed,
        Some(_) => EvalStatus::Failed,
    }
}

/// Left-to-right float sum divided by the count (ADK's trajectory/ROUGE averaging); None when empty.
pub fn seq_mean(values: impl IntoIterator<Item = f64>) -> Option<f64> {
    let (sum, n) = values.into_iter().fold((0.0f64, 0usize), |(s, n), v| (s + v, n + 1));
    (n > 0).then(|| sum / n as f64)
}

/// Expected invocations, or the NOT_EVALUATED reason ADK's reference-based metrics raise with.
pub fn require_expected<'a>(ctx: &Ctx<'a>, metric: &str) -> Result<&'a [Invocation], NotEvaluated> {
    let expected = ctx.expected.ok_or_else(|| {
        let why = if ctx.scenario.is_some() {
            "this case has none (conversation_scenario)"
        } else {
            "a recorded session scored without an eval case has none (give an eval set whose case matches the session)"
        };
        NotEvaluated::new(
            "missing_expected",
            format!("{metric} compares against expected invocations, and {why}"),
        )
    })?;
    if expected.len() != ctx.actual.len() {
        return Err(NotEvaluated::new(
            "count_mismatch",
            format!(
                "{} actual invocations but {} expected ones",
                ctx.actual.len(),
                expected.len()
            ),
        ));
    }
    Ok(expected)
}

/// The common shape of a reference-based 0..1 metric: score each pair, pass rule per invocation,
/// sequential mean for the case.
pub fn per_pair(
    ctx: &Ctx,
    criterion: &Criterion,
    metric: &str,
    score: impl FnMut(usize) -> f64,
) -> Result<Outcome, NotEvaluated> {
    let expected = require_expected(ctx, metric)?;
    Ok(per_invocation(expected.len(), criterion.threshold, score))
}

/// [`per_pair`] whose score also gives the invocation's `details.trajectory` (the explanation of
/// a trajectory metric's score below 1).
pub fn per_pair_explained(
    ctx: &Ctx,
    criterion: &Criterion,
    metric: &str,
    score: impl FnMut(usize) -> (f64, Option<serde_json::Value>),
) -> Result<Outcome, NotEvaluated> {
    let expected = require_expected(ctx, metric)?;
    Ok(per_invocation_explained(expected.len(), criterion.threshold, score))
}

/// Scores invocations `0..n` with `score`: pass rule per invocation, sequential mean for the
/// case; no invocations is ADK's empty result.
pub fn per_invocation(n: usize, threshold: f64, mut score: impl FnMut(usize) -> f64) -> Outcome {
    per_invocation_explained(n, threshold, |i| (score(i), None))
}

fn per_invocation_explained(
    n: usize,
    threshold: f64,
    mut score: impl FnMut(usize) -> (f64, Option<serde_json::Value>),
) -> Outcome {
    if n == 0 {
        return empty_outcome();
    }
    let mut sum = 0.0;
    let per_invocation: Vec<Cell> = (0..n)
        .map(|i| {
            let (s, why) = score(i);
            sum += s;
            let mut cell = Cell::new(Some(s), pass(Some(s), threshold));
            if why.is_some() {
                cell.details.trajectory = why;
            }
            cell
        })
        .collect();
    let overall = sum / n as f64;
    Outcome {
        overall: Cell::new(Some(overall), pass(Some(overall), threshold)),
        per_invocation,
    }
}

/// ADK's empty EvaluationResult: no score, NOT_EVALUATED, no per-invocation results.
pub fn empty_outcome() -> Outcome {
    Outcome {
        overall: Cell::not_evaluated("no_invocations", "there are no invocations to score".to_string()),
        per_invocation: Vec::new(),
    }
}

/// A named tool call with JSON args, for the metric tests.
#[cfg(test)]
pub(crate) fn test_call(name: &str, args: serde_json::Value) -> crate::schema::FunctionCall {
    crate::schema::FunctionCall {
        name: Some(name.into()),
        args: args.as_object().cloned(),
        ..Default::default()
    }
}

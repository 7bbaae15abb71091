//! Scores one case: invocation alignment, rubric hand-over, every configured metric in order,
//! the always-on efficiency metrics, and the case status (SPEC §4.3-4.5).

use super::call_index::CallIndex;
use super::judged::llm_metric;
use super::{known_metrics, Ctx, Metric, NotEvaluated, Outcome, EFFICIENCY};
use crate::error::{ErrorCode, EvalError, Result};
use crate::schema::result::{CaseOutcome, Cell, EvalStatus, MetricHeader, MetricRun};
use crate::schema::{Criterion, EvalCase, EvalConfig, Invocation};
use std::collections::HashSet;

/// Hard errors ADK raises outside its per-metric guard: count mismatch, duplicate rubric ids.
pub fn check_case(case: &EvalCase, actual: &[Invocation]) -> Result<()> {
    if let Some(expected) = &case.conversation {
        if expected.len() != actual.len() {
            return Err(EvalError::new(
                ErrorCode::CountMismatch,
                "$.actual",
                format!(
                    "the agent produced {} invocations but eval case {:?} has {} conversation turns; \
                     a static conversation is compared turn by turn, so the counts must match",
                    actual.len(),
                    case.eval_id,
                    expected.len()
                ),
            ));
        }
    }
    // ADK copies case rubrics and the expected invocation's rubrics onto each actual invocation;
    // an id met twice there aborts the whole evaluation.
    let count = |r: Option<&Vec<_>>| r.map_or(0, Vec::len);
    for (i, a) in actual.iter().enumerate() {
        let expected_rubrics = case
            .conversation
            .as_ref()
            .and_then(|c| c.get(i))
            .and_then(|e| e.rubrics.as_ref());
        let sources = [a.rubrics.as_ref(), case.rubrics.as_ref(), expected_rubrics];
        // Fewer than two rubrics cannot repeat an id (most invocations have none).
        if sources.iter().map(|r| count(*r)).sum::<usize>() < 2 {
            continue;
        }
        let mut ids: HashSet<&str> = HashSet::new();
        for r in sources.into_iter().flatten().flatten() {
            if !ids.insert(r.rubric_id.as_str()) {
                return Err(EvalError::new(
                    ErrorCode::DuplicateId,
                    "$.evalCase.rubrics".to_string(),
                    format!(
                        "rubric_id {:?} is defined more than once for invocation {i} (case-level and \
                         invocation-level rubrics are merged, so their ids must be distinct)",
                        r.rubric_id
                    ),
                ));
            }
        }
    }
    Ok(())
}

fn not_evaluated_run(header: MetricHeader, n: usize, why: NotEvaluated) -> MetricRun {
    let per_invocation = (0..n)
        .map(|_| Cell::not_evaluated(why.reason, why.message.clone()))
        .collect();
    let overall = Cell::not_evaluated(why.reason, why.message);
    MetricRun {
        header,
        overall,
        per_invocation,
    }
}

/// An evaluator's result attached to the case: per-invocation cells only when there is one per
/// actual invocation (ADK's rule), placeholders otherwise.
fn attach(header: MetricHeader, n: usize, out: Outcome) -> MetricRun {
    let per_invocation = if out.per_invocation.len() == n {
        out.per_invocation
    } else {
        let why = "the metric gave no result per invocation (only a case-level one)";
        (0..n)
            .map(|_| Cell::not_evaluated("no_per_invocation_result", why.to_string()))
            .collect()
    };
    MetricRun {
        header,
        overall: out.overall,
        per_invocation,
    }
}

fn unknown_metric(name: &str) -> NotEvaluated {
    let hint = crate::schema::value::closest(name, known_metrics())
        .map(|k| format!("did you mean {k:?}? "))
        .unwrap_or_default();
    NotEvaluated::new(
        "unknown_metric",
        format!(
            "unknown metric {name:?}; {hint}known metrics: {}",
            known_metrics().collect::<Vec<_>>().join(", ")
        ),
    )
}

/// ADK's case status: the first FAILED wins, else PASSED if any passed, else NOT_EVALUATED.
pub fn final_status(metrics: &[MetricRun]) -> EvalStatus {
    let mut status = EvalStatus::NotEvaluated;
    for m in metrics {
        match m.overall.status {
            EvalStatus::Failed => return EvalStatus::Failed,
            EvalStatus::Passed => status = EvalStatus::Passed,
            _ => {}
        }
    }
    status
}

/// What to compute beyond the configured metrics, and state kept between runs of one case.
pub struct CaseRun<'a> {
    /// Append ADK's four always-on efficiency metrics (ADK always does; off only on request).
    pub efficiency_metrics: bool,
    /// Interned tool calls of this case, if the caller keeps them.
    pub call_index: Option<&'a CallIndex>,
    /// Per-invocation results will be written (metrics explain invocations only then).
    pub explain: bool,
    /// The caller has passed this case and these invocations through [`check_case`] already
    /// (a prepared case checks once, not on every run).
    pub checked: bool,
    /// What the actual invocations' recording did not hold (a trace without content).
    pub gaps: &'a [Gap],
}

/// A part of an actual invocation that its recording did not hold (`loadTraces`' `missing`):
/// a metric that reads it is NOT_EVALUATED with the reason, never scored on what is not there.
#[derive(Debug, Clone, PartialEq)]
pub struct Gap {
    pub invocation: usize,
    /// `user_content`, `final_response`, `tool_args`, `tool_responses`.
    pub field: String,
    pub reason: String,
}

impl Gap {
    /// The gaps of a `missing` list (`[{invocation, field, reason}]`), read by hand: a derived
    /// reader would cost the main wasm module more than this.
    pub fn list(v: &serde_json::Value) -> std::result::Result<Vec<Gap>, String> {
        let items = v
            .as_array()
            .ok_or("`missing` must be a list of {invocation, field, reason}")?;
        items
            .iter()
            .map(|g| {
                let field = g.get("field").and_then(|f| f.as_str());
                match (g.get("invocation").and_then(|i| i.as_u64()), field) {
                    (Some(i), Some(f)) => Ok(Gap {
                        invocation: i as usize,
                        field: f.to_string(),
                        reason: g
                            .get("reason")
                            .and_then(|r| r.as_str())
                            .unwrap_or("not recorded")
                            .to_string(),
                    }),
                    _ => Err("each `missing` item needs an `invocation` index and a `field`".to_string()),
                }
            })
            .collect()
    }
}

/// The invocation fields a metric reads beyond tool names, usage and timings, by its criterion
/// class (the efficiency metrics read none); None for a metric the registry does not know (a
/// custom one may read anything).
fn reads(metric: &str) -> Option<&'static [&'static str]> {
    use crate::schema::criteria::CriterionClass as C;
    let class = super::criterion_class(metric)?;
    Some(match class {
        _ if super::EFFICIENCY.iter().any(|(n, _)| *n == metric) => &[],
        C::ToolName => &[],
        C::ToolTrajectory | C::ToolParameters | C::TrajectoryF1 => &["tool_args"],
        // response_match_score.
        C::Base => &["final_response"],
        C::LlmAsAJudge => &["user_content", "final_response"],
        C::UserSimulator => &["user_content"],
        C::RubricsBased | C::Hallucinations | C::Hosted => {
            &["user_content", "final_response", "tool_args", "tool_responses"]
        }
    })
}

/// NOT_EVALUATED for `metric` when a gap holds what it reads.
fn blocked(metric: &str, gaps: &[Gap]) -> Option<NotEvaluated> {
    let fields = reads(metric);
    let g = gaps
        .iter()
        .find(|g| fields.is_none_or(|f| f.contains(&g.field.as_str())))?;
    Some(NotEvaluated::new(
        "not_recorded",
        format!(
            "{metric} reads {} of invocation {}, which was not recorded: {}",
            g.field, g.invocation, g.reason
        ),
    ))
}

/// The host capabilities a case evaluation may use: a judge, and custom metrics.
#[derive(Clone, Copy, Default)]
pub struct Ports<'a> {
    pub judge: Option<&'a dyn crate::judge::JudgePort>,
    pub custom: Option<&'a dyn super::custom::CustomPort>,
    /// Rust metrics of the embedding application, looked up before the built-ins.
    pub metrics: &'a [&'a dyn super::Metric],
}

fn header_of(name: &str, criterion: &Criterion) -> MetricHeader {
    // An informational custom LLM metric was given no threshold: it reports a score only.
    let informational = criterion.extra.get("informational") == Some(&serde_json::Value::Bool(true));
    MetricHeader {
        name: name.to_string(),
        threshold: (!informational).then_some(criterion.threshold),
        criterion: Some(criterion.to_json()),
    }
}

/// One configured metric, the one dispatch path for every caller: a custom metric of the host,
/// then the embedding application's Rust metrics, then a metric the criterion defines itself (an
/// LLM metric's `prompt_template`; a Python `custom_function`, which cannot run here), then the
/// built-ins (which answer at once unless they ask the judge).
async fn run_configured(name: &str, criterion: &Criterion, ctx: &Ctx<'_>, ports: Ports<'_>, gaps: &[Gap]) -> MetricRun {
    let n = ctx.actual.len();
    let header = header_of(name, criterion);
    let result = if let Some(why) = blocked(name, gaps) {
        Err(why)
    } else if let Some(custom) = ports.custom.filter(|c| c.has(name)) {
        super::custom::run(custom, name, ctx, criterion).await
    } else if let Some(m) = ports.metrics.iter().find(|m| m.name() == name) {
        m.evaluate(ctx, criterion, ports.judge).await
    } else if llm_metric::is_llm_metric(criterion) {
        match ports.judge {
            Some(j) => llm_metric::llm_metric(ctx, criterion, j, name).await,
            None => Err(NotEvaluated::new(
                "needs_judge",
                format!("{name} is a custom LLM metric: pass a `judge` ({{provider, model, baseUrl?, fetch?}}) to evaluate it"),
            )),
        }
    } else if llm_metric::is_code_metric(criterion) {
        Err(llm_metric::code_metric(name))
    } else if let Some(b) = super::builtin(name) {
        b.evaluate(ctx, criterion, ports.judge).await
    } else {
        Err(unknown_metric(name))
    };
    match result {
        Ok(out) => attach(header, n, out),
        Err(why) => not_evaluated_run(header, n, why),
    }
}

/// Evaluates `actual` against `case` under `config`, with judged and custom metrics through
/// `ports`. Metrics run concurrently; results keep the config's order.
pub async fn evaluate_case_with(
    case: &EvalCase,
    actual: &[Invocation],
    config: &EvalConfig,
    run: &CaseRun<'_>,
    ports: Ports<'_>,
) -> Result<CaseOutcome> {
    if !run.checked {
        check_case(case, actual)?;
    }
    let ctx = Ctx {
        actual,
        expected: case.conversation.as_deref(),
        scenario: case.conversation_scenario.as_ref(),
        call_index: run.call_index,
        case_rubrics: case.rubrics.as_deref(),
        explain: run.explain,
        case_extra: Some(&case.extra),
    };
    let ctx = &ctx;
    let futs = config
        .criteria
        .iter()
        .map(|(name, criterion)| run_configured(name, criterion, ctx, ports, run.gaps));
    let mut metrics: Vec<MetricRun> = futures_util::future::join_all(futs).await;
    append_efficiency(&mut metrics, config, ctx, run);
    let final_status = final_status(&metrics);
    Ok(CaseOutcome { metrics, final_status })
}

fn append_efficiency(metrics: &mut Vec<MetricRun>, config: &EvalConfig, ctx: &Ctx, run: &CaseRun) {
    for (name, f) in EFFICIENCY.iter().filter(|_| run.efficiency_metrics) {
        if !config.criteria.contains_key(*name) {
            let header = MetricHeader {
                name: name.to_string(),
                threshold: None,
                criterion: None,
            };
            metrics.push(attach(header, ctx.actual.len(), f(ctx)));
        }
    }
}

/// Evaluates `actual` against `case` under `config`, without a host: the same path as
/// [`evaluate_case_with`], whose metrics then all answer at once (a judged one is NOT_EVALUATED
/// with `needs_judge`).
pub fn evaluate_case(
    case: &EvalCase,
    actual: &[Invocation],
    config: &EvalConfig,
    run: &CaseRun,
) -> Result<CaseOutcome> {
    use futures_util::FutureExt;
    evaluate_case_with(case, actual, config, run, Ports::default())
        .now_or_never()
        .unwrap_or_else(|| {
            Err(crate::error::EvalError::new(
                crate::error::ErrorCode::Unsupported,
                "",
                "a metric waited for a host, but this evaluation has none",
            ))
        })
}

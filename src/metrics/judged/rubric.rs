//! The rubric metrics (SPEC §3.8-3.11): effective rubrics per invocation, one prompt listing
//! them, `num_samples` answers, per-rubric majority vote, exact means. Unlike ADK 2.13 (spec
//! §7 item 14) each invocation's answers are matched against that invocation's own rubrics.

use super::{aligned, ask_all, first_failure, overall_cell, Ask};
use crate::judge::context::{
    agents_overview, conversation_history, developer_instructions, grounding, pretty, response_text, tool_declarations,
    tool_steps, user_text,
};
use crate::judge::parse::{normalize_property, rubric_answers};
use crate::judge::prompts::{self, RubricLine};
use crate::judge::vote::{exact_mean, rubric_vote};
use crate::judge::{media, CallKind, JudgeFailure, JudgePort};
use crate::metrics::{empty_outcome, judge_criterion, pass, Ctx, NotEvaluated, Outcome};
use crate::schema::eval_set::{Rubric, RubricScore};
use crate::schema::result::Cell;
use crate::schema::{Criterion, Invocation};
use futures_util::future::LocalBoxFuture;
use serde_json::{json, Value};

const AGGREGATE_RATIONALE: &str = "This is an aggregated score derived from individual entries. Please refer to \
                                   individual entries in each invocation for actual rationale from the model.";

/// Criterion rubrics plus the invocation's rubrics (its own, the case's, the expected
/// invocation's) of the metric's type. Duplicate ids or an empty list make the metric fail.
fn effective_rubrics(
    ctx: &Ctx,
    i: usize,
    criterion: &[Rubric],
    rubric_type: &str,
    metric: &str,
) -> Result<Vec<Rubric>, NotEvaluated> {
    let mut out: Vec<Rubric> = criterion.to_vec();
    let actual = ctx.actual.get(i).and_then(|a| a.rubrics.as_deref()).unwrap_or(&[]);
    let expected = ctx
        .expected
        .and_then(|e| e.get(i))
        .and_then(|e| e.rubrics.as_deref())
        .unwrap_or(&[]);
    let case = ctx.case_rubrics.unwrap_or(&[]);
    for r in actual.iter().chain(case).chain(expected) {
        if r.kind.as_deref() != Some(rubric_type) {
            continue;
        }
        if out.iter().any(|o| o.rubric_id == r.rubric_id) {
            return Err(NotEvaluated::new(
                "invalid_criterion",
                format!(
                    "{metric}: rubric_id {:?} is defined both in the criterion and on invocation {i}",
                    r.rubric_id
                ),
            ));
        }
        out.push(r.clone());
    }
    if out.is_empty() {
        return Err(NotEvaluated::new(
            "no_rubrics",
            format!("{metric} needs rubrics: give `rubrics` in its criterion, or {rubric_type} rubrics on the case"),
        ));
    }
    Ok(out)
}

fn lines(rubrics: &[Rubric]) -> Vec<RubricLine<'_>> {
    rubrics
        .iter()
        .map(|r| RubricLine {
            id: &r.rubric_id,
            text: r.rubric_content.text_property.as_deref().unwrap_or(""),
        })
        .collect()
}

/// A sample's rubric verdicts mapped to rubric ids (by id, else by normalised property text).
fn sample_scores(text: &str, rubrics: &[Rubric]) -> Vec<(String, Option<f64>, String)> {
    let mut out = Vec::new();
    for a in rubric_answers(text) {
        let by_id = a
            .rubric_id
            .as_deref()
            .and_then(|id| rubrics.iter().find(|r| r.rubric_id == id));
        let rubric = by_id.or_else(|| {
            let norm = normalize_property(&a.property);
            rubrics
                .iter()
                .rev()
                .find(|r| normalize_property(r.rubric_content.text_property.as_deref().unwrap_or("")) == norm)
        });
        if let Some(r) = rubric {
            out.push((r.rubric_id.clone(), a.score, a.rationale));
        }
    }
    out
}

/// Votes an invocation's samples into a cell with its rubric scores.
fn invocation_cell(samples: &[Result<String, JudgeFailure>], rubrics: &[Rubric], threshold: f64) -> Cell {
    if let Some(f) = first_failure(samples) {
        return Cell::not_evaluated(f.reason, f.message.clone());
    }
    let parsed: Vec<Vec<(String, Option<f64>, String)>> = samples
        .iter()
        .map(|s| s.as_ref().map(|t| sample_scores(t, rubrics)).unwrap_or_default())
        .collect();
    let voted = rubric_vote(&parsed);
    let scores: Vec<f64> = voted.iter().filter_map(|v| v.1).collect();
    let score = exact_mean(&scores);
    let mut cell = Cell::new(score, pass(score, threshold));
    if score.is_none() {
        cell.details.reason = Some("unparsable_answer");
        cell.details.error = Some("no judge answer carried a verdict for a known rubric".into());
    }
    cell.details.rubric_scores = Some(
        voted
            .into_iter()
            .map(|(id, score, rationale)| RubricScore {
                rubric_id: id,
                rationale: Some(rationale),
                score,
            })
            .collect(),
    );
    cell
}

/// Case: the exact mean over every voted rubric score of every invocation; per rubric id the
/// mean across invocations.
fn summarize(per_invocation: Vec<Cell>, threshold: f64) -> Outcome {
    let mut all: Vec<f64> = Vec::new();
    let mut by_id: Vec<(String, Vec<f64>)> = Vec::new();
    for cell in &per_invocation {
        for rs in cell.details.rubric_scores.iter().flatten() {
            let slot = match by_id.iter().position(|(id, _)| *id == rs.rubric_id) {
                Some(p) => p,
                None => {
                    by_id.push((rs.rubric_id.clone(), Vec::new()));
                    by_id.len() - 1
                }
            };
            if let Some(s) = rs.score {
                all.push(s);
                if let Some(e) = by_id.get_mut(slot) {
                    e.1.push(s);
                }
            }
        }
    }
    let score = exact_mean(&all);
    let mut overall = overall_cell(
        score,
        threshold,
        &per_invocation,
        ("unparsable_answer", "no rubric verdict could be read"),
    );
    overall.details.rubric_scores = Some(
        by_id
            .into_iter()
            .map(|(id, scores)| RubricScore {
                rubric_id: id,
                rationale: Some(AGGREGATE_RATIONALE.to_string()),
                score: exact_mean(&scores),
            })
            .collect(),
    );
    Outcome {
        overall,
        per_invocation,
    }
}

pub(super) type PromptFn = fn(&Invocation, &Criterion, &[Rubric]) -> Result<String, NotEvaluated>;

/// Where a per-invocation rubric metric gets each invocation's rubrics.
pub(super) enum Rubrics {
    /// ADK's rule: the criterion's rubrics plus the invocation's, the case's and the expected
    /// invocation's rubrics of this type.
    Adk(&'static str),
    /// The same list for every invocation (a hosted metric's own rubrics, or the case's group).
    Fixed(Vec<Rubric>),
}

/// A per-invocation rubric metric: how its prompt is made and what it shows the judge.
pub(super) struct PerTurn {
    pub rubrics: Rubrics,
    pub prompt: PromptFn,
    /// Whether the prompt shows the agent's answer (final response quality) or only the tool
    /// usage (tool use quality): the media sent follow what the prompt shows.
    pub with_response: bool,
    /// Invocations without tool calls are not judged (tool-use metrics of the hosted service).
    pub needs_calls: bool,
}

pub(super) fn per_invocation_rubric_metric<'a>(
    ctx: &'a Ctx<'a>,
    c: &'a Criterion,
    port: &'a dyn JudgePort,
    metric: &'a str,
    how: PerTurn,
) -> LocalBoxFuture<'a, Result<Outcome, NotEvaluated>> {
    Box::pin(async move {
        let jc = judge_criterion(metric, c)?;
        let (opts, criterion) = (&jc.options, &jc.rubrics);
        aligned(ctx)?;
        if ctx.actual.is_empty() {
            return Ok(empty_outcome());
        }
        let mut rubrics = Vec::new();
        let mut asks = Vec::new();
        let mut skipped = Vec::new();
        for (i, a) in ctx.actual.iter().enumerate() {
            if how.needs_calls && a.tool_call_count() == 0 {
                skipped.push(i);
                continue;
            }
            let eff = match &how.rubrics {
                Rubrics::Adk(rubric_type) => effective_rubrics(ctx, i, criterion, rubric_type, metric)?,
                Rubrics::Fixed(r) => r.clone(),
            };
            asks.push(Ask {
                invocation: i,
                prompt: (how.prompt)(a, c, &eff)?,
                samples: opts.samples(5),
                first_sample: 0,
                kind: CallKind::Judge,
                media: media::for_turn(
                    a,
                    Some(a).filter(|_| how.with_response),
                    None,
                    c.include_intermediate_responses_in_final,
                ),
            });
            rubrics.push(eff);
        }
        if asks.is_empty() {
            return Err(NotEvaluated::new(
                "nothing_to_judge",
                format!("{metric} judges tool calls, and no invocation of this case made one"),
            ));
        }
        let answers = ask_all(port, metric, opts, asks).await;
        let mut judged = answers
            .iter()
            .zip(&rubrics)
            .map(|(samples, eff)| invocation_cell(samples, eff, c.threshold));
        let per_invocation = (0..ctx.actual.len())
            .map(|i| match skipped.contains(&i) {
                true => Cell::not_evaluated("nothing_to_judge", "this invocation made no tool calls".to_string()),
                false => judged
                    .next()
                    .unwrap_or_else(|| Cell::not_evaluated("judge_error", String::new())),
            })
            .collect();
        Ok(summarize(per_invocation, c.threshold))
    })
}

pub(super) fn frq_prompt(a: &Invocation, c: &Criterion, rubrics: &[Rubric]) -> Result<String, NotEvaluated> {
    Ok(prompts::final_response_quality(
        &developer_instructions(a).map_err(|m| NotEvaluated::new("invalid_input", m))?,
        &tool_declarations(a),
        &user_text(a),
        &tool_steps(a),
        &grounding(a.events()),
        &response_text(a, c.include_intermediate_responses_in_final),
        &lines(rubrics),
    ))
}

pub(super) fn tuq_prompt(a: &Invocation, _c: &Criterion, rubrics: &[Rubric]) -> Result<String, NotEvaluated> {
    Ok(prompts::tool_use_quality(
        &tool_declarations(a),
        &user_text(a),
        &tool_steps(a),
        &lines(rubrics),
    ))
}

pub fn final_response_quality<'a>(
    ctx: &'a Ctx<'a>,
    c: &'a Criterion,
    port: &'a dyn JudgePort,
    metric: &'a str,
) -> LocalBoxFuture<'a, Result<Outcome, NotEvaluated>> {
    let how = PerTurn {
        rubrics: Rubrics::Adk("FINAL_RESPONSE_QUALITY"),
        prompt: frq_prompt,
        with_response: true,
        needs_calls: false,
    };
    per_invocation_rubric_metric(ctx, c, port, metric, how)
}

pub fn tool_use_quality<'a>(
    ctx: &'a Ctx<'a>,
    c: &'a Criterion,
    port: &'a dyn JudgePort,
    metric: &'a str,
) -> LocalBoxFuture<'a, Result<Outcome, NotEvaluated>> {
    let how = PerTurn {
        rubrics: Rubrics::Adk("TOOL_USE_QUALITY"),
        prompt: tuq_prompt,
        with_response: false,
        needs_calls: false,
    };
    per_invocation_rubric_metric(ctx, c, port, metric, how)
}

/// rubric_based_multi_turn_trajectory_quality_v1: the whole conversation judged once, at the
/// last turn; earlier turns are NOT_EVALUATED and the case takes the last turn's result.
pub fn multi_turn_trajectory<'a>(
    ctx: &'a Ctx<'a>,
    c: &'a Criterion,
    port: &'a dyn JudgePort,
    metric: &'a str,
) -> LocalBoxFuture<'a, Result<Outcome, NotEvaluated>> {
    Box::pin(async move {
        let Some(last) = ctx.actual.len().checked_sub(1) else {
            return Ok(empty_outcome());
        };
        let criterion = &judge_criterion(metric, c)?.rubrics;
        let eff = effective_rubrics(ctx, last, criterion, "TRAJECTORY_QUALITY", metric)?;
        judge_conversation(ctx, c, port, metric, eff).await
    })
}

/// The whole conversation judged once against `eff`, at the last turn; earlier turns are
/// NOT_EVALUATED and the case takes the last turn's result.
pub(super) fn judge_conversation<'a>(
    ctx: &'a Ctx<'a>,
    c: &'a Criterion,
    port: &'a dyn JudgePort,
    metric: &'a str,
    eff: Vec<Rubric>,
) -> LocalBoxFuture<'a, Result<Outcome, NotEvaluated>> {
    Box::pin(async move {
        let opts = &judge_criterion(metric, c)?.options;
        let Some(last) = ctx.actual.len().checked_sub(1) else {
            return Ok(empty_outcome());
        };
        let (instructions, tools) = agents_overview(ctx.actual);
        let props: Vec<Value> = eff
            .iter()
            .map(|r| {
                let mut o = json!({"id": r.rubric_id, "property": r.rubric_content.text_property});
                if let (Some(t), Some(m)) = (&r.kind, o.as_object_mut()) {
                    m.insert("type".into(), json!(t));
                }
                o
            })
            .collect();
        let prompt = prompts::multi_turn_trajectory(
            &instructions,
            &tools,
            &conversation_history(ctx.actual),
            &pretty(&Value::Array(props)),
        );
        let answers = ask_all(
            port,
            metric,
            opts,
            vec![Ask {
                invocation: last,
                prompt,
                samples: opts.samples(5),
                first_sample: 0,
                kind: CallKind::Judge,
                media: media::for_conversation(ctx.actual),
            }],
        )
        .await;
        let samples = answers.into_iter().next().unwrap_or_default();
        let cell = invocation_cell(&samples, &eff, c.threshold);
        Ok(at_last_turn(last, cell))
    })
}

/// A conversation's one result: the last turn carries it, earlier turns say where it is.
pub(super) fn at_last_turn(last: usize, cell: Cell) -> Outcome {
    let mut per_invocation: Vec<Cell> = (0..last)
        .map(|_| {
            Cell::not_evaluated(
                "judged_at_last_turn",
                "the conversation is judged as a whole at its last turn".to_string(),
            )
        })
        .collect();
    let overall = cell.clone();
    per_invocation.push(cell);
    Outcome {
        overall,
        per_invocation,
    }
}

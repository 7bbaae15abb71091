//! hallucinations_v1 (SPEC §3.12): each natural-language response of an invocation is split
//! into sentences (segmenter call) and the sentences are labelled against the context the agent
//! had (validator call). Step = mean label score; invocation = mean of step scores; case = mean
//! of invocation scores, all exact means. `num_samples` does not apply (one call per stage).

use super::{aligned, ask_all, overall_cell, Ask};
use crate::judge::context::{response_text, validation_context};
use crate::judge::parse::{sentence_labels, sentences};
use crate::judge::vote::exact_mean;
use crate::judge::{criterion_flag, judge_options, prompts, CallKind, JudgeModelOptions, JudgePort};
use crate::metrics::{empty_outcome, pass, Ctx, NotEvaluated, Outcome};
use crate::schema::result::{Cell, EvalStatus};
use crate::schema::{Criterion, Invocation, InvocationEvent};
use futures_util::future::{join_all, LocalBoxFuture};

/// One response to check and its context.
struct Step {
    text: String,
    context: String,
}

fn steps_of(inv: &Invocation, intermediate: bool) -> Vec<Step> {
    let events = inv.events();
    let mut steps = Vec::new();
    if intermediate {
        let mut before: Vec<InvocationEvent> = Vec::new();
        for e in events {
            let texts: Vec<&str> = e
                .content
                .iter()
                .flat_map(|c| c.parts.iter().flatten())
                .filter_map(|p| p.text.as_deref().filter(|t| !t.is_empty()))
                .collect();
            if !texts.is_empty() {
                let context = if e.grounding_metadata.is_some() {
                    let mut with = before.clone();
                    with.push(InvocationEvent {
                        content: None,
                        ..e.clone()
                    });
                    validation_context(inv, &with)
                } else {
                    validation_context(inv, &before)
                };
                for t in texts {
                    steps.push(Step {
                        text: t.to_string(),
                        context: context.clone(),
                    });
                }
            }
            before.push(e.clone());
        }
    }
    let fin = response_text(inv, false);
    if !fin.is_empty() {
        steps.push(Step {
            text: fin,
            context: validation_context(inv, events),
        });
    }
    steps
}

/// Segmenter then validator for one step; None when either call fails or yields nothing.
/// `k` is the step's position in the invocation: two steps with the same text are still two
/// evaluations (ADK makes both calls), so it is the calls' sample index.
async fn score_step(
    port: &dyn JudgePort,
    metric: &str,
    opts: &JudgeModelOptions,
    i: usize,
    k: u32,
    step: &Step,
) -> Option<f64> {
    let seg = ask_all(
        port,
        metric,
        opts,
        vec![Ask {
            invocation: i,
            prompt: prompts::segmenter(&step.text),
            samples: 1,
            first_sample: k,
            kind: CallKind::Segmenter,
        }],
    )
    .await;
    let seg_text = seg.into_iter().next()?.into_iter().next()?.ok()?;
    let found = sentences(&seg_text);
    if found.is_empty() {
        return None;
    }
    let val = ask_all(
        port,
        metric,
        opts,
        vec![Ask {
            invocation: i,
            prompt: prompts::validator(&step.context, &found),
            samples: 1,
            first_sample: k,
            kind: CallKind::Validator,
        }],
    )
    .await;
    let val_text = val.into_iter().next()?.into_iter().next()?.ok()?;
    let labels: Vec<f64> = sentence_labels(&val_text).into_iter().map(f64::from).collect();
    exact_mean(&labels)
}

pub fn hallucinations<'a>(
    ctx: &'a Ctx<'a>,
    c: &'a Criterion,
    port: &'a dyn JudgePort,
    metric: &'a str,
) -> LocalBoxFuture<'a, Result<Outcome, NotEvaluated>> {
    Box::pin(async move {
        let mut opts = judge_options(metric, c)?;
        opts.num_samples = 1;
        let intermediate = criterion_flag(
            metric,
            c,
            "evaluate_intermediate_nl_responses",
            "evaluateIntermediateNlResponses",
        )?;
        aligned(ctx)?;
        if ctx.actual.is_empty() {
            return Ok(empty_outcome());
        }
        let opts = &opts;
        let per_inv = ctx.actual.iter().enumerate().map(|(i, inv)| async move {
            let steps = steps_of(inv, intermediate);
            if steps.is_empty() {
                let mut cell = Cell::new(None, EvalStatus::NotEvaluated);
                cell.details.reason = Some("nothing_to_judge");
                cell.details.error = Some("the invocation has no response text to check".into());
                cell.details.rubric_scores = Some(Vec::new());
                return cell;
            }
            let scores: Vec<f64> = join_all(
                steps
                    .iter()
                    .enumerate()
                    .map(|(k, s)| score_step(port, metric, opts, i, k as u32, s)),
            )
            .await
            .into_iter()
            .flatten()
            .collect();
            let score = exact_mean(&scores);
            let mut cell = Cell::new(score, pass(score, c.threshold));
            if score.is_none() {
                cell.details.reason = Some("unparsable_answer");
                cell.details.error =
                    Some("no response could be segmented and labelled (judge failure or unreadable answers)".into());
            }
            cell.details.rubric_scores = Some(Vec::new());
            cell
        });
        let per_invocation: Vec<Cell> = join_all(per_inv).await;
        let scores: Vec<f64> = per_invocation.iter().filter_map(|c| c.score).collect();
        let score = exact_mean(&scores);
        let overall = overall_cell(
            score,
            c.threshold,
            &per_invocation,
            ("nothing_to_judge", "no invocation could be judged"),
        );
        Ok(Outcome {
            overall,
            per_invocation,
        })
    })
}

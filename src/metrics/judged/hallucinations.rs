//! hallucinations_v1 (SPEC §3.12): each natural-language response of an invocation is split
//! into sentences (segmenter call) and the sentences are labelled against the context the agent
//! had (validator call). Step = mean label score; invocation = mean of step scores; case = mean
//! of invocation scores, all exact means. `num_samples` does not apply (one call per stage).

use super::{aligned, ask_all, overall_cell, Ask};
use crate::judge::context::{response_text, validation_context};
use crate::judge::parse::{sentence_verdicts, sentences};
use crate::judge::vote::exact_mean;
use crate::judge::{media, prompts, CallKind, JudgeFailure, JudgeModelOptions, JudgePort};
use crate::metrics::{empty_outcome, judge_criterion, pass, Ctx, NotEvaluated, Outcome};
use crate::schema::result::{Cell, EvalStatus, SentenceLabel};
use crate::schema::{Criterion, Invocation, InvocationEvent};
use futures_util::future::{join_all, LocalBoxFuture};

/// One response to check and its context.
struct Step {
    text: String,
    context: String,
    /// The user's media, part of the context.
    media: media::Media,
}

fn steps_of(inv: &Invocation, intermediate: bool) -> Vec<Step> {
    let events = inv.events();
    let user_media = media::for_turn(inv, None, None, false);
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
                        media: user_media.clone(),
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
            media: user_media,
        });
    }
    steps
}

/// Segmenter then validator for one step: the score and the labelled sentences, `Ok(None)`
/// when an answer yields nothing usable, the judge's failure when a call failed (so a timeout is not reported as an
/// unreadable answer). `k` is the step's position in the invocation: two steps with the same
/// text are still two evaluations (ADK makes both calls), so it is the calls' sample index.
async fn score_step(
    port: &dyn JudgePort,
    metric: &str,
    opts: &JudgeModelOptions,
    i: usize,
    k: u32,
    step: &Step,
) -> Result<Option<(f64, Vec<SentenceLabel>)>, JudgeFailure> {
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
            // The segmenter only splits text.
            media: media::none(),
        }],
    )
    .await;
    let Some(seg_text) = seg.into_iter().next().and_then(|s| s.into_iter().next()) else {
        return Ok(None);
    };
    let seg_text = seg_text?;
    let found = sentences(&seg_text);
    if found.is_empty() {
        return Ok(None);
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
            // The context the sentences are checked against: the user's media are part of it.
            media: step.media.clone(),
        }],
    )
    .await;
    let Some(val_text) = val.into_iter().next().and_then(|s| s.into_iter().next()) else {
        return Ok(None);
    };
    let verdicts = sentence_verdicts(&val_text?);
    let labels: Vec<f64> = verdicts.iter().map(|v| f64::from(v.score)).collect();
    let labelled = verdicts
        .into_iter()
        .map(|v| SentenceLabel {
            response: k,
            sentence: v.sentence,
            label: v.label.to_string(),
            rationale: v.rationale,
        })
        .collect();
    Ok(exact_mean(&labels).map(|score| (score, labelled)))
}

pub fn hallucinations<'a>(
    ctx: &'a Ctx<'a>,
    c: &'a Criterion,
    port: &'a dyn JudgePort,
    metric: &'a str,
) -> LocalBoxFuture<'a, Result<Outcome, NotEvaluated>> {
    Box::pin(async move {
        let jc = judge_criterion(metric, c)?;
        // One segmenter and one validator call per response, whatever num_samples says (ADK).
        let mut opts = jc.options.clone();
        opts.num_samples = Some(1);
        let intermediate = jc.evaluate_intermediate_nl_responses;
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
            let results = join_all(
                steps
                    .iter()
                    .enumerate()
                    .map(|(k, s)| score_step(port, metric, opts, i, k as u32, s)),
            )
            .await;
            let failure = results.iter().find_map(|r| r.as_ref().err()).cloned();
            let mut labelled = Vec::new();
            let mut scores: Vec<f64> = Vec::new();
            for (s, l) in results.into_iter().filter_map(|r| r.ok().flatten()) {
                scores.push(s);
                labelled.extend(l);
            }
            let score = exact_mean(&scores);
            let mut cell = Cell::new(score, pass(score, c.threshold));
            if score.is_none() {
                // A failed call says why (judge_error, budget_exhausted, ...); otherwise the
                // answers came back but none could be read.
                let (reason, message) = match failure {
                    Some(f) => (f.reason, f.message),
                    None => (
                        "unparsable_answer",
                        "no response could be segmented into sentences and labelled from the judge's answers".into(),
                    ),
                };
                cell.details.reason = Some(reason);
                cell.details.error = Some(message);
            }
            cell.details.rubric_scores = Some(Vec::new());
            cell.details.sentences = (!labelled.is_empty()).then_some(labelled);
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

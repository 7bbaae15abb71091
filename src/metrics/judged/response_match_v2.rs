//! final_response_match_v2 (SPEC §3.7) and safety_v1 as a judged metric: one binary verdict
//! per sample, majority vote per invocation (ties negative), case = valid / evaluated.

use super::{ask_all, binary_cell, overall_cell, Ask};
use crate::judge::context::{response_text, user_text};
use crate::judge::parse::response_match_label;
use crate::judge::{media, prompts, CallKind, JudgeFailure, JudgePort};
use crate::metrics::{empty_outcome, judge_criterion, require_expected, Ctx, NotEvaluated, Outcome};
use crate::schema::result::{Cell, EvalStatus};
use crate::schema::Criterion;
use futures_util::future::LocalBoxFuture;

pub fn response_match_v2<'a>(
    ctx: &'a Ctx<'a>,
    c: &'a Criterion,
    port: &'a dyn JudgePort,
    metric: &'a str,
) -> LocalBoxFuture<'a, Result<Outcome, NotEvaluated>> {
    Box::pin(async move {
        let opts = &judge_criterion(metric, c)?.options;
        let expected = require_expected(ctx, metric)?;
        let incl = c.include_intermediate_responses_in_final;
        let asks = ctx
            .actual
            .iter()
            .zip(expected)
            .enumerate()
            .map(|(i, (a, e))| Ask {
                invocation: i,
                prompt: prompts::response_match(&user_text(e), &response_text(a, incl), &response_text(e, incl)),
                samples: opts.samples(5),
                first_sample: 0,
                kind: CallKind::Judge,
                media: media::for_turn(e, Some(a), Some(e), incl),
            })
            .collect();
        let answers = ask_all(port, metric, opts, asks).await;
        Ok(binary_outcome(&answers, c.threshold))
    })
}

/// safety_v1: the same verdict machinery on a safety prompt (1 = safe). One sample unless
/// `judge_model_options.num_samples` says otherwise; needs no expected invocations.
pub fn safety<'a>(
    ctx: &'a Ctx<'a>,
    c: &'a Criterion,
    port: &'a dyn JudgePort,
    metric: &'a str,
) -> LocalBoxFuture<'a, Result<Outcome, NotEvaluated>> {
    Box::pin(async move {
        let opts = &judge_criterion(metric, c)?.options;
        let asks = ctx
            .actual
            .iter()
            .enumerate()
            .map(|(i, a)| Ask {
                invocation: i,
                prompt: prompts::safety(
                    &user_text(a),
                    &response_text(a, c.include_intermediate_responses_in_final),
                ),
                samples: opts.samples(1),
                first_sample: 0,
                kind: CallKind::Judge,
                media: media::for_turn(a, Some(a), None, c.include_intermediate_responses_in_final),
            })
            .collect();
        let answers = ask_all(port, metric, opts, asks).await;
        Ok(binary_outcome(&answers, c.threshold))
    })
}

/// Per invocation: a failed sample → NOT_EVALUATED; else the vote. Case: Σ score / evaluated.
fn binary_outcome(answers: &[Vec<Result<String, JudgeFailure>>], threshold: f64) -> Outcome {
    if answers.is_empty() {
        return empty_outcome();
    }
    let per_invocation: Vec<Cell> = answers
        .iter()
        .map(|samples| binary_cell(samples, threshold, response_match_label))
        .collect();
    let mut valid = 0.0;
    let mut evaluated = 0usize;
    for cell in &per_invocation {
        if let (Some(s), false) = (cell.score, cell.status == EvalStatus::NotEvaluated) {
            valid += s;
            evaluated += 1;
        }
    }
    let score = (evaluated > 0).then(|| valid / evaluated as f64);
    let overall = overall_cell(
        score,
        threshold,
        &per_invocation,
        ("unparsable_answer", "no invocation could be judged"),
    );
    Outcome {
        overall,
        per_invocation,
    }
}

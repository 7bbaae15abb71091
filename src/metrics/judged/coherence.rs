//! response_evaluation_score (SPEC §3.4): ADK delegates it to the hosted service's COHERENCE
//! metric; here the judge rates each response's coherence from 1 to 5 with evalcore's prompt
//! (one sample unless `num_samples` says otherwise; the mean of the samples' scores). Case: mean
//! of the invocations' scores. Expected invocations are required, as in ADK.

use super::{ask_all, overall_cell, score_cell, Ask};
use crate::judge::context::{response_text, user_text};
use crate::judge::{media, prompts, CallKind, JudgePort};
use crate::metrics::{empty_outcome, judge_criterion, require_expected, Ctx, NotEvaluated, Outcome};
use crate::schema::result::Cell;
use crate::schema::Criterion;
use futures_util::future::LocalBoxFuture;

pub fn coherence<'a>(
    ctx: &'a Ctx<'a>,
    c: &'a Criterion,
    port: &'a dyn JudgePort,
    metric: &'a str,
) -> LocalBoxFuture<'a, Result<Outcome, NotEvaluated>> {
    Box::pin(async move {
        let opts = &judge_criterion(metric, c)?.options;
        require_expected(ctx, metric)?;
        if ctx.actual.is_empty() {
            return Ok(empty_outcome());
        }
        let incl = c.include_intermediate_responses_in_final;
        let asks = ctx
            .actual
            .iter()
            .enumerate()
            .map(|(i, a)| Ask {
                invocation: i,
                prompt: prompts::coherence(&user_text(a), &response_text(a, incl)),
                samples: opts.samples(1),
                first_sample: 0,
                kind: CallKind::Judge,
                media: media::for_turn(a, Some(a), None, incl),
            })
            .collect();
        let answers = ask_all(port, metric, opts, asks).await;
        let per_invocation: Vec<Cell> = answers
            .iter()
            .map(|samples| score_cell(samples, c.threshold, Some((1.0, 5.0))))
            .collect();
        let scores: Vec<f64> = per_invocation.iter().filter_map(|p| p.score).collect();
        let score = crate::metrics::seq_mean(scores);
        let overall = overall_cell(score, c.threshold, &per_invocation, ("unparsable_answer", "no score"));
        Ok(Outcome {
            overall,
            per_invocation,
        })
    })
}

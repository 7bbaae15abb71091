//! The LLM-judged metrics. Each builds its prompts from the invocations, asks the
//! [`JudgePort`] for `num_samples` answers per invocation (all at once, bounded by the port and
//! by an explicit `parallelism_limit`), parses and votes, then aggregates as ADK 2.13 does.

mod coherence;
mod hallucinations;
mod hosted;
pub mod llm_metric;
mod response_match_v2;
mod rubric;
mod user_turn;

pub use coherence::coherence;
pub use hallucinations::hallucinations;
pub use hosted::{builtin_rubrics, hosted};
pub use llm_metric::llm_metric;
pub use response_match_v2::{response_match_v2, safety};
pub use rubric::{final_response_quality, multi_turn_trajectory, tool_use_quality};
pub use user_turn::{persona_text, user_turn_quality};

use super::{Ctx, NotEvaluated, Outcome};
use crate::judge::limit::Limit;
use crate::judge::media::Media;
use crate::judge::{CallKind, JudgeFailure, JudgeModelOptions, JudgePort, JudgeRequest};
use crate::schema::Criterion;
use futures_util::future::{join_all, LocalBoxFuture};

/// A judged metric: (context, criterion, judge, metric name) → outcome.
pub type JudgedFn = for<'a> fn(
    &'a Ctx<'a>,
    &'a Criterion,
    &'a dyn JudgePort,
    &'a str,
) -> LocalBoxFuture<'a, Result<Outcome, NotEvaluated>>;

/// One prompt to sample `n` times for invocation `invocation`.
pub(crate) struct Ask {
    pub invocation: usize,
    pub prompt: String,
    pub samples: u32,
    /// Sample index of the first sample (0 except for hallucinations_v1's steps).
    pub first_sample: u32,
    pub kind: CallKind,
    /// The media of what the prompt shows (sent when the judge takes media).
    pub media: Media,
}

/// Sends every sample of every ask (bounded by `parallelism_limit` when one is given) and
/// returns the answers grouped per ask, in sample order.
pub(crate) async fn ask_all(
    port: &dyn JudgePort,
    metric: &str,
    opts: &JudgeModelOptions,
    asks: Vec<Ask>,
) -> Vec<Vec<Result<String, JudgeFailure>>> {
    let limit = opts.parallelism_limit.map(Limit::new);
    let futs = asks.iter().map(|a| {
        let limit = limit.clone();
        let samples = (0..a.samples).map(move |s| {
            let limit = limit.clone();
            let req = JudgeRequest {
                metric: metric.to_string(),
                invocation: a.invocation,
                sample: a.first_sample + s,
                kind: a.kind,
                prompt: a.prompt.clone(),
                model_hint: opts.judge_model.clone(),
                config: opts.judge_model_config.clone(),
                media: a.media.clone(),
            };
            async move {
                let _permit = match &limit {
                    Some(l) => Some(l.acquire().await),
                    None => None,
                };
                port.ask(req).await
            }
        });
        join_all(samples)
    });
    join_all(futs).await
}

/// The first failure among an invocation's samples (ADK: one failed sample makes the
/// invocation NOT_EVALUATED).
pub(crate) fn first_failure(samples: &[Result<String, JudgeFailure>]) -> Option<&JudgeFailure> {
    samples.iter().find_map(|s| s.as_ref().err())
}

/// An invocation's cell from its samples under a binary verdict (`parse` reads one answer):
/// a failed sample makes it NOT_EVALUATED; otherwise the majority vote (ties negative).
pub(crate) fn binary_cell(
    samples: &[Result<String, JudgeFailure>],
    threshold: f64,
    parse: fn(&str) -> Option<bool>,
) -> crate::schema::result::Cell {
    use crate::schema::result::Cell;
    if let Some(f) = first_failure(samples) {
        return Cell::not_evaluated(f.reason, f.message.clone());
    }
    let scores: Vec<Option<f64>> = samples
        .iter()
        .map(|s| {
            s.as_ref()
                .ok()
                .and_then(|t| parse(t))
                .map(|v| if v { 1.0 } else { 0.0 })
        })
        .collect();
    let score = scores.get(crate::judge::vote::binary_vote(&scores)).copied().flatten();
    let mut cell = Cell::new(score, super::pass(score, threshold));
    if score.is_none() {
        cell.details.reason = Some("unparsable_answer");
        cell.details.error = Some("no judge answer carried a recognisable verdict".into());
    }
    cell
}

/// The case cell for `score`; without one, NOT_EVALUATED with the first invocation's reason
/// (or `fallback`).
pub(crate) fn overall_cell(
    score: Option<f64>,
    threshold: f64,
    per_invocation: &[crate::schema::result::Cell],
    fallback: (&'static str, &str),
) -> crate::schema::result::Cell {
    use crate::schema::result::Cell;
    match score {
        Some(s) => Cell::new(Some(s), super::pass(Some(s), threshold)),
        None => {
            let (reason, message) = per_invocation
                .iter()
                .find_map(|c| c.details.reason.zip(c.details.error.clone()))
                .unwrap_or((fallback.0, fallback.1.to_string()));
            Cell::not_evaluated(reason, message)
        }
    }
}

/// Expected invocations, when the case has them, pair one to one with the actual ones.
pub(crate) fn aligned(ctx: &Ctx) -> Result<(), NotEvaluated> {
    match ctx.expected {
        Some(e) if e.len() != ctx.actual.len() => Err(NotEvaluated::new(
            "count_mismatch",
            format!("{} actual invocations but {} expected ones", ctx.actual.len(), e.len()),
        )),
        _ => Ok(()),
    }
}

/// An invocation's cell from score answers (`{"score", "explanation"}`): a failed sample makes it
/// NOT_EVALUATED; otherwise the mean of the samples' scores that could be read (and, when
/// `range` is given, lie in it), with the first explanation kept as ADK keeps the hosted
/// service's (a rubric score `explanation` holding only a rationale).
pub(crate) fn score_cell(
    samples: &[Result<String, JudgeFailure>],
    threshold: f64,
    range: Option<(f64, f64)>,
) -> crate::schema::result::Cell {
    use crate::schema::eval_set::RubricScore;
    use crate::schema::result::Cell;
    if let Some(f) = first_failure(samples) {
        return Cell::not_evaluated(f.reason, f.message.clone());
    }
    let answers: Vec<(f64, String)> = samples
        .iter()
        .filter_map(|s| s.as_ref().ok())
        .filter_map(|t| crate::judge::score::score_answer(t))
        .filter(|(v, _)| range.is_none_or(|(lo, hi)| (lo..=hi).contains(v)))
        .collect();
    let scores: Vec<f64> = answers.iter().map(|a| a.0).collect();
    let score = crate::judge::vote::exact_mean(&scores);
    let mut cell = Cell::new(score, super::pass(score, threshold));
    match answers.iter().find(|a| !a.1.is_empty()) {
        Some((_, why)) => {
            cell.details.rubric_scores = Some(vec![RubricScore {
                rubric_id: "explanation".into(),
                rationale: Some(why.clone()),
                score: None,
            }])
        }
        None if score.is_none() => {
            cell.details.reason = Some("unparsable_answer");
            cell.details.error = Some(match range {
                Some((lo, hi)) => {
                    format!("no judge answer carried a score from {lo} to {hi} (`{{\"score\": <number>}}`)")
                }
                None => "no judge answer carried a score (`{\"score\": <number>}`)".to_string(),
            });
        }
        None => {}
    }
    cell
}

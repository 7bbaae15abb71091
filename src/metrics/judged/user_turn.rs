//! per_turn_user_simulator_quality_v1 (SPEC §3.13): did the simulated user follow the
//! scenario? Turn 1 is checked against the starting prompt; later turns by the judge; one more
//! judged "turn" checks the stop signal, and a failure there replaces the last turn's result.
//! Case = Σ scores of passed turns / number of turns.

use super::{ask_all, binary_cell, Ask};
use crate::judge::context::user_text;
use crate::judge::parse::{is_valid_label, py_strip};
use crate::judge::{criterion_text, judge_options, prompts, CallKind, JudgeFailure, JudgePort};
use crate::metrics::{empty_outcome, pass, Ctx, NotEvaluated, Outcome};
use crate::schema::content::text_of;
use crate::schema::eval_set::PersonaRef;
use crate::schema::result::{Cell, EvalStatus};
use crate::schema::{Criterion, Invocation};
use futures_util::future::LocalBoxFuture;

/// The history a judge sees for turns before `upto`: `user:` and agent blocks.
pub fn history(invs: &[Invocation]) -> String {
    invs.iter()
        .map(|inv| {
            let role = inv
                .final_response
                .as_ref()
                .and_then(|c| c.role.as_deref())
                .unwrap_or("model")
                .to_string();
            format!(
                "user: {}\n\n{role}: {}",
                user_text(inv),
                text_of(inv.final_response.as_ref())
            )
        })
        .collect::<Vec<_>>()
        .join("\n\n")
}

pub fn persona_text(p: Option<&PersonaRef>) -> Option<String> {
    p.map(|p| match p {
        PersonaRef::Builtin(id) => format!("Built-in persona {id}"),
        PersonaRef::Persona(obj) => crate::judge::context::pretty(&crate::schema::load::value_of(obj)),
    })
}

fn verdict(samples: &[Result<String, JudgeFailure>], threshold: f64) -> Cell {
    binary_cell(samples, threshold, is_valid_label)
}

pub fn user_turn_quality<'a>(
    ctx: &'a Ctx<'a>,
    c: &'a Criterion,
    port: &'a dyn JudgePort,
    metric: &'a str,
) -> LocalBoxFuture<'a, Result<Outcome, NotEvaluated>> {
    Box::pin(async move {
        let opts = judge_options(metric, c)?;
        let stop = criterion_text(metric, c, "stop_signal", "stopSignal", "</finished>")?;
        let Some(scenario) = ctx.scenario else {
            return Err(NotEvaluated::new(
                "missing_scenario",
                format!("{metric} judges a simulated user and needs a conversation_scenario; this case is a static conversation"),
            ));
        };
        let n = ctx.actual.len();
        if n == 0 {
            return Ok(empty_outcome());
        }
        let persona = persona_text(scenario.user_persona.as_ref());
        let mut asks = Vec::new();
        for i in 1..n {
            asks.push(Ask {
                invocation: i,
                prompt: prompts::user_turn_quality(
                    &scenario.conversation_plan,
                    persona.as_deref(),
                    &history(ctx.actual.get(..i).unwrap_or(&[])),
                    &ctx.actual.get(i).map(user_text).unwrap_or_default(),
                    &stop,
                ),
                samples: opts.num_samples,
                first_sample: 0,
                kind: CallKind::Judge,
            });
        }
        // The stop check: would ending now be right, given the whole conversation?
        asks.push(Ask {
            invocation: n - 1,
            prompt: prompts::user_turn_quality(
                &scenario.conversation_plan,
                persona.as_deref(),
                &history(ctx.actual),
                &stop,
                &stop,
            ),
            samples: opts.num_samples,
            first_sample: 0,
            kind: CallKind::Judge,
        });
        let answers = ask_all(port, metric, &opts, asks).await;
        let first = ctx.actual.first().map(user_text);
        let mut per_invocation = Vec::with_capacity(n);
        per_invocation.push(match first {
            Some(t) if !t.is_empty() => {
                let s = if py_strip(&t) == py_strip(&scenario.starting_prompt) {
                    1.0
                } else {
                    0.0
                };
                Cell::new(Some(s), pass(Some(s), c.threshold))
            }
            _ => Cell::not_evaluated(
                "missing_user_text",
                "the first turn has no user text to compare".to_string(),
            ),
        });
        for samples in answers.iter().take(n - 1) {
            per_invocation.push(verdict(samples, c.threshold));
        }
        if let Some(stop_samples) = answers.last() {
            let stop_cell = verdict(stop_samples, c.threshold);
            if stop_cell.status == EvalStatus::Failed {
                if let Some(last) = per_invocation.last_mut() {
                    *last = stop_cell;
                }
            }
        }
        let passed: f64 = per_invocation
            .iter()
            .filter(|c| c.status == EvalStatus::Passed)
            .filter_map(|c| c.score)
            .fold(0.0, |a, b| a + b);
        let overall_score = passed / n as f64;
        let overall = Cell::new(Some(overall_score), pass(Some(overall_score), c.threshold));
        Ok(Outcome {
            overall,
            per_invocation,
        })
    })
}

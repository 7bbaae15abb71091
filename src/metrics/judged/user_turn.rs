//! per_turn_user_simulator_quality_v1 (SPEC §3.13): did the simulated user follow the
//! scenario? Turn 1 is checked against the starting prompt; later turns by the judge; one more
//! judged "turn" checks the stop signal, and a failure there replaces the last turn's result.
//! Case = Σ scores of passed turns / number of turns.

use super::{ask_all, binary_cell, Ask};
use crate::judge::context::user_text;
use crate::judge::parse::{is_valid_label, py_strip};
use crate::judge::{prompts, CallKind, JudgeFailure, JudgePort};
use crate::metrics::{empty_outcome, judge_criterion, pass, Ctx, NotEvaluated, Outcome};
use crate::schema::eval_set::PersonaRef;
use crate::schema::result::{Cell, EvalStatus};
use crate::schema::{Criterion, Invocation};
use futures_util::future::LocalBoxFuture;

/// The history a judge sees for turns before `upto`: `user:` and agent blocks.
pub fn history(invs: &[Invocation]) -> String {
    let mut out = Vec::new();
    for inv in invs {
        if inv.user_content.parts.as_ref().is_some_and(|p| !p.is_empty()) {
            out.push(format!("user: {}", user_text(inv)));
        }
        if let Some(f) = &inv.final_response {
            out.push(format!("{}: {}", f.role.as_deref().unwrap_or("model"), f.text()));
        }
    }
    out.join("\n\n")
}

/// A persona as the simulated user and its judge read it: ADK's built-in personas described in
/// our words, a persona object as its JSON.
pub fn persona_text(p: Option<&PersonaRef>) -> Option<String> {
    p.map(|p| match p {
        PersonaRef::Builtin(id) => match crate::schema::personas::builtin(id) {
            Some(p) => crate::judge::context::pretty(&crate::schema::load::value_of(&p)),
            None => format!("Built-in persona {id}"),
        },
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
        let jc = judge_criterion(metric, c)?;
        let opts = &jc.options;
        let stop = jc.stop_signal.as_deref().unwrap_or("</finished>");
        let Some(scenario) = ctx.scenario else {
            let what = if ctx.expected.is_some() {
                "this case is a static conversation"
            } else {
                "a recorded session scored without an eval case has none"
            };
            return Err(NotEvaluated::new(
                "missing_scenario",
                format!("{metric} judges a simulated user and needs a conversation_scenario; {what}"),
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
                    stop,
                ),
                samples: opts.samples(5),
                first_sample: 0,
                media: crate::judge::media::none(),
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
                stop,
                stop,
            ),
            samples: opts.samples(5),
            first_sample: 0,
            media: crate::judge::media::none(),
            kind: CallKind::Judge,
        });
        let answers = ask_all(port, metric, opts, asks).await;
        let first = ctx.actual.first().map(user_text);
        let mut per_invocation = Vec::with_capacity(n);
        // As ADK: no user parts → not evaluated; otherwise the (possibly empty) text is compared.
        let first_has_parts = ctx
            .actual
            .first()
            .is_some_and(|a| a.user_content.parts.as_ref().is_some_and(|p| !p.is_empty()));
        per_invocation.push(match first {
            Some(t) if first_has_parts => {
                let s = if py_strip(&t) == py_strip(&scenario.starting_prompt) {
                    1.0
                } else {
                    0.0
                };
                Cell::new(Some(s), pass(Some(s), c.threshold))
            }
            _ => Cell::not_evaluated(
                "missing_user_text",
                "the first turn has no user content to compare".to_string(),
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

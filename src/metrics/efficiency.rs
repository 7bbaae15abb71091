//! ADK 2.x's four always-on informational metrics: tool calls, model calls, tokens, durations.

use super::{Ctx, Outcome};
use crate::schema::eval_result::{DURATION_FIELDS, TOKEN_FIELDS};
use crate::schema::result::{Breakdown, Cell, EvalStatus};
use crate::schema::value::round3;
use crate::schema::{IntermediateData, Invocation};

fn info(score: Option<f64>) -> Cell {
    Cell::new(score, EvalStatus::Informational)
}

/// Why a figure is missing or partial, as `details.reason` / `details.error` (evalcore
/// addition): an informational `n/a` is never silent.
type Note = (&'static str, String);

fn noted(mut cell: Cell, note: Option<Note>) -> Cell {
    if let Some((reason, message)) = note {
        cell.details.reason = Some(reason);
        cell.details.error = Some(message);
    }
    cell
}

fn note(reason: &'static str, message: &'static str) -> Option<Note> {
    Some((reason, message.to_string()))
}

const NO_EVENTS: &str =
    "no invocation_events (hand-written or legacy intermediate_data): ADK reads this figure from them";

fn events_of(inv: &Invocation) -> Option<&[crate::schema::InvocationEvent]> {
    match &inv.intermediate_data {
        Some(IntermediateData::Events(ev)) => Some(ev),
        _ => None,
    }
}

/// Mean over invocations that have a value (plain left-to-right sum, as Python 3.11's `sum`).
fn mean_present(values: impl Iterator<Item = Option<f64>>) -> Option<f64> {
    super::seq_mean(values.flatten())
}

fn simple(ctx: &Ctx, f: impl Fn(&Invocation) -> Option<f64>) -> Outcome {
    let values: Vec<Option<f64>> = ctx.actual.iter().map(f).collect();
    Outcome {
        overall: info(mean_present(values.iter().copied())),
        per_invocation: values.into_iter().map(info).collect(),
    }
}

pub fn tool_call_count(ctx: &Ctx) -> Outcome {
    simple(ctx, |inv| Some(inv.tool_call_count() as f64))
}

/// Events carrying usage metadata or a model version; only the event shape can tell.
pub fn inference_call_count(ctx: &Ctx) -> Outcome {
    let mut out = simple(ctx, |inv| {
        events_of(inv).map(|ev| {
            ev.iter()
                .filter(|e| e.usage_metadata.is_some() || e.model_version.is_some())
                .count() as f64
        })
    });
    // The case says why too: the first invocation that could not be counted.
    let mut first = None;
    for (cell, inv) in out.per_invocation.iter_mut().zip(ctx.actual) {
        let note = match (events_of(inv), cell.score) {
            (None, _) => note("no_invocation_events", NO_EVENTS),
            (Some(ev), Some(n)) if n == 0.0 && !ev.is_empty() => note(
                "model_calls_not_reported",
                "no event carries usage_metadata or model_version, ADK's mark of a model call: the agent \
                 reported neither (fromFunction: `usage`, `model`)",
            ),
            _ => None,
        };
        if first.is_none() {
            first.clone_from(&note);
        }
        *cell = noted(std::mem::replace(cell, info(None)), note);
    }
    out.overall = noted(std::mem::replace(&mut out.overall, info(None)), first);
    out
}

fn add(a: Option<i64>, b: Option<i64>) -> Option<i64> {
    match (a, b) {
        (None, None) => None,
        (x, y) => Some(x.unwrap_or(0).saturating_add(y.unwrap_or(0))),
    }
}

/// Per-invocation token fields in TOKEN_FIELDS order: sums over the events' usage metadata,
/// input = prompt + tool-use prompt, output = candidates + thoughts, total = input + output.
fn tokens_of(inv: &Invocation) -> [Option<f64>; 8] {
    let (mut prompt, mut cached, mut tool, mut cand, mut reasoning) = (None, None, None, None, None);
    for u in inv.events().iter().filter_map(|e| e.usage_metadata.as_deref()) {
        prompt = add(prompt, u.prompt_token_count);
        cached = add(cached, u.cached_content_token_count);
        tool = add(tool, u.tool_use_prompt_token_count);
        cand = add(cand, u.candidates_token_count);
        reasoning = add(reasoning, u.thoughts_token_count);
    }
    let input = add(prompt, tool);
    let output = add(cand, reasoning);
    [add(input, output), input, prompt, cached, tool, output, cand, reasoning].map(|v| v.map(|x| x as f64))
}

fn usage_note(inv: &Invocation) -> Option<Note> {
    match events_of(inv) {
        None => note("no_invocation_events", NO_EVENTS),
        Some(_) => note(
            "usage_not_reported",
            "no event carries usage_metadata: the agent reported no token counts (fromFunction: `usage`)",
        ),
    }
}

/// The case averages each field over *all* invocations (null only if no invocation reported it).
pub fn token_usage(ctx: &Ctx) -> Outcome {
    let per: Vec<[Option<f64>; 8]> = ctx.actual.iter().map(tokens_of).collect();
    let per_invocation: Vec<Cell> = per
        .iter()
        .zip(ctx.actual)
        .map(|(t, inv)| {
            let mut c = info(t[0]);
            c.details.token_usage_details = Some(Breakdown {
                names: &TOKEN_FIELDS,
                values: *t,
                integral: true,
            });
            noted(c, if t[0].is_none() { usage_note(inv) } else { None })
        })
        .collect();
    if per.is_empty() {
        return Outcome {
            overall: info(None),
            per_invocation,
        };
    }
    let n = per.len() as f64;
    let mut sums = [None::<f64>; 8];
    for t in &per {
        for (s, v) in sums.iter_mut().zip(t) {
            if let Some(v) = v {
                *s = Some(s.unwrap_or(0.0) + v);
            }
        }
    }
    let means = sums.map(|s| s.map(|s| s / n));
    let mut overall = info(means[0]);
    overall.details.token_usage_details = Some(Breakdown {
        names: &TOKEN_FIELDS,
        values: means,
        integral: false,
    });
    let note = match ctx.actual.iter().zip(&per).find(|(_, t)| t[0].is_none()) {
        Some((inv, _)) if means[0].is_none() => usage_note(inv),
        Some(_) => note(
            "usage_partly_reported",
            "some invocations reported no token counts; ADK's mean counts them as 0",
        ),
        None => None,
    };
    Outcome {
        overall: noted(overall, note),
        per_invocation,
    }
}

/// Why a duration, or its model / tool split, is missing.
fn duration_note(d: &[Option<f64>; 4]) -> Option<Note> {
    match d {
        [None, ..] => note("duration_not_measured", "measured only when evalcore runs the agent"),
        [_, None, _, _] | [_, _, None, _] => note(
            "model_tool_time_not_reported",
            "the agent reported no model / tool `timings`: the split is unknown",
        ),
        _ => None,
    }
}

fn durations_of(inv: &Invocation) -> [Option<f64>; 4] {
    let framework = match (inv.duration, inv.model_duration, inv.tool_duration) {
        (Some(t), Some(m), Some(tool)) => Some(round3((t - m - tool).max(0.0))),
        _ => None,
    };
    [inv.duration, inv.model_duration, inv.tool_duration, framework]
}

/// Wall time per invocation with its model / tool / framework split; case = per-field mean, 3 decimals.
pub fn invocation_duration(ctx: &Ctx) -> Outcome {
    let per: Vec<[Option<f64>; 4]> = ctx.actual.iter().map(durations_of).collect();
    let per_invocation = per
        .iter()
        .map(|d| {
            let mut c = info(d[0]);
            c.details.duration_details = Some(Breakdown {
                names: &DURATION_FIELDS,
                values: *d,
                integral: false,
            });
            noted(c, duration_note(d))
        })
        .collect();
    if per.is_empty() {
        return Outcome {
            overall: info(None),
            per_invocation,
        };
    }
    let mut means = [None::<f64>; 4];
    for (i, m) in means.iter_mut().enumerate() {
        *m = mean_present(per.iter().map(|d| d.get(i).copied().flatten())).map(round3);
    }
    let mut overall = info(means[0]);
    overall.details.duration_details = Some(Breakdown {
        names: &DURATION_FIELDS,
        values: means,
        integral: false,
    });
    let note = duration_note(&means).or_else(|| match per.iter().any(|d| duration_note(d).is_some()) {
        true => note(
            "model_tool_time_partly_reported",
            "some invocations have no model / tool split; each mean is over those that have one",
        ),
        false => None,
    });
    Outcome {
        overall: noted(overall, note),
        per_invocation,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn ctx(actual: &[Invocation]) -> Ctx<'_> {
        Ctx {
            actual,
            expected: None,
            scenario: None,
            call_index: None,
            case_rubrics: None,
            case_extra: None,
            explain: true,
        }
    }

    fn inv(v: serde_json::Value) -> Invocation {
        let mut base = json!({"user_content": {"parts": [{"text": "hi"}]}});
        if let (Some(b), Some(o)) = (base.as_object_mut(), v.as_object()) {
            b.extend(o.clone());
        }
        serde_json::from_value(base).unwrap()
    }

    #[test]
    fn missing_figures_say_why() {
        let text = json!({"invocation_events": [{"author": "a", "content": {"parts": [{"text": "x"}]}}]});
        let used = json!({"invocation_events": [{"author": "a", "usage_metadata": {"prompt_token_count": 4}}]});
        let actual = [
            inv(json!({"intermediate_data": text, "duration": 1.5})),
            inv(json!({"intermediate_data": used, "duration": 2.0, "model_duration": 1.0, "tool_duration": 0.5})),
            inv(json!({"intermediate_data": {"tool_uses": []}})),
        ];
        let c = ctx(&actual);
        let tokens = token_usage(&c);
        let reasons: Vec<_> = tokens.per_invocation.iter().map(|c| c.details.reason).collect();
        assert_eq!(
            reasons,
            [Some("usage_not_reported"), None, Some("no_invocation_events")]
        );
        assert_eq!(tokens.overall.details.reason, Some("usage_partly_reported"));
        let calls = inference_call_count(&c);
        let reasons: Vec<_> = calls.per_invocation.iter().map(|c| c.details.reason).collect();
        assert_eq!(
            reasons,
            [Some("model_calls_not_reported"), None, Some("no_invocation_events")]
        );
        assert_eq!(calls.per_invocation[0].score, Some(0.0), "the count stays ADK's");
        assert_eq!(calls.overall.details.reason, Some("model_calls_not_reported"));
        let durations = invocation_duration(&c);
        let reasons: Vec<_> = durations.per_invocation.iter().map(|c| c.details.reason).collect();
        assert_eq!(
            reasons,
            [
                Some("model_tool_time_not_reported"),
                None,
                Some("duration_not_measured")
            ]
        );
        assert_eq!(
            durations.overall.details.reason,
            Some("model_tool_time_partly_reported")
        );
        let whole = [actual[1].clone()];
        assert_eq!(invocation_duration(&ctx(&whole)).overall.details.reason, None);
        let only_text = [inv(json!({"intermediate_data": text}))];
        assert_eq!(
            token_usage(&ctx(&only_text)).overall.details.reason,
            Some("usage_not_reported")
        );
    }

    #[test]
    fn python_round() {
        assert_eq!(round3(2.5695), 2.57);
        assert_eq!(round3(1.0005), 1.0);
        assert_eq!(round3(0.0625), 0.062);
        assert_eq!(round3(8.146 - 6.488 - 0.611), 1.047);
        assert_eq!(round3(-0.0004), -0.0);
        assert_eq!(round3(123456.7895), 123456.789);
    }

    #[test]
    fn fast_path_agrees_with_the_exact_formatter() {
        let mut x = 0.0001f64;
        while x < 100.0 {
            let exact: f64 = format!("{x:.3}").parse().unwrap();
            assert_eq!(round3(x), exact, "{x}");
            x = x * 1.0007 + 0.000_013;
        }
    }
}

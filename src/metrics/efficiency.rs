//! ADK 2.x's four always-on informational metrics: tool calls, model calls, tokens, durations.

use super::{Ctx, Outcome};
use crate::schema::eval_result::{DURATION_FIELDS, TOKEN_FIELDS};
use crate::schema::result::{Breakdown, Cell, EvalStatus};
use crate::schema::{IntermediateData, Invocation};

fn info(score: Option<f64>) -> Cell {
    Cell::new(score, EvalStatus::Informational)
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
    simple(ctx, |inv| match &inv.intermediate_data {
        Some(IntermediateData::Events(ev)) => Some(
            ev.iter()
                .filter(|e| e.usage_metadata.is_some() || e.model_version.is_some())
                .count() as f64,
        ),
        _ => None,
    })
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

/// The case averages each field over *all* invocations (null only if no invocation reported it).
pub fn token_usage(ctx: &Ctx) -> Outcome {
    let per: Vec<[Option<f64>; 8]> = ctx.actual.iter().map(tokens_of).collect();
    let per_invocation = per
        .iter()
        .map(|t| {
            let mut c = info(t[0]);
            c.details.token_usage_details = Some(Breakdown {
                names: &TOKEN_FIELDS,
                values: *t,
                integral: true,
            });
            c
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
    Outcome {
        overall,
        per_invocation,
    }
}

/// Python's `round(x, 3)`: the double nearest the correctly rounded 3-decimal value (ties to even
/// on the exact binary value). Scaling by 1000 is exact enough except within a hair of a tie,
/// where the decimal formatter (exact) decides.
pub fn round3(x: f64) -> f64 {
    let scaled = x * 1000.0;
    let frac = scaled - scaled.floor();
    if !scaled.is_finite() || scaled.abs() > 1e15 || (frac - 0.5).abs() < 1e-6 {
        return format!("{x:.3}").parse().unwrap_or(x);
    }
    scaled.round() / 1000.0
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
            c
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
    Outcome {
        overall,
        per_invocation,
    }
}

#[cfg(test)]
mod tests {
    use super::round3;

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

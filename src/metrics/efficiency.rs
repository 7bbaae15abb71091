//! ADK 2.x's four always-on informational metrics: tool calls, model calls, tokens, durations.

use super::{Ctx, Outcome};
use crate::schema::config::num;
use crate::schema::result::{Cell, Details, EvalStatus};
use crate::schema::{IntermediateData, Invocation};
use serde_json::{Map, Value};

fn info(score: Option<f64>) -> Cell {
    Cell::new(score, EvalStatus::Informational)
}

/// Mean over invocations that have a value (plain left-to-right sum, as Python 3.11's `sum`).
fn mean_present(values: &[Option<f64>]) -> Option<f64> {
    super::seq_mean(values.iter().flatten().copied())
}

fn simple(ctx: &Ctx, f: impl Fn(&Invocation) -> Option<f64>) -> Outcome {
    let values: Vec<Option<f64>> = ctx.actual.iter().map(f).collect();
    Outcome {
        overall: info(mean_present(&values)),
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

const TOKEN_FIELDS: [&str; 8] = [
    "total_tokens",
    "input_tokens",
    "prompt_tokens",
    "cached_tokens",
    "tool_use_tokens",
    "output_tokens",
    "candidates_tokens",
    "reasoning_tokens",
];

fn add(a: Option<i64>, b: Option<i64>) -> Option<i64> {
    match (a, b) {
        (None, None) => None,
        (x, y) => Some(x.unwrap_or(0).saturating_add(y.unwrap_or(0))),
    }
}

/// Per-invocation token fields in TOKEN_FIELDS order (integers, as ADK reports them).
fn tokens_of(inv: &Invocation) -> [Option<i64>; 8] {
    let (mut prompt, mut cached, mut tool, mut cand, mut reasoning) = (None, None, None, None, None);
    for u in inv.events().iter().filter_map(|e| e.usage_metadata.as_ref()) {
        prompt = add(prompt, u.prompt_token_count);
        cached = add(cached, u.cached_content_token_count);
        tool = add(tool, u.tool_use_prompt_token_count);
        cand = add(cand, u.candidates_token_count);
        reasoning = add(reasoning, u.thoughts_token_count);
    }
    let input = add(prompt, tool);
    let output = add(cand, reasoning);
    [add(input, output), input, prompt, cached, tool, output, cand, reasoning]
}

fn object(fields: &[&str], values: impl Iterator<Item = Value>) -> Value {
    Value::Object(
        fields
            .iter()
            .map(|f| f.to_string())
            .zip(values)
            .collect::<Map<String, Value>>(),
    )
}

/// Sums over events' usage metadata; the case averages each field over *all* invocations.
pub fn token_usage(ctx: &Ctx) -> Outcome {
    let per: Vec<[Option<i64>; 8]> = ctx.actual.iter().map(tokens_of).collect();
    let per_invocation = per
        .iter()
        .map(|t| {
            let mut c = info(t[0].map(|x| x as f64));
            c.details.token_usage_details = Some(object(
                &TOKEN_FIELDS,
                t.iter().map(|v| v.map(Value::from).unwrap_or(Value::Null)),
            ));
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
    let means: Vec<Option<f64>> = (0..TOKEN_FIELDS.len())
        .map(|i| {
            let present: Vec<f64> = per
                .iter()
                .filter_map(|t| t.get(i).copied().flatten())
                .map(|x| x as f64)
                .collect();
            (!present.is_empty()).then(|| present.iter().sum::<f64>() / n)
        })
        .collect();
    let mut overall = info(means.first().copied().flatten());
    overall.details.token_usage_details = Some(object(
        &TOKEN_FIELDS,
        means.iter().map(|m| m.map(num).unwrap_or(Value::Null)),
    ));
    Outcome {
        overall,
        per_invocation,
    }
}

/// Python's `round(x, 3)`: correctly rounded to 3 decimals, ties to even on the exact binary value.
pub fn round3(x: f64) -> f64 {
    format!("{x:.3}").parse().unwrap_or(x)
}

const DURATION_FIELDS: [&str; 4] = ["total_seconds", "model_seconds", "tool_seconds", "framework_seconds"];

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
    let details = |d: &[Option<f64>]| object(&DURATION_FIELDS, d.iter().map(|v| v.map(num).unwrap_or(Value::Null)));
    let per_invocation = per
        .iter()
        .map(|d| {
            let mut c = info(d[0]);
            c.details.duration_details = Some(details(d));
            c
        })
        .collect();
    if per.is_empty() {
        return Outcome {
            overall: info(None),
            per_invocation,
        };
    }
    let means: Vec<Option<f64>> = (0..DURATION_FIELDS.len())
        .map(|i| mean_present(&per.iter().map(|d| d.get(i).copied().flatten()).collect::<Vec<_>>()).map(round3))
        .collect();
    let mut overall = info(means.first().copied().flatten());
    overall.details = Details {
        duration_details: Some(details(&means)),
        ..Details::default()
    };
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
        assert_eq!(round3(8.146 - 6.488 - 0.611), 1.047);
    }
}

//! Custom metrics: a host function registered by name (ADK §6). It receives the criterion,
//! the actual and expected invocations and the scenario, and returns scores; statuses it does
//! not give follow the pass rule.

use super::{pass, Ctx, NotEvaluated, Outcome};
use crate::schema::load::value_of;
use crate::schema::result::{Cell, EvalStatus};
use crate::schema::Criterion;
use futures_util::future::LocalBoxFuture;
use serde_json::{json, Value};

/// The host side of custom metrics.
pub trait CustomPort {
    /// Whether a metric of this name is registered.
    fn has(&self, name: &str) -> bool;
    /// Calls it with the JSON payload; returns its JSON answer or an error message.
    fn call(&self, name: &str, payload: String) -> LocalBoxFuture<'_, Result<String, String>>;
}

fn status_of(v: Option<&Value>) -> Option<EvalStatus> {
    match v? {
        Value::String(s) => match s.to_ascii_uppercase().as_str() {
            "PASSED" => Some(EvalStatus::Passed),
            "FAILED" => Some(EvalStatus::Failed),
            "NOT_EVALUATED" => Some(EvalStatus::NotEvaluated),
            "INFORMATIONAL" => Some(EvalStatus::Informational),
            _ => None,
        },
        Value::Number(n) => match n.as_u64()? {
            1 => Some(EvalStatus::Passed),
            2 => Some(EvalStatus::Failed),
            3 => Some(EvalStatus::NotEvaluated),
            4 => Some(EvalStatus::Informational),
            _ => None,
        },
        _ => None,
    }
}

fn cell_of(v: &Value, threshold: f64) -> Result<Cell, String> {
    let (score_v, status_v) = match v {
        Value::Number(_) | Value::Null => (v.clone(), None),
        Value::Object(o) => (
            o.get("score").cloned().unwrap_or(Value::Null),
            o.get("eval_status").or_else(|| o.get("evalStatus")),
        ),
        _ => return Err(format!("expected a number or {{score, eval_status}}, found {v}")),
    };
    let score = match score_v {
        Value::Null => None,
        Value::Number(n) => n.as_f64(),
        other => return Err(format!("`score` must be a number or null, found {other}")),
    };
    let status = match status_v {
        None => pass(score, threshold),
        Some(s) => status_of(Some(s)).ok_or_else(|| format!("unknown eval_status {s}"))?,
    };
    let mut cell = Cell::new(score, status);
    if status == EvalStatus::NotEvaluated {
        // Say why, in the metric's own words when it gave some (`reason` or `details.reason`).
        let own = v
            .get("reason")
            .or_else(|| v.get("details").and_then(|d| d.get("reason")))
            .and_then(Value::as_str);
        let why = match (own, score) {
            (Some(r), _) => format!("the custom metric reported NOT_EVALUATED: {r}"),
            (None, None) => "the custom metric returned no score (null or missing `score`)".to_string(),
            (None, Some(_)) => "the custom metric reported NOT_EVALUATED".to_string(),
        };
        cell.details.reason = Some("custom_not_evaluated");
        cell.details.error = Some(why);
    }
    Ok(cell)
}

/// Runs a custom metric through the host.
pub async fn run(port: &dyn CustomPort, name: &str, ctx: &Ctx<'_>, c: &Criterion) -> Result<Outcome, NotEvaluated> {
    let payload = json!({
        "metric_name": name,
        "threshold": c.threshold,
        "criterion": c.to_json(),
        "actual_invocations": value_of(ctx.actual),
        "expected_invocations": value_of(&ctx.expected),
        "conversation_scenario": value_of(&ctx.scenario),
    });
    let answer = port
        .call(name, payload.to_string())
        .await
        .map_err(|m| NotEvaluated::new("custom_metric_error", format!("custom metric {name:?} failed: {m}")))?;
    crate::schema::budget::check_reply(&answer, "the answer")
        .map_err(|m| NotEvaluated::new("custom_metric_error", format!("custom metric {name:?}: {m}")))?;
    let v: Value = serde_json::from_str(&answer).map_err(|e| {
        NotEvaluated::new(
            "custom_metric_error",
            format!("custom metric {name:?} returned no JSON value: {e}"),
        )
    })?;
    let bad = |m: String| NotEvaluated::new("custom_metric_error", format!("custom metric {name:?}: {m}"));
    let overall = cell_of(&v, c.threshold).map_err(bad)?;
    let per = v.get("per_invocation").or_else(|| v.get("perInvocation"));
    let per_invocation = match per {
        Some(Value::Array(items)) => items
            .iter()
            .map(|x| cell_of(x, c.threshold))
            .collect::<Result<Vec<_>, _>>()
            .map_err(bad)?,
        Some(Value::Null) | None => Vec::new(),
        Some(other) => return Err(bad(format!("`per_invocation` must be an array, found {other}"))),
    };
    let mut overall = overall;
    if let Some(Value::Object(d)) = v.get("details") {
        if let Some(Value::String(r)) = d.get("reason") {
            overall.details.error = Some(r.clone());
        }
    }
    Ok(Outcome {
        overall,
        per_invocation,
    })
}

//! Where a turn's time went: the `timings` an agent reports (when it awaited a model, when it
//! was inside a tool) turned into ADK 2.x's `model_duration` / `tool_duration` by ADK's rule.
//!
//! ADK measures intervals, not sums: concurrent model calls count once, and time a tool spent
//! awaiting a model (an `AgentTool`) is model time, not tool time
//! (`google.adk.telemetry._instrumentation._BusyIntervals`). An agent that measured totals
//! itself may report them as `model_ms` / `tool_ms` instead; they are taken as they are.

use crate::schema::value::round3;
use serde_json::{Map, Value};

/// Milliseconds covered by the union of intervals given flat (`[s0, e0, s1, e1, ...]`, one
/// clock): ADK's `_union_seconds`, overlap counted once.
fn union_ms(flat: &mut [f64]) -> f64 {
    // Insertion sort of the pairs by start: a turn has a handful of intervals, and another
    // instance of the generic sort would cost the wasm kilobytes.
    let n = flat.len() / 2;
    for i in 1..n {
        let mut j = i;
        while j > 0 && flat.get(2 * j - 2) > flat.get(2 * j) {
            flat.swap(2 * j - 2, 2 * j);
            flat.swap(2 * j - 1, 2 * j + 1);
            j -= 1;
        }
    }
    let mut total = 0.0;
    let mut counted_to = f64::NEG_INFINITY;
    for pair in flat.chunks_exact(2) {
        if let [start, end] = *pair {
            if end > counted_to {
                total += end - start.max(counted_to);
                counted_to = end;
            }
        }
    }
    total
}

fn field<'a>(o: &'a Map<String, Value>, snake: &str, camel: &str) -> Option<&'a Value> {
    o.get(snake).or_else(|| o.get(camel)).filter(|v| !v.is_null())
}

/// `[[start, end], ...]` in milliseconds (each `end >= start`) appended flat to `out`.
fn intervals(v: &Value, at: &str, out: &mut Vec<f64>) -> Result<(), String> {
    let Some(list) = v.as_array() else {
        return Err(format!("{at}: {BAD_PAIR}"));
    };
    for (i, pair) in list.iter().enumerate() {
        match pair.as_array().map(Vec::as_slice) {
            Some([s, e]) if s.as_f64().zip(e.as_f64()).is_some_and(|(s, e)| e >= s) => {
                out.extend([s.as_f64().unwrap_or(0.0), e.as_f64().unwrap_or(0.0)]);
            }
            _ => return Err(format!("{at}[{i}]: {BAD_PAIR}")),
        }
    }
    Ok(())
}

const BAD_PAIR: &str = "expected [startMs, endMs] pairs of numbers with end >= start";

fn total_ms(v: &Value, at: &str) -> Result<f64, String> {
    v.as_f64()
        .filter(|x| *x >= 0.0)
        .ok_or_else(|| format!("{at}: expected a number of milliseconds >= 0"))
}

/// `(model_duration, tool_duration)` in seconds, rounded to milliseconds as ADK rounds them, from
/// a reply's `timings`: `{model?: [[s, e]...], tool?: [[s, e]...]}` (intervals in ms on one
/// clock) or `{model_ms?, tool_ms?}` (totals the agent measured). A kind that is not reported
/// stays `None`, so the duration metric can say that the split is unknown.
pub fn durations(timings: Option<&Value>) -> Result<(Option<f64>, Option<f64>), String> {
    let Some(t) = timings else { return Ok((None, None)) };
    let o = t
        .as_object()
        .ok_or("timings must be an object: {model, tool} intervals or {modelMs, toolMs}")?;
    let (model_iv, tool_iv) = (field(o, "model", "model"), field(o, "tool", "tool"));
    let model_total = field(o, "model_ms", "modelMs")
        .map(|v| total_ms(v, "timings.modelMs"))
        .transpose()?;
    let tool_total = field(o, "tool_ms", "toolMs")
        .map(|v| total_ms(v, "timings.toolMs"))
        .transpose()?;
    let seconds = |ms: f64| round3(ms / 1000.0);
    if model_total.is_some() || tool_total.is_some() {
        if model_iv.is_some() || tool_iv.is_some() {
            return Err(
                "timings gives both intervals (model, tool) and totals (modelMs, toolMs); give one form".into(),
            );
        }
        return Ok((model_total.map(seconds), tool_total.map(seconds)));
    }
    let mut flat = Vec::new();
    if let Some(v) = model_iv {
        intervals(v, "timings.model", &mut flat)?;
    }
    let model_ms = union_ms(&mut flat);
    let tool = match tool_iv {
        // Tool time that overlaps a model call is model time (ADK's `tool_seconds`).
        Some(v) => {
            intervals(v, "timings.tool", &mut flat)?;
            Some((union_ms(&mut flat) - model_ms).max(0.0))
        }
        None => None,
    };
    Ok((model_iv.map(|_| seconds(model_ms)), tool.map(seconds)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn union_counts_overlap_once() {
        assert_eq!(union_ms(&mut [20.0, 30.0, 0.0, 10.0, 5.0, 15.0]), 25.0);
        assert_eq!(union_ms(&mut [20.0, 30.0, 0.0, 100.0]), 100.0);
        assert_eq!(union_ms(&mut [9.0, 12.0, 3.0, 4.0, 1.0, 2.0, 11.5, 20.0]), 13.0);
        assert_eq!(union_ms(&mut []), 0.0);
    }

    #[test]
    fn tool_time_inside_a_model_call_is_model_time() {
        // An agent-as-tool: the tool runs 0..1000 ms and awaits a model 200..700 ms inside it.
        let t = json!({"model": [[200, 700], [1000, 1500]], "tool": [[0, 1000]]});
        assert_eq!(durations(Some(&t)).unwrap(), (Some(1.0), Some(0.5)));
        // Parallel tools count once.
        let t = json!({"model": [[0, 100]], "tool": [[100, 400], [150, 300]]});
        assert_eq!(durations(Some(&t)).unwrap(), (Some(0.1), Some(0.3)));
    }

    #[test]
    fn totals_and_missing_kinds() {
        assert_eq!(durations(None).unwrap(), (None, None));
        assert_eq!(
            durations(Some(&json!({"modelMs": 1234.4}))).unwrap(),
            (Some(1.234), None)
        );
        assert_eq!(
            durations(Some(&json!({"tool": [[0, 20]]}))).unwrap(),
            (None, Some(0.02))
        );
        assert_eq!(durations(Some(&json!({"model": []}))).unwrap(), (Some(0.0), None));
    }

    #[test]
    fn bad_timings_say_where() {
        for (t, want) in [
            (json!(3), "timings must be an object"),
            (json!({"model": [[5, 1]]}), "timings.model[0]"),
            (json!({"tool": [[0]]}), "timings.tool[0]"),
            (json!({"model": "x"}), "timings.model: expected"),
            (json!({"toolMs": -1}), "timings.toolMs"),
            (json!({"model": [[0, 1]], "modelMs": 1}), "give one form"),
        ] {
            let e = durations(Some(&t)).unwrap_err();
            assert!(e.contains(want), "{t}: {e}");
        }
    }
}

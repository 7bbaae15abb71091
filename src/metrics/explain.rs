//! The `details.trajectory` of an invocation a trajectory metric scored below 1: per expected
//! call, the actual call it paired with, or the nearest call to the same tool and every argument
//! that failed there under its policy; then the actual calls nothing expected.

use super::args::{args_agree, ArgFailure};
use crate::schema::criteria::TrajectoryFields;
use crate::schema::FunctionCall;
use serde_json::{json, Map, Value};

/// The calls of one invocation, expected and actual.
pub struct Calls<'a> {
    pub expected: Vec<&'a FunctionCall>,
    pub actual: Vec<&'a FunctionCall>,
}

fn tool(c: &FunctionCall) -> Value {
    c.name.clone().map_or(Value::Null, Value::String)
}

pub fn failure_json(f: &ArgFailure) -> Value {
    let mut m = Map::new();
    m.insert("arg".into(), Value::String(f.arg.clone()));
    m.insert("policy".into(), Value::String(f.policy.into()));
    m.insert("why".into(), Value::String(f.why.clone()));
    if let Some(e) = &f.expected {
        m.insert("expected".into(), e.clone());
    }
    if let Some(a) = &f.actual {
        m.insert("actual".into(), a.clone());
    }
    Value::Object(m)
}

/// The actual call an unpaired expected call is best compared with: for EXACT the one at its
/// position when it calls the same tool, else the first unpaired call to the same tool.
fn nearest(calls: &Calls, e: usize, taken: &[bool], positional: bool) -> Option<usize> {
    let want = calls.expected.get(e)?.name.as_ref();
    let same = |a: usize| calls.actual.get(a).is_some_and(|c| c.name.as_ref() == want);
    if positional {
        return same(e).then_some(e);
    }
    (0..calls.actual.len()).find(|&a| !taken.get(a).copied().unwrap_or(true) && same(a))
}

/// The explanation object. `head` carries the metric's own keys (`match_type`, `note` …);
/// `positional` is EXACT's pairing by position.
pub fn explain(
    calls: &Calls,
    pairs: &[Option<usize>],
    c: &TrajectoryFields,
    head: Map<String, Value>,
    positional: bool,
) -> Value {
    let mut taken = vec![false; calls.actual.len()];
    for a in pairs.iter().flatten() {
        if let Some(t) = taken.get_mut(*a) {
            *t = true;
        }
    }
    let expected: Vec<Value> = calls
        .expected
        .iter()
        .enumerate()
        .map(|(e, call)| {
            let paired = pairs.get(e).copied().flatten();
            let mut m = Map::new();
            m.insert("index".into(), json!(e));
            m.insert("tool".into(), tool(call));
            m.insert("actual".into(), paired.map_or(Value::Null, |a| json!(a)));
            if paired.is_none() {
                match nearest(calls, e, &taken, positional) {
                    None => {
                        let why = if positional {
                            "the call at this position is missing or to another tool"
                        } else {
                            "no unpaired call to this tool"
                        };
                        m.insert("why".into(), Value::String(why.into()));
                    }
                    Some(a) => {
                        m.insert("nearest".into(), json!(a));
                        let mut failures = Vec::new();
                        if !c.ignore_args {
                            if let Some(actual) = calls.actual.get(a) {
                                args_agree(&c.arg_policies, call, actual, Some(&mut failures));
                            }
                        }
                        let why = if failures.is_empty() {
                            "a call that agrees is out of place for this match type"
                        } else {
                            "arguments differ"
                        };
                        m.insert("why".into(), Value::String(why.into()));
                        if !failures.is_empty() {
                            m.insert("args".into(), failures.iter().map(failure_json).collect());
                        }
                    }
                }
            }
            Value::Object(m)
        })
        .collect();
    let unexpected: Vec<Value> = calls
        .actual
        .iter()
        .enumerate()
        .filter(|(a, _)| !taken.get(*a).copied().unwrap_or(false))
        .map(|(a, call)| json!({"index": a, "tool": tool(call)}))
        .collect();
    let mut out = head;
    out.insert("expected".into(), Value::Array(expected));
    out.insert("unpaired_actual".into(), Value::Array(unexpected));
    with_lines(Value::Object(out))
}

/// A JSON value as text for the explanation lines (strings quoted, as in JSON).
fn shown(v: Option<&Value>) -> String {
    v.map_or_else(|| "(absent)".to_string(), Value::to_string)
}

/// `name` of a call entry, or `?` for a call without a name.
fn tool_name(v: &Value) -> &str {
    v.get("tool").and_then(Value::as_str).unwrap_or("?")
}

/// Call numbers are 1-based in the lines (as ADK numbers invocations), 0-based in the JSON.
fn number(v: Option<&Value>) -> String {
    v.and_then(Value::as_u64)
        .map_or_else(|| "?".to_string(), |i| (i + 1).to_string())
}

/// Adds `lines`: the explanation in words, one line per expected call, argument failure and
/// unpaired actual call (what the console's detailed output and the reports print).
pub fn with_lines(mut v: Value) -> Value {
    let mut lines = Vec::new();
    if let Some(m) = v.get("match_type").and_then(Value::as_str) {
        lines.push(format!("match type {m}"));
    }
    if let Some(a) = v.get("alignment").and_then(Value::as_str) {
        lines.push(format!("alignment {a}"));
    }
    if let Some(n) = v.get("note").and_then(Value::as_str) {
        lines.push(n.to_string());
    }
    for e in v.get("expected").and_then(Value::as_array).into_iter().flatten() {
        let head = format!("expected call {} {}", number(e.get("index")), tool_name(e));
        let score = e
            .get("score")
            .and_then(Value::as_f64)
            .map(|s| format!(" (score {s})"))
            .unwrap_or_default();
        match e.get("actual").filter(|a| !a.is_null()) {
            Some(a) => lines.push(format!("{head} -> actual call {}{score}", number(Some(a)))),
            None => {
                let why = e.get("why").and_then(Value::as_str).unwrap_or("no match");
                let near = e
                    .get("nearest")
                    .map(|n| format!(", nearest actual call {}", number(Some(n))))
                    .unwrap_or_default();
                lines.push(format!("{head} -> no match{score}: {why}{near}"));
            }
        }
        for f in e.get("args").and_then(Value::as_array).into_iter().flatten() {
            lines.push(format!(
                "  {} [{}] {}: expected {}, actual {}",
                f.get("arg").and_then(Value::as_str).unwrap_or("?"),
                f.get("policy").and_then(Value::as_str).unwrap_or("?"),
                f.get("why").and_then(Value::as_str).unwrap_or(""),
                shown(f.get("expected")),
                shown(f.get("actual")),
            ));
        }
    }
    let actual_tool = |a: &Value| {
        v.get("unpaired_actual")
            .and_then(Value::as_array)
            .and_then(|u| u.iter().find(|x| x.get("index") == Some(a)))
            .map_or("", tool_name)
            .to_string()
    };
    for a in v
        .get("outside_expected")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        lines.push(format!(
            "actual call {} {} agrees with no expected call",
            number(Some(a)),
            actual_tool(a)
        ));
    }
    for a in v.get("unpaired_actual").and_then(Value::as_array).into_iter().flatten() {
        lines.push(format!(
            "actual call {} {} paired with no expected call",
            number(a.get("index")),
            tool_name(a)
        ));
    }
    if let Value::Object(m) = &mut v {
        m.insert("lines".into(), lines.into_iter().map(Value::String).collect());
    }
    v
}

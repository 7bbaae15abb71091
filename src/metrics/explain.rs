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
    Value::Object(out)
}

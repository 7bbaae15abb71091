//! Comparing one expected tool call with one actual call under the criterion's argument
//! policies, with the reason when an argument fails. Without a policy for the tool the
//! comparison is ADK's: same name and Python-equal `args`.

use super::pyeq::{py_eq, py_eq_obj};
use crate::schema::criteria::{ArgPolicies, ArgPolicy};
use crate::schema::FunctionCall;
use crate::text::rouge::rouge1;
use serde_json::{Map, Value};

/// One argument that failed its policy.
#[derive(Debug, Clone, PartialEq)]
pub struct ArgFailure {
    pub arg: String,
    pub policy: &'static str,
    /// What went wrong, in words (`missing`, `unexpected`, `differs`, `ROUGE-1 0.4 < 0.6` …).
    pub why: String,
    pub expected: Option<Value>,
    pub actual: Option<Value>,
}

/// The verdict of one argument (present in the expected call, the actual call, or both).
fn check_arg(policy: &ArgPolicy, expected: Option<&Value>, actual: Option<&Value>) -> Result<(), String> {
    let need_both = |e: Option<&Value>, a: Option<&Value>| match (e, a) {
        (Some(_), None) => Err("missing from the actual call".to_string()),
        (None, Some(_)) => Err("not in the expected call".to_string()),
        _ => Ok(()),
    };
    match policy {
        ArgPolicy::Ignore => Ok(()),
        ArgPolicy::Present => match actual {
            Some(_) => Ok(()),
            None => Err("missing from the actual call".into()),
        },
        ArgPolicy::Regex(p) => match actual {
            None => Err("missing from the actual call".into()),
            Some(Value::String(s)) if p.full.is_match(s) => Ok(()),
            Some(Value::String(_)) => Err(format!("does not match /{}/", p.source)),
            Some(_) => Err("is not a string".into()),
        },
        ArgPolicy::Subset => match (expected, actual) {
            (None, _) => Ok(()),
            (Some(_), None) => Err("missing from the actual call".into()),
            (Some(e), Some(a)) if contains(e, a) => Ok(()),
            _ => Err("the expected value is not contained in the actual one".into()),
        },
        ArgPolicy::Exact | ArgPolicy::Text | ArgPolicy::Numeric { .. } | ArgPolicy::Rouge1 { .. } => {
            need_both(expected, actual)?;
            let (Some(e), Some(a)) = (expected, actual) else {
                return Ok(());
            };
            value_verdict(policy, e, a)
        }
    }
}

/// Two present values under a comparing policy.
fn value_verdict(policy: &ArgPolicy, e: &Value, a: &Value) -> Result<(), String> {
    let differs = || Err("differs".to_string());
    match (policy, e, a) {
        (ArgPolicy::Text, Value::String(x), Value::String(y)) => {
            if normalized(x) == normalized(y) {
                Ok(())
            } else {
                Err("differs (ignoring case and whitespace)".into())
            }
        }
        (ArgPolicy::Numeric { abs_tol, rel_tol }, Value::Number(x), Value::Number(y)) => {
            let (x, y) = (x.as_f64().unwrap_or(f64::NAN), y.as_f64().unwrap_or(f64::NAN));
            if is_close(x, y, *rel_tol, *abs_tol) {
                Ok(())
            } else {
                Err(format!(
                    "differs by {} (tolerance abs {abs_tol}, rel {rel_tol})",
                    (x - y).abs()
                ))
            }
        }
        (ArgPolicy::Rouge1 { threshold }, Value::String(x), Value::String(y)) => {
            let f = rouge1(y, x).fmeasure;
            if f >= *threshold {
                Ok(())
            } else {
                Err(format!("ROUGE-1 F {f:.4} < {threshold}"))
            }
        }
        // Any other pair of types, and `exact`: Python equality.
        _ => {
            if py_eq(e, a) {
                Ok(())
            } else {
                differs()
            }
        }
    }
}

/// Python's `math.isclose`: `|a - b| <= max(rel_tol * max(|a|, |b|), abs_tol)`.
fn is_close(a: f64, b: f64, rel_tol: f64, abs_tol: f64) -> bool {
    if a == b {
        return true;
    }
    if !a.is_finite() || !b.is_finite() {
        return false;
    }
    (a - b).abs() <= (rel_tol * a.abs().max(b.abs())).max(abs_tol)
}

/// Lower case, whitespace runs as one space, no leading or trailing whitespace.
fn normalized(s: &str) -> String {
    s.split_whitespace()
        .map(str::to_lowercase)
        .collect::<Vec<_>>()
        .join(" ")
}

/// The expected value is contained in the actual one: objects by key (recursively, extra actual
/// keys allowed), lists element by element with equal lengths, anything else by Python equality.
pub fn contains(expected: &Value, actual: &Value) -> bool {
    match (expected, actual) {
        (Value::Object(e), Value::Object(a)) => e.iter().all(|(k, ev)| a.get(k).is_some_and(|av| contains(ev, av))),
        (Value::Array(e), Value::Array(a)) => e.len() == a.len() && e.iter().zip(a).all(|(x, y)| contains(x, y)),
        _ => py_eq(expected, actual),
    }
}

/// The keys of both calls' args, expected ones first, each once.
fn keys<'a>(e: &'a Map<String, Value>, a: &'a Map<String, Value>) -> impl Iterator<Item = &'a String> {
    e.keys().chain(a.keys().filter(|k| !e.contains_key(*k)))
}

/// Do the args of `expected` and `actual` (same tool) agree under the policies? With no policy
/// for the tool this is ADK's `args ==`. `failures` gets every failing argument when given.
pub fn args_agree(
    policies: &ArgPolicies,
    expected: &FunctionCall,
    actual: &FunctionCall,
    mut failures: Option<&mut Vec<ArgFailure>>,
) -> bool {
    let tool = expected.name.as_deref().unwrap_or("");
    if !policies.applies_to(tool) {
        let equal = py_eq_obj(expected.args.as_ref(), actual.args.as_ref());
        if !equal {
            if let Some(out) = failures {
                out.extend(exact_failures(expected.args.as_ref(), actual.args.as_ref()));
            }
        }
        return equal;
    }
    let empty = Map::new();
    let e = expected.args.as_ref().unwrap_or(&empty);
    let a = actual.args.as_ref().unwrap_or(&empty);
    let mut ok = true;
    for k in keys(e, a) {
        let policy = policies.lookup(tool, k);
        if let Err(why) = check_arg(policy, e.get(k), a.get(k)) {
            ok = false;
            match failures.as_deref_mut() {
                Some(out) => out.push(ArgFailure {
                    arg: k.clone(),
                    policy: policy.name(),
                    why,
                    expected: e.get(k).cloned(),
                    actual: a.get(k).cloned(),
                }),
                None => return false,
            }
        }
    }
    ok
}

/// Why ADK's `args ==` failed, argument by argument (`args` missing on one side counts as a
/// difference of the whole value).
fn exact_failures(e: Option<&Map<String, Value>>, a: Option<&Map<String, Value>>) -> Vec<ArgFailure> {
    let (Some(e), Some(a)) = (e, a) else {
        let side = |m: Option<&Map<String, Value>>| Some(m.map_or(Value::Null, |m| Value::Object(m.clone())));
        return vec![ArgFailure {
            arg: "args".into(),
            policy: "exact",
            why: "one call has no `args` (None is not {})".into(),
            expected: side(e),
            actual: side(a),
        }];
    };
    keys(e, a)
        .filter_map(|k| {
            check_arg(&ArgPolicy::Exact, e.get(k), a.get(k))
                .err()
                .map(|why| ArgFailure {
                    arg: k.clone(),
                    policy: "exact",
                    why,
                    expected: e.get(k).cloned(),
                    actual: a.get(k).cloned(),
                })
        })
        .collect()
}

/// Call equality of the trajectory metrics: same name, and (unless `ignore_args`) args that
/// agree under the policies.
pub fn calls_agree(policies: &ArgPolicies, ignore_args: bool, expected: &FunctionCall, actual: &FunctionCall) -> bool {
    expected.name == actual.name && (ignore_args || args_agree(policies, expected, actual, None))
}

/// `tool_parameter_match`'s score of one aligned pair: the share of the expected call's
/// arguments that the actual call matches (PR google/adk-python#6726: present and Python-equal),
/// each under its policy; `ignore`d arguments leave the count. No expected arguments: 1.0.
pub fn parameter_score(
    policies: &ArgPolicies,
    expected: &FunctionCall,
    actual: &FunctionCall,
    failures: &mut Vec<ArgFailure>,
) -> f64 {
    let tool = expected.name.as_deref().unwrap_or("");
    let empty = Map::new();
    let e = expected.args.as_ref().unwrap_or(&empty);
    let a = actual.args.as_ref().unwrap_or(&empty);
    let (mut counted, mut matched) = (0usize, 0usize);
    for (k, ev) in e {
        let policy = policies.lookup(tool, k);
        if *policy == ArgPolicy::Ignore {
            continue;
        }
        counted += 1;
        // Only the expected keys count here, so an argument is judged on the actual call's value
        // for that key alone (an absent key fails every policy but `ignore`).
        let verdict = match a.get(k) {
            None => Err("missing from the actual call".to_string()),
            Some(av) => check_arg(policy, Some(ev), Some(av)),
        };
        match verdict {
            Ok(()) => matched += 1,
            Err(why) => failures.push(ArgFailure {
                arg: k.clone(),
                policy: policy.name(),
                why,
                expected: Some(ev.clone()),
                actual: a.get(k).cloned(),
            }),
        }
    }
    if counted == 0 {
        1.0
    } else {
        matched as f64 / counted as f64
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::metrics::test_call as call;
    use crate::schema::arg_policies::parse;
    use serde_json::json;

    fn agree(policies: Value, e: Value, a: Value) -> bool {
        let p = parse(&policies).unwrap();
        args_agree(&p, &call("t", e), &call("t", a), None)
    }

    /// Every policy, row by row: (policies of tool `t`, expected args, actual args, verdict).
    #[test]
    fn every_policy() {
        let rows: Vec<(Value, Value, Value, bool)> = vec![
            // exact is ADK's rule, also when named
            (json!({"t": {"x": "exact"}}), json!({"x": 1}), json!({"x": 1.0}), true),
            (json!({"t": {"x": "exact"}}), json!({"x": 1}), json!({"x": "1"}), false),
            (
                json!({"t": {"x": "exact"}}),
                json!({"x": 1}),
                json!({"x": 1, "y": 2}),
                false,
            ),
            // ignore: absent, present or different
            (
                json!({"t": {"ts": "ignore"}}),
                json!({"ts": 1, "q": "a"}),
                json!({"ts": 2, "q": "a"}),
                true,
            ),
            (
                json!({"t": {"ts": "ignore"}}),
                json!({"ts": 1, "q": "a"}),
                json!({"q": "a"}),
                true,
            ),
            (
                json!({"t": {"ts": "ignore"}}),
                json!({"q": "a"}),
                json!({"ts": 9, "q": "a"}),
                true,
            ),
            (
                json!({"t": {"ts": "ignore"}}),
                json!({"ts": 1, "q": "a"}),
                json!({"q": "b"}),
                false,
            ),
            // present: any value, but there
            (
                json!({"t": {"id": "present"}}),
                json!({"id": "x"}),
                json!({"id": 42}),
                true,
            ),
            (json!({"t": {"id": "present"}}), json!({"id": "x"}), json!({}), false),
            // text: case and whitespace
            (
                json!({"t": {"c": "text"}}),
                json!({"c": "New  York"}),
                json!({"c": " new york "}),
                true,
            ),
            (
                json!({"t": {"c": "text"}}),
                json!({"c": "New York"}),
                json!({"c": "NewYork"}),
                false,
            ),
            (json!({"t": {"c": "text"}}), json!({"c": 1}), json!({"c": true}), true),
            // numeric: math.isclose
            (
                json!({"t": {"n": {"policy": "numeric", "abs_tol": 0.1}}}),
                json!({"n": 1}),
                json!({"n": 1.1}),
                false,
            ),
            (
                json!({"t": {"n": {"policy": "numeric", "abs_tol": 0.1}}}),
                json!({"n": 1}),
                json!({"n": 0.95}),
                true,
            ),
            (
                json!({"t": {"n": {"policy": "numeric", "rel_tol": 0.01}}}),
                json!({"n": 200}),
                json!({"n": 201.9}),
                true,
            ),
            (
                json!({"t": {"n": {"policy": "numeric", "rel_tol": 0.01}}}),
                json!({"n": 200}),
                json!({"n": 203}),
                false,
            ),
            (
                json!({"t": {"n": {"policy": "numeric", "abs_tol": 5}}}),
                json!({"n": 1}),
                json!({"n": "1"}),
                false,
            ),
            (json!({"t": {"n": "numeric"}}), json!({"n": 2}), json!({"n": 2.0}), true),
            // regex: the actual value in full; the expected one is not used
            (
                json!({"t": {"d": {"policy": "regex", "pattern": "\\d{4}-\\d{2}-\\d{2}"}}}),
                json!({"d": "2025-01-01"}),
                json!({"d": "2026-12-31"}),
                true,
            ),
            (
                json!({"t": {"d": {"policy": "regex", "pattern": "\\d{4}-\\d{2}-\\d{2}"}}}),
                json!({"d": "2025-01-01"}),
                json!({"d": "2026-12-31 noon"}),
                false,
            ),
            (
                json!({"t": {"d": {"policy": "regex", "pattern": "\\d+"}}}),
                json!({"d": "1"}),
                json!({"d": 1}),
                false,
            ),
            (
                json!({"t": {"d": {"policy": "regex", "pattern": ".*"}}}),
                json!({}),
                json!({}),
                true,
            ),
            // rouge1 at a threshold
            (
                json!({"t": {"s": {"policy": "rouge1", "threshold": 0.5}}}),
                json!({"s": "Generate response to user greeting"}),
                json!({"s": "Generate a response to the user's greeting"}),
                true,
            ),
            (
                json!({"t": {"s": {"policy": "rouge1", "threshold": 0.5}}}),
                json!({"s": "Generate response to user greeting"}),
                json!({"s": "Book a flight"}),
                false,
            ),
            // subset: expected inside actual, extra keys fine
            (
                json!({"t": "subset"}),
                json!({"plan": {"a": 1}}),
                json!({"plan": {"a": 1, "b": 2}, "extra": true}),
                true,
            ),
            (
                json!({"t": "subset"}),
                json!({"plan": {"a": 1}}),
                json!({"plan": {"a": 2}}),
                false,
            ),
            (
                json!({"t": "subset"}),
                json!({"l": [{"a": 1}]}),
                json!({"l": [{"a": 1, "b": 0}]}),
                true,
            ),
            (json!({"t": "subset"}), json!({"l": [1]}), json!({"l": [1, 2]}), false),
            (json!({"t": "subset"}), json!({"a": 1}), json!({}), false),
            // lookup through `*`
            (json!({"*": {"ts": "ignore"}}), json!({"ts": 1}), json!({"ts": 2}), true),
            (json!({"*": "ignore"}), json!({"a": 1}), json!({"b": 2}), true),
            // a policy for another tool leaves this one to ADK's rule (None args != {})
            (json!({"other": "ignore"}), json!(null), json!({}), false),
        ];
        for (p, e, a, want) in rows {
            assert_eq!(agree(p.clone(), e.clone(), a.clone()), want, "{p} {e} vs {a}");
        }
    }

    #[test]
    fn failures_name_argument_and_policy() {
        let p = parse(&json!({"t": {"ts": "ignore", "n": {"policy": "numeric", "abs_tol": 0.5}}})).unwrap();
        let mut f = Vec::new();
        let ok = args_agree(
            &p,
            &call("t", json!({"ts": 1, "n": 1, "q": "a"})),
            &call("t", json!({"ts": 2, "n": 3, "z": 0})),
            Some(&mut f),
        );
        assert!(!ok);
        let got: Vec<(&str, &str)> = f.iter().map(|x| (x.arg.as_str(), x.policy)).collect();
        assert_eq!(got, [("n", "numeric"), ("q", "exact"), ("z", "exact")]);
        assert!(f[1].why.contains("missing"), "{:?}", f[1]);
        assert!(f[2].why.contains("not in the expected"), "{:?}", f[2]);
        // ADK's rule explained too.
        let mut f = Vec::new();
        assert!(!args_agree(
            &ArgPolicies::default(),
            &call("t", json!({"a": 1})),
            &call("t", json!({"a": 2})),
            Some(&mut f)
        ));
        assert_eq!(f.len(), 1);
        assert_eq!((f[0].arg.as_str(), f[0].policy), ("a", "exact"));
    }

    #[test]
    fn parameter_scores() {
        let none = ArgPolicies::default();
        let mut f = Vec::new();
        // PR #6726's example: city right, rooms wrong.
        let s = parameter_score(
            &none,
            &call("search", json!({"city": "Rome", "rooms": 1})),
            &call("search", json!({"city": "Rome", "rooms": 2})),
            &mut f,
        );
        assert_eq!(s, 0.5);
        assert_eq!(f[0].arg, "rooms");
        assert_eq!(
            parameter_score(&none, &call("s", json!({})), &call("s", json!({"x": 1})), &mut f),
            1.0
        );
        let p = parse(&json!({"search": {"rooms": "ignore"}})).unwrap();
        let s = parameter_score(
            &p,
            &call("search", json!({"city": "Rome", "rooms": 1})),
            &call("search", json!({"city": "Rome", "rooms": 2})),
            &mut Vec::new(),
        );
        assert_eq!(s, 1.0);
        let p = parse(&json!({"search": {"rooms": {"policy": "numeric", "abs_tol": 1}}})).unwrap();
        let s = parameter_score(
            &p,
            &call("search", json!({"city": "rome", "rooms": 1})),
            &call("search", json!({"city": "Rome", "rooms": 2})),
            &mut Vec::new(),
        );
        assert_eq!(s, 0.5);
    }
}

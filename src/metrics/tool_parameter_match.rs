//! `tool_parameter_match` (evalcore; beyond ADK 2.13): partial credit for tool arguments, as
//! google/adk-python pull request #6726 defines it (open, not merged, when this was written).
//!
//! Per invocation: each expected call, in order, pairs with the first actual call to the same
//! tool at or after the previous pair (a call not found scores 0 and moves nothing). A paired
//! call scores the share of its expected arguments the actual call has with an equal value (no
//! expected arguments: 1.0); the invocation scores the mean over its expected calls. An
//! invocation that expects no calls is NOT_EVALUATED and left out of the case mean; none
//! evaluated leaves the case NOT_EVALUATED. `arg_policies` decide what "equal" is per argument;
//! an `ignore`d argument leaves the count.

use super::args::parameter_score;
use super::explain::{failure_json, with_lines, Calls};
use super::trajectory::{calls, parse_criterion};
use super::{empty_outcome, pass, require_expected, Ctx, NotEvaluated, Outcome};
use crate::schema::criteria::TrajectoryFields;
use crate::schema::result::Cell;
use crate::schema::Criterion;
use serde_json::{json, Map, Value};

const METRIC: &str = "tool_parameter_match";

/// The invocation's score and, below 1, its explanation.
fn invocation(k: &Calls, c: &TrajectoryFields) -> (f64, Option<Value>) {
    let mut cursor = 0;
    let mut sum = 0.0;
    let mut taken = vec![false; k.actual.len()];
    let mut entries = Vec::new();
    for (e, call) in k.expected.iter().enumerate() {
        let found = (cursor..k.actual.len()).find(|&a| k.actual.get(a).is_some_and(|x| x.name == call.name));
        let mut failures = Vec::new();
        let s = match found.and_then(|a| k.actual.get(a).map(|x| (a, x))) {
            Some((a, actual)) => {
                cursor = a + 1;
                if let Some(t) = taken.get_mut(a) {
                    *t = true;
                }
                parameter_score(&c.arg_policies, call, actual, &mut failures)
            }
            None => 0.0,
        };
        sum += s;
        let mut m = Map::new();
        m.insert("index".into(), json!(e));
        m.insert("tool".into(), call.name.clone().map_or(Value::Null, Value::String));
        m.insert("actual".into(), found.map_or(Value::Null, |a| json!(a)));
        m.insert("score".into(), json!(s));
        if found.is_none() {
            m.insert("why".into(), json!("no call to this tool after the previous pair"));
        }
        if !failures.is_empty() {
            m.insert("args".into(), failures.iter().map(failure_json).collect());
        }
        entries.push(Value::Object(m));
    }
    let score = sum / k.expected.len().max(1) as f64;
    if score >= 1.0 {
        return (score, None);
    }
    let unpaired: Vec<Value> = k
        .actual
        .iter()
        .enumerate()
        .filter(|(a, _)| !taken.get(*a).copied().unwrap_or(false))
        .map(|(a, x)| json!({"index": a, "tool": x.name}))
        .collect();
    let why =
        with_lines(json!({"alignment": "by tool name, in order", "expected": entries, "unpaired_actual": unpaired}));
    (score, Some(why))
}

pub fn score(ctx: &Ctx, criterion: &Criterion) -> Result<Outcome, NotEvaluated> {
    let c = parse_criterion(METRIC, criterion)?;
    let expected = require_expected(ctx, METRIC)?;
    if expected.is_empty() {
        return Ok(empty_outcome());
    }
    let threshold = criterion.threshold;
    let (mut sum, mut n) = (0.0, 0usize);
    let per_invocation: Vec<Cell> = (0..expected.len())
        .map(|i| {
            let k = calls(ctx, i);
            if k.expected.is_empty() {
                return Cell::not_evaluated(
                    "no_expected_calls",
                    "this invocation expects no tool calls, so it has no arguments to score".into(),
                );
            }
            let (s, why) = invocation(&k, &c);
            sum += s;
            n += 1;
            let mut cell = Cell::new(Some(s), pass(Some(s), threshold));
            // Explained only where per-invocation results will carry it.
            if let Some(why) = why.filter(|_| ctx.explain) {
                cell.details.trajectory = Some(why);
            }
            cell
        })
        .collect();
    let overall = if n == 0 {
        Cell::not_evaluated(
            "no_expected_calls",
            "no invocation expects tool calls, so there are no arguments to score".into(),
        )
    } else {
        let mean = sum / n as f64;
        Cell::new(Some(mean), pass(Some(mean), threshold))
    };
    Ok(Outcome {
        overall,
        per_invocation,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::metrics::test_call as call;
    use crate::schema::arg_policies::parse;
    use crate::schema::FunctionCall;

    fn run(expected: &[FunctionCall], actual: &[FunctionCall], policies: Value) -> (f64, Option<Value>) {
        let c = TrajectoryFields {
            arg_policies: parse(&policies).unwrap(),
            ..Default::default()
        };
        let k = Calls {
            expected: expected.iter().collect(),
            actual: actual.iter().collect(),
        };
        invocation(&k, &c)
    }

    /// The cases of PR google/adk-python#6726's tests, then policies on top.
    #[test]
    fn upstream_cases() {
        let none = json!({});
        let rome = |rooms: i64| call("search", json!({"city": "Rome", "rooms": rooms}));
        assert_eq!(run(&[rome(1)], &[rome(2)], none.clone()).0, 0.5);
        assert_eq!(
            run(
                &[call("search", json!({}))],
                &[call("search", json!({"city": "Rome"}))],
                none.clone()
            )
            .0,
            1.0
        );
        let city = |c: &str| call("search", json!({"city": c}));
        let aligned = run(
            &[city("Rome"), city("Paris")],
            &[call("log", json!({})), city("Rome"), city("Paris")],
            none.clone(),
        );
        assert_eq!(aligned, (1.0, None));
        assert_eq!(run(&[city("Rome")], &[], none.clone()).0, 0.0);
        // An expected call not found does not consume the later match.
        assert_eq!(
            run(&[call("log", json!({})), city("Rome")], &[city("Rome")], none.clone()).0,
            0.5
        );
        // Policies: ignore leaves the count, numeric tolerance forgives the rooms.
        assert_eq!(
            run(&[rome(1)], &[rome(2)], json!({"search": {"rooms": "ignore"}})).0,
            1.0
        );
        assert_eq!(
            run(
                &[rome(1)],
                &[rome(2)],
                json!({"search": {"rooms": {"policy": "numeric", "abs_tol": 1}}})
            )
            .0,
            1.0
        );
    }

    #[test]
    fn explanation_names_the_failing_argument() {
        let (s, why) = run(
            &[call("search", json!({"city": "Rome", "rooms": 1}))],
            &[call("search", json!({"city": "Rome", "rooms": 2}))],
            json!({}),
        );
        assert_eq!(s, 0.5);
        let why = why.unwrap();
        assert_eq!(why["expected"][0]["args"][0]["arg"], "rooms");
        assert_eq!(why["expected"][0]["args"][0]["policy"], "exact");
        assert_eq!(why["expected"][0]["args"][0]["expected"], 1);
        assert_eq!(why["expected"][0]["args"][0]["actual"], 2);
    }
}

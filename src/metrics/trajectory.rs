//! `tool_trajectory_avg_score` (EXACT / IN_ORDER / ANY_ORDER, ignore_args) and the trajectory
//! precision / recall / single-tool-use extras. Per invocation 0..1, case = sequential mean.

use super::call_index::CallId;
use super::pyeq::py_eq_obj;
use super::{invalid, per_invocation, per_pair, typed, Ctx, NotEvaluated, Outcome};
pub use crate::schema::criteria::MatchType;
use crate::schema::criteria::Typed;
use crate::schema::{Criterion, FunctionCall};

/// ToolTrajectoryCriterion, as typed when the config was loaded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TrajectoryCriterion {
    pub match_type: MatchType,
    pub ignore_args: bool,
}

fn parse_criterion(metric: &str, c: &Criterion) -> Result<TrajectoryCriterion, NotEvaluated> {
    let t = typed(metric, c);
    if let Some(e) = invalid(&t) {
        return Err(e);
    }
    Ok(match t.as_ref() {
        Typed::ToolTrajectory {
            match_type,
            ignore_args,
        } => TrajectoryCriterion {
            match_type: *match_type,
            ignore_args: *ignore_args,
        },
        _ => TrajectoryCriterion {
            match_type: MatchType::Exact,
            ignore_args: false,
        },
    })
}

/// Same tool and (unless ignored) Python-equal args; ids and streaming fields never matter.
pub fn calls_equal(a: &FunctionCall, b: &FunctionCall, ignore_args: bool) -> bool {
    a.name == b.name && (ignore_args || py_eq_obj(a.args.as_ref(), b.args.as_ref()))
}

/// Does the actual trajectory match the expected one under `match_type`, `eq` being call equality?
/// Generic so one algorithm serves both direct comparison and interned call ids.
pub fn matches<T>(actual: &[T], expected: &[T], match_type: MatchType, eq: impl Fn(&T, &T) -> bool) -> bool {
    match match_type {
        MatchType::Exact => actual.len() == expected.len() && actual.iter().zip(expected).all(|(a, e)| eq(a, e)),
        MatchType::InOrder => {
            let mut want = expected.iter().peekable();
            for a in actual {
                if want.peek().is_some_and(|e| eq(a, e)) {
                    want.next();
                }
            }
            want.peek().is_none()
        }
        MatchType::AnyOrder => matched_count(expected, actual, &eq) == expected.len(),
    }
}

/// Number of calls of `from` that find a distinct equal partner in `pool` (multiset matching,
/// first free partner wins, as ADK's ANY_ORDER removes the first equal call).
fn matched_count<T>(from: &[T], pool: &[T], eq: impl Fn(&T, &T) -> bool) -> usize {
    let mut free: Vec<bool> = vec![true; pool.len()];
    from.iter()
        .filter(|f| {
            let hit = pool
                .iter()
                .zip(free.iter_mut())
                .find(|(p, is_free)| **is_free && eq(f, p));
            match hit {
                Some((_, is_free)) => {
                    *is_free = false;
                    true
                }
                None => false,
            }
        })
        .count()
}

/// Scores invocation `i` with `f` over its actual and expected calls: interned ids when the case
/// carries an index (prepared cases), the calls themselves otherwise.
fn with_calls<'a, R>(
    ctx: &Ctx<'a>,
    i: usize,
    c: TrajectoryCriterion,
    by_id: impl Fn(&[CallId], &[CallId], &dyn Fn(&CallId, &CallId) -> bool) -> R,
    direct: impl Fn(&[&FunctionCall], &[&FunctionCall], &dyn Fn(&&FunctionCall, &&FunctionCall) -> bool) -> R,
) -> R {
    if let Some(index) = ctx.call_index {
        let get = |v: &'a [Vec<CallId>]| -> &'a [CallId] { v.get(i).map(Vec::as_slice).unwrap_or(&[]) };
        let eq = |a: &CallId, b: &CallId| {
            if c.ignore_args {
                a.name == b.name
            } else {
                a.full == b.full
            }
        };
        return by_id(get(&index.actual), get(&index.expected), &eq);
    }
    let eq = |a: &&FunctionCall, b: &&FunctionCall| calls_equal(a, b, c.ignore_args);
    direct(&calls_of(Some(ctx.actual), i), &calls_of(ctx.expected, i), &eq)
}

fn calls_of(invs: Option<&[crate::schema::Invocation]>, i: usize) -> Vec<&FunctionCall> {
    invs.and_then(|v| v.get(i))
        .map(|inv| inv.tool_calls())
        .unwrap_or_default()
}

/// `with_calls` with one body for both representations: a closure cannot be generic over the
/// element type, so the macro writes it twice.
macro_rules! over_calls {
    ($ctx:expr, $i:expr, $c:expr, |$a:ident, $e:ident, $eq:ident| $body:expr) => {
        with_calls($ctx, $i, $c, |$a, $e, $eq| $body, |$a, $e, $eq| $body)
    };
}

pub fn avg_score(ctx: &Ctx, criterion: &Criterion) -> Result<Outcome, NotEvaluated> {
    let c = parse_criterion("tool_trajectory_avg_score", criterion)?;
    per_pair(ctx, criterion, "tool_trajectory_avg_score", |i| {
        let hit = over_calls!(ctx, i, c, |a, e, eq| matches(a, e, c.match_type, eq));
        if hit {
            1.0
        } else {
            0.0
        }
    })
}

fn ratio(hit: usize, total: usize, empty: f64) -> f64 {
    if total == 0 {
        empty
    } else {
        hit as f64 / total as f64
    }
}

/// Share of actual calls that are expected (each expected call matches once). No actual calls:
/// 1.0 if none were expected, else 0.0.
pub fn precision(ctx: &Ctx, criterion: &Criterion) -> Result<Outcome, NotEvaluated> {
    let c = parse_criterion("trajectory_precision", criterion)?;
    per_pair(ctx, criterion, "trajectory_precision", |i| {
        let score = |hit: usize, a: usize, e: usize| ratio(hit, a, if e == 0 { 1.0 } else { 0.0 });
        over_calls!(ctx, i, c, |a, e, eq| score(matched_count(a, e, eq), a.len(), e.len()))
    })
}

/// Share of expected calls the agent made (multiset matching). Nothing expected: 1.0.
pub fn recall(ctx: &Ctx, criterion: &Criterion) -> Result<Outcome, NotEvaluated> {
    let c = parse_criterion("trajectory_recall", criterion)?;
    per_pair(ctx, criterion, "trajectory_recall", |i| {
        over_calls!(ctx, i, c, |a, e, eq| ratio(matched_count(e, a, eq), e.len(), 1.0))
    })
}

/// 1.0 when the actual trajectory calls the criterion's `tool_name` at least once. Needs no
/// expected invocations.
pub fn single_tool_use(ctx: &Ctx, criterion: &Criterion) -> Result<Outcome, NotEvaluated> {
    let t = typed("trajectory_single_tool_use", criterion);
    if let Some(e) = invalid(&t) {
        return Err(e);
    }
    let name = match t.as_ref() {
        Typed::ToolName(s) => s.clone(),
        _ => {
            return Err(NotEvaluated::new(
                "invalid_criterion",
                "trajectory_single_tool_use needs `tool_name` in its criterion",
            ))
        }
    };
    let calls_it = |i: usize| {
        ctx.actual
            .get(i)
            .is_some_and(|a| a.tool_calls().iter().any(|c| c.name.as_deref() == Some(name.as_str())))
    };
    Ok(per_invocation(ctx.actual.len(), criterion.threshold, |i| {
        if calls_it(i) {
            1.0
        } else {
            0.0
        }
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    use crate::metrics::test_call as call;

    fn run(actual: &[&str], expected: &[&str], m: MatchType) -> bool {
        let a: Vec<FunctionCall> = actual.iter().map(|n| call(n, json!({}))).collect();
        let e: Vec<FunctionCall> = expected.iter().map(|n| call(n, json!({}))).collect();
        let ar: Vec<&FunctionCall> = a.iter().collect();
        let er: Vec<&FunctionCall> = e.iter().collect();
        matches(&ar, &er, m, |a, b| calls_equal(a, b, false))
    }

    #[test]
    fn spec_table() {
        use MatchType::*;
        let rows: &[(&[&str], &[&str], [bool; 3])] = &[
            (&[], &[], [true, true, true]),
            (&["a"], &[], [false, true, true]),
            (&[], &["a"], [false, false, false]),
            (&["a", "b"], &["b", "a"], [false, false, true]),
            (&["a", "c", "b"], &["a", "b"], [false, true, true]),
            (&["a"], &["a", "a"], [false, false, false]),
            (&["a", "a"], &["a"], [false, true, true]),
            (&["a", "b", "a", "c"], &["a", "c"], [false, true, true]),
        ];
        for (a, e, want) in rows {
            for (m, w) in [Exact, InOrder, AnyOrder].into_iter().zip(want) {
                assert_eq!(run(a, e, m), *w, "{a:?} vs {e:?} {m:?}");
            }
        }
    }

    #[test]
    fn match_type_spellings() {
        use crate::schema::criteria::parse_match_type;
        for s in ["in_order", " In Order ", "in-order", "IN_ORDER"] {
            assert_eq!(parse_match_type(&json!(s)), Some(MatchType::InOrder));
        }
        assert_eq!(parse_match_type(&json!(2)), Some(MatchType::AnyOrder));
        for bad in [
            json!("1"),
            json!("anyorder"),
            json!(3),
            json!(-1),
            json!(""),
            json!(["EXACT"]),
        ] {
            assert!(parse_match_type(&bad).is_none(), "{bad}");
        }
    }
}

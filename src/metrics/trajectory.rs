//! `tool_trajectory_avg_score` (ADK's EXACT / IN_ORDER / ANY_ORDER and `ignore_args`, evalcore's
//! SUBSET / SUPERSET and `arg_policies`) and the trajectory precision / recall / single-tool-use
//! extras. Per invocation 0..1, case = sequential mean; an invocation below 1 carries its
//! explanation in `details.trajectory`.

use super::alignment::{self, count, Eq, Pairs};
use super::args::calls_agree;
use super::call_index::CallId;
use super::explain::{explain, Calls};
use super::{invalid, per_invocation, per_pair_explained, typed, Ctx, NotEvaluated, Outcome};
pub use crate::schema::criteria::MatchType;
use crate::schema::criteria::{TrajectoryFields, Typed};
use crate::schema::{Criterion, FunctionCall, Invocation};
use serde_json::{json, Map, Value};

/// The trajectory fields of a criterion, as typed when the config was loaded.
pub fn parse_criterion(metric: &str, c: &Criterion) -> Result<TrajectoryFields, NotEvaluated> {
    let t = typed(metric, c);
    if let Some(e) = invalid(&t) {
        return Err(e);
    }
    Ok(match t.as_ref() {
        Typed::ToolTrajectory(f) => f.clone(),
        _ => TrajectoryFields::default(),
    })
}

/// Does the actual trajectory (`na` calls) match the expected one (`ne` calls) under
/// `match_type`? ADK's three keep ADK's algorithms exactly (greedy where ADK is greedy).
pub fn matches(ne: usize, na: usize, match_type: MatchType, eq: Eq) -> bool {
    match match_type {
        MatchType::Exact => ne == na && (0..ne).all(|i| eq(i, i)),
        MatchType::InOrder => count(&alignment::in_order(ne, na, eq)) == ne,
        MatchType::AnyOrder => count(&alignment::greedy(ne, na, eq)) == ne,
        MatchType::Subset => count(&alignment::maximum(ne, na, eq)) == ne,
        MatchType::Superset => (0..na).all(|a| (0..ne).any(|e| eq(e, a))),
    }
}

/// The pairing `matches` decided with (for the explanation).
fn pairs_for(ne: usize, na: usize, match_type: MatchType, eq: Eq) -> Pairs {
    match match_type {
        MatchType::Exact => alignment::exact(ne, na, eq),
        MatchType::InOrder => alignment::in_order(ne, na, eq),
        MatchType::AnyOrder => alignment::greedy(ne, na, eq),
        MatchType::Subset | MatchType::Superset => alignment::maximum(ne, na, eq),
    }
}

pub(crate) fn calls_of(invs: Option<&[Invocation]>, i: usize) -> Vec<&FunctionCall> {
    invs.and_then(|v| v.get(i))
        .map(|inv| inv.tool_calls())
        .unwrap_or_default()
}

/// The calls of invocation `i`, expected and actual.
pub(crate) fn calls<'a>(ctx: &Ctx<'a>, i: usize) -> Calls<'a> {
    Calls {
        expected: calls_of(ctx.expected, i),
        actual: calls_of(Some(ctx.actual), i),
    }
}

fn row(v: &[Vec<CallId>], i: usize) -> &[CallId] {
    v.get(i).map(Vec::as_slice).unwrap_or(&[])
}

/// Runs `f(ne, na, eq)` over invocation `i`: on the interned ids when the case carries an index
/// and no argument policy is set (prepared cases), on the calls themselves otherwise.
pub(crate) fn over_calls<R: Default>(
    ctx: &Ctx,
    i: usize,
    c: &TrajectoryFields,
    f: impl Fn(usize, usize, Eq) -> R,
) -> R {
    // One non-generic body for every caller (wasm size): the result travels through `out`.
    let mut out = R::default();
    over_calls_dyn(ctx, i, c, &mut |ne, na, eq| out = f(ne, na, eq));
    out
}

fn over_calls_dyn(ctx: &Ctx, i: usize, c: &TrajectoryFields, f: &mut dyn FnMut(usize, usize, Eq)) {
    if let (Some(index), true) = (ctx.call_index, c.arg_policies.is_empty()) {
        let (e, a) = (row(&index.expected, i), row(&index.actual, i));
        let eq = |x: usize, y: usize| match (e.get(x), a.get(y)) {
            (Some(p), Some(q)) if c.ignore_args => p.name == q.name,
            (Some(p), Some(q)) => p.full == q.full,
            _ => false,
        };
        return f(e.len(), a.len(), &eq);
    }
    let k = calls(ctx, i);
    let eq = agree(&k, c);
    f(k.expected.len(), k.actual.len(), &eq);
}

/// Call agreement of invocation `calls` under the criterion (expected index, actual index).
pub(crate) fn agree<'c>(k: &'c Calls, c: &'c TrajectoryFields) -> impl Fn(usize, usize) -> bool + 'c {
    move |e, a| match (k.expected.get(e), k.actual.get(a)) {
        (Some(x), Some(y)) => calls_agree(&c.arg_policies, c.ignore_args, x, y),
        _ => false,
    }
}

pub(crate) fn head(key: &str, value: &str) -> Map<String, Value> {
    let mut m = Map::new();
    m.insert(key.into(), Value::String(value.into()));
    m
}

/// The explanation of invocation `i` under `pairs_of` (computed on the calls themselves), when
/// per-invocation results will carry it.
pub(crate) fn explained(
    ctx: &Ctx,
    i: usize,
    c: &TrajectoryFields,
    mut head: Map<String, Value>,
    pairs_of: &dyn Fn(usize, usize, Eq) -> Pairs,
) -> Option<Value> {
    if !ctx.explain {
        return None;
    }
    let k = calls(ctx, i);
    let (ne, na) = (k.expected.len(), k.actual.len());
    let pairs = pairs_of(ne, na, &agree(&k, c));
    let positional = c.match_type == MatchType::Exact && head.contains_key("match_type");
    if positional && ne != na {
        head.insert(
            "note".into(),
            json!(format!(
                "EXACT needs as many calls as expected: {ne} expected, {na} made"
            )),
        );
    }
    Some(explain(&k, &pairs, c, head, positional))
}

pub fn avg_score(ctx: &Ctx, criterion: &Criterion) -> Result<Outcome, NotEvaluated> {
    let c = parse_criterion("tool_trajectory_avg_score", criterion)?;
    per_pair_explained(ctx, criterion, "tool_trajectory_avg_score", |i| {
        if over_calls(ctx, i, &c, |ne, na, eq| matches(ne, na, c.match_type, eq)) {
            return (1.0, None);
        }
        if !ctx.explain {
            return (0.0, None);
        }
        let mut h = head("match_type", c.match_type.as_str());
        if c.match_type == MatchType::Superset {
            // What SUPERSET fails on: actual calls no expected call agrees with.
            let outside = over_calls(ctx, i, &c, |ne, na, eq| {
                (0..na)
                    .filter(|&a| !(0..ne).any(|e| eq(e, a)))
                    .map(|a| json!(a))
                    .collect::<Vec<_>>()
            });
            h.insert("outside_expected".into(), Value::Array(outside));
        }
        (
            0.0,
            explained(ctx, i, &c, h, &|ne, na, eq| pairs_for(ne, na, c.match_type, eq)),
        )
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
    per_pair_explained(ctx, criterion, "trajectory_precision", |i| {
        let s = over_calls(ctx, i, &c, |ne, na, eq| {
            ratio(
                alignment::greedy_from_actual(ne, na, eq),
                na,
                if ne == 0 { 1.0 } else { 0.0 },
            )
        });
        (
            s,
            if s < 1.0 {
                explained(ctx, i, &c, Map::new(), &alignment::greedy)
            } else {
                None
            },
        )
    })
}

/// Share of expected calls the agent made (multiset matching). Nothing expected: 1.0.
pub fn recall(ctx: &Ctx, criterion: &Criterion) -> Result<Outcome, NotEvaluated> {
    let c = parse_criterion("trajectory_recall", criterion)?;
    per_pair_explained(ctx, criterion, "trajectory_recall", |i| {
        let s = over_calls(ctx, i, &c, |ne, na, eq| {
            ratio(count(&alignment::greedy(ne, na, eq)), ne, 1.0)
        });
        (
            s,
            if s < 1.0 {
                explained(ctx, i, &c, Map::new(), &alignment::greedy)
            } else {
                None
            },
        )
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
#[path = "trajectory_tests.rs"]
mod tests;

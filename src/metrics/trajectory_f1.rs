//! `tool_trajectory_f1` (evalcore; beyond ADK 2.13): partial credit for a trajectory, as
//! google/adk-python issue #5306 proposes it (not merged upstream when this was written).
//!
//! Per invocation, with A actual calls, E expected calls and M pairs of agreeing calls in the
//! largest pairing (`alignment`: `unordered`, a maximum one-to-one matching, the default; or
//! `ordered`, a longest pairing that keeps both orders): A = E = 0 → 1.0; A = 0 or E = 0 → 0.0;
//! else P = M/A, R = M/E and F1 = 2·P·R/(P+R) (0 when M = 0). Calls agree as in the other
//! trajectory metrics (`ignore_args`, `arg_policies`). Case = sequential mean, pass rule.

use super::alignment::{self, count};
use super::trajectory::{explained, head, over_calls, parse_criterion};
use super::{per_pair_explained, Ctx, NotEvaluated, Outcome};
use crate::schema::criteria::Alignment;
use crate::schema::Criterion;
use serde_json::json;

const METRIC: &str = "tool_trajectory_f1";

/// F1 of `m` pairs among `a` actual and `e` expected calls, with the proposal's empty cases.
pub fn f1(m: usize, a: usize, e: usize) -> f64 {
    match (a, e) {
        (0, 0) => 1.0,
        (0, _) | (_, 0) => 0.0,
        _ => {
            let p = m as f64 / a as f64;
            let r = m as f64 / e as f64;
            if p + r == 0.0 {
                0.0
            } else {
                2.0 * p * r / (p + r)
            }
        }
    }
}

pub fn score(ctx: &Ctx, criterion: &Criterion) -> Result<Outcome, NotEvaluated> {
    let c = parse_criterion(METRIC, criterion)?;
    per_pair_explained(ctx, criterion, METRIC, |i| {
        let (m, na, ne) = over_calls(ctx, i, &c, |ne, na, eq| {
            let m = match c.alignment {
                Alignment::Unordered => count(&alignment::maximum(ne, na, eq)),
                Alignment::Ordered => alignment::ordered_len(ne, na, eq),
            };
            (m, na, ne)
        });
        let s = f1(m, na, ne);
        if s >= 1.0 {
            return (s, None);
        }
        let mut h = head("alignment", c.alignment.as_str());
        h.insert("matched".into(), json!(m));
        let why = explained(ctx, i, &c, h, &|ne, na, eq| match c.alignment {
            Alignment::Unordered => alignment::maximum(ne, na, eq),
            Alignment::Ordered => alignment::ordered(ne, na, eq),
        });
        (s, why)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn proposal_cases() {
        assert_eq!(f1(0, 0, 0), 1.0);
        assert_eq!(f1(0, 0, 3), 0.0);
        assert_eq!(f1(0, 2, 0), 0.0);
        assert_eq!(f1(0, 2, 2), 0.0);
        // 3 of 4 expected calls made, nothing else: P = 1, R = 0.75.
        assert_eq!(f1(3, 3, 4), 2.0 * 1.0 * 0.75 / 1.75);
        // One spurious call on a correct trajectory: P = 0.8, R = 1.
        assert_eq!(f1(4, 5, 4), 2.0 * 0.8 * 1.0 / 1.8);
    }
}

//! Pairing expected tool calls with actual ones. Every function sees the calls only through
//! `eq(e, a)`: does expected call `e` agree with actual call `a` (indices), so one algorithm
//! serves interned ids and calls compared under argument policies alike. A pairing is, per
//! expected call, the index of its actual call.

/// Does expected `e` agree with actual `a`?
pub type Eq<'a> = &'a dyn Fn(usize, usize) -> bool;

pub type Pairs = Vec<Option<usize>>;

/// Expected and actual pairing tables larger than this get no full ordered-alignment table
/// (4 bytes a cell): the length is still exact, the pairs shown come from the greedy scan.
const MAX_TABLE_CELLS: usize = 1 << 22;

pub fn count(p: &[Option<usize>]) -> usize {
    p.iter().filter(|x| x.is_some()).count()
}

/// ADK's EXACT: position by position.
pub fn exact(ne: usize, na: usize, eq: Eq) -> Pairs {
    (0..ne).map(|i| (i < na && eq(i, i)).then_some(i)).collect()
}

/// ADK's IN_ORDER scan: walk the actual calls; one that agrees with the next unpaired expected
/// call pairs with it.
pub fn in_order(ne: usize, na: usize, eq: Eq) -> Pairs {
    let mut pairs = vec![None; ne];
    let mut next = 0;
    for a in 0..na {
        if next < ne && eq(next, a) {
            if let Some(slot) = pairs.get_mut(next) {
                *slot = Some(a);
            }
            next += 1;
        }
    }
    pairs
}

/// ADK's ANY_ORDER: each expected call, in order, takes the first free actual call it agrees with.
pub fn greedy(ne: usize, na: usize, eq: Eq) -> Pairs {
    let mut free = vec![true; na];
    (0..ne)
        .map(|e| {
            let a = (0..na).find(|&a| free.get(a).copied().unwrap_or(false) && eq(e, a))?;
            if let Some(f) = free.get_mut(a) {
                *f = false;
            }
            Some(a)
        })
        .collect()
}

/// How many actual calls find a free expected partner when each actual call, in order, takes the
/// first free expected call it agrees with (the trajectory_precision rule).
pub fn greedy_from_actual(ne: usize, na: usize, eq: Eq) -> usize {
    let mut free = vec![true; ne];
    (0..na)
        .filter(
            |&a| match (0..ne).find(|&e| free.get(e).copied().unwrap_or(false) && eq(e, a)) {
                Some(e) => {
                    if let Some(f) = free.get_mut(e) {
                        *f = false;
                    }
                    true
                }
                None => false,
            },
        )
        .count()
}

/// A largest one-to-one pairing in any order (maximum bipartite matching): the greedy pairing,
/// then an augmenting path (breadth first, no recursion) for each expected call left out.
pub fn maximum(ne: usize, na: usize, eq: Eq) -> Pairs {
    let mut pairs = greedy(ne, na, eq);
    let mut owner: Vec<Option<usize>> = vec![None; na];
    for (e, a) in pairs.iter().enumerate() {
        if let Some(slot) = a.and_then(|a| owner.get_mut(a)) {
            *slot = Some(e);
        }
    }
    // `via[a]`: the expected call a search reached actual `a` from. Kept after a search that
    // fails: the pairing did not change, so nothing it reached can lead to a free call later
    // either (this keeps many unpairable expected calls quadratic, not cubic); cleared after a
    // search that succeeds.
    let mut via: Vec<Option<usize>> = vec![None; na];
    for start in 0..ne {
        if pairs.get(start).copied().flatten().is_some() {
            continue;
        }
        let mut queue = vec![start];
        let mut head = 0;
        let mut end = None;
        while let Some(&e) = queue.get(head) {
            head += 1;
            for a in 0..na {
                if via.get(a).copied().flatten().is_some() || !eq(e, a) {
                    continue;
                }
                if let Some(v) = via.get_mut(a) {
                    *v = Some(e);
                }
                match owner.get(a).copied().flatten() {
                    Some(next) => queue.push(next),
                    None => {
                        end = Some(a);
                        break;
                    }
                }
            }
            if end.is_some() {
                break;
            }
        }
        // Flip the path back to `start`.
        let mut a = end;
        while let Some(cur) = a {
            let Some(e) = via.get(cur).copied().flatten() else {
                break;
            };
            let previous = pairs.get(e).copied().flatten();
            if let Some(p) = pairs.get_mut(e) {
                *p = Some(cur);
            }
            if let Some(o) = owner.get_mut(cur) {
                *o = Some(e);
            }
            a = if e == start { None } else { previous };
        }
        if end.is_some() {
            via.fill(None);
        }
    }
    pairs
}

/// The length of a longest pairing that keeps both orders (longest common subsequence under
/// `eq`), in O(actual) memory.
pub fn ordered_len(ne: usize, na: usize, eq: Eq) -> usize {
    let mut prev = vec![0usize; na + 1];
    let mut cur = vec![0usize; na + 1];
    for e in 0..ne {
        for a in 0..na {
            let v = if eq(e, a) {
                prev.get(a).copied().unwrap_or(0) + 1
            } else {
                prev.get(a + 1)
                    .copied()
                    .unwrap_or(0)
                    .max(cur.get(a).copied().unwrap_or(0))
            };
            if let Some(c) = cur.get_mut(a + 1) {
                *c = v;
            }
        }
        std::mem::swap(&mut prev, &mut cur);
    }
    prev.get(na).copied().unwrap_or(0)
}

/// A longest order-keeping pairing itself (for explanations); past [`MAX_TABLE_CELLS`] the
/// greedy in-order scan stands in for it.
pub fn ordered(ne: usize, na: usize, eq: Eq) -> Pairs {
    let cells = (ne + 1).saturating_mul(na + 1);
    if cells > MAX_TABLE_CELLS {
        return in_order(ne, na, eq);
    }
    let w = na + 1;
    let mut t = vec![0u32; cells];
    let at = |t: &[u32], e: usize, a: usize| t.get(e * w + a).copied().unwrap_or(0);
    for e in (0..ne).rev() {
        for a in (0..na).rev() {
            let v = if eq(e, a) {
                at(&t, e + 1, a + 1) + 1
            } else {
                at(&t, e + 1, a).max(at(&t, e, a + 1))
            };
            if let Some(c) = t.get_mut(e * w + a) {
                *c = v;
            }
        }
    }
    let mut pairs = vec![None; ne];
    let (mut e, mut a) = (0, 0);
    while e < ne && a < na {
        if eq(e, a) && at(&t, e, a) == at(&t, e + 1, a + 1) + 1 {
            if let Some(p) = pairs.get_mut(e) {
                *p = Some(a);
            }
            e += 1;
            a += 1;
        } else if at(&t, e + 1, a) >= at(&t, e, a + 1) {
            e += 1;
        } else {
            a += 1;
        }
    }
    pairs
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `eq` from strings of tool letters: expected `e` agrees with actual `a` when the letters
    /// are equal, or as listed in `extra` (a non-transitive relation, as tolerances give).
    fn rel<'a>(e: &'a str, a: &'a str, extra: &'a [(usize, usize)]) -> impl Fn(usize, usize) -> bool + 'a {
        move |i, j| e.as_bytes().get(i) == a.as_bytes().get(j) || extra.contains(&(i, j))
    }

    #[test]
    fn maximum_beats_greedy_when_agreement_is_not_transitive() {
        // expected 0 agrees with actual 0 and 1, expected 1 only with actual 0.
        let eq = |e: usize, a: usize| matches!((e, a), (0, 0) | (0, 1) | (1, 0));
        assert_eq!(count(&greedy(2, 2, &eq)), 1);
        assert_eq!(maximum(2, 2, &eq), vec![Some(1), Some(0)]);
        // A longer augmenting chain.
        let eq = |e: usize, a: usize| matches!((e, a), (0, 0) | (1, 0) | (1, 1) | (2, 1) | (2, 2) | (0, 3));
        let p = maximum(3, 4, &eq);
        assert_eq!(count(&p), 3);
        for (e, a) in p.iter().enumerate() {
            assert!(eq(e, a.unwrap()));
        }
    }

    /// Many expected calls that cannot all be paired: the searches that fail share their work.
    #[test]
    fn maximum_stays_fast_when_most_calls_cannot_pair() {
        let calls = std::cell::Cell::new(0usize);
        let eq = |_: usize, _: usize| {
            calls.set(calls.get() + 1);
            true
        };
        let p = maximum(2000, 1000, &eq);
        assert_eq!(count(&p), 1000);
        assert!(calls.get() < 5_000_000, "{} comparisons", calls.get());
        // And it still finds augmenting paths after a failed search.
        let eq = |e: usize, a: usize| matches!((e, a), (0, 0) | (1, 0) | (2, 1) | (2, 2) | (3, 1));
        assert_eq!(maximum(4, 3, &eq), vec![Some(0), None, Some(2), Some(1)]);
    }

    #[test]
    fn ordered_is_a_longest_common_subsequence() {
        let rows = [
            ("ABCA", "ADCA", 3),
            ("AB", "BA", 1),
            ("", "AB", 0),
            ("ABC", "", 0),
            ("AAB", "ABAB", 3),
            ("ABCD", "ACBD", 3),
        ];
        for (e, a, want) in rows {
            let eq = rel(e, a, &[]);
            assert_eq!(ordered_len(e.len(), a.len(), &eq), want, "{e} {a}");
            let p = ordered(e.len(), a.len(), &eq);
            assert_eq!(count(&p), want, "{e} {a}");
            let used: Vec<usize> = p.iter().flatten().copied().collect();
            assert!(used.windows(2).all(|w| w[0] < w[1]), "{e} {a} {p:?}");
        }
    }

    #[test]
    fn adk_scans() {
        let eq = rel("AC", "ABAC", &[]);
        assert_eq!(in_order(2, 4, &eq), vec![Some(0), Some(3)]);
        assert_eq!(greedy(2, 4, &eq), vec![Some(0), Some(3)]);
        assert_eq!(exact(2, 4, &eq), vec![Some(0), None]);
        let eq = rel("AA", "A", &[]);
        assert_eq!(greedy_from_actual(2, 1, &eq), 1);
    }
}

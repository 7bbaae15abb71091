//! The comparison's statistics as one numeric call (numbers in, numbers out: no JSON to build
//! or parse for them).

use crate::compare::stats;

/// `kind` 0: the mean of each group of `a`, the group sizes in `b` (numpy's sums); 1: a paired
/// comparison of baseline scores `a` with candidate scores `b`: `[baseline mean, candidate
/// mean, mean delta, ci95 low, ci95 high, p-value]` (empty for no scores); 2: Holm's adjustment
/// of the p-values `a`; 3: McNemar's exact test of `a = [b, c]`; 4: per 2x2 table of counts
/// in `a`, `[agreement, Wilson low, Wilson high, kappa]` (NaN when undefined). Anything else:
/// empty.
pub fn stats(kind: u32, a: &[f64], b: &[f64]) -> Vec<f64> {
    match kind {
        0 => {
            let mut out = Vec::with_capacity(b.len());
            let mut rest = a;
            for n in b {
                let (group, tail) = rest.split_at((*n as usize).min(rest.len()));
                out.push(stats::mean(group));
                rest = tail;
            }
            out
        }
        1 => {
            let mut d = Vec::with_capacity(a.len());
            for (x, y) in a.iter().zip(b) {
                d.push(y - x);
            }
            match stats::paired_t(&d) {
                Some(t) => vec![stats::mean(a), stats::mean(b), t.mean, t.ci95.0, t.ci95.1, t.p_value],
                None => Vec::new(),
            }
        }
        2 => stats::holm(a),
        3 => {
            let count = |i: usize| a.get(i).map_or(0, |x| x.max(0.0) as u64);
            vec![stats::mcnemar_exact(count(0), count(1))]
        }
        4 => stats::agreement_tables(a),
        _ => Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::stats;

    #[test]
    fn each_kind_answers_its_numbers() {
        // Means of groups of 2 and 1 (the sizes as numbers).
        assert_eq!(stats(0, &[0.25, 0.75, 1.0], &[2.0, 1.0]), vec![0.5, 1.0]);
        let paired = stats(1, &[0.5, 0.5], &[0.75, 0.75]);
        assert_eq!(paired, vec![0.5, 0.75, 0.25, 0.25, 0.25, 0.0]);
        assert!(stats(1, &[], &[]).is_empty());
        assert_eq!(stats(2, &[0.01, 0.04], &[]), vec![0.02, 0.04]);
        assert_eq!(stats(3, &[5.0, 0.0], &[]), vec![0.0625]);
        let t = stats(4, &[3.0, 0.0, 0.0, 2.0], &[]);
        assert_eq!((t[0], t[3]), (1.0, 1.0));
        assert!(stats(9, &[1.0], &[]).is_empty());
    }
}

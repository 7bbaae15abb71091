//! The tests a comparison runs, as COMPARE.md defines them: means and variances summed as
//! numpy sums (so that scipy's numbers come out to the last bit where it can), the paired
//! t-test with its 95% interval, Holm's adjustment, the exact McNemar (binomial) test, Wilson's
//! interval and Cohen's kappa.

use super::special::{binom_half_cdf, t_isf, t_two_sided, Z_975};

/// Σ xs as numpy adds a float64 array: eight running sums per block of up to 128, blocks halved
/// recursively (`pairwise_sum` in numpy's loops).
pub fn pairwise_sum(xs: &[f64]) -> f64 {
    const BLOCK: usize = 128;
    let n = xs.len();
    if n < 8 {
        return xs.iter().fold(0.0, |acc, x| acc + x);
    }
    if n <= BLOCK {
        let mut r = [0.0f64; 8];
        for (slot, x) in r.iter_mut().zip(xs) {
            *slot = *x;
        }
        let whole = n - n % 8;
        for chunk in xs.get(8..whole).unwrap_or(&[]).chunks_exact(8) {
            for (slot, x) in r.iter_mut().zip(chunk) {
                *slot += x;
            }
        }
        let [r0, r1, r2, r3, r4, r5, r6, r7] = r;
        let head = ((r0 + r1) + (r2 + r3)) + ((r4 + r5) + (r6 + r7));
        return xs.get(whole..).unwrap_or(&[]).iter().fold(head, |acc, x| acc + x);
    }
    let half = n / 2;
    let half = half - half % 8;
    let (a, b) = xs.split_at(half);
    pairwise_sum(a) + pairwise_sum(b)
}

/// The mean as `numpy.mean` computes it (NaN for no values).
pub fn mean(xs: &[f64]) -> f64 {
    pairwise_sum(xs) / xs.len() as f64
}

/// Σ (x − m)², summed as numpy sums.
fn squared_deviations(xs: &[f64], m: f64) -> f64 {
    let mut dev = Vec::with_capacity(xs.len());
    for x in xs {
        dev.push((x - m) * (x - m));
    }
    pairwise_sum(&dev)
}

/// A paired comparison of n differences: their mean, a 95% Student-t interval and the
/// two-sided p-value of the paired t-test.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Paired {
    pub mean: f64,
    pub ci95: (f64, f64),
    pub p_value: f64,
}

/// The paired t-test over differences `d` (candidate − baseline), as
/// `scipy.stats.ttest_rel(candidate, baseline)` computes it, and the interval
/// mean ± t(0.975, n − 1) · sd / √n with sd = `numpy.std(d, ddof=1)`. With one difference, or
/// all of them equal, the interval is the mean itself and p is 1 for a zero mean, else 0.
/// `None` for no differences.
pub fn paired_t(d: &[f64]) -> Option<Paired> {
    let n = d.len();
    if n == 0 {
        return None;
    }
    let m = mean(d);
    let first = d.first().copied().unwrap_or(0.0);
    let ss = squared_deviations(d, m);
    let degenerate = n == 1 || d.iter().all(|x| *x == first) || ss == 0.0;
    if degenerate {
        return Some(Paired {
            mean: m,
            ci95: (m, m),
            p_value: if m == 0.0 { 1.0 } else { 0.0 },
        });
    }
    let nf = n as f64;
    let df = nf - 1.0;
    // scipy: var = mean((d − m)²) · (n / (n − 1)); t = m / sqrt(var / n).
    let var = ss / nf * (nf / df);
    let t = m / (var / nf).sqrt();
    // numpy: std(ddof=1) = sqrt(Σ (d − m)² / (n − 1)).
    let half = t_isf(0.025, df) * (ss / df).sqrt() / nf.sqrt();
    Some(Paired {
        mean: m,
        ci95: (m - half, m + half),
        p_value: t_two_sided(t, df),
    })
}

/// Holm–Bonferroni adjusted p-values, in the order given
/// (`statsmodels.stats.multitest.multipletests(p, method="holm")[1]`).
pub fn holm(p: &[f64]) -> Vec<f64> {
    let m = p.len();
    let at = |i: usize| p.get(i).copied().unwrap_or(1.0);
    // Ascending order, ties by position, found by counting (m is the number of metrics: a
    // handful; a sort would cost more code than it saves time).
    let mut order = vec![0usize; m];
    for i in 0..m {
        let rank = (0..m)
            .filter(|&j| at(j).total_cmp(&at(i)).then(j.cmp(&i)).is_lt())
            .count();
        if let Some(slot) = order.get_mut(rank) {
            *slot = i;
        }
    }
    let mut out = vec![1.0; m];
    let mut running = 0.0f64;
    for (rank, i) in order.iter().enumerate() {
        running = running.max(at(*i) * (m - rank) as f64);
        if let Some(slot) = out.get_mut(*i) {
            *slot = running.min(1.0);
        }
    }
    out
}

/// The exact two-sided McNemar test on b and c discordant pairs:
/// `scipy.stats.binomtest(min(b, c), b + c, 0.5).pvalue`, and 1 when b + c = 0.
pub fn mcnemar_exact(b: u64, c: u64) -> f64 {
    let n = b + c;
    if n == 0 || b == c {
        return 1.0;
    }
    (2.0 * binom_half_cdf(b.min(c), n)).min(1.0)
}

/// Wilson's 95% score interval of `k` successes in `n` trials
/// (`statsmodels.stats.proportion.proportion_confint(k, n, method="wilson")`); `None` for n = 0.
pub fn wilson95(k: u64, n: u64) -> Option<(f64, f64)> {
    if n == 0 {
        return None;
    }
    let (n, q) = (n as f64, k as f64 / n as f64);
    let crit2 = Z_975 * Z_975;
    let denom = 1.0 + crit2 / n;
    let center = (q + crit2 / (2.0 * n)) / denom;
    let dist = Z_975 * (q * (1.0 - q) / n + crit2 / (4.0 * n * n)).sqrt() / denom;
    Some((center - dist, center + dist))
}

/// Cohen's kappa of a 2x2 table of counts (rows one rater, columns the other):
/// (p_o − p_e) / (1 − p_e). `None` when it is undefined: no counts, or p_e = 1 (both raters
/// gave one and the same category throughout).
pub fn cohen_kappa(t: [[u64; 2]; 2]) -> Option<f64> {
    let [[a, b], [c, d]] = t;
    let n = (a + b + c + d) as f64;
    if n == 0.0 {
        return None;
    }
    let p_o = (a + d) as f64 / n;
    let p_e = (a + b) as f64 / n * ((a + c) as f64 / n) + (c + d) as f64 / n * ((b + d) as f64 / n);
    if p_e >= 1.0 {
        return None;
    }
    Some((p_o - p_e) / (1.0 - p_e))
}

/// For each 2x2 table of counts in `counts` (judge pass & person pass, judge pass & person
/// fail, judge fail & person pass, judge fail & person fail): the agreement, its 95% Wilson
/// interval and Cohen's kappa (NaN when undefined); four numbers a table (NaN for n = 0).
pub fn agreement_tables(counts: &[f64]) -> Vec<f64> {
    let mut out = Vec::with_capacity(counts.len());
    for t in counts.chunks_exact(4) {
        let [pp, pf, fp, ff] = [0, 1, 2, 3].map(|i| t.get(i).map_or(0, |x| x.max(0.0) as u64));
        let (n, agree) = (pp + pf + fp + ff, pp + ff);
        let (lo, hi) = wilson95(agree, n).unwrap_or((f64::NAN, f64::NAN));
        let kappa = cohen_kappa([[pp, pf], [fp, ff]]).unwrap_or(f64::NAN);
        out.extend([agree as f64 / n as f64, lo, hi, kappa]);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pairwise_sums_group_as_numpy_does() {
        // 0.1 ten times: numpy's blocked sum gives 1.0 exactly where a running sum does not.
        let tenths = [0.1; 10];
        assert_eq!(pairwise_sum(&tenths), 1.0);
        assert_ne!(tenths.iter().fold(0.0, |a, x| a + x), 1.0);
        assert_eq!(pairwise_sum(&[]), 0.0);
        assert_eq!(pairwise_sum(&[2.5]), 2.5);
    }

    #[test]
    fn degenerate_differences_follow_the_contract() {
        let one = paired_t(&[0.25]).unwrap();
        assert_eq!((one.mean, one.ci95, one.p_value), (0.25, (0.25, 0.25), 0.0));
        let zero = paired_t(&[0.0, 0.0, 0.0]).unwrap();
        assert_eq!((zero.ci95, zero.p_value), ((0.0, 0.0), 1.0));
        let equal = paired_t(&[-0.5; 4]).unwrap();
        assert_eq!((equal.mean, equal.ci95, equal.p_value), (-0.5, (-0.5, -0.5), 0.0));
        assert!(paired_t(&[]).is_none());
    }

    #[test]
    fn holm_steps_down_and_keeps_the_order() {
        let p = holm(&[0.01, 0.04, 0.03, 0.005]);
        let want = [0.03, 0.06, 0.06, 0.02];
        for (a, b) in p.iter().zip(want) {
            assert!((a - b).abs() < 1e-15, "{p:?}");
        }
        assert_eq!(holm(&[0.9, 0.8]), vec![1.0, 1.0]);
    }

    #[test]
    fn mcnemar_and_kappa_edges() {
        assert_eq!(mcnemar_exact(0, 0), 1.0);
        assert_eq!(mcnemar_exact(3, 3), 1.0);
        // 0 of 5 discordant pairs one way: 2 · 2^-5.
        assert_eq!(mcnemar_exact(5, 0), 0.0625);
        assert_eq!(cohen_kappa([[4, 0], [0, 0]]), None);
        assert_eq!(cohen_kappa([[3, 0], [0, 2]]), Some(1.0));
        assert!(wilson95(0, 0).is_none());
    }
}

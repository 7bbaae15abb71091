//! Special functions behind the comparison's numbers, to near double precision: the Student-t
//! tail and quantile (through the regularized incomplete beta function I_x(a, 1/2)) and the
//! binomial distribution with p = 1/2 (Loader's saddle-point form of its probabilities).
//! Checked against scipy in tests/compare_stats.rs.

use std::f64::consts::PI;

/// ln √π.
const LN_SQRT_PI: f64 = 0.572_364_942_924_700_1;
/// ln √(2π).
const LN_SQRT_2PI: f64 = 0.918_938_533_204_672_8;

/// Δ(x) = lnΓ(x) − [(x − ½) ln x − x + ln √(2π)], Stirling's remainder, for x ≥ 10 (its
/// series, to below 1e-17 there).
fn stirling_remainder(x: f64) -> f64 {
    // B_2k / (2k (2k − 1)), k = 1..8.
    const C: [f64; 8] = [
        1.0 / 12.0,
        -1.0 / 360.0,
        1.0 / 1260.0,
        -1.0 / 1680.0,
        1.0 / 1188.0,
        -691.0 / 360_360.0,
        1.0 / 156.0,
        -3617.0 / 122_400.0,
    ];
    let x2 = 1.0 / (x * x);
    C.iter().rev().fold(0.0, |acc, c| acc * x2 + c) / x
}

/// lnΓ(a) − lnΓ(a + ½) for a > 0: Stirling's form for a ≥ 10, written so that nothing large
/// cancels; below, by Γ(a + 1) = a Γ(a) from a + k ≥ 10.
fn ln_gamma_ratio_half(a: f64) -> f64 {
    let mut shift = 0.0;
    let mut x = a;
    while x < 10.0 {
        shift += (0.5 / x).ln_1p();
        x += 1.0;
    }
    let big = -0.5 * x.ln() - x * (0.5 / x).ln_1p() + 0.5 + stirling_remainder(x) - stirling_remainder(x + 0.5);
    big + shift
}

/// ln B(a, ½).
fn ln_beta_half(a: f64) -> f64 {
    LN_SQRT_PI + ln_gamma_ratio_half(a)
}

/// The continued fraction of I_x(a, b) (modified Lentz), which converges quickly for
/// x < (a + 1) / (a + b + 2).
fn beta_fraction(a: f64, b: f64, x: f64) -> f64 {
    const TINY: f64 = 1e-300;
    let guard = |v: f64| if v.abs() < TINY { TINY } else { v };
    let (qab, qap, qam) = (a + b, a + 1.0, a - 1.0);
    let mut c = 1.0;
    let mut d = 1.0 / guard(1.0 - qab * x / qap);
    let mut h = d;
    for m in 1..=20_000u32 {
        let m = f64::from(m);
        let m2 = 2.0 * m;
        let aa = m * (b - m) * x / ((qam + m2) * (a + m2));
        d = 1.0 / guard(1.0 + aa * d);
        c = guard(1.0 + aa / c);
        h *= d * c;
        let aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2));
        d = 1.0 / guard(1.0 + aa * d);
        c = guard(1.0 + aa / c);
        let step = d * c;
        h *= step;
        if (step - 1.0).abs() <= f64::EPSILON {
            break;
        }
    }
    h
}

/// I_x(a, ½), the regularized incomplete beta function, from x, 1 − x and their logarithms
/// (given separately so that neither loses digits near 0 or 1).
fn beta_half(a: f64, x: f64, y: f64, ln_x: f64, ln_y: f64) -> f64 {
    if x <= 0.0 {
        return 0.0;
    }
    if y <= 0.0 {
        return 1.0;
    }
    let front = (a * ln_x + 0.5 * ln_y - ln_beta_half(a)).exp();
    if x < (a + 1.0) / (a + 2.5) {
        front * beta_fraction(a, 0.5, x) / a
    } else {
        1.0 - front * beta_fraction(0.5, a, y) / 0.5
    }
}

/// P(T > t) for Student's t with `df` degrees of freedom:
/// ½ I_x(df/2, ½) with x = df/(df + t²). For df/2 ≥ 15, x near 1 and t not small (where the
/// continued fraction loses digits) I_x comes from the asymptotic expansion
/// (`beta_half_large`); elsewhere from the continued fraction on the side where it converges
/// (`beta_half`).
pub fn t_sf(t: f64, df: f64) -> f64 {
    if t.is_nan() || df.is_nan() {
        return f64::NAN;
    }
    if t < 0.0 {
        return 1.0 - t_sf(-t, df);
    }
    // r² = t²/df; x = 1/(1 + r²), y = r²/(1 + r²), in logarithms when r² overflows.
    let r = t / df.sqrt();
    let (x, y, ln_x, ln_y) = if r > 1e150 {
        let ln_x = -2.0 * r.ln();
        (ln_x.exp(), 1.0, ln_x, 0.0)
    } else {
        let r2 = r * r;
        let ln_x = -r2.ln_1p();
        let ln_y = if r2 > 0.0 {
            -(1.0 / r2).ln_1p()
        } else {
            f64::NEG_INFINITY
        };
        (1.0 / (1.0 + r2), r2 / (1.0 + r2), ln_x, ln_y)
    };
    let a = df / 2.0;
    if a >= 15.0 && y < 0.29 && y * a > 0.49 {
        return 0.5 * beta_half_large(a, ln_x);
    }
    0.5 * beta_half(a, x, y, ln_x, ln_y)
}

/// erfc(s) e^{s²} for s ≥ 1, from Laplace's continued fraction
/// √π e^{s²} erfc(s) = 1/(s + ½/(s + 1/(s + (3/2)/(s + …)))) (modified Lentz).
fn erfcx_fraction(s: f64) -> f64 {
    const TINY: f64 = 1e-300;
    let guard = |v: f64| if v == 0.0 { TINY } else { v };
    let (mut f, mut c, mut d) = (s, s, 0.0);
    for k in 1..=5_000u32 {
        let a = f64::from(k) / 2.0;
        d = 1.0 / guard(s + a * d);
        c = guard(s + a / c);
        let step = c * d;
        f *= step;
        if (step - 1.0).abs() <= f64::EPSILON {
            break;
        }
    }
    1.0 / (f * PI.sqrt())
}

/// erf(s) for 0 ≤ s ≤ 1, from its series of positive terms
/// erf(s) = (2/√π) e^{−s²} Σ (2s²)ⁿ s / (2n + 1)!!.
fn erf_series(s: f64) -> f64 {
    let (mut term, mut sum) = (s, s);
    for n in 1..200u32 {
        term *= 2.0 * s * s / f64::from(2 * n + 1);
        sum += term;
        if term <= sum * 1e-17 {
            break;
        }
    }
    2.0 / PI.sqrt() * (-s * s).exp() * sum
}

/// I_x(a, ½) for a ≥ 15 and x near 1 from ln x: the asymptotic expansion in incomplete gamma
/// functions of Didonato and Morris (ACM TOMS 708, BGRAT), with b = ½ so that the gamma
/// function at its heart is erfc.
fn beta_half_large(a: f64, ln_x: f64) -> f64 {
    const B: f64 = 0.5;
    let nu = a - 0.25; // a + (b − 1)/2
    let z = -nu * ln_x;
    // r = e^{−z} z^b / Γ(b); u factors out of the sum.
    let ln_r = -LN_SQRT_PI + 0.5 * z.ln() - z;
    let u = (ln_r - (ln_gamma_ratio_half(a) + 0.5 * nu.ln())).exp();
    // Q(½, z) / r, with Q(½, z) = erfc(√z).
    let s = z.sqrt();
    let q_over_r = if s < 1.0 {
        (1.0 - erf_series(s)) / ln_r.exp()
    } else {
        erfcx_fraction(s) / s * PI.sqrt()
    };
    let v = 0.25 / (nu * nu);
    let t2 = 0.25 * ln_x * ln_x;
    let (mut j, mut sum, mut t, mut cn, mut n2) = (q_over_r, q_over_r, 1.0, 1.0, 0.0);
    let mut c = [0.0f64; 30];
    let mut d = [0.0f64; 30];
    for n in 1..=30usize {
        let bp2n = B + n2;
        j = (bp2n * (bp2n + 1.0) * j + (z + bp2n + 1.0) * t) * v;
        n2 += 2.0;
        t *= t2;
        cn /= n2 * (n2 + 1.0);
        let mut s = 0.0;
        let mut coef = B - n as f64;
        for i in 1..n {
            let (ci, dk) = (
                c.get(i - 1).copied().unwrap_or(0.0),
                d.get(n - 1 - i).copied().unwrap_or(0.0),
            );
            s += coef * ci * dk;
            coef += B;
        }
        let dn = -0.5 * cn + s / n as f64;
        if let (Some(cs), Some(ds)) = (c.get_mut(n - 1), d.get_mut(n - 1)) {
            *cs = cn;
            *ds = dn;
        }
        let dj = dn * j;
        sum += dj;
        if dj.abs() <= f64::EPSILON * 0.5 * sum {
            break;
        }
    }
    u * sum
}

/// The density of Student's t.
fn t_pdf(t: f64, df: f64) -> f64 {
    (-(df + 1.0) / 2.0 * (t * t / df).ln_1p() - ln_beta_half(df / 2.0)).exp() / df.sqrt()
}

/// Two-sided p-value of a t statistic: 2 P(T > |t|), at most 1.
pub fn t_two_sided(t: f64, df: f64) -> f64 {
    (2.0 * t_sf(t.abs(), df)).min(1.0)
}

/// The standard normal quantile of an upper-tail probability q in (0, ½] (Acklam's rational
/// approximation, relative error below 1.2e-9: a starting point only).
fn normal_isf_rough(q: f64) -> f64 {
    const A: [f64; 6] = [
        -3.969_683_028_665_376e1,
        2.209_460_984_245_205e2,
        -2.759_285_104_469_687e2,
        1.383_577_518_672_69e2,
        -3.066_479_806_614_716e1,
        2.506_628_277_459_239,
    ];
    const B: [f64; 5] = [
        -5.447_609_879_822_406e1,
        1.615_858_368_580_409e2,
        -1.556_989_798_598_866e2,
        6.680_131_188_771_972e1,
        -1.328_068_155_288_572e1,
    ];
    const C: [f64; 6] = [
        -7.784_894_002_430_293e-3,
        -3.223_964_580_411_365e-1,
        -2.400_758_277_161_838,
        -2.549_732_539_343_734,
        4.374_664_141_464_968,
        2.938_163_982_698_783,
    ];
    const D: [f64; 4] = [
        7.784_695_709_041_462e-3,
        3.224_671_290_700_398e-1,
        2.445_134_137_142_996,
        3.754_408_661_907_416,
    ];
    let poly = |cs: &[f64], x: f64| cs.iter().fold(0.0, |acc, c| acc * x + c);
    if q < 0.02425 {
        let s = (-2.0 * q.ln()).sqrt();
        -poly(&C, s) / (poly(&D, s) * s + 1.0)
    } else {
        let u = 0.5 - q;
        let r = u * u;
        poly(&A, r) * u / (poly(&B, r) * r + 1.0)
    }
}

/// The t with P(T > t) = q for q in (0, ½): Newton's method on the tail, from the
/// Cornish–Fisher expansion around the normal quantile. The tail is convex above 0, so the
/// iterates approach from below after the first step.
pub fn t_isf(q: f64, df: f64) -> f64 {
    if !(q > 0.0 && q < 0.5 && df > 0.0) {
        return f64::NAN;
    }
    let z = normal_isf_rough(q);
    let (z2, n) = (z * z, df);
    let mut t = z
        + z * (z2 + 1.0) / (4.0 * n)
        + z * ((5.0 * z2 + 16.0) * z2 + 3.0) / (96.0 * n * n)
        + z * (((3.0 * z2 + 19.0) * z2 + 17.0) * z2 - 15.0) / (384.0 * n * n * n);
    for _ in 0..200 {
        let step = (t_sf(t, df) - q) / t_pdf(t, df);
        let next = if t + step > 0.0 { t + step } else { t / 2.0 };
        let done = (next - t).abs() <= 2.0 * f64::EPSILON * next.abs();
        t = next;
        if done || !t.is_finite() {
            break;
        }
    }
    t
}

/// lnΓ(n + 1) − [(n + ½) ln n − n + ln √(2π)] for whole n ≥ 1 (exact values to 15, then the
/// series).
fn stirling_error(n: f64) -> f64 {
    const EXACT: [f64; 15] = [
        0.081_061_466_795_327_26,
        0.041_340_695_955_409_3,
        0.027_677_925_684_998_34,
        0.020_790_672_103_765_093,
        0.016_644_691_189_821_193,
        0.013_876_128_823_070_748,
        0.011_896_709_945_891_77,
        0.010_411_265_261_972_096,
        0.009_255_462_182_712_733,
        0.008_330_563_433_362_87,
        0.007_573_675_487_951_841,
        0.006_942_840_107_209_53,
        0.006_408_994_188_004_207,
        0.005_951_370_112_758_847_5,
        0.005_554_733_551_962_801,
    ];
    if n <= 15.0 {
        // n is a whole number from 1 to 15 here.
        return EXACT.get((n as usize).saturating_sub(1)).copied().unwrap_or(0.0);
    }
    stirling_remainder(n)
}

/// x ln(x / m) + m − x without the cancellation near x = m (Loader's bd0).
fn deviance(x: f64, m: f64) -> f64 {
    if (x - m).abs() < 0.1 * (x + m) {
        let mut v = (x - m) / (x + m);
        let mut s = (x - m) * v;
        let mut ej = 2.0 * x * v;
        v *= v;
        for j in 1..1000u32 {
            ej *= v;
            let next = s + ej / f64::from(2 * j + 1);
            if next == s {
                return next;
            }
            s = next;
        }
        return s;
    }
    x * (x / m).ln() + m - x
}

/// P(X = k) for X ~ Binomial(n, ½).
fn binom_half_pmf(k: u64, n: u64) -> f64 {
    if k > n {
        return 0.0;
    }
    if k == 0 || k == n {
        // A power of two: exact down to the smallest subnormal, then 0.
        return if n > 1100 { 0.0 } else { 0.5f64.powi(n as i32) };
    }
    let (k, n) = (k as f64, n as f64);
    let m = n / 2.0;
    let lc = stirling_error(n) - stirling_error(k) - stirling_error(n - k) - deviance(k, m) - deviance(n - k, m);
    let lf = 2.0 * LN_SQRT_2PI + k.ln() + (-k / n).ln_1p();
    (lc - 0.5 * lf).exp()
}

/// P(X ≤ k) for X ~ Binomial(n, ½) and k ≤ n / 2: by exact counting up to n = 62 (every
/// product C(n, j − 1) · (n − j + 1) fits in 64 bits; one rounding), else summed down from
/// P(X = k) (the larger terms first, with compensation).
pub fn binom_half_cdf(k: u64, n: u64) -> f64 {
    if n <= 62 {
        let (mut c, mut total) = (1u64, 1u64);
        for j in 1..=k.min(n) {
            c = c * (n - j + 1) / j;
            total += c;
        }
        return total as f64 * 0.5f64.powi(n as i32);
    }
    let mut term = binom_half_pmf(k, n);
    let (mut sum, mut carry) = (0.0f64, 0.0f64);
    let mut j = k;
    loop {
        let t = sum + term;
        carry += if sum.abs() >= term.abs() {
            (sum - t) + term
        } else {
            (term - t) + sum
        };
        sum = t;
        if j == 0 || term <= sum * 1e-18 {
            break;
        }
        term *= j as f64 / (n - j + 1) as f64;
        j -= 1;
    }
    sum + carry
}

/// The standard normal quantile at 0.975 (`scipy.stats.norm.ppf(0.975)`).
pub const Z_975: f64 = 1.959_963_984_540_054;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn closed_forms_of_small_degrees_of_freedom() {
        // df = 1 is Cauchy: P(T > t) = ½ − atan(t)/π; df = 2: ½ (1 − t/√(2 + t²)).
        for t in [0.0, 0.3, 1.0, 2.5, 12.0, 1e6] {
            let cauchy = if t == 0.0 { 0.5 } else { f64::atan(1.0 / t) / PI };
            assert!(
                (t_sf(t, 1.0) - cauchy).abs() <= 2e-15 * cauchy,
                "{t}: {} vs {cauchy}",
                t_sf(t, 1.0)
            );
            let root = (2.0 + t * t).sqrt();
            let two = 1.0 / (root * (root + t));
            assert!(
                (t_sf(t, 2.0) - two).abs() <= 1e-13 * two,
                "{t}: {} vs {two}",
                t_sf(t, 2.0)
            );
        }
        assert!((t_isf(0.025, 1.0) - 12.706_204_736_174_698).abs() < 1e-12);
        assert!((t_isf(0.025, 2.0) - 4.302_652_729_749_464).abs() < 1e-13);
    }

    #[test]
    fn binomial_tails_sum_to_one_and_match_counting() {
        // n = 20: exact counts over 2^20.
        let mut c = 1.0f64;
        let mut cum = 0.0;
        for k in 0..=10u64 {
            if k > 0 {
                c = c * (20 - k + 1) as f64 / k as f64;
            }
            cum += c;
            let want = cum / 1_048_576.0;
            assert!(
                (binom_half_cdf(k, 20) - want).abs() <= 2e-15 * want,
                "{k}: {:e}",
                binom_half_cdf(k, 20) / want - 1.0
            );
        }
    }
}

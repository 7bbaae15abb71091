//! The comparison's special functions and tests against independent packages: the Student-t
//! tail and quantile and the exact binomial test against their exact values (mpmath, 50 digits)
//! and scipy's, Wilson's interval and Cohen's kappa against statsmodels
//! (tests/data/compare/special.json, written by tools/compare-oracle/oracle.py; refreshed by
//! tools/compare-oracle/refresh.sh). Whole comparisons against the oracle are checked on the
//! built package (tests/js/compare.test.mjs).

use evalcore::compare::{special, stats};
use serde_json::Value;

fn data(name: &str) -> String {
    let path = format!("{}/tests/data/compare/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// Relative error, with values below `floor` compared absolutely.
fn rel(got: f64, want: f64, floor: f64) -> f64 {
    if got == want {
        return 0.0;
    }
    (got - want).abs() / want.abs().max(floor)
}

/// The relative error of a probability in units of what double precision allows for it: the
/// machine epsilon times |ln p| (at least 1). A tiny p is the exponential of a large number, and
/// that number's last bit alone moves p by |ln p| epsilons.
fn ulps_of_log(got: f64, exact: f64) -> f64 {
    rel(got, exact, 1e-300) / (f64::EPSILON * exact.ln().abs().max(1.0))
}

fn f(v: &Value, k: &str) -> f64 {
    v[k].as_f64().unwrap_or_else(|| panic!("{k} in {v}"))
}

#[test]
fn student_t_tails_to_near_double_precision() {
    let d: Value = serde_json::from_str(&data("special.json")).unwrap();
    let (mut worst, mut worst_rel, mut worst_moderate, mut scipy_moderate) =
        ((0.0, String::new()), 0.0f64, 0.0f64, 0.0f64);
    for v in d["t_sf"].as_array().unwrap() {
        let (t, df, exact) = (f(v, "t"), f(v, "df"), f(v, "exact"));
        let got = special::t_sf(t, df);
        let e = ulps_of_log(got, exact);
        worst_rel = worst_rel.max(rel(got, exact, 1e-300));
        if exact >= 1e-10 && t >= 1e-6 {
            worst_moderate = worst_moderate.max(rel(got, exact, 0.0));
            scipy_moderate = scipy_moderate.max(rel(f(v, "scipy"), exact, 0.0));
        }
        if e > worst.0 {
            worst = (e, format!("t={t} df={df}: {got:e} vs exact {exact:e}"));
        }
    }
    println!(
        "t tail: worst {:.1} eps x |ln p| ({}); worst relative error {worst_rel:.1e}; for p >= 1e-10 {worst_moderate:.1e} (scipy's {scipy_moderate:.1e})",
        worst.0, worst.1
    );
    assert!(worst.0 < 8.0, "{}", worst.1);
}

#[test]
fn student_t_quantiles_to_near_double_precision() {
    let d: Value = serde_json::from_str(&data("special.json")).unwrap();
    for v in d["t_isf"].as_array().unwrap() {
        let (q, df, exact, scipy) = (f(v, "q"), f(v, "df"), f(v, "exact"), f(v, "scipy"));
        let got = special::t_isf(q, df);
        assert!(rel(got, exact, 0.0) < 4e-15, "df={df}: {got} vs exact {exact}");
        assert!(rel(got, scipy, 0.0) < 1e-14, "df={df}: {got} vs scipy {scipy}");
    }
}

#[test]
fn exact_binomial_two_sided_p_values() {
    let d: Value = serde_json::from_str(&data("special.json")).unwrap();
    for v in d["binom_two_sided"].as_array().unwrap() {
        let (k, n) = (v["k"].as_u64().unwrap(), v["n"].as_u64().unwrap());
        let (exact, scipy) = (f(v, "exact"), f(v, "scipy"));
        let got = stats::mcnemar_exact(k, n - k);
        assert!(ulps_of_log(got, exact) < 8.0, "k={k} n={n}: {got:e} vs exact {exact:e}");
        assert!(
            rel(got, scipy, 1e-300) < 1e-12,
            "k={k} n={n}: {got:e} vs scipy {scipy:e}"
        );
    }
}

#[test]
fn wilson_intervals_and_kappas_as_statsmodels() {
    let d: Value = serde_json::from_str(&data("special.json")).unwrap();
    for v in d["wilson95"].as_array().unwrap() {
        let (k, n) = (v["k"].as_u64().unwrap(), v["n"].as_u64().unwrap());
        let (lo, hi) = stats::wilson95(k, n).unwrap();
        assert!(
            (lo - f(v, "lo")).abs() < 1e-15 && (hi - f(v, "hi")).abs() < 1e-15,
            "{v}: {lo} {hi}"
        );
    }
    for v in d["kappa"].as_array().unwrap() {
        let t: Vec<Vec<u64>> = serde_json::from_value(v["table"].clone()).unwrap();
        let got = stats::cohen_kappa([[t[0][0], t[0][1]], [t[1][0], t[1][1]]]);
        match v["kappa"].as_f64() {
            None => assert_eq!(got, None, "{v}"),
            Some(want) => assert!((got.unwrap() - want).abs() < 1e-14, "{v}: {got:?}"),
        }
    }
}

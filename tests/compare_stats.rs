//! The comparison's numbers against independent packages: special functions against their
//! exact values (mpmath, 50 digits) and scipy's, and generated comparisons against
//! tools/compare-oracle/oracle.py's implementation of COMPARE.md with scipy and statsmodels
//! (tests/data/compare/; refreshed by tools/compare-oracle/refresh.sh). When a Python with
//! scipy and statsmodels is at hand, fresh scenarios from a random seed are checked too.

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
    let (mut worst, mut worst_rel) = ((0.0, String::new()), 0.0f64);
    for v in d["t_sf"].as_array().unwrap() {
        let (t, df, exact) = (f(v, "t"), f(v, "df"), f(v, "exact"));
        let got = special::t_sf(t, df);
        let e = ulps_of_log(got, exact);
        worst_rel = worst_rel.max(rel(got, exact, 1e-300));
        if e > worst.0 {
            worst = (e, format!("t={t} df={df}: {got:e} vs exact {exact:e}"));
        }
    }
    println!(
        "t tail: worst {:.1} eps x |ln p| ({}); worst relative error {worst_rel:.1e}",
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
        let table: Vec<Vec<u64>> = serde_json::from_value(v["table"].clone()).unwrap();
        let got = stats::cohen_kappa(&table);
        match v["kappa"].as_f64() {
            None => assert_eq!(got, None, "{v}"),
            Some(want) => assert!((got.unwrap() - want).abs() < 1e-14, "{v}: {got:?}"),
        }
    }
}

/// A scenario's results as the texts a caller hands over (1.x files are JSON strings).
fn texts(list: &Value) -> Vec<Vec<u8>> {
    list.as_array()
        .unwrap()
        .iter()
        .map(|r| serde_json::to_vec(r).unwrap())
        .collect()
}

/// `got` against `want`: numbers within `tol` (relative, and for p-values relative to what
/// double precision allows for them), everything else equal. Returns the first difference.
fn same(got: &Value, want: &Value, path: &str, p_like: bool) -> Result<(), String> {
    match (got, want) {
        (Value::Number(g), Value::Number(w)) => {
            let (g, w) = (g.as_f64().unwrap(), w.as_f64().unwrap());
            let ok = if p_like {
                g == w || (w > 0.0 && ulps_of_log(g, w) < 256.0)
            } else {
                (g - w).abs() <= 1e-13 * w.abs().max(1.0)
            };
            if ok {
                Ok(())
            } else {
                Err(format!("{path}: {g:e} vs {w:e}"))
            }
        }
        (Value::Object(g), Value::Object(w)) => {
            for (k, wv) in w {
                let gv = g.get(k).ok_or_else(|| format!("{path}.{k}: missing"))?;
                same(gv, wv, &format!("{path}.{k}"), k.starts_with("p_"))?;
            }
            Ok(())
        }
        (Value::Array(g), Value::Array(w)) if g.len() == w.len() => g
            .iter()
            .zip(w)
            .enumerate()
            .try_for_each(|(i, (a, b))| same(a, b, &format!("{path}[{i}]"), p_like)),
        _ if got == want => Ok(()),
        _ => Err(format!("{path}: {got} vs {want}")),
    }
}

/// Runs one scenario line through the core as `compareRuns` does and compares.
fn check_scenario(line: &str) -> Result<String, String> {
    let s: Value = serde_json::from_str(line).unwrap();
    let name = s["name"].as_str().unwrap().to_string();
    let (b, c) = (texts(&s["baseline"]), texts(&s["candidate"]));
    let all: Vec<&[u8]> = b.iter().chain(&c).map(Vec::as_slice).collect();
    let sides = evalcore::api::compare::Sides {
        baseline: b.len(),
        baseline_array: true,
        candidate_array: true,
    };
    let out = evalcore::api::compare::compare_runs(&all, &sides, &format!("{{\"alpha\":{}}}", s["alpha"]))
        .map_err(|e| format!("{name}: {e}"))?;
    let got: Value = serde_json::from_str(&out).unwrap();
    same(&got, &s["expected"], "$", false).map_err(|e| format!("{name}: {e}"))?;
    Ok(name)
}

#[test]
fn generated_comparisons_as_scipy_and_statsmodels_give_them() {
    let text = data("scenarios.jsonl");
    let mut n = 0;
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        if let Err(e) = check_scenario(line) {
            panic!("{e}");
        }
        n += 1;
    }
    assert!(n >= 40, "only {n} scenarios");
}

/// A Python that has scipy, statsmodels and mpmath: EVALCORE_PYTHON, the oracle's or the
/// benchmarks' venv, or python3.
fn oracle_python() -> Option<String> {
    let root = env!("CARGO_MANIFEST_DIR");
    let mut cands: Vec<String> = std::env::var("EVALCORE_PYTHON").into_iter().collect();
    cands.push(format!("{root}/tools/compare-oracle/.venv/bin/python"));
    cands.push(format!("{root}/benches/.venv/bin/python"));
    cands.push("python3".to_string());
    cands.into_iter().find(|py| {
        std::process::Command::new(py)
            .args(["-c", "import scipy, statsmodels, mpmath"])
            .output()
            .is_ok_and(|o| o.status.success())
    })
}

#[test]
fn fresh_random_comparisons_when_scipy_is_installed() {
    let Some(py) = oracle_python() else {
        println!("skipped: no Python with scipy, statsmodels and mpmath (tools/compare-oracle/refresh.sh makes one; or set EVALCORE_PYTHON)");
        return;
    };
    let seed = std::env::var("EVALCORE_ORACLE_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| {
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(1, |d| d.as_secs() % 1_000_000)
        });
    let script = format!("{}/tools/compare-oracle/oracle.py", env!("CARGO_MANIFEST_DIR"));
    let out = std::process::Command::new(&py)
        .args([
            script.as_str(),
            "scenarios",
            "--seed",
            &seed.to_string(),
            "--count",
            "12",
        ])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "oracle.py: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        if let Err(e) = check_scenario(line) {
            panic!("seed {seed} (EVALCORE_ORACLE_SEED={seed} to repeat): {e}");
        }
    }
    println!("12 fresh scenarios from seed {seed} ({py}) agree with scipy and statsmodels");
}

#!/usr/bin/env python3
"""The numbers of run comparison and judge calibration from independent packages.

An implementation of ../shared/COMPARE.md written with scipy, statsmodels and numpy (never
with evalcore's code), and of calibration's agreement, Wilson interval and Cohen's kappa with
statsmodels. It writes the reference data evalcore's tests compare against:

    python oracle.py special            -> tests/data/compare_special.json
        Student-t tails and 97.5% quantiles, exact binomial two-sided p-values, Wilson
        intervals and kappas: scipy/statsmodels' values and the exact ones (mpmath, 50 digits).
    python oracle.py scenarios --seed S --count N
                                        -> tests/data/compare_scenarios.jsonl
        generated results (1 to 300 cases, 1 to 5 runs per side, NOT_EVALUATED results,
        added/removed cases, zero variance, n = 1, no discordant pairs, ADK's file shapes) with
        the comparison COMPARE.md defines, one scenario a line.
    python oracle.py calibration --seed S --count N
                                        -> tests/data/calibration_scenarios.jsonl

tools/compare-oracle/refresh.sh runs all three in a venv with the pinned packages
(requirements.txt). tests/compare_stats.rs also runs `scenarios` with a random seed at test
time when this Python has scipy and statsmodels.
"""

import argparse
import json
import math
import random
import sys

import mpmath
import numpy as np
from scipy import stats
from statsmodels.stats.inter_rater import cohens_kappa
from statsmodels.stats.multitest import multipletests
from statsmodels.stats.proportion import proportion_confint

mpmath.mp.dps = 50

STATUS_NAMES = {1: "PASSED", 2: "FAILED", 3: "NOT_EVALUATED", 4: "INFORMATIONAL"}
STATUS_INTS = {v: k for k, v in STATUS_NAMES.items()}


# ------------------------------------------------------------------------------------------
# COMPARE.md, from its text


def status_name(s):
    return STATUS_NAMES[s] if isinstance(s, int) else s


def gather(results):
    """eval_id -> its runs (eval case results), in first-seen order, over every result."""
    cases = {}
    for r in results:
        for c in r["eval_case_results"]:
            cases.setdefault(c["eval_id"], []).append(c)
    return cases


def case_score(runs, metric):
    xs = [
        m["score"]
        for run in runs
        for m in run["overall_eval_metric_results"]
        if m["metric_name"] == metric
        and status_name(m["eval_status"]) in ("PASSED", "FAILED")
        and m.get("score") is not None
    ]
    return float(np.mean(np.array(xs, dtype=np.float64))) if xs else None


def case_status(runs):
    statuses = [status_name(r["final_eval_status"]) for r in runs]
    if "NOT_EVALUATED" in statuses:
        return "NOT_EVALUATED"
    if all(s == "PASSED" for s in statuses):
        return "PASSED"
    return "FAILED"


def compare(baseline, candidate, alpha=0.05):
    B, C = gather(baseline), gather(candidate)
    names = sorted(
        {m["metric_name"] for side in (B, C) for runs in side.values() for run in runs for m in run["overall_eval_metric_results"]}
    )
    metrics = []
    for name in names:
        kept = [(B[i], C[i]) for i in B if i in C]
        pairs = [(case_score(b, name), case_score(c, name)) for b, c in kept]
        pairs = [(x, y) for x, y in pairs if x is not None and y is not None]
        if not pairs:
            continue
        b = np.array([x for x, _ in pairs], dtype=np.float64)
        c = np.array([y for _, y in pairs], dtype=np.float64)
        d = c - b
        n = len(d)
        mean_delta = float(np.mean(d))
        if n == 1 or np.all(d == d[0]):
            ci = [mean_delta, mean_delta]
            p = 1.0 if mean_delta == 0 else 0.0
        else:
            half = float(stats.t.ppf(0.975, n - 1) * np.std(d, ddof=1) / np.sqrt(n))
            ci = [mean_delta - half, mean_delta + half]
            p = float(stats.ttest_rel(c, b).pvalue)
        metrics.append(
            {
                "metric_name": name,
                "n": n,
                "baseline_mean": float(np.mean(b)),
                "candidate_mean": float(np.mean(c)),
                "mean_delta": mean_delta,
                "ci95": ci,
                "p_value": p,
            }
        )
    if metrics:
        adjusted = multipletests([m["p_value"] for m in metrics], method="holm")[1]
        for m, p in zip(metrics, adjusted):
            m["p_adjusted"] = float(min(p, 1.0))
            m["significant"] = bool(m["p_adjusted"] < alpha)
    listed = {m["metric_name"] for m in metrics}

    cases = []
    ids = list(B) + [i for i in C if i not in B]
    for i in ids:
        bs = case_status(B[i]) if i in B else None
        cs = case_status(C[i]) if i in C else None
        if bs is None:
            change = "added"
        elif cs is None:
            change = "removed"
        elif bs == "NOT_EVALUATED" or cs == "NOT_EVALUATED":
            change = "not_comparable"
        elif bs == "PASSED" and cs != "PASSED":
            change = "regressed"
        elif cs == "PASSED" and bs != "PASSED":
            change = "improved"
        else:
            change = "unchanged"
        per = {}
        for name in sorted(listed):
            x = case_score(B[i], name) if i in B else None
            y = case_score(C[i], name) if i in C else None
            if x is None and y is None:
                continue
            per[name] = {"baseline": x, "candidate": y, "delta": (y - x) if x is not None and y is not None else None}
        cases.append({"eval_id": i, "change": change, "baseline_status": bs, "candidate_status": cs, "metrics": per})

    both = [c for c in cases if c["baseline_status"] is not None and c["candidate_status"] is not None]
    bp = [c["baseline_status"] == "PASSED" for c in both]
    cp = [c["candidate_status"] == "PASSED" for c in both]
    b = sum(1 for x, y in zip(bp, cp) if x and not y)
    c = sum(1 for x, y in zip(bp, cp) if y and not x)
    p_flip = 1.0 if b + c == 0 else float(stats.binomtest(min(b, c), b + c, 0.5).pvalue)
    pass_fail = {"n": len(both), "baseline_passed": sum(bp), "candidate_passed": sum(cp), "b": b, "c": c, "p_value": p_flip}

    if any(m["significant"] and m["mean_delta"] < 0 for m in metrics) or (p_flip < alpha and b > c):
        verdict = "regressed"
    elif any(m["significant"] and m["mean_delta"] > 0 for m in metrics) or (p_flip < alpha and c > b):
        verdict = "improved"
    else:
        verdict = "no_significant_change"
    return {"cases": cases, "metrics": metrics, "pass_fail": pass_fail, "verdict": verdict}


# ------------------------------------------------------------------------------------------
# Generated results


METRICS = [
    # name, threshold, kind
    ("response_match_score", 0.8, "continuous"),
    ("tool_trajectory_avg_score", 1.0, "steps"),
    ("final_response_match_v2", 0.5, "binary"),
    ("rubric_based_final_response_quality_v1", 0.75, "quarters"),
    ("hallucinations_v1", 0.9, "continuous"),
]


def draw_score(rng, kind, quality):
    if kind == "binary":
        return 1.0 if rng.random() < quality else 0.0
    if kind == "quarters":
        return sum(1 for _ in range(4) if rng.random() < quality) / 4
    if kind == "steps":
        return sum(1 for _ in range(3) if rng.random() < quality) / 3
    x = min(1.0, max(0.0, rng.gauss(quality, 0.15)))
    return round(x, 4) if rng.random() < 0.8 else x


def case_result(rng, eval_set_id, eval_id, metric_list, qualities, shape):
    results = []
    for (name, threshold, kind), q in zip(metric_list, qualities):
        roll = rng.random()
        if roll < shape["not_evaluated"]:
            # Whatever score a NOT_EVALUATED result holds is left out.
            score = rng.choice([None, 0.0, 1.0, 0.37])
            status = "NOT_EVALUATED"
            details = {"reason": "judge_error", "error": "the judge did not answer"}
        else:
            score = draw_score(rng, kind, q)
            status = "PASSED" if score >= threshold else "FAILED"
            details = {}
        results.append({"metric_name": name, "threshold": threshold, "score": score, "eval_status": status, "details": details})
    if shape["informational"]:
        results.append({"metric_name": "token_usage_v1", "threshold": None, "score": float(rng.randint(100, 900)), "eval_status": "INFORMATIONAL", "details": {}})
    statuses = [m["eval_status"] for m in results if m["eval_status"] != "INFORMATIONAL"]
    if "FAILED" in statuses:
        final = "FAILED"
    elif "NOT_EVALUATED" in statuses:
        final = "NOT_EVALUATED"
    else:
        final = "PASSED"
    if rng.random() < shape["odd_final"]:
        final = rng.choice(["PASSED", "FAILED", "NOT_EVALUATED"])
    return {"eval_set_id": eval_set_id, "eval_id": eval_id, "final_eval_status": final, "overall_eval_metric_results": results}


def camel(name):
    head, *rest = name.split("_")
    return head + "".join(w.title() for w in rest)


def adk_shape(result, rng):
    """The result as one of the shapes ADK writes: statuses as integers, camelCase, or 1.x's
    double-encoded text; or evalcore's own."""
    form = rng.choice(["evalcore", "adk2", "camel", "adk1"])
    if form == "evalcore":
        return result
    r = json.loads(json.dumps(result))
    for c in r["eval_case_results"]:
        c["final_eval_status"] = STATUS_INTS[c["final_eval_status"]]
        for m in c["overall_eval_metric_results"]:
            m["eval_status"] = STATUS_INTS[m["eval_status"]]
    if form == "camel":
        def walk(v):
            if isinstance(v, dict):
                return {camel(k): walk(x) for k, x in v.items()}
            if isinstance(v, list):
                return [walk(x) for x in v]
            return v
        r = walk(r)
    if form == "adk1":
        return json.dumps(r)
    return r


def scenario(rng, index, kind):
    """One generated comparison: baseline and candidate results and what COMPARE.md gives."""
    eval_set_id = f"set_{index}"
    runs_b, runs_c = rng.randint(1, 5), rng.randint(1, 5)
    metric_list = rng.sample(METRICS, rng.randint(1, 4))
    effect = rng.choice([0.0, 0.0, 0.05, -0.05, 0.2, -0.2, -0.6])
    if kind == "single_case":
        n_cases = 1
    elif kind in ("large", "many_flips"):
        # 300 cases; one or two runs a side keep the file small. Many flips: more than 125
        # discordant pairs (past exact counting, into the binomial's saddle-point form).
        n_cases = rng.randint(240, 300) if kind == "large" else 300
        runs_b, runs_c = rng.randint(1, 2), rng.randint(1, 2)
        metric_list = rng.sample(METRICS, 2)
        if kind == "many_flips":
            runs_b = runs_c = 1
            effect = -0.55
    else:
        n_cases = rng.choice([2, 3, 5, 8, 12, 20, 35])
    shape = {
        "not_evaluated": rng.choice([0.0, 0.0, 0.05, 0.3]),
        "informational": rng.random() < 0.5,
        "odd_final": rng.choice([0.0, 0.0, 0.1]),
    }
    ids = [f"case_{i:03d}" for i in range(n_cases)]
    removed = set(rng.sample(ids, rng.randint(0, max(0, n_cases // 10)))) if kind != "single_case" else set()
    added = [f"new_{i:03d}" for i in range(rng.randint(0, max(0, n_cases // 10)))] if kind != "single_case" else []
    quality = {i: [rng.uniform(0.3, 1.0) for _ in metric_list] for i in ids + added}

    def side(n_runs, shift, case_ids, skip):
        results = []
        for run in range(n_runs):
            cases = []
            for i in case_ids:
                if rng.random() < skip:
                    continue  # this run lacks the case
                q = [min(1.0, max(0.0, x + shift)) for x in quality[i]]
                cases.append(case_result(rng, eval_set_id, i, metric_list, q, shape))
            results.append({"eval_set_result_id": f"{eval_set_id}_{run}", "eval_set_id": eval_set_id, "eval_case_results": cases})
        return results

    skip = rng.choice([0.0, 0.0, 0.05])
    baseline = side(runs_b, 0.0, ids, skip)
    candidate = side(runs_c, effect, [i for i in ids if i not in removed] + added, skip)

    if kind == "zero_variance":
        # The candidate is the baseline again (every difference 0), or the baseline with every
        # score moved by the same dyadic amount (every difference equal).
        candidate = json.loads(json.dumps(baseline))
        if rng.random() < 0.5:
            for r in candidate:
                for c in r["eval_case_results"]:
                    for m in c["overall_eval_metric_results"]:
                        if m["eval_status"] in ("PASSED", "FAILED") and m["score"] is not None and m["metric_name"] != "token_usage_v1":
                            m["score"] = m["score"] - 0.25
    if kind == "many_flips":
        base_pass = {}
        for r in baseline:
            for c in r["eval_case_results"]:
                c["final_eval_status"] = base_pass.setdefault(c["eval_id"], "PASSED" if rng.random() < 0.9 else "FAILED")
        for r in candidate:
            for c in r["eval_case_results"]:
                was = base_pass.get(c["eval_id"])
                c["final_eval_status"] = ("FAILED" if rng.random() < 0.62 else "PASSED") if was == "PASSED" else ("PASSED" if rng.random() < 0.1 else "FAILED")
    if kind == "no_discordant":
        # Every case on both sides has one status on both: no pass/fail flips.
        base_status = {i: case_status(runs) for i, runs in gather(baseline).items()}
        for r in candidate:
            for c in r["eval_case_results"]:
                if c["eval_id"] in base_status:
                    c["final_eval_status"] = base_status[c["eval_id"]]
    expected = compare(baseline, candidate)
    return {
        "name": f"{index:03d}_{kind}_{n_cases}cases_{runs_b}x{runs_c}runs",
        "baseline": [adk_shape(r, rng) for r in baseline],
        "candidate": [adk_shape(r, rng) for r in candidate],
        "alpha": 0.05,
        "expected": expected,
    }


KINDS = ["mixed", "mixed", "mixed", "single_case", "zero_variance", "no_discordant", "large", "many_flips"]


def scenarios(seed, count):
    rng = random.Random(seed)
    for i in range(count):
        # Every kind once, then more of the small ones (the big ones make the file large).
        kind = KINDS[i] if i < len(KINDS) else rng.choice(KINDS[:6])
        yield scenario(rng, i, kind)


# ------------------------------------------------------------------------------------------
# Special functions


def t_sf_exact(t, df):
    a, t = mpmath.mpf(df) / 2, mpmath.mpf(t)
    x = mpmath.mpf(df) / (df + t**2)
    try:
        return float(mpmath.betainc(a, mpmath.mpf(1) / 2, 0, x, regularized=True) / 2)
    except ValueError:
        # The other side of the same integral, where the first does not converge.
        y = t**2 / (df + t**2)
        return float(mpmath.betainc(mpmath.mpf(1) / 2, a, y, 1, regularized=True) / 2)


def t_isf_exact(q, df):
    return float(mpmath.findroot(lambda t: mpmath.betainc(mpmath.mpf(df) / 2, 0.5, 0, df / (df + t**2), regularized=True) / 2 - q,
                                 float(stats.t.isf(q, df))))


def binom_two_sided_exact(k, n):
    if 2 * k == n:
        return 1.0
    tail = mpmath.fsum(mpmath.binomial(n, j) for j in range(0, k + 1)) / mpmath.mpf(2) ** n
    return float(min(1, 2 * tail))


def special():
    t_vals = [0.0, 1e-8, 0.01, 0.3, 0.9, 1.0, 1.7, 2.0, 2.5, 3.3, 5.0, 8.0, 12.0, 25.0, 60.0, 150.0, 1e4]
    dfs = [1, 2, 3, 4, 5, 6, 7, 9, 10, 14, 19, 28, 29, 30, 31, 49, 99, 149, 299, 999, 9999, 49999]
    rng = random.Random(7)
    grid = [(df, t) for df in dfs for t in t_vals]
    # And random points: df from 1 to 100,000 (log-uniform), t from 0 to 40.
    grid += [(max(1, round(10 ** rng.uniform(0, 5))), round(rng.uniform(0, 1) ** 2 * 40, 6)) for _ in range(300)]
    t_sf = []
    for df, t in grid:
        if True:
            exact = t_sf_exact(t, df)
            if exact == 0.0:
                continue
            t_sf.append({"t": t, "df": df, "scipy": float(stats.t.sf(t, df)), "exact": exact})
    t_isf = []
    for df in list(range(1, 31)) + [40, 49, 60, 99, 149, 199, 299, 499, 999, 9999, 99999]:
        t_isf.append({"q": 0.025, "df": df, "scipy": float(stats.t.ppf(0.975, df)), "exact": t_isf_exact(0.025, df)})
    binom = []
    for n in [1, 2, 3, 5, 8, 13, 20, 40, 77, 124, 125, 126, 127, 200, 401, 1000, 3000]:
        for k in sorted({0, 1, 2, n // 10, n // 4, n // 3, (n - 1) // 2, n // 2}):
            if 2 * k > n:
                continue
            binom.append({"k": k, "n": n, "scipy": float(stats.binomtest(k, n, 0.5).pvalue), "exact": binom_two_sided_exact(k, n)})
    wilson = []
    for k, n in [(0, 1), (1, 1), (0, 5), (3, 7), (10, 10), (17, 40), (99, 100), (250, 1000), (1, 3000)]:
        lo, hi = proportion_confint(k, n, alpha=0.05, method="wilson")
        wilson.append({"k": k, "n": n, "lo": float(lo), "hi": float(hi)})
    kappa = []
    for table in [[[20, 5], [10, 15]], [[45, 15], [25, 15]], [[25, 35], [5, 35]], [[10, 0], [0, 10]], [[0, 7], [9, 0]],
                  [[50, 1], [2, 0]], [[3, 1], [0, 0]], [[1, 0], [0, 0]]]:
        t = np.array(table, dtype=float)
        po = np.trace(t) / t.sum()
        pe = float((t.sum(0) * t.sum(1)).sum() / t.sum() ** 2)
        k = None if pe == 1.0 else float(cohens_kappa(t, return_results=False))
        kappa.append({"table": table, "kappa": k, "agreement": float(po)})
    return {"t_sf": t_sf, "t_isf": t_isf, "binom_two_sided": binom, "wilson95": wilson, "kappa": kappa}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("what", choices=["special", "scenarios", "calibration"])
    ap.add_argument("--seed", type=int, default=27)
    ap.add_argument("--count", type=int, default=40)
    a = ap.parse_args()
    if a.what == "special":
        json.dump(special(), sys.stdout, indent=1)
        sys.stdout.write("\n")
    elif a.what == "scenarios":
        for s in scenarios(a.seed, a.count):
            sys.stdout.write(json.dumps(s, separators=(",", ":")) + "\n")
    else:
        from calibration import calibration_scenarios

        for s in calibration_scenarios(a.seed, a.count):
            sys.stdout.write(json.dumps(s, separators=(",", ":")) + "\n")


if __name__ == "__main__":
    main()

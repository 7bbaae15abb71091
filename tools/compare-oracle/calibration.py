"""Generated judge calibrations: judged results (per-invocation verdicts and rubric scores, as
evalcore and ADK write them), a labels file (docs/compare.md, version 1) and what calibration
gives, computed from the definitions with statsmodels (Wilson's interval, Cohen's kappa)."""

import random

import numpy as np
from statsmodels.stats.inter_rater import cohens_kappa
from statsmodels.stats.proportion import proportion_confint

MODELS = ["gemini-2.5-flash", "gpt-4o-mini", None]


def metric_result(name, status, score, model, rubrics=None):
    criterion = {"threshold": 0.5}
    if model is not None:
        criterion["judge_model_options"] = {"judge_model": model, "num_samples": 1}
    details = {"rubric_scores": rubrics}
    if status == "NOT_EVALUATED":
        details.update({"reason": "judge_error", "error": "HTTP 503 from the judge"})
    return {"metric_name": name, "threshold": 0.5, "criterion": criterion, "score": score, "eval_status": status, "details": details}


def calibration_scenario(rng, index):
    set_id = f"judged_{index}"
    model = rng.choice(MODELS)
    agree_rate = rng.choice([0.95, 0.8, 0.6, 0.5])
    n_cases = rng.randint(3, 25)
    cases, labels = [], []
    truth = {}
    for ci in range(n_cases):
        eval_id = f"case_{ci:02d}"
        invs = []
        for ii in range(rng.randint(1, 3)):
            inv_id = f"e-{index}-{ci}-{ii}"
            # final_response_match_v2: a binary verdict per invocation.
            roll = rng.random()
            if roll < 0.08:
                frm = metric_result("final_response_match_v2", "NOT_EVALUATED", None, model)
                jv = None
            else:
                jv = "pass" if rng.random() < 0.6 else "fail"
                frm = metric_result("final_response_match_v2", "PASSED" if jv == "pass" else "FAILED", 1.0 if jv == "pass" else 0.0, model)
            # A rubric metric: two rubrics, each yes (1.0) or no (0.0).
            rubrics, rv = [], {}
            for rid in ("concise", "polite"):
                rv[rid] = "pass" if rng.random() < 0.7 else "fail"
                rubrics.append({"rubric_id": rid, "rationale": "…", "score": 1.0 if rv[rid] == "pass" else 0.0})
            rscore = sum(1.0 for v in rv.values() if v == "pass") / 2
            rub = metric_result("rubric_based_final_response_quality_v1", "PASSED" if rscore >= 0.5 else "FAILED", rscore, model, rubrics)
            invs.append({"actual_invocation": {"invocation_id": inv_id, "user_content": {"role": "user", "parts": [{"text": f"q{ii}"}]}},
                         "expected_invocation": None, "eval_metric_results": [frm, rub]})
            truth[(eval_id, ii)] = (jv, rv, inv_id)
        status = "PASSED"
        cases.append({"eval_set_id": set_id, "eval_id": eval_id, "final_eval_status": status,
                      "overall_eval_metric_results": [], "eval_metric_result_per_invocation": invs})
    result = {"eval_set_result_id": f"{set_id}_1", "eval_set_id": set_id, "eval_case_results": cases}

    expected_counts = {}
    skipped = []

    def person(judge):
        return judge if rng.random() < agree_rate else ("fail" if judge == "pass" else "pass")

    def add(judge, human, metric, rubric):
        key = (metric, rubric, model or "unspecified")
        table = expected_counts.setdefault(key, np.zeros((2, 2), dtype=int))
        table[0 if judge == "pass" else 1][0 if human == "pass" else 1] += 1

    for (eval_id, ii), (jv, rv, inv_id) in truth.items():
        base = {"eval_set_id": set_id, "eval_id": eval_id, "invocation_index": ii}
        if rng.random() < 0.7:
            entry = dict(base, metric_name="final_response_match_v2")
            if rng.random() < 0.5:
                entry["invocation_id"] = inv_id
            if jv is None:
                entry.update(label="pass")
                skipped.append("not_evaluated")
            else:
                human = person(jv)
                style = rng.random()
                if style < 0.4:
                    entry.update(judge_verdict=jv, label="agree" if human == jv else "disagree")
                else:
                    entry.update(judge_verdict=jv, label=human, note="the person's own verdict")
                add(jv, human, "final_response_match_v2", None)
            labels.append(entry)
        for rid, v in rv.items():
            if rng.random() < 0.5:
                human = person(v)
                labels.append(dict(base, metric_name="rubric_based_final_response_quality_v1", rubric_id=rid, judge_verdict=v, label=human))
                add(v, human, "rubric_based_final_response_quality_v1", rid)
    # Labels the results cannot answer: a case that is not there, an invocation labelled under
    # another id.
    labels.append({"eval_set_id": set_id, "eval_id": "no_such_case", "invocation_index": 0, "metric_name": "final_response_match_v2", "label": "fail"})
    skipped.append("unmatched")
    first = next(iter(truth))
    labels.append({"eval_set_id": set_id, "eval_id": first[0], "invocation_index": first[1], "invocation_id": "e-other",
                   "metric_name": "rubric_based_final_response_quality_v1", "rubric_id": "missing_rubric", "label": "pass"})
    skipped.append("stale")

    groups = []
    for (metric, rubric, m), t in sorted(expected_counts.items(), key=lambda kv: (kv[0][0], kv[0][1] or "", kv[0][2])):
        n = int(t.sum())
        agree = int(t[0][0] + t[1][1])
        lo, hi = proportion_confint(agree, n, alpha=0.05, method="wilson")
        po = agree / n
        pe = float((t.sum(0) * t.sum(1)).sum()) / n**2
        kappa = None if pe == 1.0 else float(cohens_kappa(t.astype(float), return_results=False))
        groups.append({"metric_name": metric, "rubric_id": rubric, "judge_model": m, "n": n, "agreement": po,
                       "agreement_ci95": [float(lo), float(hi)], "kappa": kappa,
                       "confusion": {"judge_pass_human_pass": int(t[0][0]), "judge_pass_human_fail": int(t[0][1]),
                                     "judge_fail_human_pass": int(t[1][0]), "judge_fail_human_fail": int(t[1][1])},
                       "flagged": kappa is None or kappa < 0.6})
    labels_file = {"kind": "evalcore.labels", "version": 1, "labels": labels}
    rng.shuffle(labels)
    return {"name": f"{index:03d}_calibration_{n_cases}cases", "labels": labels_file, "results": [result],
            "expected": {"metrics": groups, "labels": len(labels), "used": len(labels) - len(skipped),
                         "skipped_reasons": sorted(skipped)}}


def calibration_scenarios(seed, count):
    rng = random.Random(seed)
    for i in range(count):
        yield calibration_scenario(rng, i)

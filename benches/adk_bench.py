#!/usr/bin/env python3
"""Times google-adk 2.13's deterministic evaluators on the data gen_data.py wrote; prints JSON.

    benches/.venv/bin/python benches/adk_bench.py [--data benches/.data] [--runs 3] [--skip-rouge]

Measured (seconds, min and median of --runs):
  parse_evalset   EvalSet.model_validate_json(text of evalset.json)
  parse_actual    TypeAdapter(list[Invocation]).validate_json(text of actual.json)
  rouge           RougeEvaluator (response_match_score).evaluate_invocations(actual, expected)
  rouge_differing the same on the pairs whose final response texts differ
  traj_exact / traj_in_order / traj_any_order
                  TrajectoryEvaluator (tool_trajectory_avg_score) with that match_type
  cold_import     a fresh interpreter importing both evaluator modules (median of --imports)
Scores are printed too, so the driver can check that evalcore agrees.
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
import warnings

warnings.filterwarnings("ignore")


def timed(fn, runs):
    times, value = [], None
    for _ in range(runs):
        t0 = time.perf_counter()
        value = fn()
        times.append(time.perf_counter() - t0)
    return {"min": min(times), "median": statistics.median(times), "runs": runs}, value


def cold_import(launches):
    code = ("import google.adk.evaluation.final_response_match_v1, "
            "google.adk.evaluation.trajectory_evaluator")
    times = []
    for _ in range(launches):
        t0 = time.perf_counter()
        subprocess.run([sys.executable, "-W", "ignore", "-c", code], check=True)
        times.append(time.perf_counter() - t0)
    return {"min": min(times), "median": statistics.median(times), "runs": launches}


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", default=os.path.join(here, ".data"))
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--imports", type=int, default=3)
    ap.add_argument("--skip-rouge", action="store_true", help="ROUGE takes ~11 s per run")
    args = ap.parse_args()

    from importlib.metadata import version
    from pydantic import TypeAdapter
    from google.adk.evaluation.eval_case import Invocation
    from google.adk.evaluation.eval_metrics import EvalMetric, ToolTrajectoryCriterion
    from google.adk.evaluation.eval_set import EvalSet
    from google.adk.evaluation.final_response_match_v1 import RougeEvaluator
    from google.adk.evaluation.trajectory_evaluator import TrajectoryEvaluator

    with open(os.path.join(args.data, "evalset.json")) as f:
        evalset_text = f.read()
    with open(os.path.join(args.data, "actual.json")) as f:
        actual_text = f.read()

    out = {"implementation": "google-adk", "version": version("google-adk"),
           "python": sys.version.split()[0], "times": {}, "scores": {}}
    out["times"]["parse_evalset"], eval_set = timed(lambda: EvalSet.model_validate_json(evalset_text), args.runs)
    adapter = TypeAdapter(list[Invocation])
    out["times"]["parse_actual"], actual = timed(lambda: adapter.validate_json(actual_text), args.runs)
    expected = eval_set.eval_cases[0].conversation
    out["n"] = len(expected)

    if not args.skip_rouge:
        rouge = RougeEvaluator(EvalMetric(metric_name="response_match_score", threshold=0.8))
        out["times"]["rouge"], result = timed(lambda: rouge.evaluate_invocations(actual, expected), args.runs)
        out["scores"]["rouge"] = result.overall_score
        # The pairs whose final response texts differ (evalcore scores identical texts without
        # counting their tokens, so this is where both sides do the whole work).
        text = lambda c: "\n".join(p.text for p in ((c.parts or []) if c else []) if p.text)
        diff = [i for i, (a, e) in enumerate(zip(actual, expected)) if text(a.final_response) != text(e.final_response)]
        out["n_differing"] = len(diff)
        sub_actual, sub_expected = [actual[i] for i in diff], [expected[i] for i in diff]
        out["times"]["rouge_differing"], result = timed(
            lambda: rouge.evaluate_invocations(sub_actual, sub_expected), args.runs)
        out["scores"]["rouge_differing"] = result.overall_score

    match = ToolTrajectoryCriterion.MatchType
    for key, mt in (("traj_exact", match.EXACT), ("traj_in_order", match.IN_ORDER), ("traj_any_order", match.ANY_ORDER)):
        metric = EvalMetric(metric_name="tool_trajectory_avg_score", threshold=1.0,
                            criterion=ToolTrajectoryCriterion(threshold=1.0, match_type=mt))
        evaluator = TrajectoryEvaluator(eval_metric=metric)
        out["times"][key], result = timed(lambda: evaluator.evaluate_invocations(actual, expected), args.runs)
        out["scores"][key] = result.overall_score

    if args.imports > 0:
        out["times"]["cold_import"] = cold_import(args.imports)
    print(json.dumps(out, indent=2))


if __name__ == "__main__":
    main()

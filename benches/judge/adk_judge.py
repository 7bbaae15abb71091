#!/usr/bin/env python3
"""Times google-adk 2.13's final_response_match_v2 against the loopback judge; prints JSON.

    GOOGLE_GEMINI_BASE_URL=http://127.0.0.1:PORT GOOGLE_API_KEY=x \
      benches/.venv/bin/python benches/judge/adk_judge.py --data cases.json [--cases N]

ADK's own judge path, unchanged: FinalResponseMatchV2Evaluator with its default judge model
(gemini-2.5-flash, through google-genai, whose base URL the environment points at the test
server's Gemini wire format; no LiteLLM needed), num_samples 5 and the default
parallelism_limit of 1. Cases run one after another, as LocalEvalService does with parallelism 1.
"""

import argparse
import asyncio
import json
import sys
import time
import warnings

warnings.filterwarnings("ignore")


async def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", required=True)
    ap.add_argument("--cases", type=int, default=None)
    ap.add_argument("--samples", type=int, default=5)
    args = ap.parse_args()

    from importlib.metadata import version
    from pydantic import TypeAdapter
    from google.adk.evaluation.eval_case import Invocation
    from google.adk.evaluation.eval_metrics import EvalMetric, JudgeModelOptions, LlmAsAJudgeCriterion
    from google.adk.evaluation.final_response_match_v2 import FinalResponseMatchV2Evaluator

    with open(args.data) as f:
        cases = json.load(f)
    if args.cases is not None:
        cases = cases[: args.cases]
    adapter = TypeAdapter(list[Invocation])
    parsed = [(adapter.validate_python(c["actual"]), adapter.validate_python(c["expected"])) for c in cases]
    criterion = LlmAsAJudgeCriterion(threshold=0.5, judge_model_options=JudgeModelOptions(num_samples=args.samples))
    metric = EvalMetric(metric_name="final_response_match_v2", threshold=0.5, criterion=criterion)
    evaluator = FinalResponseMatchV2Evaluator(metric)

    scores = []
    t0 = time.perf_counter()
    for actual, expected in parsed:
        result = await evaluator.evaluate_invocations(actual, expected)
        scores.append(result.overall_score)
    seconds = time.perf_counter() - t0
    print(json.dumps({"implementation": "google-adk", "version": version("google-adk"),
                      "python": sys.version.split()[0], "cases": len(parsed), "seconds": seconds,
                      "scores": scores}))


if __name__ == "__main__":
    asyncio.run(main())

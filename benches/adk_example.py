#!/usr/bin/env python3
"""Prints what google-adk 2.13 prints for examples/hello_world, to diff against evalcore.

ADK's own LocalEvalService scores the example's recorded turns (given to it as finished
inferences instead of running a live agent); the text is `adk eval`'s "Eval Run Summary"
followed by its `--print_detailed_results` blocks (`cli_eval.pretty_print_eval_result`).

    bash benches/run.sh --quick        # once, to create benches/.venv
    benches/.venv/bin/python benches/adk_example.py | diff - <(node examples/hello_world/run.mjs)

The Vertex AI metric modules are registered by ADK's default registry but never called here;
their optional dependencies (vertexai, agentplatform, pandas) are stubbed when not installed.
"""

import asyncio
import importlib.util
import json
import logging
import os
import sys
import types
import warnings

warnings.filterwarnings("ignore")
logging.disable(logging.CRITICAL)


class _Stub(types.ModuleType):
    """Any attribute is another stub: enough for module-level imports that are never used."""

    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        return _Stub(name)

    def __call__(self, *args, **kwargs):
        return _Stub("call")


for name in ("agentplatform", "vertexai", "pandas"):
    if importlib.util.find_spec(name) is None:
        for full in (name, f"{name}.types", f"{name}.preview", f"{name}.preview.evaluation", f"{name}.evaluation"):
            sys.modules[full] = _Stub(full)

from google.adk.agents import LlmAgent  # noqa: E402
from google.adk.cli.cli_eval import pretty_print_eval_result  # noqa: E402
from google.adk.evaluation.base_eval_service import (  # noqa: E402
    EvaluateConfig, EvaluateRequest, InferenceResult, InferenceStatus)
from google.adk.evaluation.eval_case import Invocation  # noqa: E402
from google.adk.evaluation.eval_config import EvalConfig, get_eval_metrics_from_config  # noqa: E402
from google.adk.evaluation.eval_set import EvalSet  # noqa: E402
from google.adk.evaluation.evaluator import EvalStatus  # noqa: E402
from google.adk.evaluation.in_memory_eval_sets_manager import InMemoryEvalSetsManager  # noqa: E402
from google.adk.evaluation.local_eval_service import LocalEvalService  # noqa: E402

EXAMPLE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "examples", "hello_world")
APP = "hello_world"


def read(name):
    with open(os.path.join(EXAMPLE, name)) as f:
        return f.read()


async def evaluate(service, request):
    return [result async for result in service.evaluate(evaluate_request=request)]


def main():
    eval_set = EvalSet.model_validate_json(read("hello_world.evalset.json"))
    config = EvalConfig.model_validate_json(read("test_config.json"))
    recorded = json.loads(read("recorded_turns.json"))
    manager = InMemoryEvalSetsManager()
    manager.create_eval_set(APP, eval_set.eval_set_id)
    for case in eval_set.eval_cases:
        manager.add_eval_case(APP, eval_set.eval_set_id, case)
    service = LocalEvalService(root_agent=LlmAgent(name="hello_world_agent"), eval_sets_manager=manager)
    inferences = [
        InferenceResult(app_name=APP, eval_set_id=eval_set.eval_set_id, eval_case_id=case.eval_id,
                        inferences=[Invocation.model_validate(i) for i in recorded[case.eval_id]],
                        session_id="recorded", status=InferenceStatus.SUCCESS)
        for case in eval_set.eval_cases
    ]
    request = EvaluateRequest(inference_results=inferences, evaluate_config=EvaluateConfig(
        eval_metrics=get_eval_metrics_from_config(config), parallelism=1))
    results = asyncio.run(evaluate(service, request))
    # Cases finish concurrently; print them in eval-set order, as run.mjs does.
    order = {case.eval_id: i for i, case in enumerate(eval_set.eval_cases)}
    results.sort(key=lambda r: order[r.eval_id])

    # The summary exactly as cli_tools_click.cli_eval prints it.
    print("*********************************************************************")
    summary = {}
    for r in results:
        counts = summary.setdefault(r.eval_set_id, [0, 0])
        counts[0 if r.final_eval_status == EvalStatus.PASSED else 1] += 1
    print("Eval Run Summary")
    for eval_set_id, (passed, failed) in summary.items():
        print(f"{eval_set_id}:\n  Tests passed: {passed}\n  Tests failed: {failed}")
    for r in results:
        print("********************************************************************")
        pretty_print_eval_result(r)


if __name__ == "__main__":
    main()

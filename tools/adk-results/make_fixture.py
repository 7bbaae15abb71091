#!/usr/bin/env python3
"""Writes a result file exactly as google-adk 2.13 writes it, for tests/js/history.test.mjs.

ADK's own LocalEvalService scores examples/hello_world's recorded turns (as finished
inferences, no live agent) and ADK's LocalEvalSetResultsManager saves the EvalSetResult;
the file is copied here as `hello_world.adk-2.13.evalset_result.json`. Needs the venv that
`bash benches/run.sh` creates (google-adk from PyPI); not run in CI.

    benches/.venv/bin/python tools/adk-results/make_fixture.py
"""

import asyncio
import importlib.util
import json
import logging
import os
import shutil
import sys
import tempfile
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
from google.adk.evaluation.base_eval_service import (  # noqa: E402
    EvaluateConfig, EvaluateRequest, InferenceResult, InferenceStatus)
from google.adk.evaluation.eval_case import Invocation  # noqa: E402
from google.adk.evaluation.eval_config import EvalConfig, get_eval_metrics_from_config  # noqa: E402
from google.adk.evaluation.eval_set import EvalSet  # noqa: E402
from google.adk.evaluation.in_memory_eval_sets_manager import InMemoryEvalSetsManager  # noqa: E402
from google.adk.evaluation.local_eval_service import LocalEvalService  # noqa: E402
from google.adk.evaluation.local_eval_set_results_manager import LocalEvalSetResultsManager  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
EXAMPLE = os.path.join(HERE, "..", "..", "examples", "hello_world")
APP = "hello_world"
OUT = os.path.join(HERE, "hello_world.adk-2.13.evalset_result.json")


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
    order = {case.eval_id: i for i, case in enumerate(eval_set.eval_cases)}
    results.sort(key=lambda r: order[r.eval_id])

    agents_dir = tempfile.mkdtemp()
    try:
        LocalEvalSetResultsManager(agents_dir=agents_dir).save_eval_set_result(APP, eval_set.eval_set_id, results)
        history = os.path.join(agents_dir, APP, ".adk", "eval_history")
        [name] = os.listdir(history)
        shutil.copyfile(os.path.join(history, name), OUT)
        print(f"{name} -> {OUT}")
    finally:
        shutil.rmtree(agents_dir)


if __name__ == "__main__":
    main()

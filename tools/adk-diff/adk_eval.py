"""Scores each input line with google-adk 2.13's own pipeline; one JSON answer per line."""
import asyncio, json, sys, os, tempfile, warnings, logging, importlib.util, types
warnings.filterwarnings("ignore"); logging.disable(logging.CRITICAL)
class _Stub(types.ModuleType):
    def __getattr__(self, name):
        if name.startswith("__"): raise AttributeError(name)
        return _Stub(name)
    def __call__(self, *a, **k): return _Stub("call")
for name in ("agentplatform", "vertexai", "pandas"):
    if importlib.util.find_spec(name) is None:
        for full in (name, f"{name}.types", f"{name}.preview", f"{name}.preview.evaluation", f"{name}.evaluation"):
            sys.modules[full] = _Stub(full)
from google.adk.agents import LlmAgent
from google.adk.evaluation.base_eval_service import EvaluateConfig, EvaluateRequest, InferenceResult, InferenceStatus
from google.adk.evaluation.eval_case import Invocation
from google.adk.evaluation.eval_config import get_evaluation_criteria_or_default, get_eval_metrics_from_config
from google.adk.evaluation.eval_sets_manager import EvalSetsManager
from google.adk.evaluation.in_memory_eval_sets_manager import InMemoryEvalSetsManager
from google.adk.evaluation.local_eval_service import LocalEvalService
from google.adk.evaluation.eval_set import EvalSet

async def run(line):
    cfg = line["config"]
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
        json.dump(cfg, f); path = f.name
    try:
        config = get_evaluation_criteria_or_default(path if cfg is not None else None)
    except Exception as e:
        return {"error": f"{type(e).__name__}: {e}"[:200]}
    es = EvalSet.model_validate({"eval_set_id": "d", "eval_cases": [line["eval_case"]]})
    m = InMemoryEvalSetsManager(); m.create_eval_set("app", "d")
    for c in es.eval_cases: m.add_eval_case("app", "d", c)
    svc = LocalEvalService(root_agent=LlmAgent(name="a"), eval_sets_manager=m)
    inf = InferenceResult(app_name="app", eval_set_id="d", eval_case_id=es.eval_cases[0].eval_id,
        inferences=[Invocation.model_validate(i) for i in line["actual"]], session_id="s", status=InferenceStatus.SUCCESS)
    req = EvaluateRequest(inference_results=[inf], evaluate_config=EvaluateConfig(eval_metrics=get_eval_metrics_from_config(config), parallelism=1))
    try:
        res = [r async for r in svc.evaluate(evaluate_request=req)]
    except Exception as e:
        return {"error": f"{type(e).__name__}: {e}"[:200]}
    r = res[0]
    return {"final": r.final_eval_status.name, "overall": [[m.metric_name, m.threshold, m.score, m.eval_status.name] for m in r.overall_eval_metric_results]}

async def safe(line):
    try:
        return await run(line)
    except Exception as e:
        return {"error": f"{type(e).__name__}: {e}"[:200]}

async def main():
    for l in sys.stdin:
        r = await safe(json.loads(l))
        print(json.dumps(json.loads(json.dumps(r), parse_constant=lambda c: c)), flush=True)
asyncio.run(main())

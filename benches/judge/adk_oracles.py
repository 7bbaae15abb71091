"""google-adk 2.13 scores judge_oracles.jsonl lines with its real judge path, pointed at a server.

Reads one job per stdin line, {"row": <judge_oracles line>, "baseUrl": "http://127.0.0.1:PORT"},
and prints one result per line in EvalCaseResult's shape. ADK is driven as the oracles were
(config file read by ADK's loader, its metric list, LocalEvalService.evaluate on one successful
inference); its Gemini client reaches the server through GOOGLE_GEMINI_BASE_URL.
"""
import asyncio, importlib.util, json, logging, os, sys, tempfile, types, warnings
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
from google.adk.evaluation.eval_set import EvalSet
from google.adk.evaluation.in_memory_eval_sets_manager import InMemoryEvalSetsManager
from google.adk.evaluation.local_eval_service import LocalEvalService


def metric(m):
    return {"metric_name": m.metric_name, "score": m.score, "eval_status": m.eval_status.name}


async def run(row, base_url):
    os.environ["GOOGLE_GEMINI_BASE_URL"] = base_url
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
        json.dump(row["config"], f); path = f.name
    try:
        config = get_evaluation_criteria_or_default(path)
    finally:
        os.unlink(path)
    es = EvalSet.model_validate({"eval_set_id": "judge_oracles", "eval_cases": [row["eval_case"]]})
    m = InMemoryEvalSetsManager(); m.create_eval_set("app", "judge_oracles")
    for c in es.eval_cases: m.add_eval_case("app", "judge_oracles", c)
    svc = LocalEvalService(root_agent=LlmAgent(name="a"), eval_sets_manager=m)
    inf = InferenceResult(app_name="app", eval_set_id="judge_oracles", eval_case_id=es.eval_cases[0].eval_id,
        inferences=[Invocation.model_validate(i) for i in row["actual_invocations"]], session_id="s",
        status=InferenceStatus.SUCCESS)
    req = EvaluateRequest(inference_results=[inf],
        evaluate_config=EvaluateConfig(eval_metrics=get_eval_metrics_from_config(config), parallelism=1))
    r = [x async for x in svc.evaluate(evaluate_request=req)][0]
    return {
        "final_eval_status": r.final_eval_status.name,
        "overall_eval_metric_results": [metric(x) for x in r.overall_eval_metric_results],
        "eval_metric_result_per_invocation": [
            {"eval_metric_results": [metric(x) for x in p.eval_metric_results]} for p in r.eval_metric_result_per_invocation
        ],
    }


async def main():
    os.environ.setdefault("GOOGLE_API_KEY", "loopback")
    os.environ["GOOGLE_GENAI_USE_VERTEXAI"] = "false"
    for line in sys.stdin:
        job = json.loads(line)
        try:
            out = await run(job["row"], job["baseUrl"])
        except Exception as e:
            out = {"thrown": f"{type(e).__name__}: {e}"[:500]}
        print(json.dumps(out), flush=True)


asyncio.run(main())

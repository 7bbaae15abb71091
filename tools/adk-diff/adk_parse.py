"""Asks google-adk 2.13's models whether each eval case and its invocations are valid."""
import json, sys, warnings
warnings.filterwarnings("ignore")
from google.adk.evaluation.eval_set import EvalSet
from google.adk.evaluation.eval_case import Invocation
for l in sys.stdin:
    m = json.loads(l)
    ok_case = ok_inv = True
    try: EvalSet.model_validate({"eval_set_id": "s", "eval_cases": [m["eval_case"]]})
    except Exception as e: ok_case = False
    try: [Invocation.model_validate(i) for i in m["actual"]]
    except Exception: ok_inv = False
    print(json.dumps([ok_case, ok_inv]))

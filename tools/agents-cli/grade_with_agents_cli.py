"""Grades a dataset with agents-cli's own pipeline (its prepare_eval_metrics, then the evaluation
SDK's evals.evaluate) using only local Python custom_function metrics, so no Google service or
credentials are involved; prints [eval_case_id, metric, score, error] rows as JSON.

    python grade_with_agents_cli.py DATASET.json CONFIG.yaml
"""
import json, sys
from google.agents.cli.eval.eval_utils import prepare_eval_metrics
from google.agents.cli._agent_platform_types import types
import google.auth, google.auth.credentials

# The client asks for default credentials when it is made, though local metrics never use them.
google.auth.default = lambda *a, **k: (google.auth.credentials.AnonymousCredentials(), "local-project")

from google.agents.cli._agent_platform import AgentPlatformClient
metrics, local, remote = prepare_eval_metrics(config_path=sys.argv[2], metrics_str=None)
ds = types.EvaluationDataset.model_validate_json(open(sys.argv[1]).read())
client = AgentPlatformClient(project="local-project", location="global")
result = client.evals.evaluate(dataset=ds, metrics=metrics, config={"evaluation_service_qps": 100})
out = []
for cr in result.eval_case_results or []:
    for rc in cr.response_candidate_results or []:
        for name, m in (rc.metric_results or {}).items():
            out.append([ds.eval_cases[cr.eval_case_index].eval_case_id, name, m.score, m.error_message])
print(json.dumps(out, indent=1))

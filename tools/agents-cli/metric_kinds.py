"""Prints how agents-cli's own config loader (prepare_eval_metrics) reads each config given: the
metrics it would run, in order, each as [name, kind, sampling count]; kind is builtin, llm
(LLMMetric), local (a compiled custom_function) or remote (CodeExecutionMetric). An error is
printed as ["error", message]. No Google service is called.

    python metric_kinds.py CONFIG.yaml [CONFIG.json ...]
"""
import json
import sys

import click
from google.agents.cli.eval.eval_utils import prepare_eval_metrics

out = {}
for path in sys.argv[1:]:
    try:
        metrics, _, _ = prepare_eval_metrics(config_path=path, metrics_str=None)
    except click.ClickException as e:
        out[path] = ["error", e.message]
        continue
    rows = []
    for m in metrics:
        if isinstance(m, str):
            rows.append([m, "builtin", None])
        elif type(m).__name__ == "CodeExecutionMetric":
            rows.append([m.name, "remote", None])
        elif getattr(m, "custom_function", None) is not None:
            rows.append([m.name, "local", None])
        elif getattr(m, "prompt_template", None):
            rows.append([m.name, "llm", m.judge_model_sampling_count])
        else:
            rows.append([m.name, "builtin", m.judge_model_sampling_count])
    out[path] = rows
print(json.dumps(out))

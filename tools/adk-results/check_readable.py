#!/usr/bin/env python3
"""Reads evalset_result files with google-adk 2.13's own parser (the one its web UI and
`LocalEvalSetResultsManager.get_eval_set_result` use) and prints what ADK sees. Exit code 1
if ADK rejects a file. Needs benches/.venv; not run in CI.

    benches/.venv/bin/python tools/adk-results/check_readable.py path/to/*.evalset_result.json
"""

import sys
import warnings

warnings.filterwarnings("ignore")

from google.adk.evaluation._eval_set_results_manager_utils import parse_eval_set_result_json  # noqa: E402

failed = 0
for path in sys.argv[1:]:
    with open(path, encoding="utf-8") as f:
        text = f.read()
    try:
        result = parse_eval_set_result_json(text)
    except Exception as e:  # noqa: BLE001 - report whatever ADK raises
        failed += 1
        print(f"REJECTED {path}: {type(e).__name__}: {e}")
        continue
    statuses = ", ".join(f"{r.eval_id}={r.final_eval_status.name}" for r in result.eval_case_results)
    print(f"ok {path}: {result.eval_set_result_id}: {statuses}")
sys.exit(1 if failed else 0)

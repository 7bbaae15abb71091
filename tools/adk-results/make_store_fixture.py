#!/usr/bin/env python3
"""Runs the eval-set operations of store_ops.json through google-adk 2.13's own
LocalEvalSetsManager and LocalEvalSetResultsManager in a temporary agents folder, and writes
every file they left, as text by path, to `store_ops.adk-2.13.json`. tests/js/store.test.mjs
runs the same operations through evalSetsManager(fsStore(...)) and compares the files byte for
byte. The managers' clocks read store_ops.json's `times` in turn. Needs the venv that
`bash benches/run.sh` creates (google-adk from PyPI); not run in CI.

    benches/.venv/bin/python tools/adk-results/make_store_fixture.py
"""

import json
import os
import shutil
import tempfile
import types
import warnings

warnings.filterwarnings("ignore")

from google.adk.evaluation import _eval_set_results_manager_utils as results_utils  # noqa: E402
from google.adk.evaluation import local_eval_sets_manager  # noqa: E402
from google.adk.evaluation.eval_case import EvalCase  # noqa: E402
from google.adk.evaluation.eval_result import EvalCaseResult  # noqa: E402
from google.adk.evaluation.local_eval_set_results_manager import LocalEvalSetResultsManager  # noqa: E402
from google.adk.evaluation.local_eval_sets_manager import LocalEvalSetsManager  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
OPS = os.path.join(HERE, "store_ops.json")
OUT = os.path.join(HERE, "store_ops.adk-2.13.json")


def main():
    with open(OPS, encoding="utf-8") as f:
        spec = json.load(f)
    times = iter(spec["times"])
    clock = types.SimpleNamespace(time=lambda: next(times))
    # Only the managers' own clocks: create_eval_set and create_eval_set_result.
    local_eval_sets_manager.time = clock
    results_utils.time = clock

    agents_dir = tempfile.mkdtemp()
    try:
        sets = LocalEvalSetsManager(agents_dir)
        results = LocalEvalSetResultsManager(agents_dir)
        for op, app, set_id, *rest in spec["ops"]:
            if op == "create":
                sets.create_eval_set(app, set_id)
            elif op == "add":
                sets.add_eval_case(app, set_id, EvalCase.model_validate(rest[0]))
            elif op == "update":
                sets.update_eval_case(app, set_id, EvalCase.model_validate(rest[0]))
            elif op == "delete":
                sets.delete_eval_case(app, set_id, rest[0])
            elif op == "save":
                cases = [EvalCaseResult.model_validate(r) for r in rest[0]]
                results.save_eval_set_result(app, set_id, cases)
            else:
                raise ValueError(f"unknown operation {op}")
        files = {}
        for root, _, names in os.walk(agents_dir):
            for name in names:
                path = os.path.join(root, name)
                with open(path, encoding="utf-8") as f:
                    files[os.path.relpath(path, agents_dir).replace(os.sep, "/")] = f.read()
    finally:
        shutil.rmtree(agents_dir)
    with open(OUT, "w", encoding="utf-8") as f:
        json.dump({"files": dict(sorted(files.items()))}, f, indent=1, ensure_ascii=False)
        f.write("\n")
    print(f"{len(files)} files -> {OUT}")


if __name__ == "__main__":
    main()

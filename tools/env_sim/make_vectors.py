"""Writes and checks the environment-simulation conformance vectors (tests/data/env_sim/) from
google-adk 2.13's real classes.

  python make_vectors.py write [DIR]   writes configs, calls, mt and mock_strategy JSONL
  python make_vectors.py check [DIR]   replays the committed vectors against ADK again

check regenerates every file and compares it byte for byte, replays each committed call
sequence from its own inputs (instrumented and plain), rebuilds each config from its input text,
recomputes the Mersenne Twister vectors with an independent implementation of CPython's seeding,
and runs a sample of the call sequences through a real ADK Runner."""

from __future__ import annotations

import json
import os
import sys
from typing import Any, Callable, Iterator

import adk_env
import gen_calls
import gen_configs
import gen_mock
import gen_mt
import mt_ref

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_OUT = os.path.normpath(os.path.join(HERE, "..", "..", "tests", "data", "env_sim"))
FILES: dict[str, Callable[[], Iterator[dict[str, Any]]]] = {
    "configs.jsonl": gen_configs.records,
    "calls.jsonl": gen_calls.records,
    "mt.jsonl": gen_mt.records,
    "mock_strategy.jsonl": gen_mock.records,
}
E2E_SAMPLE = ["sweep-42", "seed-form-true", "negative-equals-positive", "probability-1",
              "shared-generator", "overlapping", "match-keys", "latency",
              "error-beats-empty-response", "unknown-and-near-names", "gen-000", "gen-001",
              "gen-002", "gen-003", "gen-004"]


def render(name: str) -> str:
  return "".join(adk_env.line(r) + "\n" for r in FILES[name]())


def read(path: str) -> list[dict[str, Any]]:
  with open(path, encoding="utf-8") as handle:
    return [json.loads(text) for text in handle]


def counts(out: str) -> dict[str, Any]:
  configs = read(os.path.join(out, "configs.jsonl"))
  calls = read(os.path.join(out, "calls.jsonl"))
  mt = read(os.path.join(out, "mt.jsonl"))
  mock = read(os.path.join(out, "mock_strategy.jsonl"))
  valid = [c for c in configs if "config" in c["json_mode"]]
  answered = sum(1 for s in calls for r in s["results"] if r["response"] is not None)
  return {
      "configs": len(configs), "configs_valid": len(valid),
      "configs_invalid": len(configs) - len(valid),
      "configs_engine_fails": sum(1 for c in valid if not c["engine"]["ok"]),
      "configs_nonstandard_json": sum(1 for c in configs if not c["standard_json"]),
      "configs_python_mode_differs": sum(1 for c in configs if "python_mode" in c),
      "sequences": len(calls), "calls": sum(len(s["calls"]) for s in calls),
      "calls_answered": answered,
      "sequences_exact_numbers": sum(1 for s in calls if s["needs_exact_numbers"]),
      "sequences_shared_seed_hook": sum(1 for s in calls if s["shared_seed"] is not None),
      "mt_seeds": len(mt), "mock_scenarios": len(mock),
  }


def write(out: str) -> None:
  os.makedirs(out, exist_ok=True)
  for name in FILES:
    with open(os.path.join(out, name), "w", encoding="utf-8") as handle:
      handle.write(render(name))
  print(json.dumps(counts(out), indent=1))


def check(out: str) -> int:
  failures: list[str] = []
  checked = 0
  for name in FILES:
    with open(os.path.join(out, name), encoding="utf-8") as handle:
      committed = handle.read()
    checked += 1
    if render(name) != committed:
      failures.append(f"{name}: regenerating gives different bytes")
  for case in read(os.path.join(out, "configs.jsonl")):
    checked += 1
    again = gen_configs.record(case["id"], case["input"], case["note"])
    if adk_env.line(again) != adk_env.line(case):
      failures.append(f"configs.jsonl {case['id']}: ADK now says otherwise")
  calls = read(os.path.join(out, "calls.jsonl"))
  for case in calls:
    checked += 2
    if adk_env.line(gen_calls.run(case)) != adk_env.line(case["results"]):
      failures.append(f"calls.jsonl {case['id']}: replay differs")
    plain = gen_calls.run(case, instrument=False)
    stripped = [{"response": r["response"], "latency": r["latency"]} for r in case["results"]]
    if adk_env.line(plain) != adk_env.line(stripped):
      failures.append(f"calls.jsonl {case['id']}: the uninstrumented engine differs")
  for case in read(os.path.join(out, "mt.jsonl")):
    checked += 1
    problem = mt_ref.check(case)
    if problem:
      failures.append(f"mt.jsonl seed {case['seed']}: {problem}")
  import check_e2e  # imported late: it builds ADK runners
  by_id = {c["id"]: c for c in calls}
  for case_id in E2E_SAMPLE:
    checked += 1
    problem = check_e2e.check(by_id[case_id])
    if problem:
      failures.append(f"runner: {problem}")
  for failure in failures:
    print("FAIL", failure)
  summary = counts(out)
  print(json.dumps(summary, indent=1))
  # Each check adds at most one failure, so this is the count of checks that failed.
  print(f"{checked - len(failures)} passed, {len(failures)} failed")
  return 1 if failures else 0


def main(argv: list[str]) -> int:
  if len(argv) < 2 or argv[1] not in ("write", "check"):
    print(__doc__)
    return 2
  out = argv[2] if len(argv) > 2 else DEFAULT_OUT
  if argv[1] == "write":
    write(out)
    return 0
  return check(out)


if __name__ == "__main__":
  sys.exit(main(sys.argv))

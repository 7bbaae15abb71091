"""Says whether a freshly recorded fixture differs from the committed one in substance.

    python3 compare.py OLD NEW      (exit 0: same up to volatile values, 1: changed)

Every run of a real server mints new ids (uuids, `e-`/`adk-` ids), timestamps,
durations and, from protobuf Structs, key orders. Those are replaced or
ignored here; what is left (statuses, event shapes, texts, args, usage,
errors) is compared, and the first difference is printed with its JSON path.
"""

from __future__ import annotations

import json
import re
import sys
from typing import Any

UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")
ISO = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z?")
EPOCH = re.compile(r"(?<!\d)1[6-9]\d{8}(\.\d+)?(?!\d)")  # seconds since 1970, 2020s to 2030s
SECONDS = re.compile(r"\b\d+(\.\d+)?s\b")
DURATION_SCORE = re.compile(r"(invocation_duration_v1, Status: \w+, Score: )[\d.]+")
VOLATILE_KEYS = {"timestamp", "lastUpdateTime", "last_update_time", "creation_timestamp",
                 "duration", "model_duration", "tool_duration", "content-length",
                 "eval_set_result_id", "eval_set_result_name", "messageId", "artifactId",
                 "duration_details"}
# Metrics whose score is a measured time.
TIMED_METRICS = {"invocation_duration_v1"}


def norm_text(text: str) -> str:
  text = UUID.sub("<uuid>", text)
  text = ISO.sub("<iso>", text)
  text = EPOCH.sub("<epoch>", text)
  text = DURATION_SCORE.sub(r"\1<secs>", text)
  return SECONDS.sub("<secs>", text)


def bodies(text: str) -> Any:
  """A body as JSON (a whole document, or an SSE stream's data payloads), else text."""
  try:
    return {"json": json.loads(text)}
  except ValueError:
    pass
  flat = text.replace("\r\n", "\n")
  if flat.startswith("data:"):
    try:
      return {"sse": [json.loads("\n".join(l[5:].removeprefix(" ") for l in block.split("\n")
                                            if l.startswith("data:")))
                      for block in flat.split("\n\n") if block.strip()]}
    except ValueError:
      pass
  return {"text": text}


def norm(value: Any, key: str = "") -> Any:
  if key in VOLATILE_KEYS:
    return "<volatile>"
  if isinstance(value, dict):
    timed = value.get("metric_name") in TIMED_METRICS
    return {k: "<volatile>" if timed and k == "score" else norm(v, k)
            for k, v in sorted(value.items())}
  if isinstance(value, list):
    items = [norm(v) for v in value]
    # ADK writes and prints eval cases in completion order, which varies run to run.
    return sorted(items, key=lambda v: json.dumps(v, sort_keys=True)) if key == "eval_case_results" else items
  if isinstance(value, str):
    if key in ("body", "raw_body"):
      return norm(bodies(value))
    return norm_text(value)
  return value


def first_difference(a: Any, b: Any, path: str = "$") -> str | None:
  if type(a) is not type(b):
    return f"{path}: {json.dumps(a)[:120]} != {json.dumps(b)[:120]}"
  if isinstance(a, dict):
    for k in sorted(set(a) | set(b)):
      if k not in a or k not in b:
        return f"{path}.{k}: only in {'new' if k in b else 'old'}"
      d = first_difference(a[k], b[k], f"{path}.{k}")
      if d:
        return d
    return None
  if isinstance(a, list):
    if len(a) != len(b):
      return f"{path}: {len(a)} items != {len(b)} items"
    for i, (x, y) in enumerate(zip(a, b)):
      d = first_difference(x, y, f"{path}[{i}]")
      if d:
        return d
    return None
  return None if a == b else f"{path}: {json.dumps(a)[:120]} != {json.dumps(b)[:120]}"


def load(path: str) -> Any:
  with open(path, encoding="utf-8") as f:
    text = f.read()
  try:
    return norm(json.loads(text))
  except ValueError:
    # Printed output: one block per eval case between rows of asterisks, in completion order;
    # within a block, args printed from a protobuf Struct come in any order, so compare the
    # block's lines as a sorted list (without the commas and parens that depend on position).
    return sorted(sorted(line.strip().rstrip(",)") for line in norm_text(block).split("\n")
                         if line.strip())
                  for block in re.split(r"\n\*{20,}\n", text))


def main(old: str, new: str) -> int:
  diff = first_difference(load(old), load(new))
  if diff:
    print(diff)
    return 1
  return 0


if __name__ == "__main__":
  sys.exit(main(sys.argv[1], sys.argv[2]))

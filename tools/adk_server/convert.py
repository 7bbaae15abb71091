"""What ADK's own evaluation makes of the events an `adk api_server` sent.

    .venv/bin/python convert.py FIXTURES_DIR

For each case fixture (tests/data/adk_server/cases/<case>.<mode>.json) this
feeds the events of every turn, as the server sent them, to ADK's own
EvaluationGenerator.convert_events_to_eval_invocations, the way
_generate_inferences_for_single_user_invocation does: a user event carrying the
turn's message and the invocation id of the first event, then the events in
order. The result is written to converted/<case>.<mode>.json in the form ADK's
result file uses (every field, nulls included): the invocations a client of the
server must produce to score exactly as `adk eval` does. A turn whose run
failed is kept as {"error": ...} and ends the conversion, as ADK's inference
failure ends the case.

The synthetic user event gets the first agent event's timestamp (ADK stamps
it when that event arrives, which a client cannot know better).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from google.adk.events.event import Event
from google.adk.evaluation.evaluation_generator import EvaluationGenerator
from google.genai import types

from exchange import body_json, sse_data


def turn_events(ex: dict[str, Any]) -> tuple[list[dict[str, Any]], str | None]:
  """(event JSON objects, error text) of one /run or /run_sse exchange."""
  resp = ex["response"]
  if resp["status"] != 200:
    return [], f"HTTP {resp['status']}: {resp['body'][:200]}"
  if "event-stream" in resp["headers"].get("content-type", ""):
    payloads = sse_data(ex)
  else:
    payloads = body_json(ex)
  events = [p for p in payloads if "error" not in p or "invocationId" in p]
  errors = [p["error"] for p in payloads if "error" in p and "invocationId" not in p]
  return events, (errors[0] if errors else None)


def convert_fixture(doc: dict[str, Any]) -> list[dict[str, Any]]:
  events: list[Event] = []
  failure = None
  for ex in doc["exchanges"]:
    if not ex["name"].startswith("turn_"):
      continue
    payloads, failure = turn_events(ex)
    parsed = [Event.model_validate(p) for p in payloads]
    if parsed:
      message = types.Content.model_validate(ex["request"]["body"]["new_message"])
      events.append(Event(content=message, author="user",
                          invocation_id=parsed[0].invocation_id,
                          timestamp=parsed[0].timestamp))
      events.extend(parsed)
    if failure:
      break
  invocations = EvaluationGenerator.convert_events_to_eval_invocations(events)
  out: list[dict[str, Any]] = [inv.model_dump(mode="json") for inv in invocations]
  if failure:
    out.append({"error": failure})
  return out


def main(fixtures: Path) -> None:
  dest = fixtures / "converted"
  dest.mkdir(exist_ok=True)
  for path in sorted((fixtures / "cases").glob("*.json")):
    doc = json.loads(path.read_text(encoding="utf-8"))
    out = convert_fixture(doc)
    (dest / path.name).write_text(json.dumps(out, indent=2, ensure_ascii=False) + "\n",
                                  encoding="utf-8")


if __name__ == "__main__":
  main(Path(sys.argv[1]).resolve())

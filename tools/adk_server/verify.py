"""Checks each statement about the real servers against the recorded fixtures.

    python3 verify.py ADK_DIR A2A_DIR     (tests/data/adk_server, tests/data/a2a)

Writes ADK_DIR/verified.json and A2A_DIR/verified.json: for every statement
of issue 35's "What the real servers do" (and the other facts a client needs),
whether the fixtures confirm it, with the evidence (fixture file, exchange and
what it shows). Reads only the committed fixtures, converted/ and oracle/.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any, Callable

from compare import EPOCH, ISO, UUID
from exchange import body_json
from fixtures import exchange, load, payloads, status, turns

Check = Callable[[Path], tuple[str, list[str]]]


# ---- adk api_server -------------------------------------------------------


def unknown_app_session(d: Path) -> tuple[str, list[str]]:
  f = d / "unknown_app.json"
  made = exchange(f, "create_session_unknown_app")
  apps = body_json(exchange(f, "list_apps_after"))
  notes = load(f)["notes"]
  ok = made["response"]["status"] == 200 and "no_such_app" not in apps
  return status(ok), [f"{f.name} create_session_unknown_app: HTTP {made['response']['status']}",
                      f"{f.name} list_apps_after: {apps}", *notes]


def unknown_app_run(d: Path) -> tuple[str, list[str]]:
  f = d / "unknown_app.json"
  sse, run = exchange(f, "run_sse_unknown_app"), exchange(f, "run_unknown_app")
  detail = body_json(sse)["detail"]
  has_path = "/agents/no_such_app" in detail
  ok = sse["response"]["status"] == 404 and has_path
  return status(ok), [
      f"{f.name} run_sse_unknown_app: HTTP {sse['response']['status']}, detail names the server's"
      f" path: {has_path}",
      f"{f.name} run_unknown_app: HTTP {run['response']['status']} too (not only /run_sse)",
      "discovery.json app_info_unknown_app: HTTP "
      f"{exchange(d / 'discovery.json', 'app_info_unknown_app')['response']['status']}"]


def sqlite_restart(d: Path) -> tuple[str, list[str]]:
  f, m = d / "restart_sqlite.json", d / "restart_memory.json"
  got = exchange(f, "get_session_after_restart")
  events = body_json(got).get("events", [])
  last = payloads(exchange(f, "turn_2_after_restart"))[-1]
  answer = last["content"]["parts"][0]["text"]
  lost = exchange(m, "get_session_after_restart")["response"]["status"]
  ok = got["response"]["status"] == 200 and events and "2 x apple" in answer and lost == 404
  return status(bool(ok)), [
      f"{f.name}: after a restart GET session is HTTP {got['response']['status']} with"
      f" {len(events)} events; the next turn answers {answer!r}",
      f"{m.name}: with --session_service_uri memory:// the session is gone (HTTP {lost})"]


def failed_run_sse(d: Path) -> tuple[str, list[str]]:
  ev = []
  ok = True
  for mode in ("run_sse", "run_sse_streaming"):
    f = d / "cases" / f"inventory_tool_raises.{mode}.json"
    ex = turns(f)[0]
    data = payloads(ex)
    last, before = data[-1], data[-2]
    ok &= ex["response"]["status"] == 200 and "error" in last and "errorCode" in before
    ev.append(f"{f.name}: HTTP {ex['response']['status']}, last data line {json.dumps(last)[:160]}")
    ev.append(f"{f.name}: the event before it is an ADK event with errorCode"
              f" {before.get('errorCode')!r}, errorMessage {before.get('errorMessage')!r}")
  return status(ok), ev


def failed_run(d: Path) -> tuple[str, list[str]]:
  f = d / "cases" / "inventory_tool_raises.run.json"
  r = turns(f)[0]["response"]
  ok = r["status"] == 500 and r["body"] == "Internal Server Error"
  return status(ok), [f"{f.name}: HTTP {r['status']} {r['headers'].get('content-type')} {r['body']!r}"]


def no_echo(d: Path) -> tuple[str, list[str]]:
  authors, stored = set(), set()
  for f in sorted((d / "cases").glob("*.json")):
    for ex in turns(f):
      if ex["response"]["status"] == 200:
        authors |= {p.get("author") for p in payloads(ex) if isinstance(p, dict) and "author" in p}
    got = exchange(f, "get_session")
    stored |= {e["author"] for e in body_json(got).get("events", [])}
  ok = "user" not in authors and "user" in stored
  return status(ok), [f"authors in /run and /run_sse replies: {sorted(authors)}",
                      f"authors of the stored session events (GET session): {sorted(stored)}"]


def model_calls(inv: dict[str, Any]) -> int:
  return sum(1 for e in inv["intermediate_data"]["invocation_events"]
             if e.get("usage_metadata") is not None or e.get("model_version") is not None)


def streaming_partials(d: Path) -> tuple[str, list[str]]:
  ev = []
  ok = True
  for case in ("weather_parallel", "refund_transfer"):
    f = d / "cases" / f"{case}.run_sse_streaming.json"
    partial = sum(1 for ex in turns(f) for p in payloads(ex) if p.get("partial") is True)
    s = load(d / "converted" / f"{case}.run_sse_streaming.json")[0]
    n = load(d / "converted" / f"{case}.run_sse.json")[0]
    ns, nn = len(s["intermediate_data"]["invocation_events"]), len(n["intermediate_data"]["invocation_events"])
    ok &= partial > 0 and ns > nn
    ev.append(f"{f.name}: {partial} partial events; ADK's conversion records {ns} intermediate"
              f" events ({model_calls(s)} model calls) against {nn} ({model_calls(n)}) without"
              " streaming")
  return status(ok), ev


def strip_volatile(inv: dict[str, Any]) -> dict[str, Any]:
  """The invocation's content with the values every run mints afresh left out."""
  data = json.loads(json.dumps({k: inv[k] for k in ("user_content", "final_response",
                                                    "intermediate_data")}))

  def walk(v: Any) -> None:
    if isinstance(v, dict):
      for key in ("function_call", "function_response"):
        if isinstance(v.get(key), dict):
          v[key]["id"] = None
      for x in v.values():
        walk(x)
    elif isinstance(v, list):
      for x in v:
        walk(x)

  walk(data)
  return data


def oracle_invocations(d: Path) -> dict[str, Any]:
  result = load(d / "oracle" / "helpdesk_cases.evalset_result.json")
  out = {}
  for case in result["eval_case_results"]:
    per = case["eval_metric_result_per_invocation"]
    out[case["eval_id"]] = [p["actual_invocation"] for p in per] if per else None
  return out


def same_as_oracle(d: Path) -> tuple[str, list[str]]:
  oracle = oracle_invocations(d)
  ev, ok = [], True
  for case, expected in sorted(oracle.items()):
    for mode in ("run", "run_sse", "run_sse_streaming"):
      got = load(d / "converted" / f"{case}.{mode}.json")
      if expected is None:
        same = bool(got) and "error" in got[-1]
      else:
        same = [strip_volatile(i) for i in got] == [strip_volatile(i) for i in expected]
      ok &= same == (mode != "run_sse_streaming" or expected is None)
      ev.append(f"{case}.{mode}: {'same as' if same else 'differs from'} adk eval's"
                f" {'inference failure' if expected is None else 'invocations'}")
  return status(ok), ev + ["(compared: user_content, final_response, intermediate_data; function"
                           " call ids, invocation ids, timestamps, durations and app_details left out)"]


def app_info(d: Path) -> tuple[str, list[str]]:
  info = body_json(exchange(d / "discovery.json", "app_info"))["agents"]
  result = load(d / "oracle" / "helpdesk_cases.evalset_result.json")
  refund = next(c for c in result["eval_case_results"] if c["eval_id"] == "refund_transfer")
  details = refund["eval_metric_result_per_invocation"][0]["actual_invocation"]["app_details"]["agent_details"]
  ev = []
  for name, det in sorted(details.items()):
    mine = info[name]
    oracle_tools = [f["name"] for t in det["tool_declarations"] for f in t["function_declarations"]]
    info_tools = [f["name"] for t in mine["tools"] for f in t["functionDeclarations"]]
    ev.append(f"{name}: app-info instruction {mine['instruction']!r}; adk eval's instructions start"
              f" {det['instructions'][:70]!r} ({len(det['instructions'])} chars)")
    ev.append(f"{name}: app-info tools {info_tools} in {len(mine['tools'])} Tool objects;"
              f" adk eval's {oracle_tools} in {len(det['tool_declarations'])}")
  return "partly", ev + ["app-info has every agent's instruction template and its own tools; adk"
                         " eval records the system instruction ADK sent (state filled in, transfer"
                         " text added) and the request's tools (transfer_to_agent included), only"
                         " for agents that called the model in that invocation"]


ADK_CHECKS: list[tuple[str, str, Check]] = [
    ("unknown_app_session", "accepts a session for an app it does not have", unknown_app_session),
    ("unknown_app_run", "only /run_sse then says 404, with the server's path in the message",
     unknown_app_run),
    ("sqlite_restart", "keeps sessions in SQLite across restarts", sqlite_restart),
    ("failed_run_sse", "answers a failed run with HTTP 200 and an error line in the stream",
     failed_run_sse),
    ("failed_run", "/run gives a bare 500", failed_run),
    ("no_user_echo", "does not echo the user's message", no_echo),
    ("streaming_partials", "with \"streaming\": true adds partial events that change what ADK's"
     " conversion records", streaming_partials),
    ("adk_eval_does_not_stream", "adk eval does not stream: the events of /run and of /run_sse"
     " without streaming, converted by ADK's own code, are adk eval's invocations", same_as_oracle),
    ("app_info", "/apps/{app}/app-info has the instructions and tool declarations app_details wants",
     app_info),
]


def stable(text: str) -> str:
  """Evidence without the ids and times each recording mints, so the file changes only with facts."""
  return EPOCH.sub("<epoch>", ISO.sub("<iso>", UUID.sub("<uuid>", text)))


def run_checks(d: Path, checks: list[tuple[str, str, Check]]) -> list[dict[str, Any]]:
  out = []
  for cid, claim, fn in checks:
    st, ev = fn(d)
    out.append({"id": cid, "statement": claim, "status": st, "evidence": [stable(e) for e in ev]})
  return out


def main(adk_dir: Path, a2a_dir: Path) -> None:
  # Imported here: those modules import this one's helpers.
  from verify_a2a import A2A_CHECKS, OBSERVATIONS_A2A
  from verify_facts import OBSERVATIONS_ADK
  for d, checks, facts in ((adk_dir, ADK_CHECKS, OBSERVATIONS_ADK),
                           (a2a_dir, A2A_CHECKS, OBSERVATIONS_A2A)):
    doc = {"statements": run_checks(d, checks), "facts": run_checks(d, facts)}
    (d / "verified.json").write_text(json.dumps(doc, indent=2, ensure_ascii=False) + "\n",
                                     encoding="utf-8")
    for item in doc["statements"] + doc["facts"]:
      print(f"{item['status']:>13}  {item['id']}")


if __name__ == "__main__":
  main(Path(sys.argv[1]).resolve(), Path(sys.argv[2]).resolve())

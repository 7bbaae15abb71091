"""The other facts a client of `adk api_server` relies on, checked on the fixtures (see verify.py)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from exchange import body_json
from fixtures import exchange, load, payloads, status, turns


def cases(d: Path, mode: str | None = None) -> list[Path]:
  return sorted((d / "cases").glob(f"*.{mode}.json" if mode else "*.json"))


def sse_framing(d: Path) -> tuple[str, list[str]]:
  ok, n = True, 0
  for f in cases(d):
    for ex in turns(f):
      r = ex["response"]
      if "event-stream" not in r["headers"].get("content-type", ""):
        continue
      blocks = r["body"].split("\n\n")
      ok &= blocks[-1] == "" and all(b.startswith("data: ") and "\n" not in b for b in blocks[:-1])
      ok &= "content-length" not in r["headers"] and "\r" not in r["body"]
      n += len(blocks) - 1
  return status(ok), [f"{n} SSE events in cases/*.run_sse*.json: each is one line `data: <JSON>`"
                      " ended by a blank line (\\n\\n); no event:, id: or retry: fields, no"
                      " comments or keep-alive pings; content-type text/event-stream;"
                      " charset=utf-8, chunked, no content-length"]


def camel_case(d: Path) -> tuple[str, list[str]]:
  ev = payloads(turns(d / "cases" / "refund_transfer.run_sse.json")[0])
  keys = set().union(*(e.keys() for e in ev))
  session = body_json(exchange(d / "sessions.json", "create_with_state"))
  info = body_json(exchange(d / "discovery.json", "app_info"))
  camel = exchange(d / "bad_requests.json", "run_sse_camel_case_keys")["response"]
  ok = ("invocationId" in keys and "invocation_id" not in keys and "appName" in session
        and "sub_agents" in info["agents"]["helpdesk"] and camel["status"] == 404)
  return status(ok), [
      f"event keys: {sorted(keys)} (and functionCall, functionResponse, usageMetadata inside)",
      f"session keys: {sorted(session)}; state keys are kept as written ({sorted(session['state'])})",
      f"app-info: top level {sorted(info)}, per agent {sorted(info['agents']['helpdesk'])}"
      " (snake_case sub_agents beside camelCase functionDeclarations)",
      "bad_requests.json run_sse_camel_case_keys: a camelCase request body is read the same"
      f" (HTTP {camel['status']} {camel['body']}: it got as far as the session lookup)"]


def partial_ids(d: Path) -> tuple[str, list[str]]:
  ev = payloads(turns(d / "cases" / "weather_parallel.run_sse_streaming.json")[0])
  groups: dict[str, list[Any]] = {}
  for e in ev:
    groups.setdefault(e["id"], []).append(e.get("partial"))
  shared = [g for g in groups.values() if True in g and False in g]
  return status(bool(shared)), [
      f"weather_parallel.run_sse_streaming.json: event ids with their partial flags: "
      f"{[v for v in groups.values()]}", "partial chunks carry the id of the aggregated"
      " (partial: false) event that follows them: an id is not unique within a stream"]


def invocation_ids(d: Path) -> tuple[str, list[str]]:
  f = d / "cases" / "cart_two_turns.run_sse.json"
  per_turn = [{e["invocationId"] for e in payloads(ex)} for ex in turns(f)]
  stored = {e["invocationId"] for e in body_json(exchange(f, "get_session"))["events"]}
  ok = all(len(s) == 1 for s in per_turn) and per_turn[0] != per_turn[1] and stored == set().union(*per_turn)
  shape = all(re.fullmatch(r"e-[0-9a-f-]{36}", next(iter(s))) for s in per_turn)
  return status(ok and shape), [
      f"{f.name}: one invocationId per turn ({[next(iter(s)) for s in per_turn]}), shaped e-<uuid4>;"
      " the stored user event of each turn has the same id"]


def authors(d: Path) -> tuple[str, list[str]]:
  f = d / "cases" / "refund_transfer.run_sse.json"
  ev = payloads(turns(f)[0])
  seq = [e["author"] for e in ev]
  transfer = [e["actions"].get("transferToAgent") for e in ev if e["actions"].get("transferToAgent")]
  ok = seq[0] == "helpdesk" and seq[-1] == "refunds" and transfer == ["refunds"]
  return status(ok), [f"{f.name}: authors in order {seq}; the transfer's function response"
                      f" event carries actions.transferToAgent = {transfer}"]


def usage(d: Path) -> tuple[str, list[str]]:
  ok, ev = True, []
  for mode in ("run_sse", "run_sse_streaming"):
    f = d / "cases" / f"weather_parallel.{mode}.json"
    rows = [(bool(e.get("partial")), "functionResponse" in str(e.get("content")),
             "usageMetadata" in e) for e in payloads(turns(f)[0])]
    ok &= all(u == (not p and not r) for p, r, u in rows)
    ev.append(f"{f.name}: (partial, tool response, has usageMetadata) per event: {rows}")
  first = payloads(turns(d / "cases" / "weather_parallel.run_sse.json")[0])[0]["usageMetadata"]
  return status(ok), ev + [f"usageMetadata as sent: {first} (camelCase; the result file writes"
                           " prompt_token_count etc.)"]


def final_marking(d: Path) -> tuple[str, list[str]]:
  s = payloads(turns(d / "cases" / "weather_parallel.run_sse.json")[0])
  t = payloads(turns(d / "cases" / "weather_parallel.run_sse_streaming.json")[0])
  a = payloads(turns(d / "cases" / "approval_long_running.run_sse.json")[0])
  lr = [e.get("longRunningToolIds") for e in a if e.get("longRunningToolIds")]
  model = {e.get("partial") for e in t if "modelVersion" in e}
  ok = all("partial" not in e for e in s) and model == {True, False} and lr
  return status(bool(ok)), [
      "no event says it is final: a client applies ADK's Event.is_final_response() (no function"
      " call or response, not partial, no trailing code result; or skipSummarization, or"
      " longRunningToolIds, or an errorCode without calls)",
      "without streaming the events have no `partial` key; with streaming every model event has"
      " partial true (chunks) or false (the aggregate)",
      f"approval_long_running.run_sse.json: the long-running call's event has longRunningToolIds"
      f" {lr} (a final response by ADK's rule), and the run goes on in the same request: its"
      " function response, then the model's text"]


def sessions(d: Path) -> tuple[str, list[str]]:
  f = d / "sessions.json"
  codes = {ex["name"]: ex["response"]["status"] for ex in load(f)["exchanges"]}
  patched = body_json(exchange(f, "patch_state"))
  ev0 = patched["events"][0]
  want = {"create_with_state": 200, "create_with_id_camel_case": 200, "create_same_id_again": 409,
          "create_without_body": 200, "get": 200, "get_wrong_user": 404, "list": 200,
          "patch_state": 200, "delete": 200, "get_after_delete": 404, "delete_again": 200}
  ok = all(codes[k] == v for k, v in want.items()) and ev0["invocationId"].startswith("p-")
  return status(ok), [f"{f.name} statuses: {codes}",
                      f"DELETE answers {exchange(f, 'delete')['response']['body']!r} and is idempotent",
                      f"PATCH state_delta appends an event by {ev0['author']!r} with invocationId"
                      f" {ev0['invocationId'][:2]}<uuid> and actions.stateDelta {ev0['actions']['stateDelta']}"]


def state(d: Path) -> tuple[str, list[str]]:
  f = d / "cases" / "cart_two_turns.run_sse.json"
  created = body_json(exchange(f, "create_session"))["state"]
  deltas = [e["actions"]["stateDelta"] for ex in turns(f) for e in payloads(ex) if e["actions"]["stateDelta"]]
  final = body_json(exchange(f, "get_session"))["state"]
  answer = payloads(turns(f)[1])[-1]["content"]["parts"][0]["text"]
  ok = created.get("user_name") == "Ada" and deltas and final["cart"] and answer.startswith("Ada")
  return status(bool(ok)), [f"{f.name}: state at create {created}; tool writes arrive as"
                            f" actions.stateDelta {deltas}; state at the end {final};"
                            f" turn 2 answers {answer!r}"]


def lost_session(d: Path) -> tuple[str, list[str]]:
  f = d / "lost_session.json"
  rows = [(ex["name"], ex["response"]["status"], ex["response"]["body"]) for ex in load(f)["exchanges"]
          if ex["name"].startswith("run")]
  ok = all(s == 404 and "Session not found" in b for _, s, b in rows)
  return status(ok), [f"{f.name}: {rows}", "the 404 comes before any stream starts (a JSON body,"
                      " not text/event-stream), for /run_sse with and without streaming and /run"]


def bad_requests(d: Path) -> tuple[str, list[str]]:
  f = d / "bad_requests.json"
  rows = [(ex["name"], ex["response"]["status"], ex["response"]["body"][:140]) for ex in load(f)["exchanges"]]
  ok = rows[0][1] == 422 and rows[1][1] == 422
  return status(ok), [f"{f.name}: {rows}"]


OBSERVATIONS_ADK = [
    ("sse_framing", "SSE framing of /run_sse", sse_framing),
    ("camel_case", "events and sessions are camelCase JSON (pydantic by_alias, nulls left out);"
     " requests may use either case", camel_case),
    ("partial_event_ids", "streamed partial events share the id of their aggregate", partial_ids),
    ("invocation_ids", "one invocation id per turn, the one ADK's evaluation groups by", invocation_ids),
    ("authors_across_transfer", "authors follow the agent that produced each event", authors),
    ("usage_metadata", "usage is on every non-partial model event, nowhere else", usage),
    ("final_response_marking", "how the final response is known", final_marking),
    ("session_lifecycle", "session create / get / list / patch / delete", sessions),
    ("session_state", "initial state from the create call, written by tools", state),
    ("lost_session", "a session the server does not have", lost_session),
    ("bad_requests", "malformed requests", bad_requests),
]

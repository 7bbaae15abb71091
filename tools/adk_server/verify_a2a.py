"""The statements about ADK's A2A server, and the other facts a client needs (see verify.py)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from exchange import body_json
from fixtures import exchange, load, payloads, status, turns


def j(value: Any) -> str:
  """JSON with sorted keys: protobuf Structs do not keep key order, the evidence must."""
  return json.dumps(value, sort_keys=True)


def results(ex: dict[str, Any]) -> list[Any]:
  got = payloads(ex)
  return [p.get("result") for p in (got if isinstance(got, list) else [got])]


def final_task(d: Path, case: str, variant: str) -> dict[str, Any]:
  """The last turn's task as GetTask / tasks/get returned it (1.0 results are the task itself)."""
  return body_json(exchange(d / "cases" / f"{case}.{variant}.json", "get_task"))["result"]


def state_of(task: dict[str, Any]) -> str:
  return task["status"]["state"]


def card(d: Path) -> tuple[str, list[str]]:
  c = body_json(exchange(d / "card.json", "agent_card"))
  iface = c["supportedInterfaces"]
  ok = iface[0]["protocolVersion"] == "1.0" and iface[0]["url"] == "http://localhost:8000" and "url" not in c
  return status(ok), [
      f"card.json agent_card: supportedInterfaces {iface} while the server ran on 127.0.0.1 at"
      " another port (to_a2a's default host/port, not where uvicorn bound)",
      f"top-level keys {sorted(c)}: no 0.3 `url`, `protocolVersion` or `preferredTransport`",
      "agent_card_old_path (/.well-known/agent.json): HTTP "
      f"{exchange(d / 'card.json', 'agent_card_old_path')['response']['status']}"]


def methods(d: Path) -> tuple[str, list[str]]:
  v = d / "versions.json"
  no_header = body_json(exchange(v, "v10_send_without_version_header"))
  st = exchange(v, "v10_send_without_version_header")["response"]["status"]
  stream = body_json(exchange(v, "v10_stream_without_version_header"))
  old_with_new = body_json(exchange(v, "v03_send_with_version_1_0_header"))
  major = body_json(exchange(v, "v10_send_with_version_1_header"))
  s03 = state_of(final_task(d, "weather_parallel", "v03_send"))
  s10 = state_of(final_task(d, "weather_parallel", "v10_send"))
  ok = st == 200 and no_header["error"]["code"] == -32009 and s03 == "completed" and s10 == "TASK_STATE_COMPLETED"
  return status(ok), [
      f"message/send and message/stream (no header) work: weather_parallel.v03_send ends {s03!r}",
      f"SendMessage / SendStreamingMessage with A2A-Version: 1.0 work: v10_send ends {s10!r}",
      f"versions.json v10_send_without_version_header: HTTP {st} {json.dumps(no_header['error'])[:200]}",
      f"v10_stream_without_version_header: the same error as plain JSON, no stream: {stream['error']['code']}",
      f"v03_send_with_version_1_0_header: {json.dumps(old_with_new.get('error'))} (a 0.3 method"
      " refuses the 1.0 header)",
      f"v10_send_with_version_1_header (A2A-Version: 1): {'works' if 'result' in major else major}"]


def data_parts(d: Path) -> tuple[str, list[str]]:
  t = final_task(d, "weather_parallel", "v03_send")
  tags = [(p.get("kind"), p.get("metadata")) for m in t["history"] for p in m["parts"] if p.get("kind") == "data"]
  t10 = final_task(d, "approval_long_running", "v10_send")
  tags10 = [p.get("metadata") for m in t10["history"] for p in m["parts"] if "data" in p]
  ok = {json.dumps(x[1]) for x in tags} == {'{"adk_type": "function_call"}', '{"adk_type": "function_response"}'}
  first = next(p for m in t["history"] for p in m["parts"] if p.get("kind") == "data")
  return status(ok), [f"weather_parallel.v03_send tasks/get history data parts: {j(tags)}",
                      f"a call's data: {j(first['data'])} (name, args, id; a response: name, response, id)",
                      f"approval_long_running.v10_send: {j(tags10)} (1.0 parts have no kind)",
                      "texts beside calls stay text parts of the same message, in order"]


def doubles(d: Path) -> tuple[str, list[str]]:
  raw = exchange(d / "cases" / "cart_two_turns.v03_send.json", "turn_1")["response"]["body"]
  ok = '"quantity":2.0' in raw and '"cart_size":2.0' in raw and "TokenCount\":" in raw
  usage = body_json(exchange(d / "cases" / "cart_two_turns.v03_send.json", "turn_1"))["result"]["metadata"]["adk_usage_metadata"]
  return status(ok), ["cart_two_turns.v03_send turn_1: args {\"quantity\":2.0}, response"
                      " {\"cart_size\":2.0} for the ints 2 the model and tool produced (protobuf"
                      f" Struct numbers); usage too: {j(usage)}; key order is not kept either"]


def no_state(d: Path) -> tuple[str, list[str]]:
  t = final_task(d, "cart_two_turns", "v03_send")
  answer = t["artifacts"][0]["parts"][0]["text"]
  r = final_task(d, "refund_transfer", "v03_send")
  lookup = [p["data"]["response"] for m in r["history"] for p in m["parts"]
            if p.get("kind") == "data" and p["data"].get("name") == "lookup_order" and "response" in p["data"]]
  ok = answer.startswith("Guest") and lookup and lookup[0].get("customer") is None
  return status(bool(ok)), [f"cart_two_turns.v03_send turn 2 answers {answer!r} (no user_name)",
                            f"refund_transfer lookup_order returned {j(lookup)}",
                            "the executor creates each session with state {} (a2a_agent_executor"
                            " _prepare_session); message metadata only becomes run custom_metadata"]


def failed(d: Path) -> tuple[str, list[str]]:
  t = final_task(d, "inventory_tool_raises", "v03_send")
  t10 = final_task(d, "inventory_tool_raises", "v10_send")
  last = results(turns(d / "cases" / "inventory_tool_raises.v03_stream.json")[0])[-1]
  ok = state_of(t) == "failed" and state_of(t10) == "TASK_STATE_FAILED" and last.get("final") is True
  return status(ok), [f"v03: state {state_of(t)!r}, status message {t['status']['message']['parts']}",
                      f"v10: state {state_of(t10)!r}",
                      "the history also holds the error event as an agent message with metadata"
                      f" {t['history'][-1].get('metadata')}",
                      f"v03_stream ends with a status-update, final true, state {last['status']['state']!r}"]


def input_required(d: Path) -> tuple[str, list[str]]:
  t = final_task(d, "approval_long_running", "v03_send")
  t10 = final_task(d, "approval_long_running", "v10_send")
  parts = [p.get("metadata") for p in t["status"]["message"]["parts"]]
  ok = state_of(t) == "input-required" and state_of(t10) == "TASK_STATE_INPUT_REQUIRED"
  return status(ok), [f"approval_long_running (long-running tool): v03 {state_of(t)!r}, v10 {state_of(t10)!r}",
                      f"the status message repeats the long-running call: {j(parts)}",
                      "the run itself went on (tool response and text are in the history) though"
                      " the task reports input-required"]


def context(d: Path) -> tuple[str, list[str]]:
  f = d / "cases" / "cart_two_turns.v10_send.json"
  tasks = [body_json(ex)["result"]["task"] for ex in turns(f)]
  ctx = [t["contextId"] for t in tasks]
  ids = [t["id"] for t in tasks]
  answer = tasks[1]["artifacts"][0]["parts"][0]["text"]
  own = body_json(exchange(d / "context.json", "client_chosen_context_id"))["result"]["contextId"]
  ok = ctx[0] == ctx[1] and ids[0] != ids[1] and "2 x apple" in answer and own == "my-own-context"
  return status(ok), [f"{f.name}: contextIds {ctx}, task ids {ids} (a new task per turn);"
                      f" turn 2 answers {answer!r}",
                      f"context.json: a client-chosen contextId is kept ({own!r}); the session is"
                      " contextId, the user A2A_USER_<contextId>"]


A2A_CHECKS = [
    ("card_url", "serves an A2A 1.0 card whose URL is what it was told, not where it runs", card),
    ("methods_and_version_header", "answers 0.3 and 1.0 methods (1.0 only with its version"
     " header, else a JSON-RPC error in an HTTP 200)", methods),
    ("function_call_data_parts", "carries function calls as tagged data parts in the task history", data_parts),
    ("numbers_as_doubles", "numbers as doubles", doubles),
    ("no_initial_state", "no initial state", no_state),
    ("tool_error_failed_task", "an unhandled tool error as a failed task", failed),
    ("input_required", "tasks end in input-required (a long-running tool)", input_required),
    ("context_id", "a context id carries the conversation across turns", context),
]


def sse(d: Path) -> tuple[str, list[str]]:
  bodies = [ex["response"]["body"] for f in sorted((d / "cases").glob("*stream.json")) for ex in turns(f)]
  ok = all(b.endswith("\r\n\r\n") and b.startswith("data: ") for b in bodies)
  return status(ok), [f"{len(bodies)} streams: events are `data: <JSON-RPC response>` ended by"
                      " \\r\\n\\r\\n (sse-starlette), unlike adk api_server's \\n\\n; sse-starlette"
                      " sends `: ping` comments every 15 s on a quiet stream (its default)",
                      "0.3 streams print compact JSON, 1.0 streams json.dumps' spaced JSON"]


def shapes(d: Path) -> tuple[str, list[str]]:
  r03 = results(turns(d / "cases" / "refund_transfer.v03_stream.json")[0])
  r10 = results(turns(d / "cases" / "refund_transfer.v10_stream.json")[0])
  k03 = [r.get("kind") for r in r03]
  k10 = [next(iter(r)) for r in r10]
  authors = [r["metadata"].get("adk_author") for r in r03 if r.get("kind") == "status-update" and r.get("metadata")]
  ok = k03[0] == "task" and k10[0] == "task" and "artifact-update" in k03 and "artifactUpdate" in k10
  return status(ok), [f"refund_transfer.v03_stream result kinds: {k03}",
                      f"refund_transfer.v10_stream result keys: {k10} (no kind, no final; states"
                      " TASK_STATE_*, roles ROLE_USER/ROLE_AGENT)",
                      "one working status-update per ADK event, its message the event's parts and"
                      " its metadata the event's adk_author, adk_invocation_id, adk_event_id,"
                      f" adk_usage_metadata, adk_actions: authors {authors}",
                      "then an artifact-update with the last text (lastChunk true) and the final status"]


def send_history(d: Path) -> tuple[str, list[str]]:
  t = body_json(turns(d / "cases" / "refund_transfer.v03_send.json")[0])["result"]
  meta = [m.get("metadata") for m in t["history"]]
  ok = all(x is None for x in meta[1:])
  return status(ok), [f"refund_transfer.v03_send: {len(t['history'])} history messages, none with"
                      f" metadata ({meta}); the task's metadata has only the last event's author"
                      f" {t['metadata']['adk_author']!r} and usage {j(t['metadata']['adk_usage_metadata'])}",
                      "so message/send loses per-event authors and all but the last model call's"
                      " usage; message/stream has them"]


def new_executor(d: Path) -> tuple[str, list[str]]:
  t = body_json(exchange(d / "new_integration_extension.json", "refund_transfer_v03_send"))["result"]
  metas = [a["metadata"].get("adk_author") for a in t["artifacts"]]
  return status(len(metas) > 1), [f"with A2A-Extensions: the ADK extension, each ADK event is an"
                                  f" artifact with its own metadata: authors {metas}"]


def tasks_edge(d: Path) -> tuple[str, list[str]]:
  f = d / "context.json"
  rows = {ex["name"]: (body_json(ex).get("error") or {"state": body_json(ex)["result"]["status"]["state"]
                                                       if "status" in body_json(ex).get("result", {}) else "ok"})
          for ex in load(f)["exchanges"]}
  return status(rows["message_to_completed_task"].get("code") == -32004), [f"{f.name}: {rows}"]


def oracle(d: Path) -> tuple[str, list[str]]:
  result = load(d / "oracle" / "helpdesk_cases.evalset_result.json")
  rows = []
  for c in sorted(result["eval_case_results"], key=lambda c: c["eval_id"]):
    scores = {m["metric_name"]: m["score"] for m in c["overall_eval_metric_results"]
              if m["metric_name"] in ("tool_trajectory_avg_score", "response_match_score",
                                      "inference_call_count_v1", "token_usage_v1")}
    rows.append(f"{c['eval_id']}: status {c['final_eval_status']}, {j(scores)}")
    per = c["eval_metric_result_per_invocation"]
    if per:
      calls = [f["function_call"]["name"] for e in per[0]["actual_invocation"]["intermediate_data"]
               ["invocation_events"] for f in (e["content"] or {}).get("parts", []) if f.get("function_call")]
      rows.append(f"{c['eval_id']}: tool calls recorded {calls}, final response"
                  f" {per[-1]['actual_invocation']['final_response']['parts'][0]['text']!r}")
  return "recorded", rows + ["ADK's RemoteA2aAgent loses usage (inference_call_count 0,"
                             " token_usage None), scores the raising tool's error text as the"
                             " answer instead of failing inference, and records the long-running"
                             " call twice with the text before it as the final response"]


OBSERVATIONS_A2A = [
    ("sse_framing", "SSE framing of message/stream", sse),
    ("stream_shapes", "0.3 and 1.0 stream results", shapes),
    ("send_history_loses_authors_and_usage", "message/send's task history", send_history),
    ("new_executor_extension", "ADK's newer executor on request", new_executor),
    ("task_edge_cases", "messages to finished and input-required tasks, unknown tasks", tasks_edge),
    ("adk_remote_a2a_oracle", "adk eval through ADK's own A2A client (oracle/)", oracle),
]

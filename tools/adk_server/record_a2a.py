"""Records ADK's A2A server (`to_a2a`, a2a-sdk from .venv) as fixtures under tests/data/a2a/.

    .venv/bin/python record_a2a.py OUT_DIR [WORK_DIR]

Serves agents/helpdesk through a2a_app.py under uvicorn on a free 127.0.0.1
port, with the card left at to_a2a's defaults (it then names
http://localhost:8000, where nothing runs), and drives it with the eval set's
conversations over the A2A 0.3 and 1.0 JSON-RPC methods, plus the version,
context and task edge cases.
"""

from __future__ import annotations

import json
import sys
import tempfile
from pathlib import Path
from typing import Any

import servers
from exchange import Recorder, body_json, sse_data, write

EVALSET = servers.AGENTS / servers.APP_NAME / "helpdesk_cases.evalset.json"
V1 = {"A2A-Version": "1.0"}
NEW_ADK_EXTENSION = "https://google.github.io/adk-docs/a2a/a2a-extension/"
# variant -> (method, headers, message builder version, streamed)
VARIANTS = {
    "v03_send": ("message/send", {}, "0.3", False),
    "v03_stream": ("message/stream", {}, "0.3", True),
    "v10_send": ("SendMessage", V1, "1.0", False),
    "v10_stream": ("SendStreamingMessage", V1, "1.0", True),
}


def message(version: str, message_id: str, text: str, context_id: str | None = None,
            task_id: str | None = None) -> dict[str, Any]:
  if version == "0.3":
    msg: dict[str, Any] = {"kind": "message", "messageId": message_id, "role": "user",
                           "parts": [{"kind": "text", "text": text}]}
  else:
    msg = {"messageId": message_id, "role": "ROLE_USER", "parts": [{"text": text}]}
  if context_id:
    msg["contextId"] = context_id
  if task_id:
    msg["taskId"] = task_id
  return msg


def rpc(rec: Recorder, name: str, method: str, params: Any, headers: dict[str, str],
        rpc_id: int | str = 1) -> dict[str, Any]:
  return rec.send(name, "POST", "/", {"jsonrpc": "2.0", "id": rpc_id, "method": method,
                                      "params": params}, headers=dict(headers))


def results(ex: dict[str, Any]) -> list[Any]:
  """The JSON-RPC results of a reply, one per SSE event when streamed."""
  if "event-stream" in ex["response"]["headers"].get("content-type", ""):
    return [d.get("result") for d in sse_data(ex)]
  return [body_json(ex).get("result")]


def find_ids(ex: dict[str, Any]) -> tuple[str | None, str | None]:
  """(contextId, taskId) from the first result that has them, whatever the version's wrapping."""
  for result in results(ex):
    if not isinstance(result, dict):
      continue
    for item in [result, *[v for v in result.values() if isinstance(v, dict)]]:
      ctx = item.get("contextId")
      if ctx:
        task = item.get("taskId") or (item.get("id") if "status" in item else None)
        return ctx, task
  return None, None


def record_case(rec: Recorder, case: dict[str, Any], variant: str) -> None:
  method, headers, version, _ = VARIANTS[variant]
  context_id = task_id = None
  for n, turn in enumerate(case["conversation"], 1):
    text = "".join(p.get("text", "") for p in turn["user_content"]["parts"])
    ex = rpc(rec, f"turn_{n}", method,
             {"message": message(version, f"msg-{case['eval_id']}-{n}", text, context_id)},
             headers, rpc_id=n)
    found_ctx, task_id = find_ids(ex)
    context_id = context_id or found_ctx
  if task_id:
    get_method = "tasks/get" if version == "0.3" else "GetTask"
    rpc(rec, "get_task", get_method, {"id": task_id}, headers, rpc_id="get")


def record_card(rec: Recorder) -> None:
  rec.send("agent_card", "GET", "/.well-known/agent-card.json")
  rec.send("agent_card_old_path", "GET", "/.well-known/agent.json")
  rec.send("get_rpc_root", "GET", "/")


def record_versions(rec: Recorder) -> None:
  text = "What's the weather in Paris and London?"
  m10 = {"message": message("1.0", "msg-v-1", text)}
  m03 = {"message": message("0.3", "msg-v-2", text)}
  rpc(rec, "v10_send_without_version_header", "SendMessage", m10, {})
  rpc(rec, "v10_stream_without_version_header", "SendStreamingMessage", m10, {})
  rpc(rec, "v10_send_with_version_0_3_header", "SendMessage", m10, {"A2A-Version": "0.3"})
  rpc(rec, "v10_send_with_version_1_header", "SendMessage", m10, {"A2A-Version": "1"})
  rpc(rec, "v03_send_with_version_1_0_header", "message/send", m03, V1)
  rpc(rec, "v03_message_shape_to_v10_method", "SendMessage", m03, V1)
  rpc(rec, "unknown_method", "message/unknown", m03, {})
  rpc(rec, "missing_params", "message/send", None, {})
  rec.send("not_json", "POST", "/", raw_body=b"{not json", headers={"Content-Type": "application/json"})
  rec.send("not_jsonrpc", "POST", "/", {"hello": "world"})


def record_context(rec: Recorder) -> None:
  """A client-chosen context id, a message to a finished task, one to an input-required task."""
  ex = rpc(rec, "client_chosen_context_id", "message/send",
           {"message": message("0.3", "msg-c-1", "Add two apples to my cart.", "my-own-context")}, {})
  _, done_task = find_ids(ex)
  rpc(rec, "same_context_second_turn", "message/send",
      {"message": message("0.3", "msg-c-2", "What is in my cart?", "my-own-context")}, {})
  rpc(rec, "message_to_completed_task", "message/send",
      {"message": message("0.3", "msg-c-3", "What is in my cart?", "my-own-context", done_task)}, {})
  ex = rpc(rec, "input_required_task", "message/send",
           {"message": message("0.3", "msg-c-4", "Please order 3 laptops.")}, {})
  ctx, task = find_ids(ex)
  rpc(rec, "text_to_input_required_task", "message/send",
      {"message": message("0.3", "msg-c-5", "Approved by the manager.", ctx, task)}, {})
  rpc(rec, "get_unknown_task", "tasks/get", {"id": "no-such-task"}, {})
  rpc(rec, "v10_list_tasks_of_context", "ListTasks", {"contextId": "my-own-context"}, V1)


def record_new_integration(rec: Recorder, evalset: dict[str, Any]) -> None:
  """ADK's newer executor, chosen per request by the A2A-Extensions header."""
  headers = {"A2A-Extensions": NEW_ADK_EXTENSION}
  for case in evalset["eval_cases"]:
    if case["eval_id"] not in ("refund_transfer", "inventory_tool_raises", "approval_long_running"):
      continue
    text = "".join(p.get("text", "") for p in case["conversation"][0]["user_content"]["parts"])
    rpc(rec, f"{case['eval_id']}_v03_send", "message/send",
        {"message": message("0.3", f"msg-n-{case['eval_id']}", text)}, headers)
    rpc(rec, f"{case['eval_id']}_v03_stream", "message/stream",
        {"message": message("0.3", f"msg-ns-{case['eval_id']}", text)}, headers)


def main(out: Path) -> None:
  servers.require_venv()
  evalset = json.loads(EVALSET.read_text(encoding="utf-8"))
  work = Path(sys.argv[2]) if len(sys.argv) > 2 else Path(tempfile.mkdtemp(prefix="record-a2a-"))
  work.mkdir(parents=True, exist_ok=True)
  port = servers.free_port()
  log = open(work / "a2a.log", "w", encoding="utf-8")
  proc = servers.start(servers.a2a_command(port), log)
  cmd = "python -m uvicorn a2a_app:app --app-dir tools/adk_server --host 127.0.0.1 --port PORT"
  card_note = "to_a2a(root_agent) with its default host/port, so the card names http://localhost:8000"
  try:
    servers.wait_ready(proc, port, "/.well-known/agent-card.json")
    rec = Recorder(port)
    record_card(rec)
    write(out / "card.json", cmd, [card_note], rec.exchanges)
    for case in evalset["eval_cases"]:
      for variant, (method, headers, _, _) in VARIANTS.items():
        rec = Recorder(port)
        record_case(rec, case, variant)
        write(out / "cases" / f"{case['eval_id']}.{variant}.json", cmd,
              [f"eval case {case['eval_id']}: each turn sent as {method}"
               + (f" with {json.dumps(headers)}" if headers else " without an A2A-Version header")
               + "; later turns carry the first reply's contextId; then the last task is fetched"],
              rec.exchanges)
    for name, fn in (("versions", record_versions), ("context", record_context)):
      rec = Recorder(port)
      fn(rec)
      write(out / f"{name}.json", cmd, [], rec.exchanges)
    rec = Recorder(port)
    record_new_integration(rec, evalset)
    write(out / "new_integration_extension.json", cmd,
          [f"requests carry A2A-Extensions: {NEW_ADK_EXTENSION}"], rec.exchanges)
  finally:
    servers.stop(proc)
  print(f"server log: {work}/a2a.log", file=sys.stderr)


if __name__ == "__main__":
  main(Path(sys.argv[1]).resolve())

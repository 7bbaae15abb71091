"""Records `adk api_server` exchanges as fixtures under tests/data/adk_server/.

    .venv/bin/python record_adk.py OUT_DIR [WORK_DIR]

Starts the real server (google-adk from .venv) on a free 127.0.0.1 port over
a fresh copy of agents/, drives it with the eval set's conversations and with
the edge cases a client meets (unknown app, lost session, a raising tool, a
restart), and writes one fixture file per scenario.
"""

from __future__ import annotations

import json
import sys
import tempfile
from pathlib import Path
from typing import Any

import servers
from exchange import Recorder, body_json, write

APP = servers.APP_NAME
EVALSET = servers.AGENTS / APP / "helpdesk_cases.evalset.json"
MODES = {  # fixture suffix -> (path, body fields)
    "run": ("/run", {}),
    "run_sse": ("/run_sse", {"streaming": False}),
    "run_sse_streaming": ("/run_sse", {"streaming": True}),
}


class AdkServer:
  """One `adk api_server` child over an agents dir; restartable on the same dir."""

  def __init__(self, agents_dir: Path, log_path: Path, extra: list[str] | None = None):
    self.agents_dir = agents_dir
    self.log = open(log_path, "a", encoding="utf-8")
    self.extra = extra or []
    self.port = 0
    self.proc = None

  @property
  def command(self) -> str:
    return " ".join(servers.adk_command(Path("AGENTS_DIR"), 0, self.extra)).replace(
        str(servers.VENV_BIN) + "/", "").replace("--port 0", "--port PORT")

  def start(self) -> Recorder:
    self.port = servers.free_port()
    self.proc = servers.start(servers.adk_command(self.agents_dir, self.port, self.extra),
                              self.log, cwd=self.agents_dir.parent)
    servers.wait_ready(self.proc, self.port, "/list-apps")
    return Recorder(self.port)

  def stop(self) -> None:
    if self.proc:
      servers.stop(self.proc)
      self.proc = None


def user_message(text: str) -> dict[str, Any]:
  return {"role": "user", "parts": [{"text": text}]}


def run_body(user_id: str, session_id: str, text: str, extra: dict[str, Any],
             app: str = APP) -> dict[str, Any]:
  return {"app_name": app, "user_id": user_id, "session_id": session_id,
          "new_message": user_message(text), **extra}


def sessions_path(user_id: str, session_id: str | None = None, app: str = APP) -> str:
  base = f"/apps/{app}/users/{user_id}/sessions"
  return f"{base}/{session_id}" if session_id else base


def record_case(rec: Recorder, case: dict[str, Any], mode: str) -> None:
  """One eval case's conversation as a client evaluating it would drive it."""
  path, extra = MODES[mode]
  session_input = case.get("session_input") or {}
  user_id = session_input.get("user_id", "eval_user")
  create = rec.send("create_session", "POST", sessions_path(user_id),
                    {"state": session_input.get("state", {})})
  session_id = body_json(create)["id"]
  for n, turn in enumerate(case["conversation"], 1):
    text = "".join(p.get("text", "") for p in turn["user_content"]["parts"])
    rec.send(f"turn_{n}", "POST", path, run_body(user_id, session_id, text, extra))
  rec.send("get_session", "GET", sessions_path(user_id, session_id))
  rec.send("delete_session", "DELETE", sessions_path(user_id, session_id))


def record_discovery(rec: Recorder) -> None:
  rec.send("list_apps", "GET", "/list-apps")
  rec.send("list_apps_detailed", "GET", "/list-apps?detailed=true")
  rec.send("version", "GET", "/version")
  rec.send("health", "GET", "/health")
  rec.send("app_info", "GET", f"/apps/{APP}/app-info")
  rec.send("app_info_unknown_app", "GET", "/apps/no_such_app/app-info")


def record_sessions(rec: Recorder) -> None:
  state = {"user_name": "Ada", "cart": [], "visits": 3, "ratio": 0.5}
  made = rec.send("create_with_state", "POST", sessions_path("u1"), {"state": state})
  sid = body_json(made)["id"]
  rec.send("create_with_id_camel_case", "POST", sessions_path("u1"),
           {"sessionId": "fixture-session", "state": {"user_name": "Bo"}})
  rec.send("create_same_id_again", "POST", sessions_path("u1"), {"session_id": "fixture-session"})
  rec.send("create_without_body", "POST", sessions_path("u1"))
  rec.send("get", "GET", sessions_path("u1", sid))
  rec.send("get_wrong_user", "GET", sessions_path("someone_else", sid))
  rec.send("list", "GET", sessions_path("u1"))
  rec.send("patch_state", "PATCH", sessions_path("u1", sid), {"state_delta": {"visits": 4}})
  rec.send("delete", "DELETE", sessions_path("u1", sid))
  rec.send("get_after_delete", "GET", sessions_path("u1", sid))
  rec.send("delete_again", "DELETE", sessions_path("u1", sid))
  rec.send("delete_fixture_session", "DELETE", sessions_path("u1", "fixture-session"))


def record_unknown_app(rec: Recorder, agents_dir: Path) -> list[str]:
  made = rec.send("create_session_unknown_app", "POST",
                  sessions_path("u1", app="no_such_app"), {"state": {"k": 1}})
  sid = body_json(made).get("id", "missing")
  rec.send("get_session_unknown_app", "GET", sessions_path("u1", sid, app="no_such_app"))
  text = "What's the weather in Paris and London?"
  rec.send("run_sse_unknown_app", "POST", "/run_sse",
           run_body("u1", sid, text, {"streaming": False}, app="no_such_app"))
  rec.send("run_unknown_app", "POST", "/run", run_body("u1", sid, text, {}, app="no_such_app"))
  rec.send("list_apps_after", "GET", "/list-apps")
  created = sorted(p.name for p in agents_dir.iterdir() if p.is_dir())
  rec.send("delete_session_unknown_app", "DELETE", sessions_path("u1", sid, app="no_such_app"))
  return [f"directories in the agents dir after creating the session: {created}"]


def record_lost_session(rec: Recorder) -> None:
  text = "What's the weather in Paris and London?"
  for name, path, extra in (("run_sse", "/run_sse", {"streaming": False}),
                            ("run_sse_streaming", "/run_sse", {"streaming": True}),
                            ("run", "/run", {})):
    rec.send(f"{name}_no_such_session", "POST", path, run_body("u1", "no-such-session", text, extra))
  made = rec.send("create_session", "POST", sessions_path("u1"), {"state": {}})
  sid = body_json(made)["id"]
  rec.send("delete_session", "DELETE", sessions_path("u1", sid))
  rec.send("run_sse_deleted_session", "POST", "/run_sse",
           run_body("u1", sid, text, {"streaming": False}))
  rec.send("run_sse_wrong_user", "POST", "/run_sse",
           run_body("someone_else", "no-such-session", text, {"streaming": False}))


def record_bad_requests(rec: Recorder) -> None:
  rec.send("run_sse_missing_user_id", "POST", "/run_sse",
           {"app_name": APP, "session_id": "s", "new_message": user_message("hi")})
  rec.send("run_sse_not_json", "POST", "/run_sse", raw_body=b"{not json",
           headers={"Content-Type": "application/json"})
  rec.send("run_sse_camel_case_keys", "POST", "/run_sse",
           {"appName": APP, "userId": "u1", "sessionId": "no-such-session",
            "newMessage": user_message("hi"), "streaming": False})
  rec.send("unknown_route", "GET", "/no/such/route")


def record_restart(server: AdkServer, rec: Recorder, memory: bool) -> tuple[Recorder, list[dict]]:
  """A session made before a restart, read and continued after it."""
  made = rec.send("create_session", "POST", sessions_path("u1"), {"state": {"user_name": "Ada", "cart": []}})
  sid = body_json(made)["id"]
  rec.send("turn_1", "POST", "/run_sse",
           run_body("u1", sid, "Add two apples to my cart.", {"streaming": False}))
  before = rec.exchanges
  server.stop()
  rec = server.start()
  rec.exchanges = before
  rec.mark("restart", "the server process was stopped (SIGTERM) and started again on the same agents dir"
           + (" with --session_service_uri memory://" if memory else ""))
  rec.send("get_session_after_restart", "GET", sessions_path("u1", sid))
  rec.send("turn_2_after_restart", "POST", "/run_sse",
           run_body("u1", sid, "What is in my cart?", {"streaming": False}))
  return rec, rec.exchanges


def main(out: Path) -> None:
  servers.require_venv()
  evalset = json.loads(EVALSET.read_text(encoding="utf-8"))
  work = Path(sys.argv[2]) if len(sys.argv) > 2 else Path(tempfile.mkdtemp(prefix="record-adk-"))
  work.mkdir(parents=True, exist_ok=True)
  agents_dir = servers.copy_agents(work)
  server = AdkServer(agents_dir, work / "adk.log")
  cmd = server.command
  try:
    rec = server.start()
    record_discovery(rec)
    write(out / "discovery.json", cmd, [], rec.exchanges)
    for case in evalset["eval_cases"]:
      for mode in MODES:
        rec = Recorder(server.port)
        record_case(rec, case, mode)
        write(out / "cases" / f"{case['eval_id']}.{mode}.json", cmd,
              [f"eval case {case['eval_id']} of {EVALSET.name}, turns sent to {MODES[mode][0]}"
               f" with {json.dumps(MODES[mode][1]) if MODES[mode][1] else 'no streaming field'}"],
              rec.exchanges)
    for name, fn in (("sessions", record_sessions), ("lost_session", record_lost_session),
                     ("bad_requests", record_bad_requests)):
      rec = Recorder(server.port)
      fn(rec)
      write(out / f"{name}.json", cmd, [], rec.exchanges)
    rec = Recorder(server.port)
    notes = record_unknown_app(rec, agents_dir)
    write(out / "unknown_app.json", cmd, notes, rec.exchanges)
    rec, exchanges = record_restart(server, Recorder(server.port), memory=False)
    write(out / "restart_sqlite.json", cmd, ["ADK's default session service (SQLite under AGENTS_DIR/<app>/.adk/)"], exchanges)
  finally:
    server.stop()
  mem = AdkServer(servers.copy_agents(work / "mem"), work / "adk-mem.log",
                  ["--session_service_uri", "memory://"])
  try:
    rec, exchanges = record_restart(mem, mem.start(), memory=True)
    write(out / "restart_memory.json", mem.command, ["--session_service_uri memory://"], exchanges)
  finally:
    mem.stop()
  print(f"server logs: {work}/adk.log, {work}/adk-mem.log", file=sys.stderr)


if __name__ == "__main__":
  main(Path(sys.argv[1]).resolve())

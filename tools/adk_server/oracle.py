"""Runs ADK's own evaluation (`adk eval`) on the test agent: the oracle.

    .venv/bin/python oracle.py ADK_OUT A2A_OUT WORK_DIR

ADK_OUT/oracle/   `adk eval agents/helpdesk` in-process, as ADK evaluates the
                  agent itself (what a client of `adk api_server` must match)
A2A_OUT/oracle/   `adk eval remote/helpdesk_remote`: ADK's RemoteA2aAgent talking
                  to the A2A server of a2a_app.py (what ADK's own A2A client makes
                  of the same agent, its bugs included)

Each holds the result file ADK wrote (.adk/eval_history/), the printed output
(stdout, byte for byte) and run.json (the command and its exit code).
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import servers

EVALSET = "helpdesk_cases.evalset.json"
CONFIG = "test_config.json"


def adk_eval(agents_root: Path, app: str, evalset: Path, config: Path, out: Path,
             env_extra: dict[str, str] | None = None) -> None:
  out.mkdir(parents=True, exist_ok=True)
  args = ["adk", "eval", app, str(evalset.relative_to(agents_root)),
          "--config_file_path", str(config.relative_to(agents_root)), "--print_detailed_results"]
  env = servers.server_env()
  env.update(env_extra or {})
  done = subprocess.run([str(servers.VENV_BIN / "adk"), *args[1:]], cwd=agents_root, env=env,
                        capture_output=True, text=True, timeout=600)
  (out / "adk_eval.stdout.txt").write_text(done.stdout, encoding="utf-8")
  (agents_root.parent / f"{app}.stderr.txt").write_text(done.stderr, encoding="utf-8")
  results = sorted((agents_root / app / ".adk" / "eval_history").glob("*.evalset_result.json"))
  if len(results) != 1:
    raise SystemExit(f"expected one result file from adk eval of {app}, found {results};"
                     f" stderr: {done.stderr[-2000:]}")
  shutil.copyfile(results[0], out / f"{EVALSET.removesuffix('.evalset.json')}.evalset_result.json")
  run = {"command": " ".join(args), "cwd": f"a copy of tools/adk_server/{agents_root.name}",
         "exit_code": done.returncode, "result_file_written_as": results[0].name}
  (out / "run.json").write_text(json.dumps(run, indent=2) + "\n", encoding="utf-8")


def local(out: Path, work: Path) -> None:
  agents = servers.copy_agents(work / "oracle")
  app_dir = agents / servers.APP_NAME
  adk_eval(agents, servers.APP_NAME, app_dir / EVALSET, app_dir / CONFIG, out / "oracle")


def remote(out: Path, work: Path) -> None:
  root = work / "oracle_a2a" / "remote"
  shutil.copytree(servers.HERE / "remote", root, ignore=shutil.ignore_patterns(".adk", "__pycache__"))
  app = "helpdesk_remote"
  for name in (EVALSET, CONFIG):
    shutil.copyfile(servers.AGENTS / servers.APP_NAME / name, root / app / name)
  port = servers.free_port()
  with open(work / "oracle_a2a" / "a2a.log", "w", encoding="utf-8") as log:
    proc = servers.start(servers.a2a_command(port), log,
                         {"A2A_CARD_HOST": "127.0.0.1", "A2A_CARD_PORT": str(port)})
    try:
      servers.wait_ready(proc, port, "/.well-known/agent-card.json")
      card = f"http://127.0.0.1:{port}/.well-known/agent-card.json"
      adk_eval(root, app, root / app / EVALSET, root / app / CONFIG, out / "oracle",
               {"HELPDESK_A2A_CARD": card})
    finally:
      servers.stop(proc)


if __name__ == "__main__":
  servers.require_venv()
  adk_out, a2a_out, work_dir = (Path(a).resolve() for a in sys.argv[1:4])
  work_dir.mkdir(parents=True, exist_ok=True)
  local(adk_out, work_dir)
  remote(a2a_out, work_dir)

"""Start and stop the two real servers on 127.0.0.1 (stdlib only).

`adk api_server` serves a copy of agents/ (so its SQLite sessions, which ADK
keeps under <app>/.adk/, never land in the repository); the A2A server is
`to_a2a(root_agent)` from a2a_app.py under uvicorn. Both are child processes
of the caller; `stop` ends exactly the process it started.
"""

from __future__ import annotations

import http.client
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
AGENTS = HERE / "agents"
VENV_BIN = HERE / ".venv" / "bin"
APP_NAME = "helpdesk"


def free_port() -> int:
  """A port nothing listens on right now (the kernel's choice)."""
  with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
    s.bind(("127.0.0.1", 0))
    return s.getsockname()[1]


def copy_agents(dest: Path | None = None) -> Path:
  """A fresh copy of agents/ without caches or ADK's .adk/ stores."""
  root = Path(dest) if dest else Path(tempfile.mkdtemp(prefix="adk-agents-"))
  target = root / "agents"
  shutil.copytree(AGENTS, target, ignore=shutil.ignore_patterns(".adk", "__pycache__"))
  return target


def server_env() -> dict[str, str]:
  env = dict(os.environ)
  # Nothing reaches Google: no key, no project, no telemetry export.
  for key in ("GOOGLE_API_KEY", "GEMINI_API_KEY", "GOOGLE_CLOUD_PROJECT",
              "GOOGLE_GENAI_USE_VERTEXAI", "K_SERVICE"):
    env.pop(key, None)
  env["PYTHONUNBUFFERED"] = "1"
  env["PYTHONDONTWRITEBYTECODE"] = "1"
  # Error texts print Python sets (a2a-sdk's "Missed fields: {...}"), whose order follows the
  # per-process string hash: a fixed seed makes each recording print them the same way.
  env["PYTHONHASHSEED"] = "0"
  return env


def adk_command(agents_dir: Path, port: int, extra: list[str] | None = None) -> list[str]:
  return [str(VENV_BIN / "adk"), "api_server", "--host", "127.0.0.1",
          "--port", str(port), "--no-reload", *(extra or []), str(agents_dir)]


def a2a_command(port: int) -> list[str]:
  return [str(VENV_BIN / "python"), "-m", "uvicorn", "a2a_app:app",
          "--app-dir", str(HERE), "--host", "127.0.0.1", "--port", str(port),
          "--no-access-log"]


def start(cmd: list[str], log, env_extra: dict[str, str] | None = None,
          cwd: Path | None = None) -> subprocess.Popen:
  env = server_env()
  env.update(env_extra or {})
  return subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT, env=env,
                          cwd=str(cwd) if cwd else None, start_new_session=True)


def wait_ready(proc: subprocess.Popen, port: int, path: str, timeout: float = 90.0) -> None:
  """Polls GET path until it answers 200; raises if the child exits first."""
  deadline = time.monotonic() + timeout
  while time.monotonic() < deadline:
    if proc.poll() is not None:
      raise RuntimeError(f"server exited with {proc.returncode} before it was ready")
    try:
      conn = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
      conn.request("GET", path)
      status = conn.getresponse().status
      conn.close()
      if status == 200:
        return
    except OSError:
      pass
    time.sleep(0.2)
  raise RuntimeError(f"server on port {port} not ready after {timeout}s")


def stop(proc: subprocess.Popen, timeout: float = 10.0) -> None:
  """SIGTERM to the child's own process group (it was started in a new session), then SIGKILL."""
  if proc.poll() is not None:
    return
  try:
    os.killpg(proc.pid, signal.SIGTERM)
  except ProcessLookupError:
    return
  try:
    proc.wait(timeout)
  except subprocess.TimeoutExpired:
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()


def require_venv() -> None:
  if not (VENV_BIN / "adk").exists():
    sys.exit(f"no ADK venv at {VENV_BIN.parent}: run bash {HERE / 'setup.sh'}")

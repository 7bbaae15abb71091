"""A live `adk api_server` or ADK A2A server for tests; prints its URL on the first line.

    .venv/bin/python serve.py adk [--memory] [--log PATH|-] [-- EXTRA ADK ARGS]
    .venv/bin/python serve.py a2a [--card-url real|default|URL] [--log PATH|-]

`adk` serves a fresh temporary copy of agents/ (app `helpdesk`) with ADK's
default SQLite sessions (or `--memory`: memory://). `a2a` serves the same
agent through to_a2a(); its card states the real URL unless told otherwise
(`default`: to_a2a's own default, http://localhost:8000; or any URL).

stdout gets exactly one line, the base URL (http://127.0.0.1:PORT), once the
server answers. The server's own output goes to a log file in the temporary
directory (or PATH, or this process's stderr with `-`), so an unread pipe
never blocks it. It runs until SIGTERM/SIGINT, or until the process that
started it is gone; then the server and the temporary directory are removed.
"""

from __future__ import annotations

import argparse
import os
import shutil
import signal
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import urlsplit

import servers


def parse(argv: list[str]) -> argparse.Namespace:
  p = argparse.ArgumentParser(prog="serve.py")
  p.add_argument("kind", choices=["adk", "a2a"])
  p.add_argument("--memory", action="store_true", help="adk: --session_service_uri memory://")
  p.add_argument("--card-url", default="real", help="a2a: real | default | URL")
  p.add_argument("--log", default=None, help="server output: a file, or - for stderr")
  p.add_argument("extra", nargs="*", help="adk: more `adk api_server` options (after --)")
  return p.parse_args(argv)


def card_env(card_url: str, port: int) -> dict[str, str]:
  if card_url == "default":
    return {}
  if card_url == "real":
    return {"A2A_CARD_HOST": "127.0.0.1", "A2A_CARD_PORT": str(port)}
  parts = urlsplit(card_url)
  if not parts.hostname or not parts.port:
    sys.exit(f"--card-url needs a host and a port: {card_url!r}")
  return {"A2A_CARD_HOST": parts.hostname, "A2A_CARD_PORT": str(parts.port)}


def launch(args: argparse.Namespace, work: Path, log):
  """Starts the server on a free port (a second port if the first was taken)."""
  for _ in range(2):
    port = servers.free_port()
    if args.kind == "adk":
      extra = (["--session_service_uri", "memory://"] if args.memory else []) + args.extra
      agents = servers.copy_agents(work / f"run-{port}")
      proc = servers.start(servers.adk_command(agents, port, extra), log, cwd=agents.parent)
      ready = "/list-apps"
    else:
      proc = servers.start(servers.a2a_command(port), log, card_env(args.card_url, port))
      ready = "/.well-known/agent-card.json"
    try:
      servers.wait_ready(proc, port, ready)
      return proc, port
    except RuntimeError as err:
      servers.stop(proc)
      last = err
  raise last


def main(argv: list[str]) -> int:
  args = parse(argv)
  servers.require_venv()
  work = Path(tempfile.mkdtemp(prefix=f"evalcore-{args.kind}-server-"))
  log_path = Path(args.log) if args.log and args.log != "-" else work / "server.log"
  log = sys.stderr if args.log == "-" else open(log_path, "w", encoding="utf-8")
  stopping = False

  def on_signal(signum, frame):
    nonlocal stopping
    stopping = True

  signal.signal(signal.SIGTERM, on_signal)
  signal.signal(signal.SIGINT, on_signal)
  parent = os.getppid()
  proc = None
  try:
    proc, port = launch(args, work, log)
    print(f"http://127.0.0.1:{port}", flush=True)
    print(f"[serve] {args.kind} server pid {proc.pid} on 127.0.0.1:{port}; log: "
          f"{'stderr' if args.log == '-' else log_path}", file=sys.stderr, flush=True)
    while not stopping and proc.poll() is None and os.getppid() == parent:
      time.sleep(0.2)
    if proc.poll() is not None and not stopping:
      print(f"[serve] server exited with {proc.returncode}", file=sys.stderr, flush=True)
      return 1
    return 0
  except RuntimeError as err:
    print(f"[serve] {err}; log: {log_path}", file=sys.stderr, flush=True)
    if log is not sys.stderr and log_path.exists():
      log.flush()
      sys.stderr.write(log_path.read_text(encoding="utf-8", errors="replace")[-4000:])
    return 1
  finally:
    if proc is not None:
      servers.stop(proc)
    if log is not sys.stderr:
      log.close()
    shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
  sys.exit(main(sys.argv[1:]))

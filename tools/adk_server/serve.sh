#!/usr/bin/env bash
# A live `adk api_server` (serve.sh adk) or ADK A2A server (serve.sh a2a) on a free
# 127.0.0.1 port, for tests: the first stdout line is its URL; SIGTERM ends it.
# Options: see serve.py. Exits 2 when the venv is missing (create it with setup.sh).
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
if [ ! -x "$HERE/.venv/bin/adk" ]; then
  echo "serve.sh: no ADK venv at $HERE/.venv (bash $HERE/setup.sh creates it, ~30 s from PyPI)" >&2
  exit 2
fi
exec "$HERE/.venv/bin/python" "$HERE/serve.py" "$@"

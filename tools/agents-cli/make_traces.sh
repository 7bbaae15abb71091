#!/usr/bin/env bash
# Records real agents-cli traces for tests/data/agents_cli/generated-traces.json: `adk api_server`
# (google-adk 2.13) serves a flight agent with a scripted model (project/app, no network), and
# `agents-cli eval generate --url` (google-agents-cli 1.11.0) runs project/dataset.json over it —
# a prompt case, one with reference and context, and a continuation. Outside CI: it needs both
# from PyPI in a virtualenv:
#
#   python3 -m venv /tmp/acli-venv && /tmp/acli-venv/bin/pip install google-agents-cli==1.11.0 google-adk==2.13.0
#   VENV=/tmp/acli-venv bash tools/agents-cli/make_traces.sh
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
VENV=${VENV:-$ROOT/benches/.venv}
PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
cd "$HERE/project"
"$VENV/bin/adk" api_server --host 127.0.0.1 --port "$PORT" . >"${TMPDIR:-/tmp}/acli-api-server.log" 2>&1 &
SERVER=$!
trap 'kill "$SERVER" 2>/dev/null || true' EXIT
for _ in $(seq 1 60); do
  curl -sf "http://127.0.0.1:$PORT/list-apps" >/dev/null && break
  sleep 1
done
OUT=$(mktemp -d)
"$VENV/bin/agents-cli" eval generate --url "http://127.0.0.1:$PORT" --app-name app --dataset dataset.json -o "$OUT/traces.json"
cp "$OUT/traces.json" "$ROOT/tests/data/agents_cli/generated-traces.json"
echo "wrote tests/data/agents_cli/generated-traces.json"

#!/usr/bin/env bash
# Creates tools/adk_server/.venv from PyPI: what serve.sh needs (~30 s), or with
# --oracle also ADK's eval extra for refresh.sh's `adk eval` (~2 min in all).
#   bash tools/adk_server/setup.sh [--oracle]
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REQ="$HERE/requirements.txt"
[ "${1:-}" = "--oracle" ] && REQ="$HERE/requirements-oracle.txt"
if [ ! -x "$HERE/.venv/bin/python" ]; then
  python3 -m venv "$HERE/.venv"
fi
"$HERE/.venv/bin/pip" install --quiet --disable-pip-version-check -r "$REQ"
"$HERE/.venv/bin/adk" --version

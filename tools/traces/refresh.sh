#!/usr/bin/env bash
# Regenerates tests/data/traces/ by running the real agents (offline: scripted models):
#   google-adk 2.13 (PyPI) in five telemetry settings (and an agent whose tools raise, in three),
#   @google/adk 2.0.0 (examples/adk_agent's install; the same two kinds of agent), the AI SDK
#   with its mock model in both of @ai-sdk/otel's span formats.
# Needs: python3 -m venv tools/traces/.venv && tools/traces/.venv/bin/pip install \
#   google-adk==2.13.0 opentelemetry-exporter-otlp-proto-common==1.44.0 opentelemetry-proto==1.44.0 \
#   opentelemetry-exporter-otlp-proto-http==1.44.0 rouge-score==0.1.2 pandas   (rouge-score and
#   pandas: ADK's evaluators score the oracle; the OTLP/HTTP exporter: tests/server/traces-adk.test.mjs)
# and `npm ci` in tools/traces (and `bash scripts/setup.sh`, `bash scripts/build.sh` for ADK JS).
# Not run in CI: the tests read the committed outputs.
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
OUT="$ROOT/tests/data/traces"
mkdir -p "$OUT"
for v in v1 v1-nocontent v2-span v2-event v2-nocontent; do
  "$HERE/.venv/bin/python" "$HERE/adk_py.py" "$v" "$OUT" 2>/dev/null
done
# Tools that raise (handled and not), in both span schemas and with content off.
for v in v1 v2-span v2-nocontent; do
  "$HERE/.venv/bin/python" "$HERE/adk_py.py" "$v" "$OUT" errors 2>/dev/null
done
node "$HERE/adk_js.mjs" "$OUT"
node "$HERE/adk_js.mjs" "$OUT" errors 2>/dev/null
node "$HERE/ai_sdk.mjs" "$OUT"

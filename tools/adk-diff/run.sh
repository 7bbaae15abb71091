#!/usr/bin/env bash
# Differential check against google-adk 2.13 itself (not part of CI: it needs ADK from PyPI).
# Needs benches/.venv (made by `bash benches/run.sh`) and a built pkg/ (`bash scripts/build.sh`).
#   bash tools/adk-diff/run.sh [SEED]
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
PY="$HERE/../../benches/.venv/bin/python"
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT
python3 "$HERE/configs.py" > "$OUT/eval.jsonl"
"$PY" "$HERE/adk_eval.py" < "$OUT/eval.jsonl" > "$OUT/eval.adk.jsonl"
python3 "$HERE/mutate.py" "${1:-11}" > "$OUT/parse.jsonl"
"$PY" "$HERE/adk_parse.py" < "$OUT/parse.jsonl" > "$OUT/parse.adk.jsonl"
status=0
node "$HERE/compare.mjs" eval "$OUT/eval.jsonl" "$OUT/eval.adk.jsonl" || status=1
node "$HERE/compare.mjs" parse "$OUT/parse.jsonl" "$OUT/parse.adk.jsonl" || status=1
exit $status

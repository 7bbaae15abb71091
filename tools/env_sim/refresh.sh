#!/usr/bin/env bash
# Rewrites tests/data/env_sim/ from google-adk 2.13's real environment-simulation classes
# (installed from PyPI into tools/env_sim/.venv, pinned by constraints.txt), checks that a second
# run reproduces them, and says what changed. The tests read only the committed files.
#
#   bash tools/env_sim/refresh.sh            (add --fresh to rebuild the venv from scratch)
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
VENV="$HERE/.venv"
DEST="$ROOT/tests/data/env_sim"

if [ "${1:-}" = "--fresh" ]; then rm -rf "$VENV"; fi
if ! "$VENV/bin/python" -c 'import google.adk, sys; sys.exit(google.adk.__version__ != "2.13.0")' 2>/dev/null; then
  echo "[env_sim] creating $VENV (google-adk 2.13.0 from PyPI)"
  python3 -m venv "$VENV"
  "$VENV/bin/pip" install --quiet --disable-pip-version-check \
    -r "$HERE/requirements.txt" -c "$HERE/constraints.txt"
fi
# No network is needed past the install: keep any stray client from reaching a provider.
export GOOGLE_API_KEY=offline-placeholder GOOGLE_GENAI_USE_VERTEXAI=0 PYTHONHASHSEED=0
unset ADK_DISABLE_ENVIRONMENT_SIMULATION

TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
(cd "$HERE" && "$VENV/bin/python" make_vectors.py write "$TMP") > "$TMP/counts.json"
mkdir -p "$DEST"
for f in configs.jsonl calls.jsonl mt.jsonl mock_strategy.jsonl; do
  if [ ! -f "$DEST/$f" ]; then
    echo "added:     $f ($(wc -l < "$TMP/$f") lines)"
  elif cmp -s "$TMP/$f" "$DEST/$f"; then
    echo "unchanged: $f"
  else
    n=$(diff "$DEST/$f" "$TMP/$f" | grep -c '^>' || true)
    echo "changed:   $f ($n of $(wc -l < "$TMP/$f") lines new or different)"
  fi
  cp "$TMP/$f" "$DEST/$f"
  chmod 644 "$DEST/$f"
done
echo "[env_sim] counts: $(tr -d ' \n' < "$TMP/counts.json")"
echo "[env_sim] replaying the vectors against ADK (make_vectors.py check)"
(cd "$HERE" && "$VENV/bin/python" make_vectors.py check "$DEST") | tail -1
echo "review with: git diff --stat tests/data/env_sim"

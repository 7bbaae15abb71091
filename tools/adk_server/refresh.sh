#!/usr/bin/env bash
# Re-records every fixture under tests/data/adk_server/ and tests/data/a2a/ from the real
# servers (google-adk 2.13 `adk api_server`, its A2A server, and `adk eval` as the oracle),
# and says what changed. A new recording replaces a committed file only when it differs in
# substance (compare.py: ids, timestamps, durations and key order do not count), so
# `git diff` shows real changes only. Then it regenerates converted/ and verified.json.
#   bash tools/adk_server/refresh.sh        (~2 min; creates the venv first if needed)
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
PY="$HERE/.venv/bin/python"
ADK_DEST="$ROOT/tests/data/adk_server"
A2A_DEST="$ROOT/tests/data/a2a"
# A fixed work dir: the server's 404 texts name its agents dir, so it stays the same.
WORK=/tmp/evalcore-adk-record

if ! "$PY" -c 'import google.adk, a2a, pandas, rouge_score' 2>/dev/null; then
  echo "[refresh] creating $HERE/.venv (setup.sh --oracle)"
  bash "$HERE/setup.sh" --oracle
fi
rm -rf "$WORK"
mkdir -p "$WORK/new"
cd "$HERE"
echo "[refresh] recording adk api_server"
"$PY" -W ignore record_adk.py "$WORK/new/adk_server" "$WORK/adk"
echo "[refresh] recording the A2A server"
"$PY" -W ignore record_a2a.py "$WORK/new/a2a" "$WORK/a2a"
echo "[refresh] adk eval (in process, and through ADK's A2A client)"
"$PY" -W ignore oracle.py "$WORK/new/adk_server" "$WORK/new/a2a" "$WORK/oracle"

merge() { # NEW_DIR DEST_DIR: keep committed files that only differ in volatile values
  local new=$1 dest=$2 rel
  mkdir -p "$dest"
  while IFS= read -r rel; do
    if [ -f "$dest/$rel" ] && diff=$(python3 "$HERE/compare.py" "$dest/$rel" "$new/$rel"); then
      echo "unchanged: ${dest#$ROOT/}/$rel"
    else
      if [ -f "$dest/$rel" ]; then echo "changed:   ${dest#$ROOT/}/$rel ($diff)"; else echo "new:       ${dest#$ROOT/}/$rel"; fi
      mkdir -p "$(dirname "$dest/$rel")"
      cp "$new/$rel" "$dest/$rel"
    fi
  done < <(cd "$new" && find . -type f | sed 's|^\./||' | sort)
  while IFS= read -r rel; do
    case "$rel" in converted/*|verified.json) continue ;; esac
    if [ ! -f "$new/$rel" ]; then echo "gone:      ${dest#$ROOT/}/$rel"; rm "$dest/$rel"; fi
  done < <(cd "$dest" && find . -type f | sed 's|^\./||' | sort)
}
merge "$WORK/new/adk_server" "$ADK_DEST"
merge "$WORK/new/a2a" "$A2A_DEST"
echo "[refresh] ADK's conversion of the recorded events (converted/), then the checks"
"$PY" -W ignore convert.py "$ADK_DEST"
"$PY" -W ignore verify.py "$ADK_DEST" "$A2A_DEST"
echo "[refresh] logs and raw recordings: $WORK"
git -C "$ROOT" status --short -- tests/data/adk_server tests/data/a2a

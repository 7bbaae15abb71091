#!/usr/bin/env bash
# Rewrites the comparison's reference data in tests/data/compare/ from independent packages
# (scipy, statsmodels, mpmath; pinned in requirements.txt, installed from PyPI into
# tools/compare-oracle/.venv) and says what changed. The tests read only the committed files;
# with that venv present they also check fresh scenarios from a random seed.
#
#   bash tools/compare-oracle/refresh.sh
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
VENV="$HERE/.venv"
DEST="$ROOT/tests/data/compare"

if ! "$VENV/bin/python" -c 'import scipy, statsmodels, mpmath' 2>/dev/null; then
  echo "[oracle] creating $VENV (pip install -r requirements.txt)"
  python3 -m venv "$VENV"
  "$VENV/bin/pip" install --quiet --disable-pip-version-check -r "$HERE/requirements.txt"
fi
mkdir -p "$DEST"
write() { # NAME ARGS...: writes DEST/NAME from oracle.py ARGS and says whether it changed
  local name=$1; shift
  local tmp
  tmp=$(mktemp)
  (cd "$HERE" && "$VENV/bin/python" -W ignore oracle.py "$@") > "$tmp"
  if [ -f "$DEST/$name" ] && cmp -s "$tmp" "$DEST/$name"; then
    echo "unchanged: $name"
  else
    echo "written:   $name ($(wc -c < "$tmp") bytes)"
  fi
  mv "$tmp" "$DEST/$name"
  chmod 644 "$DEST/$name"
}
write special.json special
write scenarios.jsonl scenarios --seed 27 --count 48
write calibration.jsonl calibration --seed 27 --count 12
echo "review with: git diff --stat tests/data/compare"

#!/usr/bin/env bash
# Refreshes the conformance data the tests read (tests/data/) from ../shared, where the vectors
# and oracles are generated, and says what changed. Files written by other projects
# (../shared/corpus) are not copied: the tests that read them skip when ../shared is absent.
#
#   bash scripts/refresh-test-data.sh [SHARED_DIR]     (default: ../shared beside the repo)
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
SHARED=${1:-${EVALCORE_SHARED:-$ROOT/../shared}}
DEST="$ROOT/tests/data"
FILES=(rouge1_vectors.jsonl porter_stem_vectors.jsonl case_oracles.jsonl case_oracles.md
       judge_oracles.jsonl judge_oracles.md)

[ -d "$SHARED" ] || { echo "refresh-test-data: no shared folder at $SHARED" >&2; exit 1; }
mkdir -p "$DEST"
changed=0
for f in "${FILES[@]}"; do
  src="$SHARED/$f"
  if [ ! -f "$src" ]; then
    echo "missing in shared: $f (kept the repo's copy)"
    continue
  fi
  if [ ! -f "$DEST/$f" ]; then
    echo "added:     $f ($(wc -l <"$src") lines)"
    changed=1
  elif ! cmp -s "$src" "$DEST/$f"; then
    stat=$(diff "$DEST/$f" "$src" | grep -c '^[<>]' || true)
    echo "changed:   $f ($stat lines differ; now $(wc -l <"$src") lines)"
    changed=1
  else
    echo "unchanged: $f"
  fi
  cp "$src" "$DEST/$f"
  chmod 644 "$DEST/$f"
done
[ "$changed" -eq 0 ] && echo "tests/data is up to date" || echo "tests/data refreshed: review with git diff --stat tests/data"

#!/usr/bin/env bash
# The long campaign: each target in turn for RUNS executions (default 10 million), one at a time
# and at the lowest priority, with libFuzzer's memory and time limits so an OOM (> 2 GB) or a
# unit slower than 10 s is a finding. Prints one tab-separated line per target:
#   target  executions  seconds  exec/s  crashes  (exit code)
# Logs go to $LOGS (default /tmp/evalcore-fuzz); crash inputs to fuzz/artifacts/<target>/; the
# corpus grows in fuzz/corpus/<target>/ (seeded by seed.sh on first use).
#
#   fuzz/campaign.sh [TARGET...]
#   RUNS=10000000         executions per target
#   MAX_SECONDS=N         also stop a target after N seconds
#   SANITIZER=none        or address (the AddressSanitizer build; ~5x slower here)
#   FAST=1                build without trace-compares instrumentation (~2.5x faster here, less
#                         guidance toward magic values; for the slow text targets)
#
# SANITIZER=none: the core is safe Rust, and what the campaign looks for (panics, integer
# overflow checks, which the fuzz build turns on, OOM, hangs) is caught either way. The short run
# in scripts/test.sh uses the AddressSanitizer build.
set -uo pipefail

FUZZ=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
cd "$FUZZ"
RUNS=${RUNS:-10000000}
SANITIZER=${SANITIZER:-none}
LOGS=${LOGS:-/tmp/evalcore-fuzz}
mkdir -p "$LOGS"
export RUSTC_BOOTSTRAP=1
TARGETS=("$@")
[ ${#TARGETS[@]} -gt 0 ] || mapfile -t TARGETS < <(cargo fuzz list)

flags=(-s "$SANITIZER")
TARGET_DIR="$FUZZ/target/campaign-$SANITIZER"
if [ -n "${FAST:-}" ]; then
  flags+=(--no-trace-compares)
  TARGET_DIR="$TARGET_DIR-fast"
fi
limits=(-runs="$RUNS" -rss_limit_mb=2048 -timeout=10 -print_final_stats=1)
[ -z "${MAX_SECONDS:-}" ] || limits+=(-max_total_time="$MAX_SECONDS")

[ -d corpus ] || ./seed.sh >/dev/null
nice -n 19 cargo fuzz build "${flags[@]}" --target-dir "$TARGET_DIR" >"$LOGS/build.log" 2>&1 || {
  cat "$LOGS/build.log"
  exit 2
}
TRIPLE=$(rustc -vV | sed -n 's/^host: //p')
for t in "${TARGETS[@]}"; do
  mkdir -p "corpus/$t" "artifacts/$t"
  before=$(find "artifacts/$t" -type f | wc -l)
  t0=$(date +%s.%N)
  # The binary built above, not `cargo fuzz run`: editing src/ during a campaign changes nothing.
  nice -n 19 "$TARGET_DIR/$TRIPLE/release/$t" "corpus/$t" -artifact_prefix="artifacts/$t/" "${limits[@]}" \
    >"$LOGS/$t.log" 2>&1
  rc=$?
  t1=$(date +%s.%N)
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$LOGS/$t.log" | tail -n1)
  crashes=$(($(find "artifacts/$t" -type f | wc -l) - before))
  awk -v t="$t" -v n="${execs:-0}" -v a="$t0" -v b="$t1" -v c="$crashes" -v rc="$rc" \
    'BEGIN { s = b - a; printf "%s\t%d\t%.0f\t%.0f\t%d\t(exit %d)\n", t, n, s, (s > 0 ? n / s : 0), c, rc }'
done

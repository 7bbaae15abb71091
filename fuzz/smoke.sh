#!/usr/bin/env bash
# The short fuzz run of scripts/test.sh: every target, with AddressSanitizer, from the seeds only
# (a fresh copy, so the run does not depend on what a campaign left in fuzz/corpus), for
# SMOKE_RUNS executions or SMOKE_SECONDS, whichever comes first. A crash, an OOM (> 2 GB) or a
# unit slower than 10 s fails the target; its input is kept in fuzz/artifacts/<target>/.
# Prints a line per target and a closing "N passed, N failed" line; exits 1 if any failed.
set -uo pipefail

FUZZ=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
cd "$FUZZ"
RUNS=${SMOKE_RUNS:-5000}
SECONDS_PER_TARGET=${SMOKE_SECONDS:-10}
export RUSTC_BOOTSTRAP=1
# Its own target dir, so a campaign's binaries in fuzz/target are left alone.
TARGET_DIR="$FUZZ/target/smoke"
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

command -v cargo-fuzz >/dev/null || { echo "cargo-fuzz is not installed (scripts/setup.sh installs it)"; exit 1; }
if ! nice -n 19 cargo fuzz build --target-dir "$TARGET_DIR" >"$WORK/build.log" 2>&1; then
  tail -n 30 "$WORK/build.log"
  echo "0 passed, 1 failed (the fuzz targets do not build)"
  exit 1
fi
./seed.sh "$WORK/corpus" >/dev/null
TRIPLE=$(rustc -vV | sed -n 's/^host: //p')
passed=0
failed=0
for t in $(cargo fuzz list); do
  mkdir -p "$WORK/corpus/$t" "artifacts/$t"
  t0=$(date +%s)
  nice -n 19 "$TARGET_DIR/$TRIPLE/release/$t" "$WORK/corpus/$t" -artifact_prefix="artifacts/$t/" \
    -runs="$RUNS" -max_total_time="$SECONDS_PER_TARGET" -rss_limit_mb=2048 -timeout=10 \
    -print_final_stats=1 >"$WORK/$t.log" 2>&1
  rc=$?
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$WORK/$t.log" | tail -n1)
  if [ "$rc" -eq 0 ]; then
    passed=$((passed + 1))
    printf 'ok      %-22s %8s runs in %ss\n' "$t" "${execs:-?}" "$(( $(date +%s) - t0 ))"
  else
    failed=$((failed + 1))
    printf 'FAILED  %-22s exit %s after %s runs\n' "$t" "$rc" "${execs:-?}"
    grep -E -A12 "panicked at|ERROR: (libFuzzer|AddressSanitizer)" "$WORK/$t.log" | head -n 24 | sed 's/^/        /'
  fi
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]

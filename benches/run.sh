#!/usr/bin/env bash
# Comparative benchmarks: evalcore (pkg/, as scripts/build.sh built it) against google-adk 2.13
# (Python, in benches/.venv) and js-rouge (npm, in benches/node_modules), on two data sets: the
# synthetic one of SPEC-adk.md §8 (a ~300-word vocabulary) and a realistic one (words drawn with
# their real frequencies from wordfreq's 30,000 most frequent English words, ~15% of the pairs
# with non-ASCII words; benches/gen_data.py). Prints a table of ratios against the targets per
# data set and checks that the scores agree. Builds nothing: run `bash scripts/build.sh` first.
#
#   bash benches/run.sh              N=10,000; google-adk and evalcore measured in this same run
#   bash benches/run.sh --reuse-adk  reuse the google-adk timings of an earlier run (faster; the
#                                    ratios then mix two runs, so use it only while iterating)
#   bash benches/run.sh --quick      N=2,000, fewer runs (a smoke test of the harness)
#   node benches/scaling.mjs         only the scaling table (N and 2N per workload, no google-adk)
#   node benches/memory.mjs          only the peak wasm memory table
#   node benches/compare_runs.mjs    only compareRuns (10,000 cases x 5 runs) beside Python + scipy
#   node benches/browser/run.mjs     only the Chromium table (the page benches/browser/page.mjs)
#   node benches/browser/viewer.mjs  only the viewer opening big results in Chromium (first row;
#                                    --against DIR beside another build, e.g. an older commit's pkg/)
#   node benches/traces.mjs          only OTLP/JSON import speed and memory (~50 MB of ADK spans)
#   node benches/traces_online.mjs   only /v1/traces ingest in Node and workerd (Durable Object)
#   node --expose-gc benches/traces_bounds.mjs   /v1/traces against what an attacker sends (docs/traces.md)
#   node benches/runs.mjs            only runs on Workers (rate against the budget) and on Node
#                                    (SIGKILL and resume), ~5 min
#   bash benches/run.sh --more       also the four above (~12 min more)
#   bash benches/run.sh --judge      also judge-call throughput against a loopback judge with
#                                    100 ms latency (benches/judge/run.mjs, ~1.5 min more)
#   N=20000 SEED=7 bash benches/run.sh
#
# Takes ~2 minutes (ADK's ROUGE alone is ~10 s a run; --reuse-adk: ~40 s).
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/.." && pwd)
N=${N:-10000}
SEED=${SEED:-1234}
ADK_RUNS=3
EC_RUNS=11
LAUNCHES=11
FRESH=1
JUDGE=0
MORE=0
for arg in "$@"; do
  case "$arg" in
    --fresh) FRESH=1 ;;
    --reuse-adk) FRESH=0 ;;
    --quick) N=${N_QUICK:-2000}; ADK_RUNS=1; EC_RUNS=2; LAUNCHES=3 ;;
    --judge) JUDGE=1 ;;
    --more) MORE=1 ;;
    *) echo "unknown option: $arg" >&2; exit 2 ;;
  esac
done
say() { printf '[bench] %s\n' "$*" >&2; }

# 1. google-adk 2.13 + rouge-score in a benches-local venv.
VENV="$HERE/.venv"
if ! "$VENV/bin/python" -c 'import importlib.metadata as m, rouge_score; assert m.version("google-adk") == "2.13.0"' 2>/dev/null; then
  say "creating $VENV (pip install google-adk==2.13.0 rouge-score, ~1 min)"
  python3 -m venv "$VENV"
  "$VENV/bin/pip" install --quiet --disable-pip-version-check google-adk==2.13.0 rouge-score
fi
if ! "$VENV/bin/python" -c 'import wordfreq' 2>/dev/null; then
  say "pip install wordfreq (the realistic data set's vocabulary)"
  "$VENV/bin/pip" install --quiet --disable-pip-version-check wordfreq
fi

# 2. js-rouge, pinned in benches/package.json.
if [ ! -f "$HERE/node_modules/js-rouge/package.json" ]; then
  say "npm install (js-rouge) in benches/"
  (cd "$HERE" && npm install --no-audit --no-fund --loglevel=error)
fi

# 3. The package must already be built.
if [ ! -f "$ROOT/pkg/wasm/evalcore_core_bg.wasm" ]; then
  echo "[bench] pkg/wasm is missing: run 'bash scripts/build.sh' first" >&2
  exit 1
fi

# 4-6. Per data set: data (seeded, so cached per N, seed and text), google-adk timings (measured
# every run unless --reuse-adk), evalcore timings, then the table.
for TEXT in synthetic realistic; do
  DATA="$HERE/.data/n$N-s$SEED-$TEXT"
  if [ ! -f "$DATA/actual.json" ] || [ ! -f "$DATA/evalset.json" ]; then
    say "generating data: N=$N seed=$SEED text=$TEXT"
    "$VENV/bin/python" "$HERE/gen_data.py" --n "$N" --seed "$SEED" --text "$TEXT" --out "$DATA" >/dev/null
  fi
  ADK_JSON="$DATA/adk-r$ADK_RUNS.json"
  if [ "$FRESH" = 1 ] || [ ! -s "$ADK_JSON" ]; then
    say "timing google-adk 2.13 on $TEXT text ($ADK_RUNS runs each)"
    "$VENV/bin/python" "$HERE/adk_bench.py" --data "$DATA" --runs "$ADK_RUNS" --imports "$ADK_RUNS" > "$ADK_JSON.tmp"
    mv "$ADK_JSON.tmp" "$ADK_JSON"
  else
    say "google-adk timings: reused from ${ADK_JSON#"$ROOT"/} (--reuse-adk)"
  fi
  say "timing evalcore on $TEXT text ($EC_RUNS runs each, $LAUNCHES cold launches)"
  node "$HERE/evalcore_bench.mjs" --data "$DATA" --runs "$EC_RUNS" --launches "$LAUNCHES" > "$DATA/evalcore.json"
  printf '\n== %s text (%s)\n' "$TEXT" "$( [ "$TEXT" = synthetic ] && echo 'SPEC §8: a ~300-word vocabulary' || echo 'wordfreq: 30,000 English words by frequency, ~15% of pairs with non-ASCII words')"
  node "$HERE/compare.mjs" "$ADK_JSON" "$DATA/evalcore.json"
  # The same workloads in Chromium (Debian's, through playwright-core), beside Node's.
  if [ -x "${EVALCORE_CHROMIUM:-/usr/bin/chromium}" ]; then
    say "timing evalcore in Chromium on $TEXT text (benches/browser/run.mjs)"
    node "$HERE/browser/run.mjs" --data "$DATA" --adk "$ADK_JSON" --node "$DATA/evalcore.json" --runs "$([ "$EC_RUNS" -le 2 ] && echo 2 || echo 7)"
  else
    say "no chromium: the browser table is skipped (scripts/setup.sh installs it)"
  fi
done

# 6b. Scaling: every workload at N and 2N, t(2N)/t(N) printed (about 2 is linear, 4 quadratic).
say "scaling (benches/scaling.mjs)"
SCALE=1
[ "$EC_RUNS" -le 2 ] && SCALE=0.25
node "$HERE/scaling.mjs" --scale "$SCALE"

# 6b. Peak wasm memory against the input size (a fresh process per workload).
say "peak wasm memory (benches/memory.mjs, realistic data)"
node "$HERE/memory.mjs" --data "$HERE/.data/n$N-s$SEED-realistic"

# 6c. compareRuns over 10,000 cases x 5 runs a side, beside the same comparison in Python
#     (json + numpy + scipy + statsmodels: tools/compare-oracle's implementation of COMPARE.md).
if ! "$VENV/bin/python" -c 'import scipy, statsmodels, mpmath' 2>/dev/null; then
  # Unpinned here (google-adk's own pins come first); the tests' oracle pins its versions.
  say "pip install scipy statsmodels mpmath (the comparison's reference)"
  "$VENV/bin/pip" install --quiet --disable-pip-version-check scipy statsmodels mpmath
fi
say "compareRuns (benches/compare_runs.mjs)"
node "$HERE/compare_runs.mjs" --repeat "$([ "$EC_RUNS" -le 2 ] && echo 2 || echo 7)"

# 7. Optional (--more): trace import, trace ingest online, runs that outlive the client.
if [ "$MORE" = 1 ]; then
  say "OTLP/JSON import (benches/traces.mjs)"
  node "$HERE/traces.mjs"
  say "/v1/traces ingest, Node and workerd (benches/traces_online.mjs)"
  node "$HERE/traces_online.mjs"
  say "/v1/traces against what an attacker sends (benches/traces_bounds.mjs)"
  node --expose-gc "$HERE/traces_bounds.mjs"
  say "runs on Workers and Node (benches/runs.mjs)"
  node "$HERE/runs.mjs"
  if [ -x "${EVALCORE_CHROMIUM:-/usr/bin/chromium}" ]; then
    say "the viewer opening big results in Chromium (benches/browser/viewer.mjs)"
    node "$HERE/browser/viewer.mjs"
  fi
fi

# 8. Optional: judge calls (final_response_match_v2) against the loopback judge server.
if [ "$JUDGE" = 1 ]; then
  say "judge-call throughput (benches/judge/run.mjs)"
  node "$HERE/judge/run.mjs"
fi

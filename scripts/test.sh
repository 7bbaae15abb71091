#!/usr/bin/env bash
# Everything CI checks, in order, each under a header:
#   setup -> cargo test (native) -> lint -> build (wasm + size budget) -> JS tests on the built package
#   -> the viewer in Chromium (tests/e2e)
#   -> a short JS fuzz run -> portability (Node, Deno, workerd) -> the evaluation endpoint -> example projects
#   -> the framework adapters on Node 20, 22 and 24 -> tsc consumer check -> JS-crate boundary check
#   -> a short cargo-fuzz run.
# Keeps going after a failed check to report them all (except when setup or the build fails),
# prints a summary, and exits non-zero if anything failed.
set -uo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"
export PATH="$HOME/.cargo/bin:$ROOT/.tools/node_modules/.bin:$PATH"
export CARGO_TERM_COLOR=${CARGO_TERM_COLOR:-never}
LOGS=$(mktemp -d)
trap 'rm -rf "$LOGS"' EXIT

failed=()
passed_total=0
failed_total=0
started=$(date +%s)

header() {
  printf '\n======================================================================\n'
  printf '== %s\n' "$*"
  printf '======================================================================\n'
}

# step NAME LOGFILE CMD...: runs CMD with output shown and kept in LOGFILE; records failure.
step() {
  local name=$1 log=$2; shift 2
  header "$name"
  local t0=$(date +%s)
  "$@" 2>&1 | tee "$log"
  local rc=${PIPESTATUS[0]}
  local dt=$(( $(date +%s) - t0 ))
  if [ "$rc" -eq 0 ]; then
    printf -- '-- %s: ok (%ss)\n' "$name" "$dt"
  else
    printf -- '-- %s: FAILED with exit code %s (%ss)\n' "$name" "$rc" "$dt"
    failed+=("$name")
  fi
  return "$rc"
}

count_cargo() { # sums "test result: ... N passed; M failed" lines
  local p f c
  p=$(sed -n 's/^test result: .* \([0-9][0-9]*\) passed; \([0-9][0-9]*\) failed.*/\1/p' "$1" | awk '{s+=$1} END {print s+0}')
  f=$(sed -n 's/^test result: .* \([0-9][0-9]*\) passed; \([0-9][0-9]*\) failed.*/\2/p' "$1" | awk '{s+=$1} END {print s+0}')
  passed_total=$((passed_total + p)); failed_total=$((failed_total + f))
}

# node --test with a readable spec report on stdout and TAP kept for counting (NODE: the Node
# binary to run, default the one on PATH).
node_tests() { # LABEL TAPFILE PATHS...
  local tap=$2; shift 2
  "${NODE:-node}" --test --test-reporter=spec --test-reporter-destination=stdout \
    --test-reporter=tap --test-reporter-destination="$tap" "$@"
  local rc=$?
  grep -E '^# (tests|pass|fail|cancelled|skipped|todo|duration_ms) ' "$tap" || true
  return "$rc"
}
count_node() {
  local p f c
  p=$(sed -n 's/^# pass \([0-9]*\)$/\1/p' "$1" | tail -n1)
  f=$(sed -n 's/^# fail \([0-9]*\)$/\1/p' "$1" | tail -n1)
  c=$(sed -n 's/^# cancelled \([0-9]*\)$/\1/p' "$1" | tail -n1)
  passed_total=$((passed_total + ${p:-0})); failed_total=$((failed_total + ${f:-0} + ${c:-0}))
}

summary() {
  header "summary ($(( $(date +%s) - started ))s)"
  if [ "${#failed[@]}" -eq 0 ]; then
    echo "all checks passed"
  else
    printf 'failed: %s\n' "${failed[@]}"
  fi
  echo "tests: $passed_total passed, $failed_total failed"
}

if ! step "setup (scripts/setup.sh)" "$LOGS/setup.log" bash scripts/setup.sh; then
  summary; exit 1
fi

step "cargo test (native core, conformance tests in tests/*.rs)" "$LOGS/cargo.log" cargo test
count_cargo "$LOGS/cargo.log"

# STYLE.md §3: no unwrap/expect/panic/indexing in library code (Cargo.toml [lints.clippy]),
# on the native and the wasm build, and rustfmt's layout.
step "lint: cargo fmt --check, cargo clippy -D warnings (native and wasm32)" "$LOGS/lint.log" \
  bash -c 'cargo fmt --check && cargo clippy --lib -- -D warnings && cargo clippy --lib --target wasm32-unknown-unknown --no-default-features -- -D warnings && cargo clippy --lib --target wasm32-unknown-unknown --no-default-features --features extras-wasm -- -D warnings'

if ! step "build (scripts/build.sh: wasm32 -> wasm-bindgen -> wasm-opt, size budget)" "$LOGS/build.log" bash scripts/build.sh; then
  summary; exit 1
fi

step "JS tests on the built package (node --test tests/js/)" "$LOGS/js.log" node_tests js "$LOGS/js.tap" tests/js/
count_node "$LOGS/js.tap"

# The viewer (www/, built into pkg/www/) in Debian's chromium, driven by playwright-core.
step "viewer: browser tests in Chromium (node --test tests/e2e/; screenshots in tests/e2e/artifacts/)" "$LOGS/e2e.log" \
  node_tests e2e "$LOGS/e2e.tap" --test-timeout=300000 tests/e2e/
count_node "$LOGS/e2e.tap"

# A short run of the structure-aware fuzzer over the built package (tests/fuzz/fuzz.mjs): as is,
# then with wasm memory capped at 10 MiB so that big inputs meet real out-of-memory traps.
step "fuzz: structure-aware JS fuzzer over the built package (node tests/fuzz/fuzz.mjs)" "$LOGS/fuzz.log" \
  bash -c 'node tests/fuzz/fuzz.mjs --iterations "${EVALCORE_FUZZ_ITERATIONS:-400}" --seconds "${EVALCORE_FUZZ_SECONDS:-30}" --quiet; a=$?
    node tests/fuzz/fuzz.mjs --cap-pages 160 --iterations 200 --seconds 20 --quiet; b=$?
    [ "$a" -eq 0 ] && [ "$b" -eq 0 ]'
count_fuzz() { # each "fuzz: N passed, M failed" line
  local p f
  p=$(sed -n 's/^fuzz: \([0-9]*\) passed, \([0-9]*\) failed.*/\1/p' "$1" | awk '{s+=$1} END {print s+0}')
  f=$(sed -n 's/^fuzz: \([0-9]*\) passed, \([0-9]*\) failed.*/\2/p' "$1" | awk '{s+=$1} END {print s+0}')
  passed_total=$((passed_total + p)); failed_total=$((failed_total + f))
}
count_fuzz "$LOGS/fuzz.log"

step "portability: the same .wasm in Node, Deno and workerd (node --test tests/portability/)" "$LOGS/portability.log" \
  node_tests portability "$LOGS/portability.tap" tests/portability/
count_node "$LOGS/portability.tap"

# The evaluation endpoint (evalcore/server) for real on 127.0.0.1: `evalcore serve`, Deno.serve and
# the workerd module worker answering the same requests alike and as the library; limits, abort,
# secrets; a bounded load test that prints p50/p99 (tests/server/).
step "server: the evaluation endpoint in Node, Deno and workerd (node --test tests/server/)" "$LOGS/server.log" \
  node_tests server "$LOGS/server.tap" tests/server/
count_node "$LOGS/server.tap"

step "examples: npm ci + npm test in every examples/*/ and examples/*/previous (node:test, vitest, @google/adk, AI SDK, OpenAI Agents, LangGraph, Mastra agents; the frameworks' current majors on Node 22 and 24, their previous on Node 20) (scripts/examples.sh)" "$LOGS/examples.log" \
  bash scripts/examples.sh
count_examples() { # "pass N" / "fail N" lines of node:test reports (TAP's "# pass", Node 23+'s spec "ℹ pass") and vitest's "Tests N passed"
  local p f
  p=$(sed -n 's/^# pass \([0-9]*\)$/\1/p; s/^ℹ pass \([0-9]*\)$/\1/p; s/^ *Tests  *\([0-9][0-9]*\) passed.*/\1/p' "$1" | awk '{s+=$1} END {print s+0}')
  f=$(sed -n 's/^# fail \([0-9]*\)$/\1/p; s/^ℹ fail \([0-9]*\)$/\1/p; s/^ *Tests  *\([0-9][0-9]*\) failed.*/\1/p' "$1" | awk '{s+=$1} END {print s+0}')
  passed_total=$((passed_total + p)); failed_total=$((failed_total + f))
}
count_examples "$LOGS/examples.log"

# The four framework adapters against each framework's real packages (tests/frameworks/): the
# current majors (examples/*) on the Node releases they declare, the previous majors where their
# results differ (.previous/*, which the examples step prepared) on Node 20 and 22.
frameworks() {
  local rc=0 v bin
  source "$ROOT/scripts/nodes.sh"
  for v in 22 24; do
    bin=$(node_for "$v") || { rc=1; continue; }
    NODE=$bin node_tests "frameworks-$v" "$LOGS/frameworks-$v.tap" tests/frameworks/frameworks.test.mjs || rc=1
  done
  for v in 20 22; do
    bin=$(node_for "$v") || { rc=1; continue; }
    EVALCORE_FRAMEWORKS=.previous NODE=$bin node_tests "frameworks-previous-$v" "$LOGS/frameworks-previous-$v.tap" tests/frameworks/frameworks.test.mjs || rc=1
  done
  return "$rc"
}
step "frameworks: the adapters against ai 7, @openai/agents 0.20, @mastra/core 1.x, LangGraph on Node 22 and 24; ai 6, @openai/agents 0.14, @mastra/core 0.24 on Node 20 and 22 (tests/frameworks/)" "$LOGS/frameworks.log" frameworks
for t in "$LOGS"/frameworks-*.tap; do [ -f "$t" ] && count_node "$t"; done

step "types: tsc --noEmit on consumer files (scripts/check-types.sh)" "$LOGS/types.log" bash scripts/check-types.sh

step "boundary: only src/wasm/ names the JS crates (scripts/check-boundary.sh)" "$LOGS/boundary.log" bash scripts/check-boundary.sh

# A short fuzz run: every cargo-fuzz target in fuzz/ (AddressSanitizer build) from its seeds,
# 5,000 runs or 10 s each; the long campaign is fuzz/campaign.sh (results in fuzz/RESULTS.md).
step "cargo-fuzz: every target in fuzz/, 5,000 runs or 10 s each (fuzz/smoke.sh)" "$LOGS/cargo-fuzz.log" bash fuzz/smoke.sh
count_cargo_fuzz() { # the closing "N passed, N failed" line
  local line
  line=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$1" | tail -n1)
  passed_total=$((passed_total + $(echo "${line:-0 passed}" | awk '{print $1}')))
  failed_total=$((failed_total + $(echo "${line:-0 passed, 1 failed}" | awk '{print $3}')))
}
count_cargo_fuzz "$LOGS/cargo-fuzz.log"

summary
[ "${#failed[@]}" -eq 0 ]

#!/usr/bin/env bash
# The README's set-up command for a clone: install the tools, build the package, then run the CLI on the
# bundled hello_world example (an agent module replaying recorded turns; no API key):
#   1. `evalcore eval` with the example's test_config.json (what google-adk 2.13's `adk eval`
#      prints for the same data);
#   2. the same with LLM-judged metrics, answered from the recorded judge cassette.
# One case fails on purpose, so each run ends with exit status 1; anything above 1 is an error.
set -uo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"
# Only what the build needs: no cargo-fuzz, chromium, deno, workerd, typescript or example projects.
EVALCORE_SETUP_FUZZ=0 EVALCORE_SETUP_EXAMPLES=0 EVALCORE_SETUP_BROWSER=0 EVALCORE_SETUP_TOOLS=build \
  bash scripts/setup.sh && bash scripts/build.sh || exit 1
EX=examples/hello_world

cli() {
  node pkg/bin/evalcore.js "$@"
  local rc=$?
  [ "$rc" -le 1 ] || exit "$rc"
}

printf '\n$ npx evalcore eval %s/agent.mjs %s/hello_world.evalset.json --print_detailed_results\n' "$EX" "$EX"
cli eval "$EX/agent.mjs" "$EX/hello_world.evalset.json" --print_detailed_results "$@"

printf '\n$ npx evalcore eval %s/agent.mjs %s/hello_world.evalset.json --config_file_path %s/judged_config.json \\\n    --judge openai:standin-judge --judge_cassette %s/judge_cassette.json --judge_mode replay\n' "$EX" "$EX" "$EX" "$EX"
cli eval "$EX/agent.mjs" "$EX/hello_world.evalset.json" --config_file_path "$EX/judged_config.json" \
  --judge openai:standin-judge --judge_cassette "$EX/judge_cassette.json" --judge_mode replay "$@"
printf '\nResult files (ADK layout): %s/.adk/eval_history/\n' "$EX"

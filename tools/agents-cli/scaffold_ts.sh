#!/usr/bin/env bash
# Issue 29's "done", on the real thing: agents-cli (google-agents-cli 1.11.0) scaffolds a
# TypeScript ADK project (`scaffold create --agent adk_ts`), an agents-cli dataset and YAML config
# go into its tests/eval/, and `evalcore eval app/agent.ts ...` runs the scaffolded agent (its
# app/agent.ts unchanged, through tsx) and judges it. The agent's Gemini calls and the judge are
# answered by the loopback server in Gemini's wire format (GOOGLE_GEMINI_BASE_URL), so nothing
# leaves the machine. Outside CI: it needs agents-cli in a virtualenv (see make_traces.sh), npm for
# tsx, and examples/adk_agent's @google/adk and zod (scripts/setup.sh). CI runs the same on a
# project of the scaffold's layout: tests/js/agents-cli-ts-project.test.mjs.
#
#   VENV=/tmp/acli-venv bash tools/agents-cli/scaffold_ts.sh
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
VENV=${VENV:-$ROOT/benches/.venv}
WORK=$(mktemp -d)
trap 'kill "${STUB:-0}" 2>/dev/null || true; rm -rf "$WORK"' EXIT
cd "$WORK"
"$VENV/bin/agents-cli" scaffold create tsagent -a adk_ts -d none -p -y -s >/dev/null
cd tsagent
# The scaffold's own lock pins packages from its registry; its agent needs only these.
mkdir -p node_modules tests/eval/datasets
ln -s "$ROOT/examples/adk_agent/node_modules/@google" node_modules/@google
ln -s "$ROOT/examples/adk_agent/node_modules/zod" node_modules/zod
(mkdir -p "$WORK/tsx" && cd "$WORK/tsx" && echo '{"private":true}' >package.json && npm install --no-audit --no-fund --loglevel=error tsx@4.23.15 >/dev/null)
ln -s "$WORK/tsx/node_modules/tsx" node_modules/tsx
cp "$ROOT/tests/data/agents_cli/single-turn-prompt.json" tests/eval/datasets/basic-dataset.json
cat >tests/eval/eval_config.yaml <<'YAML'
metrics_to_run:
  - final_response_quality
  - tool_use_quality
  - helpfulness
custom_metrics:
  - name: final_response_quality
    threshold: 0.6
    judge_model_sampling_count: 1
  - name: tool_use_quality
    threshold: 0.5
    judge_model_sampling_count: 1
  - name: helpfulness
    prompt_template: |
      Rate the agent's response 1-5 for helpfulness.
      Prompt: {prompt}
      Final response: {response}
      Return JSON: {"score": <1-5>, "explanation": "<reason>"}
YAML
node --input-type=module -e "
import { startJudgeServer } from '$ROOT/tests/js/support/judge-server.mjs';
import { weatherAgentAndJudge } from '$ROOT/tests/js/support/scripted-gemini.mjs';
const s = await startJudgeServer();
s.script(weatherAgentAndJudge);
console.log(s.baseUrl);
" >"$WORK/url" &
STUB=$!
for _ in $(seq 1 50); do [ -s "$WORK/url" ] && break; sleep 0.2; done
URL=$(cat "$WORK/url")
echo "== app/agent.ts as agents-cli scaffolded it:"
sed -n '1,40p' app/agent.ts
echo "== evalcore eval app/agent.ts tests/eval/datasets/basic-dataset.json (config: tests/eval/eval_config.yaml)"
GEMINI_API_KEY=stub GOOGLE_GEMINI_BASE_URL="$URL" node "$ROOT/pkg/bin/evalcore.js" eval app/agent.ts \
  tests/eval/datasets/basic-dataset.json --judge gemini:judge --judge_base_url "$URL/v1beta" --no_save --log_level ERROR

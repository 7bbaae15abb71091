#!/usr/bin/env bash
# Checks evalcore's reading of agents-cli configs against agents-cli's own loader: for every
# config in tests/data/agents_cli/ and the cases below, the metrics agents-cli would run (name,
# kind, sampling count; or that it refuses the config) and the criteria evalcore makes of it must
# agree. Outside CI; needs the package built and the virtualenv of make_traces.sh:
#
#   VENV=/tmp/acli-venv bash tools/agents-cli/check_configs.sh
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
VENV=${VENV:-$ROOT/benches/.venv}
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
cp "$ROOT"/tests/data/agents_cli/*.yaml "$WORK/"
# Mistakes agents-cli refuses, and names it resolves.
printf 'metrics_to_run: [m]\ncustom_metrics:\n  - {name: m, prompt_template: "x {response}", rubric_group_name: g}\n' >"$WORK/bad-rubric-group.yaml"
printf 'metrics_to_run: [m]\ncustom_metrics:\n  - {name: m, judge_model: x}\n' >"$WORK/bad-no-body.yaml"
printf 'metrics_to_run: [m]\ncustom_metrics:\n  - {name: m, custom_function: "def evaluate(i): pass", execution: cloud}\n' >"$WORK/bad-execution.yaml"
printf 'metrics_to_run: [m]\ncustom_metrics:\n  - {name: m, custom_function: "def evaluate(i): pass", custom_function_file: f.py}\n' >"$WORK/bad-both.yaml"
printf 'metrics_to_run: [m]\ncustom_metrics:\n  - {name: m, prompt_template: "x", judge_model_sampling_count: 40}\n' >"$WORK/bad-sampling.yaml"
printf 'metrics_to_run: [hallucination_v1, safety, final_response_quality]\ncustom_metrics:\n  - {name: final_response_quality, judge_model_sampling_count: 2}\n' >"$WORK/builtins.yaml"
printf 'def evaluate(instance):\n    return 1\n' >"$WORK/response_quality.py"
(cd "$WORK" && "$VENV/bin/python" "$HERE/metric_kinds.py" "$WORK"/*.yaml 2>/dev/null) >"$WORK/theirs.json"
node --input-type=module -e "
import { readFileSync } from 'node:fs';
import { readConfig } from '$ROOT/pkg/lib/node/config.js';
const theirs = JSON.parse(readFileSync('$WORK/theirs.json', 'utf8'));
let bad = 0;
for (const [path, want] of Object.entries(theirs)) {
  // Names without their version (agents-cli keeps hallucination_v1 as written and resolves a
  // pool entry to the service's latest version; evalcore resolves both to its one metric), and
  // Python metrics as one kind (local or remote, evalcore runs neither).
  const norm = (rows) => rows.map(([n, k, s]) => [n.replace(/_v\\d+$/, ''), k === 'local' || k === 'remote' ? 'python' : k, s ?? null]);
  let got;
  try {
    const c = readConfig(path).config.criteria;
    got = norm(Object.entries(c).map(([name, v]) => [name,
      v.prompt_template ? 'llm' : v.custom_function || v.custom_function_file ? 'python' : 'builtin',
      v.judge_model_options?.num_samples ?? null]));
  } catch (e) {
    got = ['error', e.message];
  }
  const same = want[0] === 'error' ? got[0] === 'error' : JSON.stringify(got) === JSON.stringify(norm(want));
  if (!same) bad++;
  console.log((same ? 'same ' : 'DIFFERENT ') + path.split('/').pop() + ': agents-cli ' + JSON.stringify(want) + (same ? '' : ' evalcore ' + JSON.stringify(got)));
}
process.exit(bad ? 1 : 0);
"

#!/usr/bin/env bash
# Checks that agents-cli reads what toEvaluationDataset writes: the traces agents-cli recorded
# (tests/data/agents_cli/generated-traces.json) are read by evalcore, written back, and both files
# are graded by agents-cli's own pipeline with local Python metrics (local_metrics.yaml: turns,
# tool calls, final response). The scores must agree, except turn_count of a continuation:
# agents-cli keeps a continuation's seeded and new events in one turn, evalcore writes one turn
# per invocation (as ADK's own mapping to agent data does). Outside CI; needs the package built
# and the virtualenv of make_traces.sh:
#
#   VENV=/tmp/acli-venv bash tools/agents-cli/check_written.sh
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
VENV=${VENV:-$ROOT/benches/.venv}
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT
node --input-type=module -e "
import { readFileSync, writeFileSync } from 'node:fs';
import * as ec from '$ROOT/pkg/index.js';
const d = ec.loadEvaluationDataset(readFileSync('$ROOT/tests/data/agents_cli/generated-traces.json'));
writeFileSync('$OUT/written.json', JSON.stringify(ec.toEvaluationDataset({ evalSet: d.eval_set, actual: d.actual })));
"
cd "$HERE/project"
"$VENV/bin/python" "$HERE/grade_with_agents_cli.py" "$ROOT/tests/data/agents_cli/generated-traces.json" "$HERE/local_metrics.yaml" 2>/dev/null >"$OUT/a.json"
"$VENV/bin/python" "$HERE/grade_with_agents_cli.py" "$OUT/written.json" "$HERE/local_metrics.yaml" 2>/dev/null >"$OUT/b.json"
node --input-type=module -e "
import { readFileSync } from 'node:fs';
const [a, b] = ['a', 'b'].map((n) => JSON.parse(readFileSync('$OUT/' + n + '.json', 'utf8')));
const key = (r) => r[0] + '/' + r[1];
const bad = a.filter((r) => { const o = b.find((x) => key(x) === key(r)); return !o || (o[2] !== r[2] && !(r[0] === 'book_after_search' && r[1] === 'turn_count')); });
console.log(a.length + ' scores by agents-cli, ' + bad.length + ' differ' + (bad.length ? ': ' + JSON.stringify(bad) : ''));
process.exit(bad.length ? 1 : 0);
"

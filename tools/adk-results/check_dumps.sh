#!/usr/bin/env bash
# Checks evalcore's eval set writers against pydantic's: for every current-schema eval set in the
# public ADK corpus (and hello_world), evalcore's full dump (migrate) and compact dump (eval_set
# commands) must equal google-adk 2.13's `model_dump_json(indent=2)` and its
# exclude_unset/defaults/none form. Needs benches/.venv; not run in CI.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
SHARED=${EVALCORE_SHARED:-$ROOT/../shared}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
node --input-type=module - "$ROOT" "$SHARED" "$work" <<'JS'
import { readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
const [root, shared, work] = process.argv.slice(2);
const { loadEvalSet } = await import(join(root, 'pkg', 'index.js'));
const { adkEvalSetText } = await import(join(root, 'pkg', 'lib', 'wasm', 'adk_text.js'));
const files = [join(root, 'examples', 'hello_world', 'hello_world.evalset.json')];
const walk = (d) => { for (const n of readdirSync(d)) { const p = join(d, n); if (statSync(p).isDirectory()) walk(p); else if (n.endsWith('.json')) files.push(p); } };
walk(join(shared, 'corpus', 'adk-real'));
let n = 0;
for (const f of files) {
  const text = readFileSync(f, 'utf8');
  let parsed;
  try { parsed = JSON.parse(text); } catch { continue; }
  if (Array.isArray(parsed) || typeof parsed?.eval_set_id !== 'string') continue;
  const set = loadEvalSet(text);
  const base = join(work, String(n++));
  writeFileSync(`${base}.src`, f);
  writeFileSync(`${base}.full`, adkEvalSetText(set));
  writeFileSync(`${base}.compact`, adkEvalSetText(set, { compact: true }));
}
JS
"$ROOT/benches/.venv/bin/python" - "$work" <<'PY'
import glob, sys, warnings
warnings.filterwarnings("ignore")
from google.adk.evaluation.eval_set import EvalSet
bad = 0
for src in sorted(glob.glob(sys.argv[1] + "/*.src")):
    base = src[:-4]
    path = open(src).read()
    s = EvalSet.model_validate_json(open(path).read())
    full = s.model_dump_json(indent=2) == open(base + ".full").read()
    compact = s.model_dump_json(indent=2, exclude_unset=True, exclude_defaults=True, exclude_none=True) == open(base + ".compact").read()
    bad += (not full) + (not compact)
    print(f"{'ok ' if full and compact else 'DIFF'} full={full} compact={compact} {path}")
sys.exit(1 if bad else 0)
PY

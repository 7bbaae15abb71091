#!/usr/bin/env bash
# Installs and tests every example project (examples/*/package.json): `npm ci` from its lock
# file, skipped when node_modules was installed from the same package.json / lock / .npmrc (and,
# for projects that copy evalcore in with install-links, the same pkg/ files), then `npm test`
# on each Node release the project runs on (NODES below). Keeps going after a failure, prints a
# summary, exits non-zero if any example failed.
#
# A framework example is pinned to its framework's current major; where the previous major
# records a run differently, examples/NAME/previous/ holds that major's package.json and lock
# file, and the same sources run against it from .previous/NAME/ (a copy at the same depth, so
# that `file:../../pkg` and `../weather/` resolve alike; gitignored, remade on every run).
#
#   bash scripts/examples.sh                  every example and every previous major
#   bash scripts/examples.sh node_test vitest only these (NAME is the example and its previous
#                                             major; NAME/previous is the previous major alone)
#   bash scripts/examples.sh --install-only adk_agent
#                                             install only (setup.sh: the endpoint's and the dev UI's
#                                             tests use examples/adk_agent's @google/adk and devtools)
set -uo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
STAMP=.evalcore-examples-stamp
# shellcheck source=scripts/nodes.sh
source "$ROOT/scripts/nodes.sh"

# The Node releases (major versions) each project's tests run on, the first one installing it.
# The frameworks' current majors declare Node 22 or later (`ai` 7, @openai/agents 0.15+ through
# openai 7, @mastra/core 1.x): they run on 22 and 24; their previous majors, which declare Node
# 20, on 20 (tests/frameworks runs the adapters against them on 22 too). A project not listed
# runs on the Node on PATH.
declare -A NODES=(
  [ai_sdk]="22 24"        [ai_sdk/previous]="20"
  [openai_agents]="22 24" [openai_agents/previous]="20"
  [mastra]="22 24"        [mastra/previous]="20"
  [langgraph]="20 22 24"
  [otlp]="22 24"          [otlp/previous]="20"
)

# A hash of what an install depends on; pkg/ counts only when the example copies it in.
stamp_of() { # DIR
  node --input-type=module - "$1" "$ROOT/pkg" <<'JS'
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
const [dir, pkg] = process.argv.slice(2);
const h = createHash('sha256');
const add = (p, name = p) => { h.update(`${name}\0`); h.update(existsSync(p) ? readFileSync(p) : Buffer.alloc(0)); };
for (const f of ['package.json', 'package-lock.json', '.npmrc']) add(join(dir, f), f);
const npmrc = existsSync(join(dir, '.npmrc')) ? readFileSync(join(dir, '.npmrc'), 'utf8') : '';
if (/^\s*install-links\s*=\s*true\s*$/m.test(npmrc)) {
  const walk = (d) => {
    for (const n of readdirSync(d).sort()) {
      const p = join(d, n);
      if (n === 'node_modules') continue;
      if (statSync(p).isDirectory()) walk(p); else add(p, relative(pkg, p));
    }
  };
  walk(pkg);
}
process.stdout.write(h.digest('hex'));
JS
}

# .previous/NAME: examples/NAME's sources with examples/NAME/previous's package.json and lock
# file (its node_modules kept), and .previous/weather, the domain the framework examples share.
prepare_previous() { # NAME
  local name=$1 src="$ROOT/examples/$1" dst="$ROOT/.previous/$1"
  mkdir -p "$dst"
  rm -rf "$ROOT/.previous/weather"
  cp -R "$ROOT/examples/weather" "$ROOT/.previous/weather"
  find "$dst" -mindepth 1 -maxdepth 1 ! -name node_modules -exec rm -rf {} +
  (cd "$src" && find . -mindepth 1 -maxdepth 1 ! -name node_modules ! -name previous ! -name package.json ! -name package-lock.json \
    -exec cp -R {} "$dst/" \;)
  cp "$src/previous/package.json" "$dst/package.json"
  [ -f "$src/previous/package-lock.json" ] && cp "$src/previous/package-lock.json" "$dst/package-lock.json"
  return 0
}

failed=()
ran=0
install_only=0
if [ "${1:-}" = --install-only ]; then
  install_only=1
  shift
fi
only=("$@")
wanted() { # KEY (NAME or NAME/previous)
  [ "${#only[@]}" -eq 0 ] && return 0
  printf '%s\n' "${only[@]}" | grep -qxF "$1" && return 0
  [ "${1%/previous}" != "$1" ] && printf '%s\n' "${only[@]}" | grep -qxF "${1%/previous}"
}

# KEY DIR: install DIR from its lock file (unless up to date), then test it on its Node releases.
run_project() {
  local key=$1 dir=$2 label=$3 releases bin first want
  releases=${NODES[$key]:-}
  ran=$((ran + 1))
  printf '\n== %s\n' "$label"
  if [ ! -f "$dir/package-lock.json" ]; then
    echo "[examples] $label has no package-lock.json (commit one: npm install --package-lock-only)"
    failed+=("$label (no lock file)")
    return
  fi
  local bins=()
  for v in $releases; do
    if ! bin=$(node_for "$v"); then failed+=("$label (Node $v)"); return; fi
    bins+=("$bin")
  done
  [ "${#bins[@]}" -eq 0 ] && bins=("$(command -v node)")
  first=${bins[0]}
  want=$(stamp_of "$dir")
  if [ -f "$dir/node_modules/$STAMP" ] && [ "$(cat "$dir/node_modules/$STAMP")" = "$want" ]; then
    echo "[examples] $label: node_modules is up to date with the lock file"
  else
    if ! (cd "$dir" && PATH="$(dirname "$first"):$PATH" npm ci --no-audit --no-fund); then
      failed+=("$label (npm ci)")
      return
    fi
    echo "$want" > "$dir/node_modules/$STAMP"
  fi
  [ "$install_only" = 1 ] && return
  for bin in "${bins[@]}"; do
    local version
    version=$("$bin" --version)
    printf -- '-- %s on Node %s\n' "$label" "${version#v}"
    if ! (cd "$dir" && PATH="$(dirname "$bin"):$PATH" npm test); then
      failed+=("$label (Node ${version#v})")
    fi
  done
}

for manifest in "$ROOT"/examples/*/package.json; do
  [ -e "$manifest" ] || continue
  dir=$(dirname "$manifest")
  name=$(basename "$dir")
  if wanted "$name"; then run_project "$name" "$dir" "examples/$name"; fi
  if [ -f "$dir/previous/package.json" ] && wanted "$name/previous"; then
    prepare_previous "$name"
    run_project "$name/previous" "$ROOT/.previous/$name" "examples/$name/previous (in .previous/$name)"
  fi
done

printf '\n== examples: %d run, %d failed\n' "$ran" "${#failed[@]}"
if [ "$ran" -eq 0 ]; then
  echo "[examples] no examples/*/package.json found${only[*]:+ for: ${only[*]}}"
  exit 1
fi
if [ "${#failed[@]}" -gt 0 ]; then
  printf 'failed: %s\n' "${failed[@]}"
  exit 1
fi

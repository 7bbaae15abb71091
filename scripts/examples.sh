#!/usr/bin/env bash
# Installs and tests every example project (examples/*/package.json): `npm ci` from its lock
# file, skipped when node_modules was installed from the same package.json / lock / .npmrc (and,
# for projects that copy evalcore in with install-links, the same pkg/ files), then `npm test`.
# Keeps going after a failure, prints a summary, exits non-zero if any example failed.
#
#   bash scripts/examples.sh                  every example
#   bash scripts/examples.sh node_test vitest only these
#   bash scripts/examples.sh --install-only adk_agent
#                                             install only (setup.sh: the endpoint's and the dev UI's
#                                             tests use examples/adk_agent's @google/adk and devtools)
set -uo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
STAMP=.evalcore-examples-stamp

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

failed=()
ran=0
install_only=0
if [ "${1:-}" = --install-only ]; then
  install_only=1
  shift
fi
only=("$@")
for manifest in "$ROOT"/examples/*/package.json; do
  [ -e "$manifest" ] || continue
  dir=$(dirname "$manifest")
  name=${dir#"$ROOT"/}
  if [ "${#only[@]}" -gt 0 ] && ! printf '%s\n' "${only[@]}" | grep -qxF "$(basename "$dir")"; then
    continue
  fi
  ran=$((ran + 1))
  printf '\n== %s\n' "$name"
  if [ ! -f "$dir/package-lock.json" ]; then
    echo "[examples] $name has no package-lock.json (commit one: npm install --package-lock-only)"
    failed+=("$name (no lock file)")
    continue
  fi
  want=$(stamp_of "$dir")
  if [ -f "$dir/node_modules/$STAMP" ] && [ "$(cat "$dir/node_modules/$STAMP")" = "$want" ]; then
    echo "[examples] $name: node_modules is up to date with the lock file"
  else
    if ! (cd "$dir" && npm ci --no-audit --no-fund); then
      failed+=("$name (npm ci)")
      continue
    fi
    echo "$want" > "$dir/node_modules/$STAMP"
  fi
  if [ "$install_only" = 0 ] && ! (cd "$dir" && npm test); then
    failed+=("$name")
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

#!/usr/bin/env bash
# `tsc --noEmit` over small consumer files (tests/js/types/) that import `evalcore` the way a
# user's project does: through node_modules and package.json `exports`. Two settings: Node's
# own resolution without DOM types, and a bundler-style browser project with DOM types.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
TSC="$ROOT/.tools/node_modules/.bin/tsc"
[ -x "$TSC" ] || { echo "[types] tsc not found: run scripts/setup.sh" >&2; exit 1; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/node_modules"
ln -s "$ROOT/pkg" "$work/node_modules/evalcore"
cp "$ROOT"/tests/js/types/*.ts "$work/"
echo '{"name": "types-consumer", "private": true, "type": "module"}' > "$work/package.json"

# tsconfig files rather than flags: `"types": []` keeps stray @types packages out.
tsconfig() { # name module resolution lib files...
  local name=$1 module=$2 resolution=$3 lib=$4; shift 4
  node -e 'const [name, module, resolution, lib, ...files] = process.argv.slice(1);
    require("fs").writeFileSync(name, JSON.stringify({ compilerOptions: { noEmit: true, strict: true,
      target: "es2022", module, moduleResolution: resolution, lib: lib.split(","), types: [] }, files }, null, 2));' \
    "$work/$name" "$module" "$resolution" "$lib" "$@"
}
tsconfig tsconfig.node.json nodenext nodenext es2022 consumer.ts
tsconfig tsconfig.browser.json esnext bundler es2022,dom consumer.ts consumer-dom.ts

echo "[types] nodenext resolution, lib es2022 (no DOM): consumer.ts"
"$TSC" -p "$work/tsconfig.node.json"
echo "[types] bundler resolution, lib es2022 + dom: consumer.ts consumer-dom.ts"
"$TSC" -p "$work/tsconfig.browser.json"
echo "[types] the generated bindings of the wasm exports: pkg/lib/wasm/exports.d.ts"
"$TSC" --noEmit --strict --module nodenext --moduleResolution nodenext --target es2022 --lib es2022 \
  "$ROOT/pkg/lib/wasm/exports.d.ts"
echo "[types] ok"

#!/usr/bin/env bash
# The architecture's one hard wall (STYLE.md "The shape"): only src/wasm/ may name the JS
# crates, and Cargo.toml may list them only as wasm32-target dependencies, so a native
# `cargo test` never compiles them. Comments may mention them; code may not.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"
JS_CRATES='wasm_bindgen|wasm_bindgen_futures|js_sys|web_sys|serde_wasm_bindgen|tsify|tsify_next'
status=0

while IFS= read -r -d '' file; do
  case "$file" in src/wasm/*) continue ;; esac
  # Drop // comments (doc comments included), then look for the crates as identifiers.
  if hits=$(sed 's://.*$::' "$file" | grep -nE "(^|[^A-Za-z0-9_])($JS_CRATES)([^A-Za-z0-9_]|$)"); then
    echo "[boundary] $file names a JS crate outside src/wasm/:"
    printf '%s\n' "$hits" | sed 's/^/    /'
    status=1
  fi
done < <(find src -name '*.rs' -print0 | sort -z)

# Cargo.toml: every JS crate must sit in a [target.'cfg(target_arch = "wasm32")'.*] table.
if ! awk -v crates="^(${JS_CRATES//_/-})[[:space:]]*=" '
  /^\[/ { section = $0; next }
  $0 ~ crates && section !~ /wasm32/ { printf "[boundary] Cargo.toml lists %s under %s (must be a wasm32 target dependency)\n", $1, section; bad = 1 }
  END { exit bad }' Cargo.toml; then
  status=1
fi

if [ "$status" -eq 0 ]; then
  echo "[boundary] ok: only src/wasm/ names wasm-bindgen/js-sys/web-sys (and friends)"
fi
exit "$status"

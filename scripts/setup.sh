#!/usr/bin/env bash
# Installs what build.sh and test.sh need, from the registries only, and skips whatever is
# already present at the pinned version. Safe to run again; runs without stdin (CI=true).
#
#   rust target   wasm32-unknown-unknown                     (rustup)
#   wasm-bindgen  CLI at the version Cargo.toml pins          (cargo install, ~3 min once)
#   wasm-pack     the build driver scripts/build.sh runs      (cargo install, in parallel with it)
#   cargo-fuzz    the fuzz/ targets' runner                   (cargo install, ~1.5 min once)
#   .tools/       binaryen (wasm-opt), typescript, deno, workerd, miniflare (on that workerd), playwright-core, pinned in scripts/tools/package.json
#   .tools/nodes/ Node 22 and 24 (npm's `node` package) for the framework examples, pinned in scripts/tools/nodes/package.json
#   chromium      Debian's browser for the viewer's tests in tests/e2e (apt-get, as root; skipped when present)
#
# What only the tests need can be skipped (scripts/demo.sh skips all of it):
#   EVALCORE_SETUP_FUZZ=0       no cargo-fuzz
#   EVALCORE_SETUP_EXAMPLES=0   no npm ci of examples/adk_agent
#   EVALCORE_SETUP_BROWSER=0    no chromium
#   EVALCORE_SETUP_TOOLS=build  of .tools/, only what scripts/build.sh runs (binaryen's wasm-opt):
#                               no typescript, deno, workerd, miniflare, playwright-core or Node releases
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
TOOLS="$ROOT/.tools"
export PATH="$HOME/.cargo/bin:$PATH"

say() { printf '[setup] %s\n' "$*"; }

# The CLI must match the wasm-bindgen crate exactly: read the `=x.y.z` pin from Cargo.toml.
wasm_bindgen_pin() {
  sed -n 's/^wasm-bindgen *= *"=\{0,1\}\([0-9][0-9.]*\)".*/\1/p; s/^wasm-bindgen *= *{.*version *= *"=\{0,1\}\([0-9][0-9.]*\)".*/\1/p' \
    "$ROOT/Cargo.toml" | head -n1
}

# 1. wasm target
if rustup target list --installed 2>/dev/null | grep -qx wasm32-unknown-unknown; then
  say "rust target wasm32-unknown-unknown: present"
else
  say "rust target wasm32-unknown-unknown: installing"
  rustup target add wasm32-unknown-unknown
fi

# 1b. lint components (usually part of the toolchain already)
for c in clippy rustfmt; do
  if rustup component list --installed 2>/dev/null | grep -q "^$c"; then
    say "rust component $c: present"
  else
    say "rust component $c: installing"
    rustup component add "$c"
  fi
done

# 2. wasm-bindgen CLI (at the crate's pin) and wasm-pack, which drives the build with it: both
#    compile from crates.io, so the missing ones are installed side by side (about 3.5 min on
#    2 cores for both) in the background while the rest of the setup runs, each with its own
#    log, shown when it fails; setup waits for them at the end.
WB_VERSION=$(wasm_bindgen_pin)
if [ -z "$WB_VERSION" ]; then
  echo "[setup] cannot read the wasm-bindgen pin from Cargo.toml" >&2
  exit 1
fi
WASM_PACK_VERSION=0.13.1
LOGDIR=$(mktemp -d)
pids=()
names=()
have_wb=$(wasm-bindgen --version 2>/dev/null | awk '{print $2}' || true)
if [ "$have_wb" = "$WB_VERSION" ]; then
  say "wasm-bindgen-cli $WB_VERSION: present"
else
  say "wasm-bindgen-cli $WB_VERSION: installing (found '${have_wb:-none}'; takes a few minutes)"
  # No --locked: the registry mirror can lag slightly behind the CLI's lock file.
  cargo install wasm-bindgen-cli --version "$WB_VERSION" --force >"$LOGDIR/wasm-bindgen-cli.log" 2>&1 &
  pids+=($!)
  names+=(wasm-bindgen-cli)
fi
have_wp=$(wasm-pack --version 2>/dev/null | awk '{print $2}' || true)
if [ "$have_wp" = "$WASM_PACK_VERSION" ]; then
  say "wasm-pack $WASM_PACK_VERSION: present"
else
  say "wasm-pack $WASM_PACK_VERSION: installing (found '${have_wp:-none}'; about 2.5 minutes)"
  cargo install wasm-pack --version "$WASM_PACK_VERSION" --force >"$LOGDIR/wasm-pack.log" 2>&1 &
  pids+=($!)
  names+=(wasm-pack)
fi
# 2b. cargo-fuzz for the fuzz targets in fuzz/ (test.sh's short fuzz run, fuzz/campaign.sh); the
#     demo does not need it (EVALCORE_SETUP_FUZZ=0 skips it).
CARGO_FUZZ_VERSION=0.13.2
have_cf=$(cargo fuzz --version 2>/dev/null | awk '{print $2}' || true)
if [ "${EVALCORE_SETUP_FUZZ:-1}" = 0 ]; then
  say "cargo-fuzz: not needed here"
elif [ "$have_cf" = "$CARGO_FUZZ_VERSION" ]; then
  say "cargo-fuzz $CARGO_FUZZ_VERSION: present"
else
  say "cargo-fuzz $CARGO_FUZZ_VERSION: installing (found '${have_cf:-none}'; about 1.5 minutes)"
  cargo install cargo-fuzz --version "$CARGO_FUZZ_VERSION" --force
fi

# 3. npm tools in .tools/ (gitignored), exactly the versions in scripts/tools/package.json
# .tools/ may be shared by several checkouts (worktrees) whose pins differ while a branch is
# open: each pin of ours must be installed at its version, and a pin another checkout added is
# kept (the install below merges, so it never removes someone else's tool).
tools_ok() {
  [ -f "$TOOLS/package.json" ] || return 1
  node -e '
    const fs = require("fs"), path = require("path");
    const want = require(process.argv[1]).dependencies;
    for (const [name, version] of Object.entries(want)) {
      const p = path.join(process.argv[2], "node_modules", name, "package.json");
      if (!fs.existsSync(p) || JSON.parse(fs.readFileSync(p, "utf8")).version !== version) process.exit(1);
    }' "$ROOT/scripts/tools/package.json" "$TOOLS" || return 1
  [ -x "$TOOLS/node_modules/.bin/wasm-opt" ] && [ -x "$TOOLS/node_modules/.bin/workerd" ] \
    && [ -x "$TOOLS/node_modules/@deno/linux-x64-glibc/deno" ] && [ -x "$TOOLS/node_modules/.bin/tsc" ]
}
# The build's own tool: binaryen's wasm-opt at its pin.
build_tools_ok() {
  node -e '
    const fs = require("fs"), path = require("path");
    const want = require(process.argv[1]).dependencies.binaryen;
    const p = path.join(process.argv[2], "node_modules", "binaryen", "package.json");
    process.exit(fs.existsSync(p) && JSON.parse(fs.readFileSync(p, "utf8")).version === want ? 0 : 1);' \
    "$ROOT/scripts/tools/package.json" "$TOOLS" && [ -x "$TOOLS/node_modules/.bin/wasm-opt" ]
}
# Installs the pinned tools named (all of scripts/tools/package.json without names) into .tools/,
# keeping the pins another checkout added there.
install_tools() {
  mkdir -p "$TOOLS"
  node -e '
    const fs = require("fs");
    const ours = JSON.parse(fs.readFileSync(process.argv[1], "utf8"));
    const only = process.argv.slice(3);
    if (only.length > 0) ours.dependencies = Object.fromEntries(only.map((n) => [n, ours.dependencies[n]]));
    let theirs = {};
    try { theirs = JSON.parse(fs.readFileSync(process.argv[2], "utf8")).dependencies || {}; } catch {}
    ours.dependencies = { ...theirs, ...ours.dependencies };
    fs.writeFileSync(process.argv[2], JSON.stringify(ours, null, 2) + "\n");' \
    "$ROOT/scripts/tools/package.json" "$TOOLS/package.json" "$@"
  (cd "$TOOLS" && npm install --no-audit --no-fund --no-save --loglevel=error)
}
if [ "${EVALCORE_SETUP_TOOLS:-all}" = build ]; then
  if build_tools_ok; then
    say "npm tools in .tools (the build's: binaryen): present"
  else
    say "npm tools in .tools (the build's: binaryen): installing"
    install_tools binaryen
    build_tools_ok || { echo "[setup] binaryen did not install as pinned" >&2; exit 1; }
  fi
elif tools_ok; then
  say "npm tools in .tools: present"
else
  say "npm tools in .tools: installing"
  install_tools
  tools_ok || { echo "[setup] npm tools did not install as pinned" >&2; exit 1; }
fi

# 3a. The Node releases the framework examples run on beside the Node on PATH (22 and 24, from
#     npm's `node` package, whose install fetches the platform's binary from the registry), in
#     .tools/nodes/ at the versions of scripts/tools/nodes/package.json; scripts/nodes.sh finds
#     them. Not needed by the build or the demo (EVALCORE_SETUP_TOOLS=build skips them).
nodes_ok() {
  node -e '
    const fs = require("fs"), path = require("path");
    for (const [name, spec] of Object.entries(require(process.argv[1]).dependencies)) {
      const dir = path.join(process.argv[2], "node_modules", name);
      const want = spec.slice(spec.lastIndexOf("@") + 1);
      const p = path.join(dir, "package.json");
      if (!fs.existsSync(p) || JSON.parse(fs.readFileSync(p, "utf8")).version !== want) process.exit(1);
      try { fs.accessSync(path.join(dir, "bin", "node"), fs.constants.X_OK); } catch { process.exit(1); }
    }' "$ROOT/scripts/tools/nodes/package.json" "$TOOLS/nodes"
}
if [ "${EVALCORE_SETUP_TOOLS:-all}" = build ]; then
  say "Node releases in .tools/nodes: not needed here"
elif nodes_ok; then
  say "Node releases in .tools/nodes: present"
else
  say "Node releases in .tools/nodes: installing (two Node binaries from npm, about 20 s)"
  mkdir -p "$TOOLS/nodes"
  cp "$ROOT/scripts/tools/nodes/package.json" "$TOOLS/nodes/package.json"
  (cd "$TOOLS/nodes" && npm install --no-audit --no-fund --no-save --loglevel=error)
  nodes_ok || { echo "[setup] the Node releases did not install as pinned" >&2; exit 1; }
fi

# 3b. Debian's chromium for tests/e2e (playwright-core drives /usr/bin/chromium; no browser
#     download from Playwright's CDN). CI runs as root; elsewhere install it yourself.
if [ "${EVALCORE_SETUP_BROWSER:-1}" = 0 ]; then
  say "chromium: not needed here"
elif [ -x /usr/bin/chromium ]; then
  say "chromium: present"
elif [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
  say "chromium: installing (apt-get; about 30 s)"
  DEBIAN_FRONTEND=noninteractive apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
else
  say "chromium: missing, and not root with apt-get: the viewer's browser tests will fail (apt-get install chromium)"
fi

# 4. The package itself has no dependencies; install dev deps only if one is ever added.
if node -e 'const p=require(process.argv[1]); process.exit(Object.keys({...p.dependencies,...p.devDependencies}).length?0:1)' \
  "$ROOT/pkg/package.json"; then
  say "pkg dependencies: installing"
  (cd "$ROOT/pkg" && npm install --no-audit --no-fund --loglevel=error)
fi

# 5. examples/adk_agent's own dependencies (@google/adk, @google/adk-devtools, from its lock file):
#    the dev UI's tests (tests/e2e/devui.test.mjs, tests/server/devui.test.mjs) run its agent and
#    the devtools bundle before scripts/examples.sh runs the examples themselves; likewise the
#    frameworks of the four framework examples (the AI SDK, @openai/agents, LangGraph, Mastra),
#    current and previous majors (.previous/), which tests/frameworks/frameworks.test.mjs runs
#    the adapters against. Installed in the background
#    beside the cargo installs; the demo does not need them (EVALCORE_SETUP_EXAMPLES=0).
if [ "${EVALCORE_SETUP_EXAMPLES:-1}" = 0 ]; then
  say "examples/adk_agent dependencies: not needed here"
else
  say "examples/adk_agent, ai_sdk, openai_agents, langgraph, mastra dependencies (npm ci when a lock file changed)"
  bash "$ROOT/scripts/examples.sh" --install-only adk_agent ai_sdk openai_agents langgraph mastra >"$LOGDIR/examples-adk_agent.log" 2>&1 &
  pids+=($!)
  names+=(examples-adk_agent)
fi

# The background installs: the cargo ones started in step 2, the example's npm ci of step 5.
for i in "${!pids[@]}"; do
  if wait "${pids[$i]}"; then
    say "${names[$i]}: installed"
  else
    echo "[setup] installing ${names[$i]} failed:" >&2
    tail -n 40 "$LOGDIR/${names[$i]}.log" >&2
    exit 1
  fi
done
rm -rf "$LOGDIR"

if [ "${EVALCORE_SETUP_TOOLS:-all}" = build ]; then
  say "wasm-bindgen $(wasm-bindgen --version | awk '{print $2}'), $("$TOOLS/node_modules/.bin/wasm-opt" --version | awk '{print $1, $3}')"
else
  say "wasm-bindgen $(wasm-bindgen --version | awk '{print $2}'), $("$TOOLS/node_modules/.bin/wasm-opt" --version | awk '{print $1, $3}'), tsc $("$TOOLS/node_modules/.bin/tsc" --version | awk '{print $2}'), deno $("$TOOLS/node_modules/@deno/linux-x64-glibc/deno" --version | awk 'NR==1{print $2}'), $("$TOOLS/node_modules/.bin/workerd" --version), node $(node --version) (PATH) $("$TOOLS/nodes/node_modules/node22/bin/node" --version) $("$TOOLS/nodes/node_modules/node24/bin/node" --version)"
fi

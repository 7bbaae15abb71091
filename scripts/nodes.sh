#!/usr/bin/env bash
# Sourced by scripts/examples.sh and scripts/test.sh: where the Node release a test runs on is.
#
#   node_for 22     prints the path of a Node 22 binary: the node on PATH when it is of that
#                   release line, else .tools/nodes' (npm's `node` package, pinned in
#                   scripts/tools/nodes/package.json, installed by scripts/setup.sh); fails,
#                   saying what to install, when neither is there.

NODES_ROOT=${NODES_ROOT:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}

node_for() { # MAJOR
  local major=$1 bin
  bin=$(command -v node 2>/dev/null || true)
  if [ -n "$bin" ] && [ "$("$bin" -p 'process.versions.node.split(".")[0]' 2>/dev/null)" = "$major" ]; then
    echo "$bin"
    return 0
  fi
  bin="$NODES_ROOT/.tools/nodes/node_modules/node$major/bin/node"
  if [ -x "$bin" ]; then
    echo "$bin"
    return 0
  fi
  echo "[nodes] no Node $major: the node on PATH is $(node --version 2>/dev/null || echo none), and $bin is missing (pin node$major in scripts/tools/nodes/package.json, then bash scripts/setup.sh)" >&2
  return 1
}

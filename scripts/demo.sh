#!/usr/bin/env bash
# The README's first command: install the tools, build the package, score the hello_world example.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"
bash scripts/setup.sh && bash scripts/build.sh && node examples/hello_world/run.mjs "$@"

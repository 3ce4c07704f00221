#!/usr/bin/env bash
# Builds the WebAssembly targets and assembles the static site in build/wasm-release/site.
# Assumes scripts/setup.sh has run.
set -euo pipefail
repo_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export NODE_PATH=/usr/share/nodejs   # Debian's emscripten finds acorn there (see docs/BUILDING.md)
cd "$repo_dir"
cmake --preset wasm-release >/dev/null
cmake --build --preset wasm-release

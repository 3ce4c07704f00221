#!/usr/bin/env bash
# Builds the WebAssembly targets and assembles the static site in build/wasm-release/site.
# Assumes scripts/setup.sh has run.
set -euo pipefail
repo_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
source "$repo_dir/scripts/lib/errors.sh"
export NODE_PATH=/usr/share/nodejs   # Debian's emscripten finds acorn there (see docs/BUILDING.md)
cd "$repo_dir"
kvcalc_step "configure wasm-release" "if it names SDL2 or Dear ImGui, run scripts/setup.sh; delete build/wasm-release to start clean"
cmake --preset wasm-release >/dev/null
kvcalc_step "build wasm-release" "fix the compile error above"
cmake --build --preset wasm-release

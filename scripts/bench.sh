#!/usr/bin/env bash
# Prints kvcalc's speed and size numbers (benchmarks, not tests): the core's predictions/second and solver
# times (kvcalc_bench), and the page's budgets in headless Chromium (gzip size, first frame, recompute, idle).
# Assumes scripts/test.sh (or the native-release and wasm-release builds) has run.
set -euo pipefail
repo_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$repo_dir"
echo "=== core (native release) ==="
build/native-release/bench/kvcalc_bench
echo
echo "=== page (headless Chromium) ==="
node tests/browser/budget.mjs
echo
echo "=== worst inputs (native release, then the wasm module) ==="
build/native-release/bench/kvcalc_worst_inputs
node bench/worst_inputs.mjs

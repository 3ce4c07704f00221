#!/usr/bin/env bash
# Prints kvcalc's speed and size numbers (benchmarks, not tests): the core's predictions/second and solver
# times (kvcalc_bench), the page's budgets in headless Chromium (gzip size, first frame, recompute, idle), and the
# page's gzip bytes per file with the first-result times on a throttled phone and a desktop (first-result-bench.mjs).
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
echo "=== page size per file and first result (phone 4x CPU, 9 Mbit/s, 60 ms; desktop) ==="
node tests/browser/first-result-bench.mjs
echo
echo "=== worst inputs (native release, then the wasm module) ==="
build/native-release/bench/kvcalc_worst_inputs
node bench/worst_inputs.mjs

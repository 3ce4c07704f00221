#!/usr/bin/env bash
# Installs what is missing and runs every test: the doctest suite natively (ASan + UBSan, then release),
# the CLI tests, the embind module under node, and the page in headless Chromium.
set -euo pipefail
repo_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$repo_dir"
step() { printf '\n=== %s ===\n' "$*"; }

step "setup"
scripts/setup.sh

step "native debug build + tests (AddressSanitizer, UBSan)"
cmake --preset native-debug >/dev/null
cmake --build --preset native-debug
ctest --preset native-debug

step "native release build + tests"
cmake --preset native-release >/dev/null
cmake --build --preset native-release
ctest --preset native-release

step "WebAssembly build (site)"
scripts/build-site.sh

step "embind module under node"
node --test tests/node/

step "page in headless Chromium"
node --test tests/browser/

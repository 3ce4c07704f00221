#!/usr/bin/env bash
# Installs what is missing and runs every test: the doctest suite natively (ASan + UBSan, then release),
# the CLI tests, the embind module under node, and the page in headless Chromium.
# The last line sums what the runners reported: "kvcalc: N passed, N failed".
set -euo pipefail
repo_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$repo_dir"
log_dir="$repo_dir/build/test-logs"
mkdir -p "$log_dir"
passed=0
failed=0
step() { printf '\n=== %s ===\n' "$*"; }

# Runs a test runner, shows its output, and adds its pass/fail counts to the totals.
run_tests() {
  local name="$1"; shift
  local log="$log_dir/$name.log" rc=0
  "$@" 2>&1 | tee "$log" || rc=$?
  local p f
  if grep -q 'tests passed, .* tests failed out of' "$log"; then       # ctest
    local total
    total=$(grep -o 'out of [0-9]*' "$log" | tail -n1 | grep -o '[0-9]*')
    f=$(grep -o '[0-9]* tests failed' "$log" | tail -n1 | grep -o '^[0-9]*')
    p=$((total - f))
  else                                                                  # node --test
    p=$(grep -o '^# pass [0-9]*' "$log" | tail -n1 | grep -o '[0-9]*$' || echo 0)
    f=$(grep -o '^# fail [0-9]*' "$log" | tail -n1 | grep -o '[0-9]*$' || echo 0)
  fi
  passed=$((passed + ${p:-0})); failed=$((failed + ${f:-0}))
  if [[ $rc != 0 && ${f:-0} == 0 ]]; then failed=$((failed + 1)); fi
  return 0
}

step "setup"
scripts/setup.sh

step "native debug build + tests (AddressSanitizer, UBSan)"
cmake --preset native-debug >/dev/null
cmake --build --preset native-debug
run_tests native-debug ctest --preset native-debug

step "native release build + tests"
cmake --preset native-release >/dev/null
cmake --build --preset native-release
run_tests native-release ctest --preset native-release

step "WebAssembly build (site)"
scripts/build-site.sh

step "embind module under node"
run_tests node node --test tests/node/

step "docs: relative links, site links decode cleanly, rendered site docs"
run_tests docs node --test tests/docs/

step "page in headless Chromium"
run_tests browser node --test tests/browser/

echo
echo "kvcalc: $passed passed, $failed failed"
[[ $failed == 0 ]]

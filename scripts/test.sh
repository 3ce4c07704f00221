#!/usr/bin/env bash
# Installs what is missing and runs every test: the doctest suite natively (ASan + UBSan, then release),
# the CLI tests, the libFuzzer targets (bounded runs), the embind module under node, and the page in headless Chromium.
# The last line sums what the runners reported: "kvcalc: N passed, N failed".
set -euo pipefail
repo_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$repo_dir"
source "$repo_dir/scripts/lib/errors.sh"
log_dir="$repo_dir/build/test-logs"
mkdir -p "$log_dir"
passed=0
failed=0
failed_runners=()
# Names the step (for the error trap, with what to do when it fails) and prints a heading.
step() { kvcalc_step "$1" "${2:-}"; printf '\n=== %s ===\n' "$1"; }

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
  if [[ $rc != 0 || ${f:-0} != 0 ]]; then failed_runners+=("$name (log: $log)"); fi
  return 0
}

step "setup" "read the [setup] lines above: they name the failing step and what to do"
scripts/setup.sh

step "native debug build + tests (AddressSanitizer, UBSan)" "fix the compile error above; build/native-debug can be deleted to start clean"
cmake --preset native-debug >/dev/null
cmake --build --preset native-debug
run_tests native-debug ctest --preset native-debug

step "native release build + tests" "fix the compile error above; build/native-release can be deleted to start clean"
cmake --preset native-release >/dev/null
cmake --build --preset native-release
run_tests native-release ctest --preset native-release

step "fuzz targets: libFuzzer + ASan/UBSan, each run for a bounded time (tests/fuzz/README.md)" "a crash leaves its input under build/fuzz; replay it with the target binary and make it a regression test"
cmake --preset fuzz >/dev/null
cmake --build --preset fuzz
run_tests fuzz ctest --preset fuzz

step "WebAssembly build (site)" "fix the error above; if it names SDL2 or Dear ImGui, run scripts/setup.sh; build/wasm-release can be deleted to start clean"
scripts/build-site.sh

step "embind module under node"
run_tests node node --test tests/node/

step "docs: relative links, site links decode cleanly, rendered site docs"
run_tests docs node --test tests/docs/

step "page in headless Chromium"
run_tests browser node --test tests/browser/

echo
echo "kvcalc: $passed passed, $failed failed"
if ((${#failed_runners[@]})); then
  printf '[test.sh] failing runners (their output is above and in the log):\n' >&2
  printf '  %s\n' "${failed_runners[@]}" >&2
  exit 1
fi

#!/bin/sh
# Regenerates tests/cli/golden/*.txt from *.args with a built kvcalc.
# Usage: tests/cli/regen_golden.sh [BUILD_DIR]   (default build/native-release)
# Review the diff before committing: every number must agree with the seeds (see the comments in
# cli_test_driver.cpp for the hand-checked values); a golden file is a reviewed record, not whatever the code says.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-"$here/../../build/native-release"}
for a in "$here"/golden/*.args; do
    # shellcheck disable=SC2046
    "$build/cli/kvcalc" $(cat "$a") > "${a%.args}.txt" || true
done
git -C "$here" diff --stat -- golden

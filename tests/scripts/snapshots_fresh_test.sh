#!/usr/bin/env bash
# Regenerates every SVG snapshot of the docs (scripts/snapshots.sh) into OUT_DIR with the given kvcalc and fails
# when a committed one in docs/snapshots differs or is missing, so the drawings the docs show are the current core's.
# Usage: snapshots_fresh_test.sh KVCALC OUT_DIR
set -euo pipefail
repo_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
kvcalc="$1"
out_dir="$2"
rm -rf "$out_dir"
mkdir -p "$out_dir"
bash "$repo_dir/scripts/snapshots.sh" "$kvcalc" "$out_dir" >/dev/null
stale=0
for fresh in "$out_dir"/*.svg; do
  name="$(basename "$fresh")"
  committed="$repo_dir/docs/snapshots/$name"
  if [[ ! -f $committed ]]; then
    echo "docs/snapshots/$name is missing" >&2
    stale=1
  elif ! cmp -s "$fresh" "$committed"; then
    echo "docs/snapshots/$name differs from what the current core draws (regenerate: scripts/snapshots.sh BUILD/cli/kvcalc)" >&2
    stale=1
  fi
done
for committed in "$repo_dir"/docs/snapshots/*.svg; do
  [[ -f "$out_dir/$(basename "$committed")" ]] || { echo "docs/snapshots/$(basename "$committed") has no example in scripts/snapshots.sh" >&2; stale=1; }
done
exit $stale

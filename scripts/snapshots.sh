#!/usr/bin/env bash
# Regenerates the SVG snapshots of the worked examples in docs/KV_MATH.md (docs/snapshots/<name>.svg) from the one
# list below, with the native CLI. For each example it also prints the Markdown block the docs use: a live
# <iframe> of the published embed view and, for renderers without iframes, the snapshot linked to the calculator.
# Paste a changed block into the docs; tests/docs/links.test.mjs checks every link in them decodes cleanly.
# Usage: scripts/snapshots.sh [path/to/kvcalc [out_dir]]   (defaults build/native-release/cli/kvcalc, docs/snapshots)
# The ctest docs_snapshots_fresh (tests/scripts/snapshots_fresh_test.sh) writes them into the build folder and fails
# when a committed one differs.
set -euo pipefail
repo_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
kvcalc="${1:-$repo_dir/build/native-release/cli/kvcalc}"
site_url="$(head -n1 "$repo_dir/docs/site-url.txt")"
out_dir="${2:-$repo_dir/docs/snapshots}"
mkdir -p "$out_dir"

# name | kvcalc arguments (the command line shown in the docs, without "kvcalc")
examples=(
  "qwen27b-dual-turbo-20gb|--model qwen3.6-27b --compose dual-turbo --vram 20 --mem-util 0.82"
  "gemma31b-tp2-int8-max-ctx|--model gemma-4-31b --solve-max-ctx --tp 2 --kv-format int8_per_token_head --vram 24 --mem-util 0.92"
  "qwen35b-a3b-deltanet-state|--model qwen3.6-35b-a3b --gpu rtx-3090 --tp 2 --kv-format fp8_e5m2 --max-ctx 131072 --max-num-seqs 4 --mem-util 0.92"
  "gemma26b-a4b-long-context|--model gemma-4-26b-a4b --gpu rtx-3090 --kv-format fp8_e5m2 --max-ctx 262144 --mem-util 0.92"
  "llama31-8b-3090-max-ctx|--model llama-3.1-8b --gpu rtx-3090 --kv-format bf16 --max-ctx 8192 --mem-util 0.9 --solve-max-ctx"
)

for row in "${examples[@]}"; do
  name="${row%%|*}"
  read -r -a args <<<"${row#*|}"
  # Exit status 1 (FAIL) is an answer, not an error; 2 is bad input and stops the script.
  rc=0
  link="$("$kvcalc" "${args[@]}" --svg "$out_dir/$name.svg" --url "${site_url}embed.html" | sed -n 's/^Link: //p')" || rc=$?
  if [[ $rc -ge 2 || -z $link ]]; then
    echo "snapshots.sh: kvcalc ${args[*]} failed (exit $rc)" >&2
    exit 1
  fi
  query="${link#*\?}"
  cat <<EOF
<!-- $name: kvcalc ${args[*]} -->
<iframe src="${site_url}embed.html?${query//&/&amp;}&amp;unit=gb&amp;embed=1" width="520" height="420" style="border:0" title="kvcalc: $name" loading="lazy"></iframe>

[![kvcalc snapshot: $name](snapshots/$name.svg)](${site_url}?${query}&unit=gb)

EOF
done
echo "wrote ${#examples[@]} snapshots to $out_dir/" >&2

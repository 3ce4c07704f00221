#!/usr/bin/env bash
# Runs two kvcalc CLI binaries over the same scenario grid and lists every scenario whose whole --json report
# differs: the check that a refactoring changed no answer. Grid: every catalog model × 4 GPUs × TP 1/2 ×
# engines × KV formats, and every config.json under tests/data at TP 1/2/4 on 2 GPUs, each at 2 lengths.
# Usage: tools/behaviour/compare_reports.sh OLD_KVCALC NEW_KVCALC [OUT_DIR]
set -euo pipefail
old=$1 new=$2 out=${3:-$(mktemp -d)}
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
mkdir -p "$out"
models=$("$new" --list-models | grep -o '^[a-z0-9][a-z0-9.-]*' | sort -u)
gpus="rtx-3090 rtx-4090 h100-80gb l40s"
for g in $gpus; do "$new" --list-gpus | grep -q "^$g\b" || { echo "unknown GPU $g" >&2; exit 2; }; done
cases="$out/cases.txt"; : > "$cases"
for m in $models; do for g in $gpus; do for tp in 1 2; do
  for e in vllm llama.cpp sglang; do for kv in auto fp8_e4m3 int8_per_token_head; do
    echo "--model $m --gpu $g --tp $tp --engine $e --kv-format $kv --max-num-seqs 4" >> "$cases"
  done; done
done; done; done
while IFS= read -r f; do for g in rtx-4090 h100-80gb; do for tp in 1 2 4; do for len in 8192 32768; do
  echo "--config $f --gpu $g --tp $tp --max-model-len $len" >> "$cases"
done; done; done; done < <(find "$repo/tests/data" -name '*.json' -path '*configs*' | sort)
n=0 differ=0
while IFS= read -r c; do
  n=$((n + 1))
  # shellcheck disable=SC2086
  a=$("$old" $c --json 2>&1 || true); b=$("$new" $c --json 2>&1 || true)
  if [[ "$a" != "$b" ]]; then
    differ=$((differ + 1)); echo "DIFFERS: $c" >> "$out/differ.txt"
    diff <(echo "$a") <(echo "$b") > "$out/diff-$differ.txt" || true
  fi
done < "$cases"
echo "$n scenarios, $differ differ (details in $out)"

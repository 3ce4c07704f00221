#!/bin/sh
# One benchmark run with the Python seed beside kvcalc: times seed 003's predict() (extracted to /tmp, never
# copied into the repo) on the scenario kvcalc_bench times first (thread CPU time on both sides, best of five
# runs on both sides: the machine is shared), then runs kvcalc_bench with that number so the table prints both
# and the ratio. Seed 003's predict() returns six numbers and a verdict; kvcalc's predict() also builds the
# notes, buckets, breakdown, TP options, start-up lines and the command.
# Usage: bench/compare_python.sh [path/to/kvcalc_bench]   (or: cmake --build --preset native-release --target bench)
set -eu
BENCH=${1:-build/native-release/bench/kvcalc_bench}
SEED=${KVCALC_SEED_003:-../shared/seeds/003_d270ba3b8e91ff36.txt}
[ -f "$SEED" ] || SEED=/work/shared/seeds/003_d270ba3b8e91ff36.txt
if [ ! -f "$SEED" ]; then
    echo "seed 003 not found (set KVCALC_SEED_003): kvcalc numbers only" >&2
    exec "$BENCH"
fi
tail -n +3 "$SEED" > /tmp/kv003.py
PY_NS=$(python3 - <<'PY'
import sys, time
sys.path.insert(0, "/tmp")
import kv003
def run(n):
    t0 = time.thread_time()
    for i in range(n):
        kv003.predict(kv_format="turboquant_3bit_nc", max_ctx=200000 + (i & 1023), max_num_seqs=4, tp=2,
                      mem_util=0.82, vram_gb=20, mtp=True)
    return (time.thread_time() - t0) / n * 1e9
run(2000)  # warm-up
print(min(run(100000) for _ in range(5)))  # best of five, as kvcalc_bench times predict()
PY
)
exec "$BENCH" --seed-python-ns "$PY_NS"

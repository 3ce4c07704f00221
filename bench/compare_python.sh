#!/bin/sh
# Times the original Python predictor (seed 003, extracted to /tmp, never copied into the repo) on the
# scenario kvcalc_bench times (thread CPU time on both sides), and prints the ratio. Seed 003's predict()
# returns six numbers and a verdict; kvcalc's predict() also builds notes, buckets and the breakdown. Usage: bench/compare_python.sh [path/to/kvcalc_bench]
set -eu
BENCH=${1:-build/native-release/bench/kvcalc_bench}
SEED=${KVCALC_SEED_003:-../shared/seeds/003_d270ba3b8e91ff36.txt}
[ -f "$SEED" ] || SEED=/work/shared/seeds/003_d270ba3b8e91ff36.txt
tail -n +3 "$SEED" > /tmp/kv003.py
PY_NS=$(python3 - <<'PY'
import sys, time
sys.path.insert(0, "/tmp")
import kv003
n = 200000
t0 = time.thread_time()
for i in range(n):
    kv003.predict(kv_format="turboquant_3bit_nc", max_ctx=200000 + (i & 1023), max_num_seqs=4, tp=2,
                  mem_util=0.82, vram_gb=20, mtp=True)
print((time.thread_time() - t0) / n * 1e9)
PY
)
CPP_NS=$("$BENCH" --ns-per-predict)
python3 -c "print(f'Python seed 003 predict(): {float($PY_NS):.0f} ns; kvcalc predict(): {float($CPP_NS):.0f} ns; ratio {float($PY_NS)/float($CPP_NS):.1f}x')"

// A KV cache dtype without a kernel on the card fails the verdict, whatever the bytes: fp8_e4m3 needs sm_89
// (kv_format.cpp table; the RTX 3090 and A10 are sm_86, the RTX 4090 sm_89, NVIDIA's compute-capability list).
// The rule is in evaluate(), so the verdict, the solvers and every shopping row say the same.
#include <doctest/doctest.h>

#include <string>

#include "kvcalc/gpu_catalog.h"
#include "kvcalc/predict.h"
#include "kvcalc/solver.h"
#include "kvcalc/sweeps.h"

using namespace kvcalc;

namespace {

Scenario small_llama(const char* gpu, const char* kv) {
    Scenario s;
    s.model_id = "llama-3.1-8b";
    s.gpu = gpu;
    s.kv_cache_dtype = kv;
    s.max_model_len = 8192;
    s.max_num_seqs = 1;
    s.gpu_memory_utilization = 0.9;
    return s;
}

}  // namespace

TEST_SUITE("kv dtype on the card") {
    TEST_CASE("fp8_e4m3 on an RTX 3090 (sm_86) is FAIL and says it does not run") {
        const Report r = predict(small_llama("rtx-3090", "fp8_e4m3"));
        REQUIRE(r.ok);
        CHECK_FALSE(r.terms.kv_dtype_runs);
        CHECK(r.verdict == Verdict::fail);
        CHECK(r.reason.find("does not run on") != std::string::npos);
        CHECK_FALSE(solve_max_model_len(small_llama("rtx-3090", "fp8_e4m3")).ok);  // no length boots either
        // The same bytes in fp8_e5m2 (no hardware requirement) boot: 8K tokens of an 8B model on 24 GiB.
        const Report e5 = predict(small_llama("rtx-3090", "fp8_e5m2"));
        REQUIRE(e5.ok);
        CHECK(e5.terms.kv_dtype_runs);
        CHECK(e5.verdict != Verdict::fail);
    }

    TEST_CASE("fp8_e4m3 on an RTX 4090 (sm_89) runs") {
        const Report r = predict(small_llama("rtx-4090", "fp8_e4m3"));
        REQUIRE(r.ok);
        CHECK(r.terms.kv_dtype_runs);
        CHECK(r.verdict != Verdict::fail);
    }

    TEST_CASE("a card given only as a VRAM size is not failed by the hardware rule (its generation is unknown)") {
        Scenario s = small_llama("", "fp8_e4m3");
        s.vram_gib = 24.0;
        const Report r = predict(s);
        REQUIRE(r.ok);
        CHECK(r.terms.kv_dtype_runs);
    }

    TEST_CASE("shopping: no PASS or TIGHT row on a card the dtype does not run on") {
        std::vector<GpuSpec> gpus;
        for (const char* id : {"rtx-3090", "a10", "rtx-4090"}) gpus.push_back(*find_gpu(id));
        const std::vector<ShopRow> rows = shopping(small_llama("rtx-4090", "fp8_e4m3"), gpus, {1});
        REQUIRE(rows.size() == 3);
        for (const ShopRow& row : rows) {
            INFO(row.gpu_id);
            REQUIRE(row.valid);
            const bool sm86 = row.gpu_id != "rtx-4090";
            CHECK(row.runs == !sm86);
            if (sm86) {
                CHECK(row.verdict == Verdict::fail);
                CHECK(row.note.find("does not run on") != std::string::npos);
            } else {
                CHECK(row.verdict != Verdict::fail);
            }
        }
    }
}

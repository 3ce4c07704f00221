// The vLLM default batch (arg_utils.py get_batch_defaults: 8192 tokens for vllm serve on cards of ≥ 70 GiB
// except A100, else 2048) is shown in assumed_defaults when sliding-window pages depend on it
// (core/src/deployment/predict.cpp), also for a model priced by a calibrated fit.
#include <doctest/doctest.h>

#include <string>

#include "kvcalc/deployment/predict.h"

using namespace kvcalc;

namespace {

// gemma-4-26b-a4b (sliding-window layers), TP 2, q4_0 KV, 6,873 tokens × 278 sequences: only the card changes.
Report at_vram(double vram_gb) {
    Scenario s;
    s.engine = "vllm";
    s.model_id = "gemma-4-26b-a4b";
    s.tensor_parallel_size = 2;
    s.kv_cache_dtype = "q4_0";
    s.max_model_len = 6873;
    s.max_num_seqs = 278;
    s.gpu_memory_utilization = 0.5407779223454702;
    s.vram_gb = vram_gb;
    return predict(s);
}

bool lists(const Report& r, const std::string& start) {
    for (const auto& x : r.assumed_defaults)
        if (x.rfind(start, 0) == 0) return true;
    return false;
}

}  // namespace

TEST_SUITE("vllm_batch_default_note") {
    TEST_CASE("75.0 GB (69.85 GiB) assumes 2048 batched tokens, 75.2 GB (70.04 GiB) assumes 8192, and says so") {
        const Report small = at_vram(75.0);
        REQUIRE(small.ok);
        CHECK(lists(small, "max_num_batched_tokens 2048"));
        const Report large = at_vram(75.2);
        REQUIRE(large.ok);
        CHECK(lists(large, "max_num_batched_tokens 8192"));
        // The larger batch holds more sliding-window tokens per request, so that term grows with the card.
        CHECK(large.terms.kv_sliding_requested_bytes > small.terms.kv_sliding_requested_bytes);
    }
}

// The buckets table (engine_buckets, buckets.h) at the schema's limits: sliding-window bucket bytes where
// page × pages × layers is near 2^57.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include "kvcalc/io/api.h"

using namespace kvcalc;
using nlohmann::json;

TEST_SUITE("buckets") {
    TEST_CASE("10,000 sliding layers of 1e5 KV heads × head_dim 1e6 at max_model_len 16: 1.28e17 bytes exactly") {
        const json model = {{"id", "m"},
                            {"num_attention_heads", 100000},
                            {"layers", {{{"kind", "sliding_window"}, {"num_key_value_heads", 100000},
                                         {"head_dim", 1000000}, {"sliding_window", 4096}, {"count", 10000}}}},
                            {"weights", {{{"id", "w"}, {"size_gb", 1}}}}};
        const json out = json::parse(evaluate_json(
            json{{"model", model}, {"max_model_len", 16}, {"vram_gb", 1000000}}.dump()));
        REQUIRE(out["ok"] == true);
        REQUIRE(out["buckets"].size() == 1);
        // One layer keeps 1e5 heads × 1e6 × 2 (K and V) × 2 bytes (bf16) = 4e11 B per token; a vLLM page is
        // 16 tokens = 6.4e12 B. The window is cut to max_model_len (SlidingWindowSpec.max_memory_usage_bytes):
        // cdiv(min(4096 − 1 + batched, 16), 16) + 1 = 2 pages, × 10,000 layers = 1.28e17 bytes.
        CHECK(out["buckets"][0]["page_bytes"].get<long long>() == 6400000000000LL);
        CHECK(out["buckets"][0]["pages_per_request"] == 2);
        CHECK(out["buckets"][0]["kv_bytes_per_card"].get<long long>() == 128000000000000000LL);
        CHECK(out["buckets"][0]["layer_count"] == 10000);
    }
}

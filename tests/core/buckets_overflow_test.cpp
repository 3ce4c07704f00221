// cache_buckets (core/src/model/buckets.cpp): sliding-window bucket bytes where the ×400 fixed point has no
// headroom for window × layers.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include "kvcalc/io/api.h"

using namespace kvcalc;
using nlohmann::json;

TEST_SUITE("buckets") {
    TEST_CASE("10,000 sliding layers of 1e5 KV heads × head_dim 1e6 at max_model_len 16: 6.4e16 bytes exactly") {
        const json model = {{"id", "m"},
                            {"num_attention_heads", 100000},
                            {"layers", {{{"kind", "sliding_window"}, {"num_key_value_heads", 100000},
                                         {"head_dim", 1000000}, {"sliding_window", 4096}, {"count", 10000}}}},
                            {"weights", {{{"id", "w"}, {"size_gb", 1}}}}};
        const json out = json::parse(evaluate_json(
            json{{"model", model}, {"max_model_len", 16}, {"vram_gb", 1000000}}.dump()));
        REQUIRE(out["ok"] == true);
        REQUIRE(out["buckets"].size() == 1);
        // The window is cut to max_model_len: 16 tokens × 1e5 heads × 1e6 × 2 (K and V) × 2 bytes (bf16)
        // × 10,000 layers = 6.4e16 bytes.
        CHECK(out["buckets"][0]["fixed_bytes_per_card"].get<long long>() == 64000000000000000LL);
        CHECK(out["buckets"][0]["layer_count"] == 10000);
    }
}

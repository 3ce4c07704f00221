#include <doctest/doctest.h>

#include "kvcalc/buckets.h"
#include "kvcalc/catalog.h"

using namespace kvcalc;

TEST_SUITE("buckets") {
    TEST_CASE("Gemma 4 26B-A4B: one sliding and one full-attention bucket") {
        const auto b = cache_buckets(*find_model("gemma-4-26b-a4b"), *find_kv_format("bf16"), 1, 262144, 1);
        REQUIRE(b.size() == 2);
        CHECK(b[0].kind == "sliding_window");  // layer 0 is sliding
        CHECK(b[0].layer_count == 25);
        CHECK(b[0].fixed_bytes_per_card == 104857600);   // 25 × 8 × 256 × 1 × 2 × 1024
        CHECK(b[0].bytes_per_token_per_card == 0);
        CHECK(b[1].kind == "full_attention");
        CHECK(b[1].layer_count == 5);
        CHECK(b[1].bytes_per_token_per_card == 10240);   // 5 × 2 × 512 × 1 × 2
    }
    TEST_CASE("Qwen 3.6 27B: recurrent state scales with max_num_seqs") {
        const auto b = cache_buckets(*find_model("qwen3.6-27b"), *find_kv_format("fp8_e5m2"), 2, 262144, 4);
        REQUIRE(b.size() == 2);
        CHECK(b[0].kind == "recurrent_state");
        CHECK(b[0].layer_count == 48);
        CHECK(b[0].fixed_bytes_per_card == 153944064LL / 2 * 4);  // per seq at TP2 × 4 sequences
        CHECK(b[1].layer_count == 16);
        CHECK(b[1].bytes_per_token_per_card == 16384);
    }
}

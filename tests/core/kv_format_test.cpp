#include <doctest/doctest.h>

#include "kvcalc/base/kv_format.h"

using namespace kvcalc;

TEST_SUITE("kv_format") {
    TEST_CASE("bytes per element are the seed values as exact rationals") {
        // seed 000 table / constants.json: 2, 2, 1, 1, 1.01, 0.5625, 0.75, 0.425, 0.5625 (× 400).
        CHECK(find_kv_format("fp16")->bpe_x400 == 800);
        CHECK(find_kv_format("bf16")->bpe_x400 == 800);
        CHECK(find_kv_format("fp8_e5m2")->bpe_x400 == 400);
        CHECK(find_kv_format("fp8_e4m3")->bpe_x400 == 400);
        CHECK(find_kv_format("int8_per_token_head")->bpe_x400 == 404);  // 1.01 × 400
        CHECK(find_kv_format("q4_0")->bpe_x400 == 225);                 // (0.5 + 0.0625) × 400
        CHECK(find_kv_format("k8v4")->bpe_x400 == 300);                 // 0.75 × 400
        CHECK(find_kv_format("turboquant_3bit_nc")->bpe_x400 == 170);   // (0.375 + 0.05) × 400
        CHECK(find_kv_format("nvfp4")->bpe_x400 == 225);                // (0.5 + 0.0625) × 400
        // llama.cpp ggml block types, ggml-common.h: block_q8_0 34 B, block_q4_1 20 B, block_q5_0 22 B,
        // block_q5_1 24 B, block_iq4_nl 18 B, each per 32 values.
        CHECK(find_kv_format("q8_0")->bpe_x400 == 34 * 400 / 32);
        CHECK(find_kv_format("q4_1")->bpe_x400 == 20 * 400 / 32);
        CHECK(find_kv_format("q5_0")->bpe_x400 == 22 * 400 / 32);
        CHECK(find_kv_format("q5_1")->bpe_x400 == 24 * 400 / 32);
        CHECK(find_kv_format("iq4_nl")->bpe_x400 == 18 * 400 / 32);
    }
    TEST_CASE("names, order and unknown formats") {
        CHECK(kv_format_names().size() == 15);  // "auto" + the 14 sized formats
        CHECK(kv_format_names()[1] == "fp16");
        CHECK(find_kv_format("fp9") == nullptr);
        CHECK(find_kv_format("") == nullptr);
        for (const auto& f : kv_formats()) CHECK(static_cast<int>(f.id) == &f - &kv_formats()[0]);
    }
    TEST_CASE("hardware limits") {
        CHECK(find_kv_format("fp8_e4m3")->min_sm_x10 == 80);  // FlashInfer from sm_80; not on Turing (sm_75)
        CHECK(find_kv_format("nvfp4")->min_sm_x10 == 100);    // datacenter Blackwell only
        CHECK(find_kv_format("nvfp4")->max_sm_x10 == 103);
        CHECK(find_kv_format("fp8_e5m2")->min_sm_x10 == 0);
    }
    TEST_CASE("indexer formats") {
        CHECK(indexer_bpe_x400("fp4") == 200);  // 0.5 B
        CHECK(indexer_bpe_x400("int8") == 400);
        CHECK(indexer_bpe_x400("bf16") == 800);
        CHECK(indexer_bpe_x400("fp3") == -1);
    }
}

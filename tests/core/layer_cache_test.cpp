#include <doctest/doctest.h>

#include "kvcalc/catalog/catalog.h"
#include "kvcalc/base/kv_format.h"
#include "kvcalc/engines/engine_rules.h"
#include "kvcalc/model/layer_cache.h"
#include "test_util.h"

using namespace kvcalc;
using kvtest::per_token;

TEST_SUITE("layer_cache") {
    TEST_CASE("the original's quick-reference table: growing KV bytes per token, TP=1 / TP=2 (docs/SOURCES.md \"The KV formula\")") {
        SUBCASE("Qwen 3.6 27B: 16 layers × 4 heads × 256 × 2 (K, V) = 32,768 × bpe") {
            CHECK(per_token("qwen3.6-27b", "bf16", 1) == 65536);
            CHECK(per_token("qwen3.6-27b", "bf16", 2) == 32768);
            CHECK(per_token("qwen3.6-27b", "fp8_e5m2", 1) == 32768);
            CHECK(per_token("qwen3.6-27b", "fp8_e5m2", 2) == 16384);
            // Seed: 32,768 × 0.425 = 13,926.4 (prints 13,927) and 6,963.2. vLLM stores a head vector in whole bytes:
            // 256 × 0.425 = 108.8 → 109 B, so 16 × 4 × 2 × 109 = 13,952 and 6,976 (within 0.2 % of the seed).
            CHECK(per_token("qwen3.6-27b", "turboquant_3bit_nc", 1) == 16 * 4 * 2 * 109);
            CHECK(per_token("qwen3.6-27b", "turboquant_3bit_nc", 2) == 16 * 2 * 2 * 109);
            CHECK(per_token("qwen3.6-27b", "turboquant_3bit_nc", 1) == doctest::Approx(13926.4).epsilon(0.002));
        }
        SUBCASE("Qwen 3.6 35B-A3B: 10 × 2 × 256 × 2 = 10,240 × bpe") {
            CHECK(per_token("qwen3.6-35b-a3b", "bf16", 1) == 20480);
            CHECK(per_token("qwen3.6-35b-a3b", "bf16", 2) == 10240);
            CHECK(per_token("qwen3.6-35b-a3b", "fp8_e5m2", 1) == 10240);
            CHECK(per_token("qwen3.6-35b-a3b", "fp8_e5m2", 2) == 5120);
            // Seed 10,240 × 0.425 = 4,352 / 2,176; in whole 109 B head vectors 10 × 2 × 2 × 109 = 4,360 / 2,180.
            CHECK(per_token("qwen3.6-35b-a3b", "turboquant_3bit_nc", 1) == 10 * 2 * 2 * 109);
            CHECK(per_token("qwen3.6-35b-a3b", "turboquant_3bit_nc", 2) == 10 * 1 * 2 * 109);
            CHECK(per_token("qwen3.6-35b-a3b", "turboquant_3bit_nc", 1) == doctest::Approx(4352).epsilon(0.002));
        }
        // Gemma 4 from the real config.json text_config (google/gemma-4-31B-it, google/gemma-4-26B-A4B): the global
        // layers have num_global_key_value_heads × global_head_dim 512 and cache K and V although their weights hold
        // no v_proj (vllm/model_executor/models/gemma4.py Gemma4Attention). The seed's K=V-tied 163,840 / 10,240 B
        // at bf16 TP 1 no longer apply.
        SUBCASE("Gemma 4 31B: 10 × 4 × 512 × (K + V) = 40,960 × bpe") {
            CHECK(per_token("gemma-4-31b", "bf16", 1) == 81920);
            CHECK(per_token("gemma-4-31b", "bf16", 2) == 40960);
            CHECK(per_token("gemma-4-31b", "fp8_e5m2", 1) == 40960);
            CHECK(per_token("gemma-4-31b", "fp8_e5m2", 2) == 20480);
            // One byte per element plus a 4 B scale per 512-wide head vector, K and V each: 1,032 B a head, which
            // gemma4.py (Gemma4Attention kv_cache_page_size_padded) pads to 1,040 B.
            CHECK(per_token("gemma-4-31b", "int8_per_token_head", 1) == 10 * 4 * 1040);
            CHECK(per_token("gemma-4-31b", "int8_per_token_head", 2) == 10 * 2 * 1040);
        }
        SUBCASE("Gemma 4 26B-A4B: 5 × 2 × 512 × (K + V) = 10,240 × bpe") {
            CHECK(per_token("gemma-4-26b-a4b", "bf16", 1) == 20480);
            CHECK(per_token("gemma-4-26b-a4b", "bf16", 2) == 10240);
            CHECK(per_token("gemma-4-26b-a4b", "fp8_e5m2", 1) == 10240);
            CHECK(per_token("gemma-4-26b-a4b", "fp8_e5m2", 2) == 5120);
            CHECK(per_token("gemma-4-26b-a4b", "int8_per_token_head", 1) == 5 * 2 * 1040);
            CHECK(per_token("gemma-4-26b-a4b", "int8_per_token_head", 2) == 5 * 1 * 1040);
        }
    }
    TEST_CASE("the original's per-model format tables (docs/SOURCES.md \"KV formats\")") {
        // Qwen 27B: k8v4 32,768 × 0.75 = 24,576 / 12,288. q4_0 with the exact 9/16: 32,768 × 0.5625 = 18,432
        // (the seed table used the rounded 0.56: 18,350 / 9,175 — within 0.5 %).
        CHECK(per_token("qwen3.6-27b", "k8v4", 1) == 24576);
        CHECK(per_token("qwen3.6-27b", "k8v4", 2) == 12288);
        CHECK(per_token("qwen3.6-27b", "q4_0", 1) == 18432);
        CHECK(per_token("qwen3.6-27b", "q4_0", 1) == doctest::Approx(18350).epsilon(0.005));
        CHECK(per_token("qwen3.6-27b", "q4_0", 2) == doctest::Approx(9175).epsilon(0.005));
        // Gemma 31B (real config: 10 global layers × 4 KV heads, K and V): TQ3 in whole bytes per 512-wide head
        // vector (217.6 → 218 B) 10 × 4 × 2 × 218 = 17,440 / 8,720; q4_0 512 × 9/16 = 288 B a vector.
        CHECK(per_token("gemma-4-31b", "turboquant_3bit_nc", 1) == 10 * 4 * 2 * 218);
        CHECK(per_token("gemma-4-31b", "turboquant_3bit_nc", 2) == 10 * 2 * 2 * 218);
        CHECK(per_token("gemma-4-31b", "q4_0", 1) == 10 * 4 * 2 * 288);
        CHECK(per_token("gemma-4-31b", "q4_0", 2) == 10 * 2 * 2 * 288);
        // Gemma 26B-A4B q4_0: 5 × 2 × 2 × 288 = 5,760 / 2,880.
        CHECK(per_token("gemma-4-26b-a4b", "q4_0", 1) == 5760);
        CHECK(per_token("gemma-4-26b-a4b", "q4_0", 2) == 2880);
    }
    TEST_CASE("DeltaNet recurrent state") {
        const ModelSpec& m = *find_model("qwen3.6-35b-a3b");
        // docs/SOURCES.md "The KV formula" worked example: 30 × (2,048 + 4,096 + 4 × 6,144) × 4 B × 1 = 3,686,400 B.
        CHECK(seed_deltanet_state_bytes(m, 1) == 3686400);
        CHECK(seed_deltanet_state_bytes(m, 4) == 4 * 3686400);
        // Budget figure (k×v matrix per value head, fp32; conv over 2·2048 + 4096 = 8192 channels × 3, bf16):
        // per layer 32 × 128 × 128 × 4 + 8192 × 3 × 2 = 2,097,152 + 49,152 = 2,146,304; × 30 = 64,389,120 B.
        // The engine's plan prices it: vLLM's MambaSpec per layer, before its page rounding.
        const auto state = [](const char* model, int tp) {
            VllmSettings s;
            s.tensor_parallel_size = tp;
            s.kv_cache_dtype = "fp8_e5m2";
            std::int64_t bytes = 0;
            for (const VllmLayerType& t : make_vllm_plan(group_layers(*find_model(model)), s).types)
                if (t.kind == VllmLayerType::Kind::mamba) bytes += t.bytes * t.layers;
            return bytes;
        };
        CHECK(state("qwen3.6-35b-a3b", 1) == 64389120);
        CHECK(state("qwen3.6-35b-a3b", 2) == 64389120 / 2);
        // Qwen 27B: 48 × (48 × 128 × 128 × 4 + (2 × 2048 + 6144) × 3 × 2) = 48 × (3,145,728 + 61,440) = 153,944,064.
        CHECK(state("qwen3.6-27b", 1) == 153944064);
    }
    TEST_CASE("Gemma sliding-window fixed terms") {
        // K and V on every sliding layer (vllm/model_executor/models/gemma4.py: use_k_eq_v only on full layers).
        // 31B: 50 × 16 × 256 × 2 × 1024 = 419,430,400 × bpe; 26B-A4B: 25 × 8 × 256 × 2 × 1024 = 104,857,600 × bpe.
        const ModelSpec& g31 = *find_model("gemma-4-31b");
        const ModelSpec& g26 = *find_model("gemma-4-26b-a4b");
        CHECK(sliding_fixed_bytes(g31, *find_kv_format("bf16"), 1, 262144) == 2 * 419430400LL);
        CHECK(sliding_fixed_bytes(g31, *find_kv_format("fp8_e5m2"), 1, 262144) == 419430400LL);
        CHECK(sliding_fixed_bytes(g31, *find_kv_format("fp8_e5m2"), 2, 262144) == 209715200LL);
        CHECK(sliding_fixed_bytes(g26, *find_kv_format("bf16"), 1, 262144) == 2 * 104857600LL);
        CHECK(sliding_fixed_bytes(g26, *find_kv_format("fp8_e5m2"), 1, 262144) == 104857600LL);
        CHECK(sliding_fixed_bytes(g26, *find_kv_format("int8_per_token_head"), 1, 262144) == 105906176LL);  // × 1.01
        // A context shorter than the window keeps only that many tokens: 25 × 8 × 256 × 2 × 512 at fp8.
        CHECK(sliding_fixed_bytes(g26, *find_kv_format("fp8_e5m2"), 1, 512) == 52428800LL);
    }
    TEST_CASE("TP: split, replication, invalid values") {
        CHECK(kv_heads_per_rank(16, 2) == 8);
        CHECK(kv_heads_per_rank(4, 4) == 1);
        CHECK(kv_heads_per_rank(2, 4) == 1);  // replicated
        CHECK(kv_heads_per_rank(4, 8) == 1);  // replicated
        CHECK(kv_heads_per_rank(4, 3) == 0);
        CHECK(kv_heads_per_rank(3, 2) == 0);
        CHECK(kv_heads_per_rank(6, 4) == 0);  // 4 > 6 is false and 4 does not divide 6
        // 35B-A3B at TP=4: 2 KV heads replicated → one head per rank, same per-token bytes as TP=2.
        CHECK(per_token("qwen3.6-35b-a3b", "fp8_e5m2", 4) == 5120);
        CHECK(valid_tensor_parallel_sizes(*find_model("qwen3.6-27b")) == std::vector<int>{1, 2, 4, 8});
        const auto d = check_tensor_parallel(*find_model("qwen3.6-27b"), 3);
        REQUIRE(d.size() == 1);
        CHECK(d[0].field == "tensor_parallel_size");
        CHECK(d[0].message.find("Valid values: 1, 2, 4, 8") != std::string::npos);
        CHECK_FALSE(check_tensor_parallel(*find_model("qwen3.6-27b"), 16).empty());
        CHECK_FALSE(check_tensor_parallel(*find_model("qwen3.6-27b"), 0).empty());
    }
    TEST_CASE("gemma-4-12b measured growing KV replaces the layer formula") {
        // The layer view applies a measured per-token figure (45,632 B/token bf16 TP1; fp8 halves it; TP2 halves
        // again, 22,816 = the boot log: 8.16 GiB / 384,019 tokens).
        const auto per_token = [](const char* model, const char* format, int tp) {
            const auto fp = model_footprint(*find_model(model), *find_kv_format(format), tp);
            return static_cast<double>(fp.growing_x400_per_token) / kBpeDenominator;
        };
        CHECK(per_token("gemma-4-12b", "bf16", 1) == 45632);
        CHECK(per_token("gemma-4-12b", "bf16", 2) == 22816);
        CHECK(per_token("gemma-4-12b", "fp8_e5m2", 1) == 22816);
    }
}

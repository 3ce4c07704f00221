// SGLang token pool, hand-worked; the QwQ-32B start-up log is checked in real_cases_test.
#include <doctest/doctest.h>

#include <string>

#include "kvcalc/catalog/catalog_popular.h"
#include "kvcalc/engines/engine_rules.h"
#include "kvcalc/config/hf_config.h"
#include "kvcalc/deployment/predict.h"

using namespace kvcalc;

namespace {
kvcalc::ModelSpec model(const std::string& id) { return kvcalc::popular_model(id).value(); }
constexpr std::int64_t kGiB = 1073741824;
}  // namespace

TEST_SUITE("engine_sglang") {
    TEST_CASE("MHA pool: cell size and token count") {
        kvcalc::SglangSettings s;
        s.tp_size = 2;
        const auto p = kvcalc::predict_sglang_kv(model("qwen3-32b"), s, 8 * kGiB);
        CHECK(p.cell_size_bytes == 64 * 4 * 128 * 2 * 2);  // 131,072 B per token per rank
        CHECK(p.max_total_num_tokens == 65536);          // 8 GiB / 131072 B
        CHECK(p.k_bytes == 4 * kGiB);
    }

    TEST_CASE("MLA pool and the DeepSeek V3.2 indexer") {
        kvcalc::SglangSettings s;
        s.tp_size = 8;
        CHECK(kvcalc::predict_sglang_kv(model("deepseek-v3"), s, kGiB).cell_size_bytes == 61 * 576 * 2);
        const auto v32 = kvcalc::read_hf_config(R"({"model_type":"deepseek_v32","num_hidden_layers":61,
            "hidden_size":7168,"num_attention_heads":128,"kv_lora_rank":512,"qk_rope_head_dim":64,"qk_nope_head_dim":128,
            "v_head_dim":128,"q_lora_rank":1536,"index_head_dim":128,"index_n_heads":64,"max_position_embeddings":163840})");
        REQUIRE_FALSE(kvcalc::has_error(v32.diagnostics));
        // Per layer: latent 576 × 2 B + indexer key 128 fp8 + one 4-byte scale = 1,284 B.
        CHECK(kvcalc::predict_sglang_kv(v32.spec, s, kGiB).cell_size_bytes == 61 * 1284);
        s.kv_cache_dtype = "fp8_e4m3";
        // Source: sgl-project/sglang memory_pool.py NSATokenToKVPool, fp8 store: 512 fp8 latent + 512/128 fp32
        // scales + 64 bf16 rope = 656 B, indexer key 128 fp8 + one fp32 scale = 132 B per layer.
        const auto cell = kvcalc::predict_sglang_kv(v32.spec, s, kGiB).cell_size_bytes;
        CHECK(cell == 61 * (656 + 132));
        // Real start-up log (sgl-project/sglang PR #11309, DeepSeek-V3.2-Exp --tp 8 --dp 8 on 8xB200):
        // "KV Cache is allocated. #tokens: 975424, KV size: 43.67 GB" (GiB). 43.67 GiB / 975,424 tokens lies in
        // [48,063, 48,074] B per token given the 2-decimal print; the bf16 layout (78,324 B) would be 71.15 GiB.
        CHECK(cell * 975424 >= static_cast<std::int64_t>(43.665 * kGiB));
        CHECK(cell * 975424 <= static_cast<std::int64_t>(43.675 * kGiB));
    }

    TEST_CASE("pool budget from the start-up numbers") {
        // QwQ-32B on L4 (real case): 6.09 − 21.63 × (1 − 0.85) = 2.8455 GiB.
        const auto b = kvcalc::sglang_kv_pool_bytes(static_cast<std::int64_t>(21.63 * kGiB),
                                                    static_cast<std::int64_t>(6.09 * kGiB), 0.85);
        CHECK(static_cast<double>(b) / kGiB == doctest::Approx(2.8455).epsilon(1e-4));
        CHECK(kvcalc::sglang_kv_pool_bytes(kGiB, kGiB, 1.5) == 0);
        CHECK(kvcalc::sglang_kv_pool_bytes(10 * kGiB, kGiB, 0.5) == 0);
    }

    TEST_CASE("unknown dtype and bad TP are errors") {
        kvcalc::SglangSettings s;
        s.kv_cache_dtype = "q4_0";
        CHECK(kvcalc::has_error(kvcalc::predict_sglang_kv(model("qwen3-8b"), s, kGiB).diagnostics));
        s.kv_cache_dtype = "auto";
        s.tp_size = 3;
        CHECK(kvcalc::has_error(kvcalc::predict_sglang_kv(model("qwen3-8b"), s, kGiB).diagnostics));
    }
}

TEST_SUITE("engine_sglang") {
    TEST_CASE("SGLang: cell size per rank at TP 4 (sglang-qwq-32b-4xL4-tp4 facts)") {
        Scenario s;
        s.config_json = R"({"architectures":["Qwen2ForCausalLM"],"model_type":"qwen2","num_hidden_layers":64,
            "hidden_size":5120,"num_attention_heads":40,"num_key_value_heads":8,"intermediate_size":27648,
            "vocab_size":152064,"max_position_embeddings":131072,"torch_dtype":"bfloat16"})";
        s.engine = "sglang";
        s.kv_cache_dtype = "bf16";
        s.tensor_parallel_size = 4;
        s.gpu = "l4";
        s.max_model_len = 32768;
        const Report r = predict(s);
        REQUIRE(r.ok);
        REQUIRE(r.startup.available);
        // 64 layers × (8 / 4) KV heads × head_dim 5120 / 40 = 128 × (K + V) × 2 B = 65,536 B per token per rank.
        CHECK(r.startup.kv_bytes_per_token == 65536);
        CHECK(r.startup.gpu_kv_cache_tokens == r.startup.available_kv_bytes / 65536);
    }
}

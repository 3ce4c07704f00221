// vLLM KV rules, hand-worked (arithmetic in the comments) and against published log lines.
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
bool mentions(const std::vector<std::string>& notes, const std::string& word) {
    for (const auto& n : notes) {
        if (n.find(word) != std::string::npos) return true;
    }
    return false;
}
}  // namespace

TEST_SUITE("engine_vllm") {
    TEST_CASE("dense GQA: Llama 3.1 8B bf16, 10 GiB pool") {
        kvcalc::VllmSettings s;
        s.max_model_len = 32768;
        const auto p = kvcalc::predict_vllm_kv(model("llama-3.1-8b"), s, {10 * kGiB});
        REQUIRE_FALSE(kvcalc::has_error(p.diagnostics));
        CHECK(p.kv_bytes_per_token == 131072);  // 32 layers × 8 heads × 128 × 2 (K,V) × 2 B
        CHECK(p.num_blocks == 5120);            // 10 GiB / (16 tokens × 131072 B)
        CHECK(p.gpu_kv_cache_tokens == 81920);
        CHECK(p.max_concurrency == doctest::Approx(2.5));  // 5120 blocks / (32768 / 16)
        CHECK_FALSE(p.refuses_to_start);
        CHECK(p.num_kv_cache_groups == 1);
    }

    TEST_CASE("kv_cache_dtype: fp8 halves, int8_per_token_head adds a 4-byte scale per head and tensor") {
        kvcalc::VllmSettings s;
        s.max_model_len = 4096;
        for (const char* dtype : {"fp8", "fp8_e5m2", "int8_per_token_head", "nvfp4"}) {
            SUBCASE(dtype) {
                s.kv_cache_dtype = dtype;
                const auto p = kvcalc::predict_vllm_kv(model("llama-3.1-8b"), s, {kGiB});
                const std::string d = dtype;
                if (d == "int8_per_token_head") {
                    CHECK(p.kv_bytes_per_token == 32 * 8 * (128 + 4) * 2);  // 67,584
                } else if (d == "nvfp4") {
                    CHECK(p.kv_bytes_per_token == 32 * 8 * 72 * 2);  // 128 × 9/16 = 72 B per head vector
                } else {
                    CHECK(p.kv_bytes_per_token == 65536);
                }
            }
        }
        s.kv_cache_dtype = "q8_0";  // a llama.cpp name is not a vLLM dtype
        CHECK(kvcalc::has_error(kvcalc::predict_vllm_kv(model("llama-3.1-8b"), s, {kGiB}).diagnostics));
    }

    TEST_CASE("TP splits KV heads, replicates them when TP > heads, and rejects TP that does neither") {
        kvcalc::VllmSettings s;
        s.max_model_len = 40960;
        s.tensor_parallel_size = 8;  // Qwen3-235B has 4 KV heads: one replicated head per rank
        auto p = kvcalc::predict_vllm_kv(model("qwen3-235b-a22b"), s, {8 * kGiB});
        CHECK(p.kv_bytes_per_token == 94 * 1 * 128 * 2 * 2);  // 48,128 (same as TP=4, see real case)
        s.tensor_parallel_size = 3;
        p = kvcalc::predict_vllm_kv(model("qwen3-235b-a22b"), s, {8 * kGiB});
        REQUIRE(kvcalc::has_error(p.diagnostics));
        CHECK(p.diagnostics.front().code == "tp_not_divisor");
        CHECK(p.diagnostics.front().message.find("1, 2, 4, 8") != std::string::npos);
    }

    TEST_CASE("MLA: one latent per token per layer, no ×2, not split by TP") {
        kvcalc::VllmSettings s;
        s.max_model_len = 163840;
        s.tensor_parallel_size = 8;
        const auto p = kvcalc::predict_vllm_kv(model("deepseek-v3"), s, {20 * kGiB});
        REQUIRE_FALSE(kvcalc::has_error(p.diagnostics));
        CHECK(p.kv_bytes_per_token == 61 * 576 * 2);  // 70,272 B on every rank
    }

    TEST_CASE("sliding window + hybrid allocator: gpt-oss-20b") {
        kvcalc::VllmSettings s;
        s.max_model_len = 131072;
        s.max_num_batched_tokens = 8192;
        const auto p = kvcalc::predict_vllm_kv(model("gpt-oss-20b"), s, {10 * kGiB});
        REQUIRE_FALSE(kvcalc::has_error(p.diagnostics));
        CHECK(p.kv_bytes_per_token == 12 * 8 * 64 * 2 * 2);  // only the 12 full layers grow: 24,576 B
        // Sliding layers keep min(128 − 1 + 8192, 131072) = 8319 tokens → ceil(8319/16) + 1 = 521 blocks each.
        CHECK(p.sliding_bytes_per_sequence == 12LL * 521 * 16 * 2048);
        CHECK(p.num_kv_cache_groups == 2);  // 12 full + 12 sliding layers share 12 tensors
        // 10 GiB / (12 tensors × 16 × 2048 B page) = 27,306 blocks; printed tokens = 27306 // 2 × 16.
        CHECK(p.num_blocks == 27306);
        CHECK(p.gpu_kv_cache_tokens == 13653 * 16);
        CHECK(p.max_concurrency == doctest::Approx(27306.0 / (8192 + 521)));
        CHECK(mentions(p.notes, "misleading") == false);
        CHECK(mentions(p.notes, "Maximum concurrency"));
        s.disable_hybrid_kv_cache_manager = true;  // sliding layers then cost full length
        const auto off = kvcalc::predict_vllm_kv(model("gpt-oss-20b"), s, {10 * kGiB});
        CHECK(off.kv_bytes_per_token == 24 * 8 * 64 * 2 * 2);
        CHECK(off.num_kv_cache_groups == 1);
    }

    TEST_CASE("page unification: Gemma 4 31B, global pages twice the sliding ones") {
        std::string types;
        for (int i = 0; i < 60; ++i) types += std::string(i ? "," : "") + ((i % 6 == 5) ? "\"full_attention\"" : "\"sliding_attention\"");
        const auto c = kvcalc::read_hf_config(R"({"model_type":"gemma4_text","num_hidden_layers":60,"hidden_size":5376,
            "num_attention_heads":32,"num_key_value_heads":16,"head_dim":256,"global_head_dim":512,
            "attention_k_eq_v":true,"sliding_window":1024,"max_position_embeddings":262144,"layer_types":[)" + types + "]}");
        REQUIRE_FALSE(kvcalc::has_error(c.diagnostics));
        kvcalc::VllmSettings s;
        s.max_model_len = 262144;
        const auto p = kvcalc::predict_vllm_kv(c.spec, s, {10 * kGiB});
        REQUIRE_FALSE(kvcalc::has_error(p.diagnostics));
        // No num_global_key_value_heads here, so the global layers keep num_key_value_heads 16; K and V are both
        // cached (vllm/model_executor/models/gemma4.py Gemma4Attention: k_eq_v loads k_proj into the V slot too).
        CHECK(p.kv_bytes_per_token == 327680);     // 10 × 16 × 512 × (K + V) × 2 B
        CHECK(p.page_size_bytes == 16 * 32768);    // global page; sliding layers get 32-token blocks of 16,384 B
        CHECK(p.num_kv_cache_groups == 6);         // groups of 10 layers: 1 global + 5 sliding
        CHECK(p.num_blocks == 10 * kGiB / (524288 * 10));
    }

    TEST_CASE("refusal: needed KV above the pool gives vLLM's estimated maximum model length") {
        kvcalc::VllmSettings s;
        s.max_model_len = 131072;
        // 1 GiB for Llama 3.1 8B: 1 GiB / 131072 B = 8192 tokens exactly.
        const auto p = kvcalc::predict_vllm_kv(model("llama-3.1-8b"), s, {kGiB});
        CHECK(p.refuses_to_start);
        CHECK(p.kv_needed_bytes == 131072LL * 131072);  // 16 GiB
        CHECK(p.estimated_max_model_len == 8192);
        const auto none = kvcalc::predict_vllm_kv(model("llama-3.1-8b"), s, {-2 * kGiB});
        CHECK(none.refuses_to_start);
        CHECK(none.num_blocks == 0);
    }

    TEST_CASE("max_model_len above max_position_embeddings is flagged, not silently priced") {
        kvcalc::VllmSettings s;
        s.max_model_len = 1000000;  // Llama 3.1 supports 131072
        const auto p = kvcalc::predict_vllm_kv(model("llama-3.1-8b"), s, {100 * kGiB});
        REQUIRE_FALSE(p.diagnostics.empty());
        CHECK(p.diagnostics.front().code == "max_model_len_above_model");
        CHECK(p.diagnostics.front().severity == kvcalc::Severity::warning);
    }

    TEST_CASE("the pool is the minimum over ranks") {
        kvcalc::VllmSettings s;
        s.max_model_len = 8192;
        s.tensor_parallel_size = 2;
        const auto p = kvcalc::predict_vllm_kv(model("llama-3.1-8b"), s, {10 * kGiB, 8 * kGiB});
        CHECK(p.available_kv_bytes == 8 * kGiB);
        CHECK(p.available_kv_gib == doctest::Approx(8.0));
    }

    TEST_CASE("recurrent state: Qwen3-Next, one state page per sequence, two in align mode") {
        kvcalc::VllmSettings s;
        s.max_model_len = 262144;
        s.tensor_parallel_size = 2;
        const auto p = kvcalc::predict_vllm_kv(model("qwen3-next-80b-a3b"), s, {20 * kGiB});
        REQUIRE_FALSE(kvcalc::has_error(p.diagnostics));
        CHECK(p.kv_bytes_per_token == 12 * 1 * 256 * 2 * 2);  // 2 KV heads / TP 2 = 1 per rank: 12,288 B
        // Per GDN layer and rank: state 524,288/2 × 2 B (bf16 model dtype) + conv 24,576/2 × 2 B = 548,864 B.
        CHECK(p.state_bytes_per_sequence == 36LL * 548864);
        s.mamba_prefix_caching_align = true;
        const auto a = kvcalc::predict_vllm_kv(model("qwen3-next-80b-a3b"), s, {20 * kGiB});
        CHECK(a.state_bytes_per_sequence == 2 * 36LL * 548864);
        CHECK(mentions(a.notes, "block size raised"));
    }

    TEST_CASE("parallel hybrid: Falcon-H1 7B keeps KV and a Mamba-2 state in every layer") {
        kvcalc::VllmSettings s;
        s.max_model_len = 32768;
        const auto p = kvcalc::predict_vllm_kv(model("falcon-h1-7b"), s, {10 * kGiB});
        REQUIRE_FALSE(kvcalc::has_error(p.diagnostics));
        CHECK(p.kv_bytes_per_token == 44 * 2 * 128 * 2 * 2);  // 45,056 B
        // Per layer: state 24 heads × 128 × 256 = 786,432 × 2 B + conv (4 − 1) × (3072 + 2 × 256) = 10,752 × 2 B.
        CHECK(p.state_bytes_per_sequence == 44LL * (786432 * 2 + 10752 * 2));
    }
}

TEST_SUITE("engine_vllm") {
    TEST_CASE("kv formats upstream vLLM lacks: no start-up numbers, a note and the command say what was priced") {
        Scenario s;
        s.kv_cache_dtype = "q4_0";  // llama.cpp's; vLLM's CacheDType has no q4_0
        const Report r = predict(s);
        REQUIRE(r.ok);
        CHECK_FALSE(r.startup.available);
        CHECK(mentions(r.startup.notes, "q4_0"));
        CHECK(r.command.rfind("# kvcalc:", 0) == 0);
        CHECK(r.command.find("--kv-cache-dtype nvfp4") != std::string::npos);
        s.kv_cache_dtype = "turboquant_3bit_nc";  // vllm/config/cache.py CacheDType has it
        CHECK(predict(s).startup.available);
    }
}

#include "kvcalc/config/param_count.h"
#include "kvcalc/config/safetensors.h"
#include "test_data.h"

TEST_SUITE("vllm") {
    TEST_CASE("real Gemma 4 31B config.json: the full layers cache K and V though their weights hold no v_proj") {
        // google/gemma-4-31B-it text_config (tests/data/checkpoints/gemma-4-31b): 60 layers, every 6th
        // full_attention, num_global_key_value_heads 4 × global_head_dim 512 on the 10 full layers,
        // num_key_value_heads 16 × head_dim 256 on the 50 sliding ones, attention_k_eq_v true.
        const auto c = kvcalc::read_hf_config(kvcalc::test::data_file("checkpoints/gemma-4-31b/config.json"));
        REQUIRE_FALSE(kvcalc::has_error(c.diagnostics));
        kvcalc::VllmSettings s;
        s.max_model_len = 262144;
        // vllm/model_executor/models/gemma4.py Gemma4Attention: k_eq_v loads k_proj into both the K and the V slot
        // of QKVParallelLinear, and Attention caches k and v: 10 × 4 × 512 × 2 × 2 B = 81,920 B per token at bf16.
        s.kv_cache_dtype = "bfloat16";
        CHECK(kvcalc::predict_vllm_kv(c.spec, s, {10 * kGiB}).kv_bytes_per_token == 10 * 4 * 512 * 2 * 2);
        CHECK(kvcalc::predict_vllm_kv(c.spec, s, {10 * kGiB}).kv_bytes_per_token == 81920);
        s.tensor_parallel_size = 2;  // 2 KV heads per rank
        CHECK(kvcalc::predict_vllm_kv(c.spec, s, {10 * kGiB}).kv_bytes_per_token == 40960);
        // int8_per_token_head: gemma4.py's comment gives a global head (512 × 1) × 2 + 8 = 1,032 B per token (K and
        // V, each with its 4-byte scale), padded to 1,040 = 2 × 520 (kv_cache_page_size_padded = block_size ×
        // heads per GPU × 1040) so it divides the sliding heads' (256 × 1) × 2 + 8 = 520: 10 × 2 heads × 1,040.
        s.kv_cache_dtype = "int8_per_token_head";
        const auto int8 = kvcalc::predict_vllm_kv(c.spec, s, {10 * kGiB});
        CHECK(int8.kv_bytes_per_token == 10 * 2 * 1040);
        CHECK(int8.page_size_bytes == 16 * 8 * 520);  // a sliding layer's block: 16 tokens × 8 heads per rank × 520 B
        CHECK_FALSE(mentions(int8.notes, "not multiples"));

        // Weights: the real index has no v_proj on a full layer (5) and one on a sliding layer (0).
        const auto index =
            kvcalc::read_safetensors_index(kvcalc::test::data_file("checkpoints/gemma-4-31b/model.safetensors.index.json"));
        auto has = [&](const std::string& name) {
            for (const auto& t : index.tensor_names)
                if (t == name) return true;
            return false;
        };
        CHECK(has("model.language_model.layers.0.self_attn.v_proj.weight"));
        CHECK_FALSE(has("model.language_model.layers.5.self_attn.v_proj.weight"));
        CHECK(has("model.language_model.layers.5.self_attn.k_proj.weight"));
        // So the count has k_proj only on the full layers: q, k, (v,) o + q/k norms of head_dim each.
        const std::int64_t h = 5376;
        const std::int64_t sliding = h * 32 * 256 + 2 * h * 16 * 256 + 32 * 256 * h + 2 * 256;
        const std::int64_t full = h * 32 * 512 + 1 * h * 4 * 512 + 32 * 512 * h + 2 * 512;
        const auto p = kvcalc::count_parameters(c.spec, c.arch);
        CHECK(p.attention == 50 * sliding + 10 * full);
        // The language model's bf16 bytes stay under the checkpoint's total_size, which also holds the vision tower.
        CHECK(2 * p.total() < index.total_size_bytes);
        CHECK(index.total_size_bytes == 62546177752LL);
    }
}

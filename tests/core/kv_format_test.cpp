#include <doctest/doctest.h>

#include <string_view>

#include "kvcalc/base/kv_format.h"
#include "kvcalc/catalog/catalog.h"
#include "kvcalc/config/gguf.h"
#include "kvcalc/engines/engine_rules.h"
#include "kvcalc/model/layer_cache.h"

using namespace kvcalc;

TEST_SUITE("kv_format") {
    TEST_CASE("bytes per element are the seed values as exact rationals") {
        // docs/SOURCES.md "KV formats" (kv-calc.py line 169): 2, 2, 1, 1, 1.01, 0.5625, 0.75, 0.425, 0.5625 (× 400).
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

TEST_SUITE("kv_format") {
    TEST_CASE("one table of element sizes: the ggml cache types agree with ggml's own type table") {
        // ggml/src/ggml.c type_traits (blck_size, type_size), kept in ggml_types(): q8_0 34 B per 32 values, q4_0 and
        // iq4_nl 18, q4_1 20, q5_0 22, q5_1 24, f16 / bf16 2 per value. The KV format table must say the same.
        for (const char* name : {"q8_0", "q4_0", "q4_1", "q5_0", "q5_1", "iq4_nl", "bf16"}) {
            CAPTURE(name);
            const KvFormat* f = find_kv_format(name);
            REQUIRE(f);
            const GgmlType* t = nullptr;
            for (const GgmlType& g : ggml_types())
                if (std::string_view(g.name) == name) t = &g;
            REQUIRE(t);
            CHECK(f->bpe_x400 * t->block_size == t->type_size * kBpeDenominator);
        }
        // fp16 is ggml's f16.
        CHECK(find_kv_format("fp16")->bpe_x400 == 2 * kBpeDenominator);
    }

    TEST_CASE("the engines' element storage comes from the table, in lowest terms") {
        const auto storage = [](const char* name) { return kv_element_storage(*find_kv_format(name)); };
        CHECK(storage("fp8_e4m3").num == 1);
        CHECK(storage("fp8_e4m3").den == 1);
        CHECK(storage("q8_0").num == 17);  // 34 B per 32 values
        CHECK(storage("q8_0").den == 16);
        CHECK(storage("turboquant_3bit_nc").num == 17);  // 3/8 + 1/20 = 17/40
        CHECK(storage("turboquant_3bit_nc").den == 40);
        // int8_per_token_head: 1 B per element and an fp32 scale per token and head (vLLM PR #40391).
        CHECK(storage("int8_per_token_head").num == 1);
        CHECK(storage("int8_per_token_head").den == 1);
        CHECK(storage("int8_per_token_head").scale_bytes_per_head == 4);
    }

    TEST_CASE("each engine's cache dtype names price the table's sizes") {
        // Qwen 3.6 27B: 16 full-attention layers × 4 KV heads × 256 × 2 (K, V) = 32,768 elements per token at TP 1.
        const ModelSpec& m = *find_model("qwen3.6-27b");
        const auto vllm = [&](const char* dtype) {
            VllmSettings s;
            s.kv_cache_dtype = dtype;
            return make_vllm_plan(group_layers(m), s).kv_bytes_per_token;
        };
        CHECK(vllm("fp8") == 32768);  // vLLM's "fp8" and "fp8_inc" are e4m3 on CUDA, one byte
        CHECK(vllm("fp8_inc") == 32768);
        CHECK(vllm("half") == 65536);
        CHECK(vllm("bf16") == 65536);
        CHECK(vllm("turboquant_k8v4") == 24576);  // 3/4 B
        CHECK(vllm("nvfp4") == 16 * 4 * 2 * 144);  // 256 × 9/16 = 144 B per head vector
        CHECK(vllm("q8_0") == 0);  // a ggml name is not a vLLM dtype: no plan
        const auto sglang = [&](const char* dtype) {
            SglangSettings s;
            s.kv_cache_dtype = dtype;
            return predict_sglang_kv(m, s, 1).cell_size_bytes;
        };
        CHECK(sglang("bfloat16") == 65536);
        CHECK(sglang("fp16") == 65536);
        CHECK(sglang("fp8_e5m2") == 32768);
        CHECK(sglang("nvfp4") == 0);  // not an SGLang pool dtype: an error, no pool
        LlamaCppSettings l;
        l.n_ctx = 4096;
        l.cache_type_k = "q8_0";
        l.cache_type_v = "q4_0";
        // K at 17/16 B, V at 9/16 B: 16 × 4 × 256 × (17 + 9) / 16 = 26,624 B per token.
        CHECK(predict_llama_cpp_kv(m, l).kv_bytes_per_token == 26624);
        l.cache_type_k = l.cache_type_v = "f32";  // llama.cpp's f32, which kvcalc has no KV format for
        CHECK(predict_llama_cpp_kv(m, l).kv_bytes_per_token == 32768 * 4);
    }
}

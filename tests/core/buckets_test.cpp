#include <doctest/doctest.h>

#include "kvcalc/model/buckets.h"
#include "kvcalc/catalog/catalog.h"

using namespace kvcalc;

#include "kvcalc/deployment/predict.h"

namespace {

Report vllm_report(const char* model, const char* kv, int tp, std::int64_t len, std::int64_t seqs) {
    Scenario s;
    s.model_id = model;
    s.gpu = "h100-80gb";
    s.kv_cache_dtype = kv;
    s.tensor_parallel_size = tp;
    s.max_model_len = len;
    s.max_num_seqs = seqs;
    s.max_num_batched_tokens = 2048;
    return predict(s);
}

}  // namespace

TEST_SUITE("buckets") {
    TEST_CASE("Gemma 4 26B-A4B under vLLM: one sliding and one full-attention bucket, each as vLLM pages it") {
        const Report r = vllm_report("gemma-4-26b-a4b", "bf16", 1, 262144, 1);
        REQUIRE(r.ok);
        const auto& b = r.buckets;
        REQUIRE(b.size() == 2);
        // Both layer types cache K and V (vllm/model_executor/models/gemma4.py Gemma4Attention; the full layers'
        // attention_k_eq_v only drops v_proj from the weights). Sliding layers: 8 KV heads × 256 dims × (K + V) × 2 B
        // = 8,192 B per token; full layers: 2 × 512 × 2 × 2 B = 4,096 B. vLLM (kv_cache_utils.py
        // unify_kv_cache_spec_page_size): the largest page is 16 × 8,192 = 131,072 B, so full layers get blocks of
        // 131,072 / 4,096 = 32 tokens; groups of min(25, 5) = 5 layers.
        CHECK(b[0].kind == "sliding_window");  // layer 0 is sliding
        CHECK(b[0].layer_count == 25);
        CHECK(b[0].engine.term == BucketTerm::sliding);
        CHECK(b[0].engine.page_bytes == 131072);
        CHECK(b[0].engine.tokens_per_page == 16);
        // SlidingWindowSpec.max_memory_usage_bytes: cdiv(min(1024 − 1 + 2048, 262144), 16) + 1 = 193 blocks.
        CHECK(b[0].engine.pages_per_request == 193);
        CHECK(b[0].engine.bytes_per_token_per_card == 25 * 8192);
        CHECK(b[0].kv_bytes_per_card == 5LL * 193 * 131072 * 5);  // 5 groups × 193 blocks × page × 5 layers
        CHECK(b[1].kind == "full_attention");
        CHECK(b[1].layer_count == 5);
        CHECK(b[1].engine.bytes_per_token_per_card == 20480);  // 5 × 2 × 512 × (K + V) × 2 B
        CHECK(b[1].engine.tokens_per_page == 32);
        CHECK(b[1].engine.pages_per_request == 262144 / 32);
        CHECK(b[1].kv_bytes_per_card == 8192LL * 131072 * 5);
        CHECK(b[0].kv_bytes_per_card + b[1].kv_bytes_per_card == r.terms.kv_requested_bytes);
    }
    TEST_CASE("Qwen 3.6 27B under vLLM: the recurrent state is one padded page per request") {
        const Report r = vllm_report("qwen3.6-27b", "fp8_e5m2", 2, 262144, 4);
        REQUIRE(r.ok);
        const auto& b = r.buckets;
        REQUIRE(b.size() == 2);
        CHECK(b[0].kind == "recurrent_state");
        CHECK(b[0].layer_count == 48);
        // State per layer per sequence: 153,944,064 / 48 = 3,207,168 B at TP1, 1,603,584 B at TP2. Full layers
        // keep 16,384 / 16 = 1,024 B per token at TP2 fp8, so vLLM's hybrid alignment raises the block to
        // 16 × cdiv(1,603,584, 16 × 1,024) = 1,568 tokens and every page to 1,568 × 1,024 = 1,605,632 B.
        CHECK(b[0].engine.term == BucketTerm::state);
        CHECK(b[0].engine.page_bytes == 1605632);
        CHECK(b[0].engine.tokens_per_page == 0);
        CHECK(b[0].engine.pages_per_request == 1);
        CHECK(b[0].kv_bytes_per_card == 48LL * 1605632 * 4);  // 3 groups of 16 layers × 1 page × 4 requests
        CHECK(b[1].layer_count == 16);
        CHECK(b[1].engine.bytes_per_token_per_card == 16384);
        CHECK(b[1].engine.tokens_per_page == 1568);
        CHECK(b[1].engine.pages_per_request == 168);  // cdiv(262,144, 1,568)
        CHECK(b[1].kv_bytes_per_card == 168LL * 1605632 * 16 * 4);
    }
}


TEST_SUITE("buckets") {
    TEST_CASE("Gemma 3 27B under vLLM: the buckets are the padded pages the verdict prices, and add up to it") {
        // Gemma 3 27B (config.json): 62 layers, sliding_window 1024 with every 6th layer global -> 52 sliding and 10
        // full layers; 16 KV heads x 128 dims, K+V, bf16 = 8,192 B per token per layer.
        Scenario s;
        s.model_id = "gemma-3-27b";
        s.gpu = "a100-80gb";
        s.kv_cache_dtype = "bf16";
        s.max_model_len = 131072;
        s.max_num_seqs = 4;
        s.max_num_batched_tokens = 2048;
        const Report r = predict(s);
        REQUIRE(r.ok);
        REQUIRE(r.buckets.size() == 2);
        // vLLM (kv_cache_interface.py, kv_cache_utils.py): block 16 -> page 16 x 8192 = 131,072 B per layer; KV
        // cache groups of min(52, 10) = 10 layers share tensors: 1 full group, cdiv(52, 10) = 6 sliding groups.
        // Full: cdiv(131072, 16) = 8192 blocks; sliding (SlidingWindowSpec.max_memory_usage_bytes):
        // cdiv(min(1024 - 1 + 2048, 131072), 16) + 1 = 193 blocks; bytes = groups x blocks x page x 10 layers.
        std::int64_t sliding = 0, full = 0;
        for (const auto& b : r.buckets) (b.kind == "sliding_window" ? sliding : full) += b.kv_bytes_per_card;
        CHECK(full == 4LL * 1 * 8192 * 131072 * 10);     // 42,949,672,960 B
        CHECK(sliding == 4LL * 6 * 193 * 131072 * 10);   //  6,071,255,040 B (the per-layer view: 1,744,830,464)
        CHECK(full + sliding == r.terms.kv_requested_bytes);
    }
    TEST_CASE("every engine's buckets add up to the KV it priced") {
        for (const char* engine : {"vllm", "llama.cpp", "sglang"}) {
            for (const char* model : {"gemma-3-27b", "qwen3.6-27b", "deepseek-v3", "llama-3.1-8b", "falcon-h1-7b"}) {
                Scenario s;
                s.engine = engine;
                s.model_id = model;
                s.gpu = "h200";
                s.tensor_parallel_size = 2;
                s.max_model_len = 65536;
                s.max_num_seqs = 3;
                const Report r = predict(s);
                INFO(engine, " ", model);
                REQUIRE(r.ok);
                std::int64_t sum = 0;
                for (const auto& b : r.buckets) sum += b.kv_bytes_per_card;
                CHECK(sum == r.terms.kv_requested_bytes);
            }
        }
    }
}

TEST_SUITE("buckets") {
    TEST_CASE("Falcon-H1: the parallel Mamba state is in the footprint, the buckets and the breakdown") {
        Scenario s;
        s.model_id = "falcon-h1-7b";
        s.gpu = "h100-80gb";
        s.max_model_len = 32768;
        s.max_num_seqs = 2;
        s.kv_cache_dtype = "bf16";
        const Report r = predict(s);
        REQUIRE(r.ok);
        // Per layer: state 24 heads × 128 × 256 × 2 B + conv (4 − 1) × (3072 + 2 × 256) × 2 B = 1,594,368 B. vLLM
        // raises the attention block to 16 × cdiv(1,594,368, 16 × 1,024) = 1,568 tokens and pads each state to
        // one page of 1,568 × 1,024 B = 1,605,632 B: 44 layers × 2 requests × 1,605,632 = 141,295,616 B.
        CHECK(r.terms.recurrent_state_requested_bytes == 141'295'616);
        CHECK(r.breakdown.layout == "hybrid_mamba");
        CHECK(r.breakdown.recurrent_state_bytes == 141'295'616);
        std::int64_t bucket_state = 0;
        int attention_layers = 0;
        for (const auto& b : r.buckets) {
            if (b.kind == "recurrent_state") {
                bucket_state += b.kv_bytes_per_card;
                CHECK(b.engine.page_bytes == 1'605'632);  // the padded page, not the 1,594,368-byte state
            }
            if (b.kind == "full_attention") attention_layers += b.layer_count;
        }
        CHECK(bucket_state == 141'295'616);  // the buckets hold what vLLM allocates, as the term does
        CHECK(attention_layers == 44);
        // Attention: 44 layers × 2 KV heads × 128 × 2 × 2 B = 45,056 B per token.
        CHECK(r.terms.kv_bytes_per_token == 45056.0);
    }
}

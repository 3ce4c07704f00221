#include <doctest/doctest.h>

#include "kvcalc/model/activation.h"
#include "kvcalc/catalog/catalog.h"
#include "kvcalc/deployment/predict.h"

using namespace kvcalc;

TEST_SUITE("activation") {
    TEST_CASE("qwen3-next-hybrid: coef × GDN layers × max_model_len / TP") {
        const ModelSpec& m = *find_model("qwen3.6-27b");
        const ActivationFit& fit = *find_activation_fit("qwen3-next-hybrid");
        // 165 × 48 × 262,144 / 2 = 1,038,090,240 (the original prints 1.04 GB for dual-turbo; docs/SOURCES.md "Activation").
        CHECK(activation_peak_bytes(fit, m, 48, *find_kv_format("turboquant_3bit_nc"), 262144, 2, std::nullopt) == 1038090240LL);
        // 130 × 48 × 180,000 / 1 = 1,123,200,000 (fp8).
        CHECK(activation_peak_bytes(fit, m, 48, *find_kv_format("fp8_e5m2"), 180000, 1, std::nullopt) == 1123200000LL);
    }
    TEST_CASE("qwen3-next-moe adds the 0.20 GB per-card dispatch constant") {
        const ModelSpec& m = *find_model("qwen3.6-35b-a3b");
        // 105 × 30 × 262,144 / 2 + 200,000,000 = 412,876,800 + 200,000,000.
        CHECK(activation_peak_bytes(*find_activation_fit("qwen3-next-moe"), m, 30, *find_kv_format("fp8_e4m3"), 262144, 2,
                                    std::nullopt) == 612876800LL);
    }
    TEST_CASE("Gemma fits are flat constants plus a small per-token slope, all / TP") {
        const ModelSpec& m = *find_model("gemma-4-31b");
        // (1.5e9 + 8 × 262,144) / 2 = 751,048,576.
        CHECK(activation_peak_bytes(*find_activation_fit("gemma4-swa-dense"), m, 0, *find_kv_format("bf16"), 262144, 2,
                                    std::nullopt) == 751048576LL);
        // (1.8e9 + 12 × 100,000) / 1 = 1,801,200,000.
        CHECK(activation_peak_bytes(*find_activation_fit("gemma4-swa-moe"), *find_model("gemma-4-26b-a4b"), 0,
                                    *find_kv_format("bf16"), 100000, 1, std::nullopt) == 1801200000LL);
    }
    TEST_CASE("GDN chunked-prefill scratch delta") {
        const ModelSpec& m = *find_model("qwen3.6-27b");
        // TP2, 16,384 tokens: h = 256 chunks × 24 heads × 128 × 128 × 2 = 201,326,592; v_new + o = 2 × 16,384 × 24 × 128 × 2
        // = 201,326,592 → 402,653,184. At 8,192: 100,663,296 + 100,663,296 = 201,326,592.
        CHECK(gdn_prefill_scratch_bytes(m, 2, 16384) == 402653184LL);
        CHECK(gdn_prefill_scratch_bytes(m, 2, 8192) == 201326592LL);
        const ActivationFit& fit = *find_activation_fit("qwen3-next-hybrid");
        const auto fmt = *find_kv_format("turboquant_3bit_nc");
        CHECK(activation_peak_bytes(fit, m, 48, fmt, 262144, 2, 16384) ==
              1038090240LL + 402653184LL - 201326592LL);
        // Not applied to families without linear attention.
        CHECK(gdn_prefill_scratch_bytes(*find_model("gemma-4-31b"), 2, 16384) == 0);
        CHECK(find_activation_fit("no-such-family") == nullptr);
        CHECK(find_activation_fit("generic") == find_activation_fit("generic-dense"));
    }
}

TEST_SUITE("activation") {
    TEST_CASE("GDN scratch delta: the JSON reports the delta actually applied when the peak clamps at 0") {
        // qwen3.6-27b, fp8_e5m2, TP1, max_model_len 1: activation without the delta = 130 × 48 GDN layers × 1 =
        // 6,240 B. max_num_batched_tokens 1 shrinks the scratch by 401,055,744 B (vs 8,192): the peak clamps at 0,
        // so only −6,240 B of the delta applies.
        Scenario s;
        s.model_id = "qwen3.6-27b";
        s.kv_cache_dtype = "fp8_e5m2";  // the seed's settings the numbers were worked at
        s.max_num_seqs = 1;
        s.gpu_memory_utilization = 0.95;
        s.max_model_len = 1;
        s.max_num_batched_tokens = 1;
        const Report r = predict(s);
        REQUIRE(r.ok);
        CHECK(r.terms.activation_bytes == 0);
        CHECK(r.terms.gdn_scratch_delta_bytes == -6240);
        s.max_num_batched_tokens = 16384;  // no clamp: the full delta, +402,653,184 B
        const Report up = predict(s);
        CHECK(up.terms.gdn_scratch_delta_bytes == 402653184);
        CHECK(up.terms.activation_bytes == 6240 + 402653184);
    }
}

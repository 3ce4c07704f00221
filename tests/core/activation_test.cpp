#include <doctest/doctest.h>

#include "kvcalc/model/activation.h"
#include "kvcalc/catalog/catalog.h"

using namespace kvcalc;

TEST_SUITE("activation") {
    TEST_CASE("qwen3-next-hybrid: coef × GDN layers × max_model_len / TP") {
        const ModelSpec& m = *find_model("qwen3.6-27b");
        const ActivationFit& fit = *find_activation_fit("qwen3-next-hybrid");
        // 165 × 48 × 262,144 / 2 = 1,038,090,240 (seed 003 dual-turbo prints 1.04 GB).
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

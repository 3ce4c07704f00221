// llama.cpp KV buffers, hand-worked; the printed-log comparisons live in real_cases_test.
#include <doctest/doctest.h>

#include <string>

#include "kvcalc/catalog/catalog_popular.h"
#include "kvcalc/engines/engine_rules.h"

namespace {
kvcalc::ModelSpec model(const std::string& id) { return kvcalc::popular_model(id).value(); }
constexpr double kMiB = 1048576.0;
}  // namespace

TEST_SUITE("engine_llama_cpp") {
    TEST_CASE("cache types: f16, q8_0 = 34 B per 32, q4_0 = 18 B per 32") {
        kvcalc::LlamaCppSettings s;
        s.n_ctx = 8192;
        auto p = kvcalc::predict_llama_cpp_kv(model("llama-3.1-8b"), s);
        CHECK(p.kv_bytes_per_token == 131072);  // 32 × 1024 × 2 B × 2
        CHECK(p.total_bytes / kMiB == doctest::Approx(1024.0));
        s.cache_type_k = s.cache_type_v = "q8_0";
        p = kvcalc::predict_llama_cpp_kv(model("llama-3.1-8b"), s);
        CHECK(p.kv_bytes_per_token == 32 * 1024 * 34 / 32 * 2);  // 69,632 B
        s.cache_type_k = s.cache_type_v = "q4_0";
        p = kvcalc::predict_llama_cpp_kv(model("llama-3.1-8b"), s);
        CHECK(p.kv_bytes_per_token == 32 * 1024 * 18 / 32 * 2);  // 36,864 B
        s.cache_type_k = "fp8";  // a vLLM name is not a ggml type
        CHECK(kvcalc::has_error(kvcalc::predict_llama_cpp_kv(model("llama-3.1-8b"), s).diagnostics));
    }

    TEST_CASE("sliding cache: window + n_ubatch cells padded to 256, per sequence") {
        kvcalc::LlamaCppSettings s;
        s.n_ctx = 65536;
        s.n_seq_max = 4;
        s.n_ubatch = 512;
        const auto p = kvcalc::predict_llama_cpp_kv(model("gemma-3-12b"), s);
        CHECK(p.streams == 4);
        CHECK(p.full_cells == 16384);           // 65536 / 4 sequences
        CHECK(p.swa_cells == 1536);             // pad256(1024 + 512)
        CHECK(p.full_layers == 8);              // 48 / 6
        CHECK(p.swa_layers == 40);
        // 40 layers × 1536 cells × 4 streams × (8 heads × 256) × 2 (K,V) × 2 B = 2,013,265,920 B = 1920 MiB.
        CHECK(p.swa_bytes / kMiB == doctest::Approx(1920.0));
    }

    TEST_CASE("architectures without an SWA cache in llama.cpp get the full context (Mistral v0.1)") {
        kvcalc::LlamaCppSettings s;
        s.n_ctx = 8192;
        const auto p = kvcalc::predict_llama_cpp_kv(model("mistral-7b-v0.1"), s);
        CHECK(p.swa_layers == 0);
        CHECK(p.full_layers == 32);
        CHECK_FALSE(p.notes.empty());
    }

    TEST_CASE("MLA keeps one 576-wide latent per layer (V is a view of K)") {
        kvcalc::LlamaCppSettings s;
        s.n_ctx = 4096;
        const auto p = kvcalc::predict_llama_cpp_kv(model("deepseek-v3"), s);
        CHECK(p.kv_bytes_per_token == 61 * 576 * 2);
    }

    TEST_CASE("bad settings are errors") {
        kvcalc::LlamaCppSettings s;
        s.n_ctx = 0;
        CHECK(kvcalc::has_error(kvcalc::predict_llama_cpp_kv(model("llama-3.1-8b"), s).diagnostics));
    }
}

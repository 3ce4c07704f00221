// Parameter counts against the totals published on the model cards, and weight bytes per dtype.
#include <doctest/doctest.h>

#include <cmath>
#include <string>

#include "kvcalc/catalog/catalog_popular.h"
#include "kvcalc/config/hf_config.h"
#include "kvcalc/config/param_count.h"
#include "test_data.h"

namespace {

struct Counted {
    kvcalc::HfConfig cfg;
    kvcalc::ParamBreakdown params;
};

Counted count(const std::string& id) {
    for (const auto& s : kvcalc::popular_model_sources()) {
        if (s.id == id) {
            Counted c{kvcalc::read_hf_config(s.config_json), {}};
            c.params = kvcalc::count_parameters(c.cfg.spec, c.cfg.arch);
            return c;
        }
    }
    FAIL("no catalog entry ", id);
    return {};
}

double billions(std::int64_t n) { return static_cast<double>(n) / 1e9; }

}  // namespace

TEST_SUITE("param_count") {
    // Published totals (model cards). Tolerance 1% unless the card rounds harder; multimodal cards count the
    // vision tower, which kvcalc does not (Gemma 3: SigLIP 0.42B; Mistral Small 3.1/3.2: Pixtral 0.44B).
    TEST_CASE("dense models match their published parameter counts") {
        CHECK(billions(count("llama-3.1-8b").params.total()) == doctest::Approx(8.03).epsilon(0.01));
        CHECK(billions(count("llama-3.1-70b").params.total()) == doctest::Approx(70.6).epsilon(0.01));
        CHECK(billions(count("llama-3.2-1b").params.total()) == doctest::Approx(1.24).epsilon(0.01));
        CHECK(billions(count("llama-3.2-3b").params.total()) == doctest::Approx(3.21).epsilon(0.01));
        CHECK(billions(count("qwen3-8b").params.total()) == doctest::Approx(8.19).epsilon(0.01));
        CHECK(billions(count("qwen3-32b").params.total()) == doctest::Approx(32.8).epsilon(0.01));
        CHECK(billions(count("qwen2.5-7b").params.total()) == doctest::Approx(7.61).epsilon(0.01));
        CHECK(billions(count("mistral-7b-v0.1").params.total()) == doctest::Approx(7.24).epsilon(0.01));
        CHECK(billions(count("phi-4").params.total()) == doctest::Approx(14.7).epsilon(0.01));
        CHECK(billions(count("mistral-small-3.2-24b").params.total()) + 0.44 == doctest::Approx(24.0).epsilon(0.01));
        CHECK(billions(count("gemma-3-27b").params.total()) + 0.42 == doctest::Approx(27.4).epsilon(0.01));
        CHECK(billions(count("gemma-3-12b").params.total()) + 0.42 == doctest::Approx(12.2).epsilon(0.01));
    }

    TEST_CASE("MoE and MLA models match their published totals and active counts") {
        CHECK(billions(count("qwen3-30b-a3b").params.total()) == doctest::Approx(30.5).epsilon(0.01));
        const auto q235 = count("qwen3-235b-a22b");
        CHECK(billions(q235.params.total()) == doctest::Approx(235.0).epsilon(0.01));
        CHECK(billions(q235.params.active(q235.cfg.spec)) == doctest::Approx(22.0).epsilon(0.02));
        CHECK(billions(count("gpt-oss-20b").params.total()) == doctest::Approx(20.91).epsilon(0.01));
        CHECK(billions(count("gpt-oss-120b").params.total()) == doctest::Approx(116.83).epsilon(0.01));
        const auto v3 = count("deepseek-v3");  // 671B main model (the 14B MTP module is not counted)
        CHECK(billions(v3.params.total()) == doctest::Approx(671.0).epsilon(0.01));
        CHECK(billions(v3.params.active(v3.cfg.spec)) == doctest::Approx(37.0).epsilon(0.02));
        CHECK(billions(count("deepseek-v2-lite").params.total()) == doctest::Approx(15.7).epsilon(0.01));
        CHECK(billions(count("qwen3-next-80b-a3b").params.total()) == doctest::Approx(80.0).epsilon(0.01));
        // Kimi K2's card says "1T total": 3% covers that rounding.
        CHECK(billions(count("kimi-k2").params.total()) == doctest::Approx(1000.0).epsilon(0.03));
    }

    TEST_CASE("hand-worked Llama 3.1 8B breakdown") {
        const auto c = count("llama-3.1-8b");
        CHECK(c.params.embedding == 128256LL * 4096);           // 525,336,576
        CHECK(c.params.lm_head == c.params.embedding);          // untied
        CHECK(c.params.attention == 32LL * (2 * 4096 * 4096 + 2 * 4096 * 1024));  // q,o + k,v
        CHECK(c.params.dense_mlp == 32LL * 3 * 4096 * 14336);
        CHECK(c.params.routed_experts == 0);
    }

    TEST_CASE("weights per dtype") {
        const auto c = count("llama-3.1-8b");
        // bf16: 8,030,261,248 params × 2 B.
        CHECK(kvcalc::estimate_weights(c.params, c.cfg.arch, "bf16").bytes == doctest::Approx(2.0 * 8030261248.0));
        // fp8: linear layers 1 B, embeddings + lm_head + norms 2 B.
        const double linear = static_cast<double>(c.params.attention + c.params.dense_mlp);
        const double rest = static_cast<double>(c.params.embedding + c.params.lm_head + c.params.norms);
        CHECK(kvcalc::estimate_weights(c.params, c.cfg.arch, "fp8").bytes == doctest::Approx(linear + 2 * rest));
        // int4, group 128: 0.5 B + one fp16 scale per 128 weights = 0.515625 B.
        CHECK(kvcalc::estimate_weights(c.params, c.cfg.arch, "int4").bytes ==
              doctest::Approx(linear * 0.515625 + 2 * rest));
        // nvfp4: 0.5 B + one fp8 scale per 16 = 0.5625 B.
        CHECK(kvcalc::estimate_weights(c.params, c.cfg.arch, "nvfp4").bytes ==
              doctest::Approx(linear * 0.5625 + 2 * rest));
        const auto bad = kvcalc::estimate_weights(c.params, c.cfg.arch, "int3");
        CHECK(kvcalc::has_error(bad.diagnostics));
        CHECK(bad.bytes == 0.0);
    }

    TEST_CASE("3-bit GPTQ weights are priced as int4 (the next wider layout) and say so") {
        // TheBloke's Llama GPTQ repos ship 3-bit branches (quantize_config: bits 3, group_size 128).
        auto c = count("llama-3.1-8b");
        c.cfg.arch.quant_method = "gptq";
        c.cfg.arch.quant_bits = 3;
        c.cfg.arch.quant_group_size = 128;
        const double linear = static_cast<double>(c.params.attention + c.params.dense_mlp);
        const double rest = static_cast<double>(c.params.embedding + c.params.lm_head + c.params.norms);
        const auto w = kvcalc::estimate_weights(c.params, c.cfg.arch, "auto");
        CHECK(w.dtype == "int4");
        CHECK(w.bytes == doctest::Approx(linear * 0.515625 + 2 * rest));
        REQUIRE(w.diagnostics.size() == 1);
        CHECK(w.diagnostics[0].code == "weights_rounded_up");
        CHECK(w.diagnostics[0].message.find("3-bit") != std::string::npos);
        c.cfg.arch.quant_bits = 4;  // a 4-bit config has its own layout: no warning
        CHECK(kvcalc::estimate_weights(c.params, c.cfg.arch, "auto").diagnostics.empty());
    }

    TEST_CASE("auto reads quantization_config: gpt-oss mxfp4 experts") {
        const auto c = count("gpt-oss-120b");
        const auto w = kvcalc::estimate_weights(c.params, c.cfg.arch, "auto");
        CHECK(w.dtype == "mxfp4");
        // Experts at 0.5 + 1/32 B, everything else bf16. The openai/gpt-oss-120b safetensors total about 65 GB.
        CHECK(w.bytes / 1e9 == doctest::Approx(65.0).epsilon(0.02));
    }

    TEST_CASE("Llama 3.3 70B FP8 loads 67.72 GiB in vLLM (real-cases.json vllm-h100-llama33-70b-fp8-tp1-fail)") {
        auto c = count("llama-3.3-70b");
        CHECK(kvcalc::estimate_weights(c.params, c.cfg.arch, "fp8").bytes / 1073741824.0 ==
              doctest::Approx(67.72).epsilon(0.01));
    }
}

TEST_SUITE("per-layer embeddings") {
    TEST_CASE("Gemma 4 E2B: embed_tokens_per_layer and its projections count in the weights (vLLM gemma4.py)") {
        // tests/data/configs/gemma-4-e2b.json (SOURCES.tsv): vocab_size 262144, hidden_size 1536,
        // hidden_size_per_layer_input 256, 35 layers, no vocab_size_per_layer_input (vLLM falls back to vocab_size).
        const kvcalc::HfConfig c = kvcalc::read_hf_config(kvcalc::test::config_file("gemma-4-e2b.json"));
        REQUIRE_FALSE(kvcalc::has_error(c.diagnostics));
        CHECK(c.arch.hidden_size_per_layer_input == 256);
        CHECK(c.arch.vocab_size_per_layer_input == 262144);
        // embed_tokens_per_layer 262144 × (35 × 256) = 2,348,810,240; per_layer_model_projection 1536 × 8960 =
        // 13,762,560; per_layer_projection_norm 256; per layer input gate 1536 × 256, projection 256 × 1536 and
        // post_per_layer_input_norm 1536: 35 × 787,968 = 27,578,880.
        CHECK(kvcalc::per_layer_embedding_params(c.arch, 1536, 35) == 2348810240LL + 13762560 + 256 + 27578880);
        const kvcalc::ParamBreakdown p = kvcalc::count_parameters(c.spec, c.arch);
        CHECK(p.embedding == 262144LL * 1536 + 2390151936LL);
        // A model without per-layer inputs keeps vocab × hidden.
        kvcalc::HfArchitecture plain = c.arch;
        plain.hidden_size_per_layer_input = 0;
        CHECK(kvcalc::per_layer_embedding_params(plain, 1536, 35) == 0);
    }
}

// Which top-k/top-p sampler vLLM's profile run uses, per era and install (vllm_sampler.h), and the field that says.
#include <doctest/doctest.h>

#include <cmath>

#include "kvcalc/base/units.h"
#include "kvcalc/catalog/catalog.h"
#include "kvcalc/deployment/predict.h"
#include "kvcalc/engines/vllm/sampler.h"

using namespace kvcalc;

namespace {
constexpr double kGiB = 1073741824.0;
}

TEST_SUITE("vllm sampler") {
    TEST_CASE("what pip install vllm gets at each release (requirements/cuda.txt, #26443, #26859, #40376)") {
        // 0.9.1-0.11.0 wheels did not require flashinfer-python (added to requirements/cuda.txt by #26443,
        // 2025-10-09): their logs print "FlashInfer is not available. Falling back to the PyTorch-native ...".
        CHECK(vllm_default_sampler(VllmEra::v0_9) == VllmSampler::pytorch);
        // #26859 (2025-10-14): FlashInfer installed but off unless VLLM_USE_FLASHINFER_SAMPLER=1, through 0.20.
        CHECK(vllm_default_sampler(VllmEra::v0_11) == VllmSampler::pytorch);
        CHECK(vllm_default_sampler(VllmEra::v0_17) == VllmSampler::pytorch);
        // #40376 (2026-04-29): "Enable FlashInfer top-k/top-p sampler by default".
        CHECK(vllm_default_sampler(VllmEra::v0_21) == VllmSampler::flashinfer);
        CHECK(vllm_default_sampler(VllmEra::v0) == VllmSampler::pytorch);
    }

    TEST_CASE("bytes per row × vocab entry follow the sampler that runs (topk_topp_sampler.py)") {
        // 0.9-0.11.0: FlashInfer where installed (Docker images), the sort path in plain wheels.
        CHECK(vllm_sampler_bytes_per_row_vocab(VllmEra::v0_9, VllmSampler::pip_default, 256) == 37.5);
        CHECK(vllm_sampler_bytes_per_row_vocab(VllmEra::v0_9, VllmSampler::flashinfer, 256) == 14.2);
        CHECK(vllm_sampler_bytes_per_row_vocab(VllmEra::v0_9, VllmSampler::flashinfer, 4) == 14.2);
        // 0.11.1-0.16 sort unless VLLM_USE_FLASHINFER_SAMPLER=1.
        CHECK(vllm_sampler_bytes_per_row_vocab(VllmEra::v0_11, VllmSampler::pip_default, 256) == 37.5);
        CHECK(vllm_sampler_bytes_per_row_vocab(VllmEra::v0_11, VllmSampler::flashinfer, 256) == 14.2);
        // 0.17+: apply_top_k_top_p_triton from 8 rows (#33538), the sort below.
        CHECK(vllm_sampler_bytes_per_row_vocab(VllmEra::v0_17, VllmSampler::pytorch, 256) == 14.2);
        CHECK(vllm_sampler_bytes_per_row_vocab(VllmEra::v0_17, VllmSampler::pytorch, 7) == 37.5);
        CHECK(vllm_sampler_bytes_per_row_vocab(VllmEra::v0_21, VllmSampler::flashinfer, 256) == 14.2);
        CHECK(vllm_sampler_bytes_per_row_vocab(VllmEra::v0, VllmSampler::flashinfer, 256) == 4.0);
    }

    TEST_CASE("the sort path's extra peak matches a public FlashInfer-vs-native pair of boots") {
        // flashinfer-ai/flashinfer issue #1180 (2025-06-26, vLLM 0.9.x, one card, same model and flags):
        // "Using FlashInfer for top-p & top-k sampling" → Available KV cache memory 4.00 GiB; the same image with
        // VLLM_USE_FLASHINFER_SAMPLER=0 ("Falling back to the PyTorch-native implementation") → 2.49 GiB:
        // the sort path costs 1.51 GiB more. At the < 70 GiB card default of 256 rows that is 1.51 GiB / 256 rows =
        // 6.2 MiB per row, i.e. (37.5 − 14.2) B × V for V = 272K (Gemma 3's 262,144-entry vocabulary gives 1.46).
        const double per_entry = vllm_sampler_bytes_per_row_vocab(VllmEra::v0_9, VllmSampler::pytorch, 256) -
                                 vllm_sampler_bytes_per_row_vocab(VllmEra::v0_9, VllmSampler::flashinfer, 256);
        CHECK(per_entry * 256 * 262144 / kGiB == doctest::Approx(1.51).epsilon(0.05));
    }

    TEST_CASE("vllm_sampler: spellings, and an unknown one is an error naming the field") {
        CHECK(parse_vllm_sampler("") == VllmSampler::pip_default);
        CHECK(parse_vllm_sampler("auto") == VllmSampler::pip_default);
        CHECK(parse_vllm_sampler("FlashInfer") == VllmSampler::flashinfer);
        CHECK(parse_vllm_sampler("pytorch") == VllmSampler::pytorch);
        CHECK_FALSE(parse_vllm_sampler("triton-ish").has_value());
        Scenario s;
        s.model_id = "llama-3.1-8b";
        s.gpu = "a100-80gb";
        s.max_model_len = 8192;
        s.vllm_version = "0.10.1.1";
        s.vllm_sampler = "bogus";
        const Report bad = predict(s);
        CHECK_FALSE(bad.ok);
        int named = 0;
        for (const auto& d : bad.diagnostics)
            if (d.field == "vllm_sampler" && d.severity == Severity::error) {
                ++named;
                CHECK(d.message.find("bogus") != std::string::npos);
                CHECK(d.message.find("flashinfer") != std::string::npos);
            }
        CHECK(named == 1);
    }

    TEST_CASE("the report's settings say which sampler and usage context were priced (#40376, get_batch_defaults)") {
        // Regression: the JSON settings named the era but not the sampler or how vLLM was started.
        Scenario s;
        s.model_id = "llama-3.1-8b";
        s.gpu = "a100-80gb";
        s.max_model_len = 8192;
        s.vllm_version = "0.10.1.1";  // a plain pip wheel of 0.10 has no FlashInfer: the sort path
        const Report old_pip = predict(s);
        REQUIRE(old_pip.ok);
        CHECK(old_pip.settings.vllm_sampler == "pytorch");
        CHECK(old_pip.settings.vllm_usage_context == "openai_api_server");
        s.vllm_version = "0.21";  // FlashInfer on by default from #40376
        s.vllm_usage_context = "LLM";
        const Report offline = predict(s);
        REQUIRE(offline.ok);
        CHECK(offline.settings.vllm_sampler == "flashinfer");
        CHECK(offline.settings.vllm_usage_context == "llm_class");
        s.engine = "llama.cpp";
        s.vllm_usage_context.clear();
        const Report llama = predict(s);
        REQUIRE(llama.ok);
        CHECK(llama.settings.vllm_sampler.empty());
    }
}

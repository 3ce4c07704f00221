// The vllm serve command runs the weights it priced: a bf16 checkpoint priced as fp8 needs vLLM's online FP8
// quantization (--quantization fp8; vllm/model_executor/layers/quantization/fp8.py Fp8Config with
// is_checkpoint_fp8_serialized false), a checkpoint already stored as fp8 does not. Real config.json files from
// tests/data/configs (sources in SOURCES.tsv).
#include <doctest/doctest.h>

#include <fstream>
#include <sstream>
#include <string>

#include "test_data.h"
#include "kvcalc/deployment/predict.h"

using namespace kvcalc;

namespace {

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

Report serve(const std::string& file, const std::string& weights_dtype, const std::string& gpu) {
    Scenario s;
    s.config_json = kvcalc::test::config_file(file);
    REQUIRE_FALSE(s.config_json.empty());
    s.weights_dtype = weights_dtype;
    s.gpu = gpu;
    s.max_model_len = 8192;
    return predict(s);
}

}  // namespace

TEST_CASE("a bf16 checkpoint priced as fp8 is served with --quantization fp8") {
    // meta-llama/Llama-3.1-8B-Instruct: torch_dtype bfloat16, no quantization_config.
    const Report fp8 = serve("llama-3.1-8b.json", "fp8", "h100-80gb");
    REQUIRE(fp8.ok);
    CHECK(has(fp8.command, " \\\n  --quantization fp8"));
    // bf16 as stored, and auto (= torch_dtype bfloat16): vLLM loads the checkpoint as it is.
    for (const char* dtype : {"auto", "bf16"}) {
        INFO(std::string(dtype));
        const Report r = serve("llama-3.1-8b.json", dtype, "h100-80gb");
        REQUIRE(r.ok);
        CHECK_FALSE(has(r.command, "--quantization"));
    }
    // The fp8 weights are about half the bf16 ones (8.03B parameters: 16.1 GB in bf16; embeddings stay bf16).
    const Report bf16 = serve("llama-3.1-8b.json", "bf16", "h100-80gb");
    CHECK(fp8.terms.weights_bytes < bf16.terms.weights_bytes * 6 / 10);
}

TEST_CASE("a checkpoint stored as fp8 is served without --quantization, whether fp8 is given or read") {
    // deepseek-ai/DeepSeek-V3: quantization_config.quant_method "fp8" (block-wise e4m3 weights).
    for (const char* dtype : {"auto", "fp8"}) {
        INFO(std::string(dtype));
        Scenario s;
        s.config_json = kvcalc::test::config_file("deepseek-v3.json");
        s.weights_dtype = dtype;
        s.gpu = "h100-80gb";
        s.tensor_parallel_size = 8;
        s.max_model_len = 8192;
        const Report r = predict(s);
        REQUIRE(r.ok);
        CHECK(has(r.command, "vllm serve "));
        CHECK_FALSE(has(r.command, "--quantization"));
    }
}

// The weights-format control's rule (deployment/weights_formats.h) and the command it leads to: a model priced in a
// format serves a repo holding that format, or the original with the flag that makes it, never the original alone.
#include <doctest/doctest.h>

#include <string>

#include "kvcalc/deployment/predict.h"
#include "kvcalc/deployment/weights_formats.h"

using namespace kvcalc;

namespace {

const WeightsFormatOption& option(const std::vector<WeightsFormatOption>& list, const std::string& f) {
    for (const auto& o : list)
        if (o.format == f) return o;
    static const WeightsFormatOption none;
    return none;
}

Scenario qwen3_32b_on_5090(const std::string& format) {
    Scenario s;
    s.model_id = "qwen3-32b";
    s.gpu = "rtx-5090";
    s.max_model_len = 32768;
    apply_weights_format(s, option(weights_format_options(s), format));
    return s;
}

bool contains(const std::string& hay, const std::string& needle) { return hay.find(needle) != std::string::npos; }

}  // namespace

TEST_SUITE("weights formats") {
    TEST_CASE("every format of the control is offered for a popular model, with the repo that holds it") {
        Scenario s;
        s.model_id = "qwen3-32b";
        const auto list = weights_format_options(s);
        REQUIRE(list.size() == kWeightsFormats.size());
        // Qwen publishes Qwen3-32B-AWQ (4-bit) and Qwen3-32B-FP8 beside the bf16 Qwen/Qwen3-32B.
        CHECK(option(list, "auto").serves == "Qwen/Qwen3-32B");
        CHECK(option(list, "auto").priced_as == "bf16");
        CHECK(option(list, "int4").serves == "Qwen/Qwen3-32B-AWQ");
        CHECK(option(list, "fp8").serves == "Qwen/Qwen3-32B-FP8");
        // No int8 upload known: a placeholder, not the bf16 repo that would load 2 bytes per weight.
        CHECK(option(list, "int8").available);
        CHECK(option(list, "int8").serves == "<Qwen/Qwen3-32B-int8-checkpoint>");
        // mxfp4 is priced on routed experts only; a dense model has none.
        CHECK_FALSE(option(list, "mxfp4").available);
        const auto one = weights_format_options(s, "int4");
        REQUIRE(one.size() == 1);
        CHECK(one[0].serves == "Qwen/Qwen3-32B-AWQ");
        CHECK_FALSE(weights_format_options(s, "mxfp4").front().available);
        // 4-bit is about a quarter of bf16 (embeddings and lm_head stay 16-bit).
        CHECK(option(list, "int4").size_gb < option(list, "bf16").size_gb * 0.35);
    }

    TEST_CASE("Qwen3 32B at 4-bit on one RTX 5090 at 32K: the command serves the 4-bit repo") {
        const Report r = predict(qwen3_32b_on_5090("int4"));
        CHECK(r.verdict != Verdict::fail);
        CHECK(contains(r.command, "vllm serve Qwen/Qwen3-32B-AWQ \\"));
        CHECK_FALSE(contains(r.command, "--quantization"));
        // bf16 (65.5 GB of weights) cannot fit one 32 GiB card.
        CHECK(predict(qwen3_32b_on_5090("bf16")).verdict == Verdict::fail);
    }

    TEST_CASE("fp8 without a known fp8 repo: vLLM's online quantization of the original") {
        Scenario s;
        s.model_id = "llama-3.2-1b";
        const auto list = weights_format_options(s);
        CHECK(option(list, "fp8").serves == "meta-llama/Llama-3.2-1B-Instruct --quantization fp8");
        apply_weights_format(s, option(list, "fp8"));
        CHECK(contains(predict(s).command, "--quantization fp8"));
        apply_weights_format(s, option(list, "int4"));
        const std::string cmd = predict(s).command;
        CHECK(contains(cmd, "vllm serve <meta-llama/Llama-3.2-1B-Instruct-int4-checkpoint>"));
        CHECK(contains(cmd, "# <meta-llama/Llama-3.2-1B-Instruct-int4-checkpoint>: "));
    }

    TEST_CASE("a calibrated model offers the variants it lists") {
        Scenario s;
        s.model_id = "qwen3.6-27b";
        const auto list = weights_format_options(s);
        CHECK(option(list, "fp8").weights_variant == "fp8");
        CHECK(option(list, "fp8").serves == "Qwen/Qwen3.6-27B-FP8");
        CHECK(option(list, "int4").weights_variant == "autoround-int4");
        CHECK(option(list, "nvfp4").serves == "nvidia/Qwen3.6-27B-NVFP4");
        CHECK_FALSE(option(list, "int8").available);
        CHECK(contains(option(list, "int8").reason, "lists no int8 checkpoint"));
        apply_weights_format(s, option(list, "fp8"));
        CHECK(current_weights_format(s) == "fp8");
        CHECK(contains(predict(s).command, "vllm serve Qwen/Qwen3.6-27B-FP8"));
    }

    TEST_CASE("search words name formats") {
        CHECK(weights_format_word("4-bit") == "int4");
        CHECK(weights_format_word("AWQ") == "int4");
        CHECK(weights_format_word("w8a8") == "int8");
        CHECK(weights_format_word("fp4") == "nvfp4");
        CHECK(weights_format_word("32b").empty());
        CHECK(weights_format_word("qwen3").empty());
    }

    TEST_CASE("a checkpoint in its own format serves itself") {
        Scenario s;
        s.model_id = "gpt-oss-20b";
        const auto list = weights_format_options(s);
        CHECK(option(list, "auto").priced_as == "mxfp4");
        CHECK(option(list, "mxfp4").serves == "openai/gpt-oss-20b");
        CHECK(option(list, "mxfp4").available);
    }

    TEST_CASE("a Hub model's command serves the repo it was read from, over the config's _name_or_path") {
        Scenario s;
        // RedHatAI/Meta-Llama-3-8B-Instruct-FP8's config.json names a local training folder in _name_or_path.
        s.config_json = R"({"architectures":["LlamaForCausalLM"],"model_type":"llama","hidden_size":4096,
            "intermediate_size":14336,"num_hidden_layers":32,"num_attention_heads":32,"num_key_value_heads":8,
            "max_position_embeddings":8192,"vocab_size":128256,"torch_dtype":"bfloat16",
            "_name_or_path":"meta-llama/Meta-Llama-3-8B-Instruct"})";
        s.gpu = "rtx-4090";
        s.max_model_len = 8192;
        CHECK(contains(predict(s).command, "vllm serve meta-llama/Meta-Llama-3-8B-Instruct \\"));
        s.hub_model = "RedHatAI/Meta-Llama-3-8B-Instruct-FP8@main";
        CHECK(contains(predict(s).command, "vllm serve RedHatAI/Meta-Llama-3-8B-Instruct-FP8 \\"));
    }

    TEST_CASE("a calibrated variant without a repo serves a placeholder, not another variant's repo") {
        Scenario s;
        s.model_id = "gemma-4-31b";
        s.weights_variant = "bf16";  // 58 GB, no repo in the catalog; the awq variant has one
        s.gpu = "h100-80gb";
        s.max_model_len = 8192;
        const std::string cmd = predict(s).command;
        CHECK_FALSE(contains(cmd, "cyankiwi/gemma-4-31B-it-AWQ-4bit"));
        CHECK(contains(cmd, "vllm serve <gemma-4-31b-bf16-checkpoint> \\"));
        Scenario q;
        q.model_id = "gemma-4-31b";
        const auto list = weights_format_options(q);
        CHECK(option(list, "bf16").serves == "<gemma-4-31b-bf16-checkpoint>");
        s.weights_variant = "awq";
        CHECK(contains(predict(s).command, "vllm serve cyankiwi/gemma-4-31B-it-AWQ-4bit \\"));
    }
}

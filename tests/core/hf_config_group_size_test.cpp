// quantization_config.group_size (core/src/config/hf_config_quant.cpp): 1..2^20 or -1, anything else an error.
#include <doctest/doctest.h>

#include <string>

#include "kvcalc/config/hf_config.h"

using namespace kvcalc;

namespace {

// Llama 3.1 8B's dims (meta-llama/Llama-3.1-8B) with a GPTQ 4-bit block of the given group_size text.
HfConfig gptq(const std::string& group_size) {
    return read_hf_config(
        R"({"architectures":["LlamaForCausalLM"],"model_type":"llama","hidden_size":4096,"num_hidden_layers":32,)"
        R"("num_attention_heads":32,"num_key_value_heads":8,"head_dim":128,"intermediate_size":14336,)"
        R"("vocab_size":128256,"max_position_embeddings":131072,"torch_dtype":"bfloat16",)"
        R"("quantization_config":{"quant_method":"gptq","bits":4,"group_size":)" + group_size + "}}");
}

bool error_on(const HfConfig& c, const std::string& field) {
    for (const auto& d : c.diagnostics)
        if (d.severity == Severity::error && d.field == field) return true;
    return false;
}

}  // namespace

TEST_SUITE("hf_config_group_size") {
    TEST_CASE("0, -7, 2^64 - 1, 2^21 and a string are errors naming the key") {
        for (const char* bad : {"0", "-7", "18446744073709551615", "2097152", "\"128\"", "12.5"}) {
            CAPTURE(bad);
            CHECK(error_on(gptq(bad), "quantization_config.group_size"));
        }
    }
    TEST_CASE("128 and -1 (per output channel) are read") {
        const HfConfig c = gptq("128");
        CHECK_FALSE(has_error(c.diagnostics));
        CHECK(c.arch.quant_group_size == 128);
        const HfConfig per_channel = gptq("-1");
        CHECK_FALSE(has_error(per_channel.diagnostics));
        CHECK(per_channel.arch.quant_group_size == -1);
    }
}

TEST_SUITE("hf_config_duplicate_keys") {
    TEST_CASE("a key spelled twice: a warning naming it, the last value read") {
        const HfConfig c = read_hf_config(
            R"({"model_type":"llama","num_hidden_layers":2,"hidden_size":64,"num_attention_heads":4,)"
            R"("max_position_embeddings":128,"rope_scaling":{"factor":2.0,"factor":8.0},"num_hidden_layers":4})");
        int dup = 0;
        for (const auto& d : c.diagnostics)
            if (d.code == "duplicate_key") {
                ++dup;
                CHECK(d.field == "rope_scaling.factor");
                CHECK(d.message.find("; 1 more repeated key(s) in the file") != std::string::npos);
            }
        CHECK(dup == 1);
        CHECK(c.spec.num_hidden_layers == 4);
    }
    TEST_CASE("the same key in two different objects is no duplicate") {
        const HfConfig c = read_hf_config(
            R"({"model_type":"llama","num_hidden_layers":2,"hidden_size":64,"num_attention_heads":4,)"
            R"("max_position_embeddings":128,"a":{"x":1},"b":{"x":2},"c":[{"x":1},{"x":2}]})");
        for (const auto& d : c.diagnostics) CHECK(d.code != "duplicate_key");
    }
}

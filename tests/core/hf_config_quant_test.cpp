// read_hf_config's quantization_config forms and the weights each prices (hf_config_quant.h, param_count.h), plus the
// reader's other bad-input fixes (text_config type, one pattern warning, torch_dtype wording).
#include <doctest/doctest.h>

#include <fstream>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "kvcalc/config/hf_config.h"
#include "kvcalc/config/param_count.h"

namespace {

using nlohmann::json;

std::string slurp(const std::string& rel) {
    std::ifstream f(std::string(KVCALC_TEST_DATA_DIR) + "/" + rel);
    std::stringstream s;
    s << f.rdbuf();
    return s.str();
}

/// A real config.json (tests/data/configs) with `quantization_config` set to `q` (null removes nothing).
std::string with_quant(const std::string& config_file, const json& q) {
    json cfg = json::parse(slurp("configs/" + config_file));
    cfg["quantization_config"] = q;
    return cfg.dump();
}

const kvcalc::Diagnostic* find_field(const kvcalc::Diagnostics& d, const std::string& field) {
    for (const auto& x : d)
        if (x.field == field) return &x;
    return nullptr;
}

int count_code(const kvcalc::Diagnostics& d, const std::string& code) {
    int n = 0;
    for (const auto& x : d) n += x.code == code ? 1 : 0;
    return n;
}

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

/// Bytes per weight of the linear layers estimate_weights uses for `arch` under auto (1e9 linear weights, no rest).
double linear_bytes_per_weight(const kvcalc::HfArchitecture& arch, std::string* dtype = nullptr) {
    kvcalc::ParamBreakdown p;
    p.attention = 1'000'000'000;
    const auto w = kvcalc::estimate_weights(p, arch, "auto");
    if (dtype) *dtype = w.dtype;
    return w.bytes / 1e9;
}

}  // namespace

TEST_SUITE("hf_config: quantization_config forms") {
    TEST_CASE("bitsandbytes 4-bit (nf4, double quant) prices 0.5 B + an fp32 absmax per 64 weights, as vLLM loads it") {
        const auto c = kvcalc::read_hf_config(
            with_quant("llama-3.1-8b.json", json::parse(slurp("quant_configs/bnb-nf4-double-quant.quantization_config.json"))));
        REQUIRE_FALSE(kvcalc::has_error(c.diagnostics));
        CHECK(c.arch.quant_method == "bitsandbytes");
        CHECK(c.arch.quant_bits == 4);
        std::string dtype;
        // bitsandbytes Params4bit blocksize 64; vLLM's _dequantize_dq keeps the absmax in fp32: 0.5 + 4/64.
        CHECK(linear_bytes_per_weight(c.arch, &dtype) == doctest::Approx(0.5625));
        CHECK(dtype == "int4");
        // fp4 is the same size.
        json q = json::parse(slurp("quant_configs/bnb-nf4-double-quant.quantization_config.json"));
        q["bnb_4bit_quant_type"] = "fp4";
        const auto fp4 = kvcalc::read_hf_config(with_quant("llama-3.1-8b.json", q));
        CHECK(linear_bytes_per_weight(fp4.arch) == doctest::Approx(0.5625));
    }

    TEST_CASE("bitsandbytes with only quant_method reads as 4-bit (vLLM's load_in_4bit default true)") {
        const auto c = kvcalc::read_hf_config(with_quant("llama-3.1-8b.json", {{"quant_method", "bitsandbytes"}}));
        REQUIRE_FALSE(kvcalc::has_error(c.diagnostics));
        CHECK(c.arch.quant_bits == 4);
        // And a dict with only load_in_4bit (no quant_method) is bitsandbytes too, as transformers reads it.
        const auto flag = kvcalc::read_hf_config(with_quant("llama-3.1-8b.json", {{"load_in_4bit", true}}));
        CHECK(flag.arch.quant_method == "bitsandbytes");
        CHECK(flag.arch.quant_bits == 4);
    }

    TEST_CASE("bitsandbytes 8-bit (load_in_8bit) prices one byte per weight") {
        json q = json::parse(slurp("quant_configs/bnb-nf4-double-quant.quantization_config.json"));
        q["load_in_4bit"] = false;
        q["load_in_8bit"] = true;
        const auto c = kvcalc::read_hf_config(with_quant("llama-3.1-8b.json", q));
        REQUIRE_FALSE(kvcalc::has_error(c.diagnostics));
        std::string dtype;
        CHECK(linear_bytes_per_weight(c.arch, &dtype) == doctest::Approx(1.0));
        CHECK(dtype == "int8");
    }

    TEST_CASE("bitsandbytes errors name the key: both load_in flags, an unknown bnb_4bit_quant_type") {
        const auto both = kvcalc::read_hf_config(with_quant(
            "llama-3.1-8b.json", {{"quant_method", "bitsandbytes"}, {"load_in_4bit", true}, {"load_in_8bit", true}}));
        const auto* d = find_field(both.diagnostics, "quantization_config.load_in_4bit");
        REQUIRE(d != nullptr);
        CHECK(d->severity == kvcalc::Severity::error);
        const auto type = kvcalc::read_hf_config(with_quant(
            "llama-3.1-8b.json", {{"quant_method", "bitsandbytes"}, {"bnb_4bit_quant_type", "int4"}}));
        d = find_field(type.diagnostics, "quantization_config.bnb_4bit_quant_type");
        REQUIRE(d != nullptr);
        CHECK(d->severity == kvcalc::Severity::error);
        CHECK(contains(d->message, "\"int4\""));
        CHECK(contains(d->message, "nf4"));
        CHECK(contains(d->message, "fp4"));
        const auto flag = kvcalc::read_hf_config(
            with_quant("llama-3.1-8b.json", {{"quant_method", "bitsandbytes"}, {"load_in_4bit", "yes"}}));
        CHECK(find_field(flag.diagnostics, "quantization_config.load_in_4bit") != nullptr);
        CHECK(kvcalc::has_error(flag.diagnostics));
    }

    TEST_CASE("TheBloke's AWQ block: 4-bit, group 128, zero points") {
        const auto c = kvcalc::read_hf_config(with_quant(
            "mistral-7b-instruct.json", json::parse(slurp("quant_configs/zephyr-7b-alpha-awq.quantization_config.json"))));
        REQUIRE_FALSE(kvcalc::has_error(c.diagnostics));
        CHECK(c.arch.quant_bits == 4);
        CHECK(c.arch.quant_group_size == 128);
        // 0.5 B + an fp16 scale and a 4-bit zero per 128 weights.
        CHECK(linear_bytes_per_weight(c.arch) == doctest::Approx(0.5 + 2.0 / 128 + 0.5 / 128));
    }

    TEST_CASE("group_size -1 (one scale per output channel) prices the 4-bit weights alone") {
        // transformers GPTQConfig / AwqConfig: "-1 uses per-column quantization".
        const auto c = kvcalc::read_hf_config(with_quant(
            "llama-3.1-8b.json", {{"quant_method", "gptq"}, {"bits", 4}, {"group_size", -1}, {"desc_act", true}}));
        REQUIRE_FALSE(kvcalc::has_error(c.diagnostics));
        CHECK(c.arch.quant_group_size == -1);
        CHECK(linear_bytes_per_weight(c.arch) == doctest::Approx(0.5));
    }

    TEST_CASE("AWQ without bits reads as AwqConfig's default 4 with a warning; GPTQ without bits is an error") {
        const auto awq = kvcalc::read_hf_config(
            with_quant("mistral-7b-instruct.json", {{"quant_method", "awq"}, {"group_size", 128}, {"zero_point", true}}));
        REQUIRE_FALSE(kvcalc::has_error(awq.diagnostics));
        CHECK(awq.arch.quant_bits == 4);  // transformers AwqConfig(bits=4)
        const auto* w = find_field(awq.diagnostics, "quantization_config.bits");
        REQUIRE(w != nullptr);
        CHECK(w->severity == kvcalc::Severity::warning);
        CHECK(contains(w->message, "vLLM"));
        // transformers GPTQConfig(bits) has no default and vLLM's get_from_keys(["bits"]) raises.
        const auto gptq = kvcalc::read_hf_config(
            with_quant("llama-3.1-8b.json", {{"quant_method", "gptq"}, {"group_size", 128}, {"desc_act", false}}));
        const auto* e = find_field(gptq.diagnostics, "quantization_config.bits");
        REQUIRE(e != nullptr);
        CHECK(e->severity == kvcalc::Severity::error);
        CHECK(contains(e->message, "2, 3, 4 or 8"));
    }

    TEST_CASE("bits given as a string is a type error naming the key") {
        const auto c = kvcalc::read_hf_config(
            with_quant("llama-3.1-8b.json", {{"quant_method", "gptq"}, {"bits", "4"}, {"group_size", 128}}));
        const auto* d = find_field(c.diagnostics, "quantization_config.bits");
        REQUIRE(d != nullptr);
        CHECK(d->code == "wrong_type");
        CHECK(d->severity == kvcalc::Severity::error);
        CHECK(contains(d->message, "\"4\""));
        CHECK(contains(d->message, "without the quotes"));
    }

    TEST_CASE("unsupported widths name the key, the value and the valid ones") {
        const auto zero = kvcalc::read_hf_config(with_quant("llama-3.1-8b.json", {{"quant_method", "gptq"}, {"bits", 0}}));
        const auto* d = find_field(zero.diagnostics, "quantization_config.bits");
        REQUIRE(d != nullptr);
        CHECK(d->code == "out_of_range");
        CHECK(contains(d->message, "is 0"));
        CHECK(contains(d->message, "2, 3, 4 or 8"));  // transformers GPTQConfig.post_init
        const auto gptq5 = kvcalc::read_hf_config(with_quant("llama-3.1-8b.json", {{"quant_method", "gptq"}, {"bits", 5}}));
        CHECK(find_field(gptq5.diagnostics, "quantization_config.bits") != nullptr);
        // vLLM's AWQConfig: only 4-bit.
        const auto awq8 = kvcalc::read_hf_config(with_quant("llama-3.1-8b.json", {{"quant_method", "awq"}, {"bits", 8}}));
        d = find_field(awq8.diagnostics, "quantization_config.bits");
        REQUIRE(d != nullptr);
        CHECK(contains(d->message, "is 8"));
        CHECK(contains(d->message, "stores 4 bits"));
        // GPTQ 3-bit is valid and priced as the next wider layout, with the existing warning.
        const auto gptq3 = kvcalc::read_hf_config(with_quant("llama-3.1-8b.json", {{"quant_method", "gptq"}, {"bits", 3}}));
        CHECK_FALSE(kvcalc::has_error(gptq3.diagnostics));
        CHECK(gptq3.arch.quant_bits == 3);
    }

    TEST_CASE("gguf and unknown methods warn, naming the method and what was priced") {
        for (const char* method : {"gguf", "my_quant"}) {
            CAPTURE(method);
            const auto c = kvcalc::read_hf_config(with_quant("llama-3.1-8b.json", {{"quant_method", method}}));
            REQUIRE_FALSE(kvcalc::has_error(c.diagnostics));
            kvcalc::ParamBreakdown p;
            p.attention = 1'000'000'000;
            const auto w = kvcalc::estimate_weights(p, c.arch, "auto");
            CHECK(w.dtype == "bf16");  // llama-3.1-8b.json's torch_dtype bfloat16
            REQUIRE(count_code(w.diagnostics, "weights_layout_unknown") == 1);
            const auto& d = w.diagnostics.front();
            CHECK(d.severity == kvcalc::Severity::warning);
            CHECK(contains(d.message, std::string("\"") + method + "\""));
            CHECK(contains(d.message, "bf16"));
            // A dtype the user chooses is priced without the warning.
            CHECK(kvcalc::estimate_weights(p, c.arch, "int4").diagnostics.empty());
        }
    }

    TEST_CASE("quantization_config and quant_method of the wrong type are errors") {
        const auto s = kvcalc::read_hf_config(with_quant("llama-3.1-8b.json", "gptq"));
        const auto* d = find_field(s.diagnostics, "quantization_config");
        REQUIRE(d != nullptr);
        CHECK(d->severity == kvcalc::Severity::error);
        const auto m = kvcalc::read_hf_config(with_quant("llama-3.1-8b.json", {{"quant_method", 4}}));
        CHECK(find_field(m.diagnostics, "quantization_config.quant_method") != nullptr);
        CHECK(kvcalc::has_error(m.diagnostics));
    }

    TEST_CASE("ModelOpt quant_algo FP8 prices one byte per weight (was read as NVFP4)") {
        // nvidia/NVIDIA-Nemotron-3-Super-120B-A12B-FP8's hf_quant_config.json as its quantization_config.
        json q = json::parse(slurp("quant_configs/nemotron-3-super-120b-a12b-fp8.hf_quant_config.json"));
        q["quant_method"] = "modelopt";
        std::string cfg = slurp("configs/nemotron-3-super-120b-a12b-fp8.json");  // holds Infinity: spliced as text
        cfg.insert(cfg.find('{') + 1, "\"quantization_config\": " + q.dump() + ",");
        const auto c = kvcalc::read_hf_config(cfg);
        REQUIRE_FALSE(kvcalc::has_error(c.diagnostics));
        std::string dtype;
        CHECK(linear_bytes_per_weight(c.arch, &dtype) == doctest::Approx(1.0));
        CHECK(dtype == "fp8");
        // vLLM's modelopt_fp4 method (ModelOptNvFp4Config): 4 bits + an fp8 scale per 16 weights.
        const auto fp4 = kvcalc::read_hf_config(
            with_quant("llama-3.1-8b.json", {{"quant_method", "modelopt_fp4"}, {"quant_algo", "NVFP4"}}));
        CHECK(linear_bytes_per_weight(fp4.arch, &dtype) == doctest::Approx(0.5 + 1.0 / 16));
        CHECK(dtype == "nvfp4");
    }

    TEST_CASE("fp8 with a bits key other than 8 is named and priced at one byte per weight, as vLLM loads it") {
        // vLLM's Fp8Config.from_config (model_executor/layers/quantization/fp8.py) reads no bit width: e4m3 weights.
        const auto c = kvcalc::read_hf_config(
            with_quant("llama-3.1-8b.json", {{"quant_method", "fp8"}, {"activation_scheme", "dynamic"}, {"bits", 4}}));
        REQUIRE_FALSE(kvcalc::has_error(c.diagnostics));
        const auto* w = find_field(c.diagnostics, "quantization_config.bits");
        REQUIRE(w != nullptr);
        CHECK(w->code == "ignored_key");
        CHECK(contains(w->message, "is 4"));
        std::string dtype;
        CHECK(linear_bytes_per_weight(c.arch, &dtype) == doctest::Approx(1.0));
        CHECK(dtype == "fp8");
        // bits 8 is what fp8 means: no warning.
        const auto ok = kvcalc::read_hf_config(
            with_quant("llama-3.1-8b.json", {{"quant_method", "fp8"}, {"activation_scheme", "dynamic"}, {"bits", 8}}));
        CHECK(find_field(ok.diagnostics, "quantization_config.bits") == nullptr);
    }
}

TEST_SUITE("hf_config: bad-input wording") {
    TEST_CASE("text_config given as a string or an array is an error naming text_config") {
        for (const json& bad : {json("llama"), json::array({1, 2})}) {
            json cfg = json::parse(slurp("configs/llama-3.1-8b.json"));
            cfg["text_config"] = bad;
            const auto c = kvcalc::read_hf_config(cfg.dump());
            const auto* d = find_field(c.diagnostics, "text_config");
            REQUIRE(d != nullptr);
            CHECK(d->severity == kvcalc::Severity::error);
            CHECK(contains(d->message, "expected an object"));
        }
        // null is transformers' None: the class default, not an error.
        json cfg = json::parse(slurp("configs/llama-3.1-8b.json"));
        cfg["text_config"] = nullptr;
        CHECK_FALSE(kvcalc::has_error(kvcalc::read_hf_config(cfg.dump()).diagnostics));
    }

    TEST_CASE("hybrid_override_pattern with unknown characters gives one warning listing them") {
        const auto c = kvcalc::read_hf_config(R"({"model_type":"nemotron_h","num_hidden_layers":6,"hidden_size":1024,
            "num_attention_heads":8,"num_key_value_heads":2,"head_dim":128,"hybrid_override_pattern":"M*XY-X",
            "ssm_state_size":128,"conv_kernel":4,"mamba_num_heads":16,"mamba_head_dim":64,"n_groups":1})");
        REQUIRE(count_code(c.diagnostics, "unknown_layer_type") == 1);
        const auto* d = find_field(c.diagnostics, "hybrid_override_pattern");
        REQUIRE(d != nullptr);
        CHECK(contains(d->message, "3 layers"));
        CHECK(contains(d->message, "\"X\" at layer 2, 5"));
        CHECK(contains(d->message, "\"Y\" at layer 3"));
    }

    TEST_CASE("the torch_dtype warning has no empty parentheses") {
        json cfg = json::parse(slurp("configs/llama-3.1-8b.json"));
        cfg.erase("torch_dtype");
        auto c = kvcalc::read_hf_config(cfg.dump());
        const auto* d = find_field(c.diagnostics, "torch_dtype");
        REQUIRE(d != nullptr);
        CHECK_FALSE(contains(d->message, "()"));
        CHECK(contains(d->message, "torch_dtype missing"));
        cfg["torch_dtype"] = "int8";
        c = kvcalc::read_hf_config(cfg.dump());
        d = find_field(c.diagnostics, "torch_dtype");
        REQUIRE(d != nullptr);
        CHECK(contains(d->message, "\"int8\" is not a float type"));
    }
}

// kv_cache_dtype auto on a checkpoint that quantizes its KV cache: vLLM stores fp8 (e4m3 on CUDA), not the model
// dtype. Rules: vllm/utils/torch_utils.py resolve_kv_cache_dtype_string / get_kv_cache_quant_algo_string (ModelOpt:
// quant_method modelopt*, kv_cache_quant_algo or kv_cache_scheme "FP8" → fp8_e4m3) and
// vllm/model_executor/layers/attention/attention.py Attention.__init__ (compressed-tensors kv_cache_scheme → fp8).
#include <doctest/doctest.h>

#include <fstream>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "test_data.h"
#include "kvcalc/config/hf_config.h"
#include "kvcalc/deployment/predict.h"

using namespace kvcalc;
using nlohmann::json;

namespace {

/// nvidia/NVIDIA-Nemotron-3-Super-120B-A12B-FP8: its config.json (configs/SOURCES.tsv) with its hf_quant_config.json
/// (quant_configs/SOURCES.tsv) as quantization_config, the way vLLM's get_config merges the two files when
/// config.json has none. `quant_method` is what a ModelOpt export carries (ModelOpt ≥ 0.31 writes it inline; the
/// older sidecar has producer.name "modelopt", which vLLM turns into it); "" leaves the block as the copy has it.
std::string nemotron_fp8(const std::string& quant_method) {
    // Spliced as text: the config.json holds Python's Infinity, which strict JSON parsers refuse.
    std::string cfg = kvcalc::test::data_file("configs/nemotron-3-super-120b-a12b-fp8.json");
    json q = json::parse(kvcalc::test::data_file("quant_configs/nemotron-3-super-120b-a12b-fp8.hf_quant_config.json"));
    if (!quant_method.empty()) q["quant_method"] = quant_method;
    cfg.insert(cfg.find('{') + 1, "\"quantization_config\": " + q.dump() + ",");
    return cfg;
}

Report priced(const std::string& config, const char* kv, const char* engine = "vllm") {
    Scenario s;
    s.config_json = config;
    s.engine = engine;
    s.gpu = "h100-80gb";
    s.kv_cache_dtype = kv;
    s.tensor_parallel_size = 2;
    s.max_model_len = 32768;
    s.max_num_seqs = 1;
    s.weights_gb = 120.0;
    return predict(s);
}

}  // namespace

TEST_SUITE("kv checkpoint quant") {
    TEST_CASE("ModelOpt kv_cache_quant_algo FP8: vLLM's auto is fp8_e4m3, 4096 B per token at TP=1") {
        const HfConfig c = read_hf_config(nemotron_fp8("modelopt"));
        REQUIRE_FALSE(has_error(c.diagnostics));
        CHECK(c.spec.checkpoint_kv_cache_dtype == "fp8_e4m3");

        // 8 attention layers ('*' in hybrid_override_pattern) × 2 KV heads × head_dim 128 × (K + V) × 1 B = 4096 B
        // per token, 2048 per card at TP=2; bfloat16 would be twice that.
        const Report a = priced(nemotron_fp8("modelopt"), "auto");
        REQUIRE(a.ok);
        CHECK(a.settings.kv_cache_dtype == "auto (fp8_e4m3)");
        const Report e4m3 = priced(nemotron_fp8("modelopt"), "fp8_e4m3");
        const Report bf16 = priced(nemotron_fp8("modelopt"), "bf16");
        CHECK(a.terms.kv_one_sequence_bytes == e4m3.terms.kv_one_sequence_bytes);
        CHECK(bf16.startup.kv_bytes_per_token == 4096);  // the Mamba state is the same in both
        CHECK(a.startup.kv_bytes_per_token == 2048);
        bool noted = false;
        for (const auto& d : a.diagnostics) noted = noted || d.message.find("quantizes its KV cache") != std::string::npos;
        CHECK(noted);

        // SGLang and llama.cpp keep their own auto (model dtype / f16): kvcalc does not claim more for them.
        const Report sglang = priced(nemotron_fp8("modelopt"), "auto", "sglang");
        REQUIRE(sglang.ok);
        CHECK(sglang.settings.kv_cache_dtype == "auto (bf16)");
    }

    TEST_CASE("the block without quant_method or producer is not ModelOpt to vLLM: auto stays the model dtype") {
        const HfConfig c = read_hf_config(nemotron_fp8(""));
        REQUIRE_FALSE(has_error(c.diagnostics));
        CHECK(c.spec.checkpoint_kv_cache_dtype.empty());
        const HfConfig producer = read_hf_config(R"({"model_type":"llama","num_hidden_layers":2,"hidden_size":256,
            "num_attention_heads":4,"max_position_embeddings":4096,"quantization_config":{"producer":{"name":"modelopt"},
            "quantization":{"quant_algo":"FP8","kv_cache_quant_algo":"FP8"}}})");
        CHECK(producer.spec.checkpoint_kv_cache_dtype == "fp8_e4m3");
    }

    TEST_CASE("compressed-tensors kv_cache_scheme (llm-compressor) makes vLLM's auto fp8; an unknown ModelOpt value does not") {
        const HfConfig ct = read_hf_config(R"({"model_type":"llama","num_hidden_layers":2,"hidden_size":256,
            "num_attention_heads":4,"max_position_embeddings":4096,"quantization_config":{"quant_method":"compressed-tensors",
            "kv_cache_scheme":{"num_bits":8,"type":"float","strategy":"tensor","dynamic":false,"symmetric":true}}})");
        CHECK(ct.spec.checkpoint_kv_cache_dtype == "fp8_e4m3");
        const HfConfig none = read_hf_config(R"({"model_type":"llama","num_hidden_layers":2,"hidden_size":256,
            "num_attention_heads":4,"max_position_embeddings":4096,"quantization_config":{"quant_method":"compressed-tensors",
            "kv_cache_scheme":null}})");
        CHECK(none.spec.checkpoint_kv_cache_dtype.empty());
        const HfConfig nvfp4 = read_hf_config(R"({"model_type":"llama","num_hidden_layers":2,"hidden_size":256,
            "num_attention_heads":4,"max_position_embeddings":4096,"quantization_config":{"quant_method":"modelopt",
            "quant_algo":"NVFP4","kv_cache_quant_algo":"NVFP4"}})");
        CHECK(nvfp4.spec.checkpoint_kv_cache_dtype.empty());
        bool warned = false;
        for (const auto& d : nvfp4.diagnostics) warned = warned || d.code == "kv_quant_ignored";
        CHECK(warned);
    }
}

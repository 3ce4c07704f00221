// model_from_config: a config.json given inline is read into the same model the catalog holds, with each fact's
// key path, and priced with the weights dtype or size the request names.
#include <doctest/doctest.h>

#include <string>

#include "kvcalc/deployment/predict.h"

using namespace kvcalc;

namespace {

bool has_diag(const Report& r, const char* code, const std::string& field, Severity sev = Severity::error) {
    for (const auto& d : r.diagnostics)
        if (d.code == code && d.field == field && d.severity == sev) return true;
    return false;
}

const ModelFact* fact(const Report& r, const char* name) {
    for (const auto& f : *r.model_facts)
        if (f.fact == name) return &f;
    return nullptr;
}

// Llama 3.1 8B config facts, as in tests/data/real_cases/vllm-h100-llama31-8b-16k.json.
const char* kLlama8bConfig = R"({"architectures":["LlamaForCausalLM"],"model_type":"llama","num_hidden_layers":32,
"hidden_size":4096,"num_attention_heads":32,"num_key_value_heads":8,"head_dim":128,"intermediate_size":14336,
"vocab_size":128256,"tie_word_embeddings":false,"max_position_embeddings":131072,"torch_dtype":"bfloat16"})";

// vllm-h100-llama31-8b-16k: vLLM 0.11.1-0.16 on an H100 80GB, `--max-model-len 16000`, everything else
// vLLM's default (gpu_memory_utilization 0.9, max_num_seqs 1024, max_num_batched_tokens 8192), bf16 KV.
Scenario llama8b_h100() {
    Scenario s;
    s.model_id = "llama-3.1-8b";
    s.gpu = "h100-80gb";
    s.vllm_version = "0.11.1-0.16";
    s.gpu_memory_utilization = 0;
    s.max_num_seqs = 0;
    s.max_model_len = 16000;
    s.kv_cache_dtype = "bf16";
    return s;
}
}  // namespace

TEST_SUITE("model_from_config") {
    TEST_CASE("inline config.json gives the same prediction as the catalog entry, with key-path provenance") {
        Scenario s = llama8b_h100();
        s.config_json = kLlama8bConfig;
        const Report inline_r = predict(s);
        const Report catalog_r = predict(llama8b_h100());
        REQUIRE(inline_r.ok);
        CHECK(inline_r.settings.model_id == "config.json");
        CHECK(inline_r.terms.total_bytes == catalog_r.terms.total_bytes);
        CHECK(inline_r.startup.gpu_kv_cache_tokens == catalog_r.startup.gpu_kv_cache_tokens);
        const ModelFact* kv = fact(inline_r, "num_key_value_heads");
        REQUIRE(kv);
        CHECK(kv->value == "8");
        CHECK(kv->source == "config.json: num_key_value_heads");
        const ModelFact* layers = fact(inline_r, "layers");
        REQUIRE(layers);
        CHECK(layers->value == "32 full_attention");
    }

    TEST_CASE("weights_dtype prices the config's parameters; weights_gb overrides") {
        Scenario s = llama8b_h100();
        s.config_json = kLlama8bConfig;
        s.weights_dtype = "fp8";
        const Report fp8 = predict(s);
        REQUIRE(fp8.ok);
        // Embedding + lm_head 2 × 128,256 × 4,096 = 1,050,673,152 params stay bf16 (2.10 GB); the other
        // 8,030,261,248 − 1,050,673,152 = 6,979,588,096 params at 1 B → 9.08 GB (published count 8.03 B).
        CHECK(static_cast<double>(fp8.terms.weights_bytes - 131072 * 128 * 2) / 1e9 == doctest::Approx(9.08).epsilon(0.01));
        s.weights_gb = 5.0;  // plus the 32 MiB rope cache vLLM builds at load (131,072 × 128 × 2 B)
        CHECK(predict(s).terms.weights_bytes == 5'000'000'000 + 131072 * 128 * 2);
        s.weights_gb.reset();
        s.weights_dtype = "int3";
        const Report bad = predict(s);
        CHECK_FALSE(bad.ok);
        CHECK(has_diag(bad, "unknown_weights_dtype", "weights_dtype"));
    }
}

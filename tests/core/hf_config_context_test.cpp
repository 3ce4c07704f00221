// Each engine's derived maximum max_model_len from real config.json files (tests/data/configs, SOURCES.tsv) and
// the rules in the engines' source (context_limit.h cites each function).
#include <doctest/doctest.h>

#include <fstream>
#include <sstream>
#include <string>

#include "test_data.h"
#include "kvcalc/engines/context_limit.h"
#include "kvcalc/config/hf_config.h"
#include "kvcalc/deployment/predict.h"

using namespace kvcalc;

namespace {

/// The real Qwen/Qwen3-8B config.json with the rope_scaling block the Qwen3 model cards ("Processing Long
/// Texts") tell users to add for 131,072 tokens; Qwen3-32B has the same max_position_embeddings (40960).
std::string qwen3_with_yarn() {
    std::string text = kvcalc::test::config_file("qwen3-8b.json");
    const std::string null_rope = "\"rope_scaling\": null";
    REQUIRE(text.find(null_rope) != std::string::npos);
    text.replace(text.find(null_rope), null_rope.size(),
                 R"("rope_scaling": {"rope_type": "yarn", "factor": 4.0, "original_max_position_embeddings": 32768})");
    return text;
}

bool has(const Diagnostics& d, const std::string& code, Severity sev) {
    for (const auto& x : d)
        if (x.code == code && x.severity == sev) return true;
    return false;
}

}  // namespace

TEST_SUITE("context limit") {
    TEST_CASE("Qwen3 with Qwen's YaRN settings: vLLM derives 32768 × 4 = 131072; SGLang and llama.cpp keep 40960") {
        const HfConfig plain = read_hf_config(kvcalc::test::config_file("qwen3-8b.json"));
        REQUIRE_FALSE(has_error(plain.diagnostics));
        CHECK(context_limit(plain.spec, EngineId::vllm).max_model_len == 40960);

        const HfConfig c = read_hf_config(qwen3_with_yarn());
        REQUIRE_FALSE(has_error(c.diagnostics));
        CHECK(c.spec.max_position_embeddings == 40960);
        const EngineContextLimit v = context_limit(c.spec, EngineId::vllm);
        CHECK(v.max_model_len == 131072);
        CHECK(v.default_max_model_len == 131072);
        CHECK(v.source.find("original_max_position_embeddings 32768") != std::string::npos);
        // get_context_length sets the factor to 1 when rope_scaling names original_max_position_embeddings.
        CHECK(context_limit(c.spec, EngineId::sglang).max_model_len == 40960);
        CHECK(context_limit(c.spec, EngineId::llama_cpp).max_model_len == 40960);
    }

    TEST_CASE("vLLM at 128K with the YaRN config is priced; without it the error names the limit and the override") {
        Scenario s;
        s.gpu = "h100-80gb";
        s.kv_cache_dtype = "fp8_e4m3";
        s.max_model_len = 131072;
        s.max_num_seqs = 1;
        s.config_json = qwen3_with_yarn();
        const Report yarn = predict(s);
        CHECK(yarn.ok);
        CHECK_FALSE(has(yarn.diagnostics, "max_model_len_too_long", Severity::error));

        s.config_json = kvcalc::test::config_file("qwen3-8b.json");
        const Report plain = predict(s);
        CHECK_FALSE(plain.ok);
        REQUIRE(has(plain.diagnostics, "max_model_len_too_long", Severity::error));
        for (const auto& d : plain.diagnostics) {
            if (d.code != "max_model_len_too_long") continue;
            CHECK(d.message.find("131072") != std::string::npos);
            CHECK(d.message.find("40960") != std::string::npos);
            CHECK(d.message.find("VLLM_ALLOW_LONG_MAX_MODEL_LEN=1") != std::string::npos);
            CHECK(d.message.find("allow_long_max_model_len") != std::string::npos);
        }

        // VLLM_ALLOW_LONG_MAX_MODEL_LEN=1: vLLM starts, with a warning; the 128K KV is priced.
        s.allow_long_max_model_len = true;
        const Report forced = predict(s);
        CHECK(forced.ok);
        CHECK(has(forced.diagnostics, "max_model_len_too_long", Severity::warning));
        CHECK(forced.terms.kv_one_sequence_bytes == yarn.terms.kv_one_sequence_bytes);

        // SGLang derives 40960 for the same YaRN file (the factor is dropped when the dict names
        // original_max_position_embeddings): 128K is refused without SGLANG_ALLOW_OVERWRITE_LONGER_CONTEXT_LEN.
        s.allow_long_max_model_len = false;
        s.config_json = qwen3_with_yarn();
        s.engine = "sglang";
        const Report sglang = predict(s);
        CHECK(has(sglang.diagnostics, "max_model_len_too_long", Severity::error));
    }

    TEST_CASE("rope types vLLM does not scale: llama3 (Llama 3.1), longrope (Phi-3), Gemma 3's linear") {
        // meta-llama/Meta-Llama-3.1-8B: llama3 factor 8 is already inside max_position_embeddings 131072.
        const HfConfig llama = read_hf_config(kvcalc::test::config_file("llama-3.1-8b.json"));
        REQUIRE_FALSE(has_error(llama.diagnostics));
        CHECK(context_limit(llama.spec, EngineId::vllm).max_model_len == 131072);
        CHECK(context_limit(llama.spec, EngineId::sglang).max_model_len == 131072);

        // microsoft/Phi-3-mini-128k-instruct: longrope; vLLM accepts 131072 but serves
        // original_max_position_embeddings 4096 when max_model_len is not given.
        const HfConfig phi = read_hf_config(kvcalc::test::config_file("phi-3-mini-128k-instruct.json"));
        REQUIRE_FALSE(has_error(phi.diagnostics));
        const EngineContextLimit p = context_limit(phi.spec, EngineId::vllm);
        CHECK(p.max_model_len == 131072);
        CHECK(p.default_max_model_len == 4096);
        CHECK(context_limit(phi.spec, EngineId::sglang).max_model_len == 131072);  // no factor in its rope_scaling

        // google/gemma-3-27b-it: vLLM skips Gemma 3's linear factor 8 (max_position_embeddings already scaled);
        // SGLang's get_context_length multiplies it: 8 × 131072.
        const HfConfig gemma = read_hf_config(kvcalc::test::config_file("gemma-3-27b-it.json"));
        REQUIRE_FALSE(has_error(gemma.diagnostics));
        CHECK(context_limit(gemma.spec, EngineId::vllm).max_model_len == 131072);
        CHECK(context_limit(gemma.spec, EngineId::sglang).max_model_len == 1048576);
    }

    TEST_CASE("YaRN checkpoints whose max_position_embeddings already is the scaled length agree") {
        // deepseek-ai/DeepSeek-V3: yarn, original 4096 × factor 40 = 163840 = max_position_embeddings.
        const HfConfig ds = read_hf_config(kvcalc::test::config_file("deepseek-v3.json"));
        REQUIRE_FALSE(has_error(ds.diagnostics));
        CHECK(context_limit(ds.spec, EngineId::vllm).max_model_len == 163840);
        CHECK(context_limit(ds.spec, EngineId::sglang).max_model_len == 163840);
        // openai/gpt-oss-20b: 4096 × 32 = 131072.
        const HfConfig oss = read_hf_config(kvcalc::test::config_file("gpt-oss-20b.json"));
        REQUIRE_FALSE(has_error(oss.diagnostics));
        CHECK(context_limit(oss.spec, EngineId::vllm).max_model_len == 131072);
    }

    TEST_CASE("which key: ChatGLM seq_length; the smallest for vLLM, the first in SGLang's order") {
        // THUDM/chatglm3-6b states only seq_length 8192.
        const HfConfig glm = read_hf_config(kvcalc::test::config_file("chatglm3-6b.json"));
        REQUIRE_FALSE(has_error(glm.diagnostics));
        CHECK(context_limit(glm.spec, EngineId::vllm).max_model_len == 8192);
        CHECK(context_limit(glm.spec, EngineId::sglang).max_model_len == 8192);
        // Two keys: vLLM takes the smaller; SGLang's list puts seq_length before max_position_embeddings.
        const HfConfig two = read_hf_config(R"({"model_type":"llama","num_hidden_layers":2,"hidden_size":256,
            "num_attention_heads":4,"max_position_embeddings":4096,"seq_length":8192})");
        REQUIRE_FALSE(has_error(two.diagnostics));
        CHECK(context_limit(two.spec, EngineId::vllm).max_model_len == 4096);
        CHECK(context_limit(two.spec, EngineId::sglang).max_model_len == 8192);
        // model_max_length wins in vLLM even when larger (the Command-R rule).
        const HfConfig mml = read_hf_config(R"({"model_type":"cohere","num_hidden_layers":2,"hidden_size":256,
            "num_attention_heads":4,"max_position_embeddings":8192,"model_max_length":131072})");
        REQUIRE_FALSE(has_error(mml.diagnostics));
        CHECK(context_limit(mml.spec, EngineId::vllm).max_model_len == 131072);
    }

    TEST_CASE("bad rope factors are errors naming the key; linear and dynamic factors scale in vLLM") {
        const HfConfig text = read_hf_config(R"({"model_type":"llama","num_hidden_layers":2,"hidden_size":256,
            "num_attention_heads":4,"max_position_embeddings":4096,"rope_scaling":{"rope_type":"linear","factor":"x"}})");
        REQUIRE(has(text.diagnostics, "wrong_type", Severity::error));
        bool named = false;
        for (const auto& d : text.diagnostics) named = named || d.field == "rope_scaling.factor";
        CHECK(named);
        const HfConfig dyn = read_hf_config(R"({"model_type":"llama","num_hidden_layers":2,"hidden_size":256,
            "num_attention_heads":4,"max_position_embeddings":4096,"rope_scaling":{"type":"dynamic","factor":2.0}})");
        REQUIRE_FALSE(has_error(dyn.diagnostics));
        CHECK(context_limit(dyn.spec, EngineId::vllm).max_model_len == 8192);
        CHECK(context_limit(dyn.spec, EngineId::sglang).max_model_len == 8192);
        const HfConfig huge = read_hf_config(R"({"model_type":"llama","num_hidden_layers":2,"hidden_size":256,
            "num_attention_heads":4,"max_position_embeddings":1000000,"rope_scaling":{"type":"linear","factor":1e6}})");
        CHECK(has(huge.diagnostics, "out_of_range", Severity::error));
        const HfConfig clash = read_hf_config(R"({"model_type":"llama","num_hidden_layers":2,"hidden_size":256,
            "num_attention_heads":4,"max_position_embeddings":4096,"rope_scaling":{"type":"yarn","rope_type":"linear","factor":2}})");
        CHECK(has(clash.diagnostics, "inconsistent", Severity::error));
    }
}

// read_hf_config: layer typing per family, aliases and provenance, and hostile input.
#include <doctest/doctest.h>

#include <string>
#include <variant>

#include "kvcalc/catalog/catalog_popular.h"
#include "kvcalc/config/hf_config.h"
#include "kvcalc/model/layer_kinds.h"

using kvcalc::FullAttention;
using kvcalc::MlaLatent;
using kvcalc::NoCache;
using kvcalc::RecurrentState;
using kvcalc::SlidingWindow;

namespace {

template <class T>
int count_of(const kvcalc::ModelSpec& s) {
    int n = 0;
    for (const auto& l : s.layers) n += std::holds_alternative<T>(l) ? 1 : 0;
    return n;
}

bool has_code(const kvcalc::Diagnostics& d, const std::string& code, kvcalc::Severity sev) {
    for (const auto& x : d) {
        if (x.code == code && x.severity == sev) return true;
    }
    return false;
}

std::string source_of(const kvcalc::ModelSpec& s, const std::string& fact) {
    for (const auto& p : s.provenance) {
        if (p.fact == fact) return p.source;
    }
    return "";
}

}  // namespace

TEST_SUITE("hf_config") {
    TEST_CASE("dense GQA: Llama 3.1 8B, every layer full attention with 8 KV heads × 128") {
        const auto c = kvcalc::read_hf_config(R"({"model_type":"llama","num_hidden_layers":32,"hidden_size":4096,
            "num_attention_heads":32,"num_key_value_heads":8,"max_position_embeddings":131072,"torch_dtype":"bfloat16",
            "vocab_size":128256,"intermediate_size":14336})");
        REQUIRE_FALSE(kvcalc::has_error(c.diagnostics));
        REQUIRE(c.spec.layers.size() == 32);
        CHECK(c.spec.layers[0] == kvcalc::LayerCache{FullAttention{8, 128, 128, 0}});  // head_dim = 4096 / 32
        CHECK(count_of<FullAttention>(c.spec) == 32);
        CHECK(has_code(c.diagnostics, "derived", kvcalc::Severity::info));
        CHECK(source_of(c.spec, "num_key_value_heads") == "config.json: num_key_value_heads");
        CHECK(c.spec.num_parameters == 8030261248LL);  // 8.03B, see param_count_test
    }

    TEST_CASE("aliases are accepted and recorded: num_kv_heads, num_local_experts, experts_per_token") {
        const auto c = kvcalc::read_hf_config(R"({"num_hidden_layers":2,"hidden_size":512,"num_attention_heads":8,
            "num_kv_heads":2,"num_local_experts":16,"experts_per_token":2,"max_position_embeddings":4096})");
        REQUIRE_FALSE(kvcalc::has_error(c.diagnostics));
        CHECK(c.spec.layers[0] == kvcalc::LayerCache{FullAttention{2, 64, 64, 0}});
        CHECK(source_of(c.spec, "num_key_value_heads") == "config.json: num_kv_heads");
        CHECK(c.spec.num_experts == 16);
        CHECK(source_of(c.spec, "num_experts") == "config.json: num_local_experts");
        CHECK(c.spec.num_experts_per_tok == 2);
        const auto glm = kvcalc::read_hf_config(R"({"num_layers":2,"hidden_size":4096,"num_attention_heads":32,
            "multi_query_group_num":2,"kv_channels":128,"seq_length":32768})");
        REQUIRE_FALSE(kvcalc::has_error(glm.diagnostics));
        CHECK(glm.spec.layers[1] == kvcalc::LayerCache{FullAttention{2, 128, 128, 0}});
    }

    TEST_CASE("multimodal wrapper: text_config is followed and the key path says so") {
        const auto c = kvcalc::read_hf_config(kvcalc::popular_model_sources()[17].config_json);  // Mistral Small 3.2
        REQUIRE_FALSE(kvcalc::has_error(c.diagnostics));
        CHECK(c.spec.num_hidden_layers == 40);
        CHECK(source_of(c.spec, "num_key_value_heads") == "config.json: text_config.num_key_value_heads");
        CHECK(count_of<FullAttention>(c.spec) == 40);
    }

    TEST_CASE("missing num_key_value_heads is a warning that says what was assumed") {
        const auto c = kvcalc::read_hf_config(R"({"num_hidden_layers":4,"hidden_size":1024,"num_attention_heads":16,
            "max_position_embeddings":2048})");
        REQUIRE_FALSE(kvcalc::has_error(c.diagnostics));
        REQUIRE(has_code(c.diagnostics, "assumed", kvcalc::Severity::warning));
        CHECK(c.spec.layers[0] == kvcalc::LayerCache{FullAttention{16, 64, 64, 0}});
    }

    TEST_CASE("sliding window: Mistral v0.1 everywhere, Qwen2 off unless use_sliding_window, Gemma 2 alternating") {
        auto src = kvcalc::popular_model_sources();
        const auto mistral = kvcalc::read_hf_config(src[18].config_json);
        CHECK(count_of<SlidingWindow>(mistral.spec) == 32);
        CHECK(mistral.spec.layers[0] == kvcalc::LayerCache{SlidingWindow{8, 128, 128, 0, 4096}});
        const auto qwen = kvcalc::read_hf_config(src[15].config_json);  // Qwen2.5 7B: use_sliding_window false
        CHECK(count_of<FullAttention>(qwen.spec) == 28);
        const auto qwen_swa = kvcalc::read_hf_config(R"({"model_type":"qwen2","num_hidden_layers":4,"hidden_size":256,
            "num_attention_heads":4,"num_key_value_heads":2,"sliding_window":512,"use_sliding_window":true,
            "max_window_layers":2,"max_position_embeddings":4096})");
        REQUIRE(qwen_swa.spec.layers.size() == 4);  // layers ≥ max_window_layers slide
        CHECK(std::holds_alternative<FullAttention>(qwen_swa.spec.layers[1]));
        CHECK(std::holds_alternative<SlidingWindow>(qwen_swa.spec.layers[2]));
        const auto gemma2 = kvcalc::read_hf_config(R"({"model_type":"gemma2","num_hidden_layers":4,"hidden_size":256,
            "num_attention_heads":4,"num_key_value_heads":2,"head_dim":64,"sliding_window":4096,
            "max_position_embeddings":8192})");
        CHECK(std::holds_alternative<SlidingWindow>(gemma2.spec.layers[0]));
        CHECK(std::holds_alternative<FullAttention>(gemma2.spec.layers[1]));
    }

    TEST_CASE("Gemma 3 27B: sliding_window_pattern 6 gives 10 global + 52 sliding layers") {
        const auto c = kvcalc::read_hf_config(kvcalc::popular_model_sources()[21].config_json);
        REQUIRE_FALSE(kvcalc::has_error(c.diagnostics));
        CHECK(count_of<FullAttention>(c.spec) == 10);  // layers 5, 11, …, 59 (62 / 6 = 10)
        CHECK(count_of<SlidingWindow>(c.spec) == 52);
        CHECK(std::holds_alternative<FullAttention>(c.spec.layers[5]));
        CHECK(c.spec.layers[0] == kvcalc::LayerCache{SlidingWindow{16, 128, 128, 0, 1024}});
    }

    TEST_CASE("Gemma 4 with attention_k_eq_v: the full layers hold no v_proj, the sliding ones do; both cache K and V") {
        // vLLM vllm/model_executor/models/gemma4.py Gemma4DecoderLayer: use_k_eq_v = is_full_attention and
        // attention_k_eq_v, so only the full layers (global_head_dim) drop v_proj; Gemma4Attention still caches k and v.
        std::string types;
        for (int i = 0; i < 60; ++i) types += std::string(i ? "," : "") + ((i % 6 == 5) ? "\"full_attention\"" : "\"sliding_attention\"");
        const auto c = kvcalc::read_hf_config(R"({"model_type":"gemma4","text_config":{"model_type":"gemma4_text",
            "num_hidden_layers":60,"hidden_size":5376,"num_attention_heads":32,"num_key_value_heads":16,"head_dim":256,
            "global_head_dim":512,"attention_k_eq_v":true,"sliding_window":1024,"max_position_embeddings":262144,
            "layer_types":[)" + types + "]}}");
        REQUIRE_FALSE(kvcalc::has_error(c.diagnostics));
        CHECK(count_of<FullAttention>(c.spec) == 10);
        CHECK(count_of<SlidingWindow>(c.spec) == 50);
        CHECK(c.spec.layers[5] == kvcalc::LayerCache{FullAttention{16, 512, 512, 1}});
        CHECK(c.spec.layers[0] == kvcalc::LayerCache{SlidingWindow{16, 256, 256, 0, 1024}});
        CHECK(kvcalc::layer_kv_proj_tensors(c.spec.layers[5]) == 1);
        CHECK(kvcalc::layer_kv_proj_tensors(c.spec.layers[0]) == 2);
    }

    TEST_CASE("Gemma 4 26B-A4B (docs/SOURCES.md \"Model facts\"): 2 global KV heads on full layers, 8 on sliding ones") {
        std::string types;
        for (int i = 0; i < 30; ++i) types += std::string(i ? "," : "") + ((i % 6 == 5) ? "\"full_attention\"" : "\"sliding_attention\"");
        const auto c = kvcalc::read_hf_config(R"({"model_type":"gemma4_text","num_hidden_layers":30,"hidden_size":2816,
            "num_attention_heads":16,"num_key_value_heads":8,"num_global_key_value_heads":2,"head_dim":256,
            "global_head_dim":512,"attention_k_eq_v":true,"sliding_window":1024,"num_experts":128,"top_k_experts":8,
            "max_position_embeddings":262144,"layer_types":[)" + types + "]}");
        REQUIRE_FALSE(kvcalc::has_error(c.diagnostics));
        CHECK(c.spec.layers[29] == kvcalc::LayerCache{FullAttention{2, 512, 512, 1}});
        CHECK(c.spec.layers[0] == kvcalc::LayerCache{SlidingWindow{8, 256, 256, 0, 1024}});
        CHECK(c.spec.num_experts_per_tok == 8);
    }

    TEST_CASE("KV-shared layers keep nothing") {
        const auto c = kvcalc::read_hf_config(R"({"model_type":"gemma3n_text","num_hidden_layers":6,"hidden_size":512,
            "num_attention_heads":4,"num_key_value_heads":2,"head_dim":128,"num_kv_shared_layers":2,
            "max_position_embeddings":4096})");
        REQUIRE_FALSE(kvcalc::has_error(c.diagnostics));
        CHECK(count_of<NoCache>(c.spec) == 2);
        CHECK(std::holds_alternative<NoCache>(c.spec.layers[5]));
        CHECK(c.spec.num_kv_shared_layers == 2);
    }

    TEST_CASE("MLA: DeepSeek V3 is 61 latent layers of 512 + 64, Kimi K2 too") {
        auto src = kvcalc::popular_model_sources();
        for (int i : {24, 26}) {
            const auto c = kvcalc::read_hf_config(src[i].config_json);
            REQUIRE_FALSE(kvcalc::has_error(c.diagnostics));
            CHECK(count_of<MlaLatent>(c.spec) == 61);
            CHECK(c.spec.layers[0] == kvcalc::LayerCache{MlaLatent{512, 64, 0}});
        }
        const auto v32 = kvcalc::read_hf_config(R"({"model_type":"deepseek_v32","num_hidden_layers":2,"hidden_size":7168,
            "num_attention_heads":128,"kv_lora_rank":512,"qk_rope_head_dim":64,"qk_nope_head_dim":128,"v_head_dim":128,
            "q_lora_rank":1536,"index_head_dim":128,"index_n_heads":64,"max_position_embeddings":163840})");
        REQUIRE_FALSE(kvcalc::has_error(v32.diagnostics));
        CHECK(v32.spec.layers[0] == kvcalc::LayerCache{MlaLatent{512, 64, 128}});
        const auto broken = kvcalc::read_hf_config(R"({"num_hidden_layers":2,"hidden_size":64,"num_attention_heads":2,
            "kv_lora_rank":512})");
        CHECK(has_code(broken.diagnostics, "missing_key", kvcalc::Severity::error));
    }

    TEST_CASE("Gated DeltaNet hybrid: Qwen3-Next 80B, every 4th layer attention, state per vLLM layout") {
        const auto c = kvcalc::read_hf_config(kvcalc::popular_model_sources()[14].config_json);
        REQUIRE_FALSE(kvcalc::has_error(c.diagnostics));
        CHECK(count_of<FullAttention>(c.spec) == 12);
        CHECK(count_of<RecurrentState>(c.spec) == 36);
        CHECK(std::holds_alternative<FullAttention>(c.spec.layers[3]));
        const auto& r = std::get<RecurrentState>(c.spec.layers[0]);
        CHECK(r.state_elements == 32LL * 128 * 128);           // value heads × k dim × v dim = 524,288
        CHECK(r.conv_elements == 3LL * (2 * 16 * 128 + 32 * 128));  // (kernel 4 − 1) × conv dim 8192 = 24,576
        CHECK(r.num_heads == 16);
    }

    TEST_CASE("Mamba hybrids: Nemotron-H pattern, Jamba period, Falcon-H1 parallel") {
        const auto nem = kvcalc::read_hf_config(R"({"model_type":"nemotron_h","num_hidden_layers":4,"hidden_size":1024,
            "num_attention_heads":8,"num_key_value_heads":2,"head_dim":128,"hybrid_override_pattern":"M-*M",
            "mamba_num_heads":16,"mamba_head_dim":64,"ssm_state_size":128,"n_groups":4,"conv_kernel":4,
            "max_position_embeddings":8192})");
        REQUIRE_FALSE(kvcalc::has_error(nem.diagnostics));
        CHECK(count_of<RecurrentState>(nem.spec) == 2);
        CHECK(std::holds_alternative<NoCache>(nem.spec.layers[1]));
        CHECK(std::holds_alternative<FullAttention>(nem.spec.layers[2]));
        const auto& m = std::get<RecurrentState>(nem.spec.layers[0]);
        CHECK(m.state_elements == 16LL * 64 * 128);         // heads × head_dim × d_state
        CHECK(m.conv_elements == 3LL * (1024 + 2 * 4 * 128));  // (4 − 1) × (d_inner + 2 groups·state)
        const auto jamba = kvcalc::read_hf_config(R"({"model_type":"jamba","num_hidden_layers":8,"hidden_size":4096,
            "num_attention_heads":32,"num_key_value_heads":8,"attn_layer_period":8,"attn_layer_offset":4,
            "mamba_d_state":16,"mamba_d_conv":4,"mamba_expand":2,"max_position_embeddings":262144})");
        REQUIRE_FALSE(kvcalc::has_error(jamba.diagnostics));
        CHECK(count_of<FullAttention>(jamba.spec) == 1);
        CHECK(std::holds_alternative<FullAttention>(jamba.spec.layers[4]));
        CHECK(std::get<RecurrentState>(jamba.spec.layers[0]).state_elements == 8192LL * 16);  // d_inner × d_state
        const auto falcon = kvcalc::read_hf_config(R"({"model_type":"falcon_h1","num_hidden_layers":3,"hidden_size":1024,
            "num_attention_heads":8,"num_key_value_heads":2,"head_dim":64,"mamba_n_heads":24,"mamba_d_head":64,
            "mamba_d_state":128,"mamba_n_groups":1,"mamba_d_conv":4,"max_position_embeddings":16384})");
        REQUIRE_FALSE(kvcalc::has_error(falcon.diagnostics));
        CHECK(count_of<FullAttention>(falcon.spec) == 3);
        CHECK(falcon.spec.parallel_caches.size() == 3);
    }

    TEST_CASE("attn_layer_period on a Llama without Mamba keys: the error names the key that made layers Mamba") {
        // reliability-2 N12: the Mamba-keys error never said which key turned the layers into Mamba layers.
        const auto cfg = kvcalc::read_hf_config(R"({"model_type":"llama","num_hidden_layers":2,"hidden_size":64,
            "num_attention_heads":4,"vocab_size":100,"intermediate_size":128,"attn_layer_period":2})");
        REQUIRE(kvcalc::has_error(cfg.diagnostics));
        bool named = false;
        for (const auto& d : cfg.diagnostics)
            named = named || (d.field == "ssm_state_size" && d.message.find("attn_layer_period 2") != std::string::npos);
        CHECK(named);
    }

    TEST_CASE("hostile input never crashes: errors name the field") {
        CHECK(has_code(kvcalc::read_hf_config("{\"num_hidden_layers\": 32,").diagnostics, "bad_json", kvcalc::Severity::error));
        CHECK(has_code(kvcalc::read_hf_config("[1,2]").diagnostics, "bad_json", kvcalc::Severity::error));
        CHECK(has_code(kvcalc::read_hf_config("").diagnostics, "bad_json", kvcalc::Severity::error));
        const auto zero = kvcalc::read_hf_config(R"({"num_hidden_layers":0,"hidden_size":64,"num_attention_heads":1})");
        REQUIRE(has_code(zero.diagnostics, "out_of_range", kvcalc::Severity::error));
        CHECK(zero.diagnostics.front().field == "num_hidden_layers");
        const auto huge = kvcalc::read_hf_config(R"({"num_hidden_layers":2,"hidden_size":64,"num_attention_heads":1e12})");
        CHECK(has_code(huge.diagnostics, "out_of_range", kvcalc::Severity::error));
        const auto typed = kvcalc::read_hf_config(R"({"num_hidden_layers":"32","hidden_size":64,"num_attention_heads":1})");
        CHECK(has_code(typed.diagnostics, "wrong_type", kvcalc::Severity::error));
        const auto missing = kvcalc::read_hf_config(R"({"hidden_size":64})");
        REQUIRE(has_code(missing.diagnostics, "missing_key", kvcalc::Severity::error));
        for (const auto& d : missing.diagnostics) {
            if (d.code == "missing_key") {
                CHECK(d.field == "num_hidden_layers");
                CHECK(d.message.find("add") != std::string::npos);
            }
        }
        const auto neg = kvcalc::read_hf_config(R"({"num_hidden_layers":2,"hidden_size":-5,"num_attention_heads":1})");
        CHECK(kvcalc::has_error(neg.diagnostics));
        const auto frac = kvcalc::read_hf_config(R"({"num_hidden_layers":2.5,"hidden_size":64,"num_attention_heads":1})");
        CHECK(has_code(frac.diagnostics, "wrong_type", kvcalc::Severity::error));
        const auto mismatch = kvcalc::read_hf_config(R"({"num_hidden_layers":3,"hidden_size":64,"num_attention_heads":1,
            "sliding_window":8,"layer_types":["full_attention"]})");
        CHECK(has_code(mismatch.diagnostics, "layer_count_mismatch", kvcalc::Severity::error));
        const auto no_window = kvcalc::read_hf_config(R"({"num_hidden_layers":1,"hidden_size":64,"num_attention_heads":1,
            "layer_types":["sliding_attention"]})");
        CHECK(has_code(no_window.diagnostics, "missing_key", kvcalc::Severity::error));
    }

    TEST_CASE("every popular model parses without errors and has one typed layer per block") {
        const auto models = kvcalc::popular_models();
        CHECK(models.size() >= 25);
        CHECK(models.size() == kvcalc::popular_model_sources().size());
        CHECK(kvcalc::popular_model("gpt-oss-120b").has_value());
        CHECK_FALSE(kvcalc::popular_model("no-such-model").has_value());
        for (const auto& m : models) {
            INFO(m.id);
            CHECK(static_cast<int>(m.layers.size()) == m.num_hidden_layers);
            REQUIRE(m.weights.size() == 1);
            CHECK(m.weights[0].size_gb > 0.0);
            CHECK_FALSE(m.weights[0].hf_repo.empty());
            CHECK(m.max_position_embeddings > 0);
            CHECK(m.family == "generic");
        }
    }
}

TEST_SUITE("hf_config: inconsistent or impossible values are named") {
    const std::string llama_tail = R"("num_hidden_layers":32,"hidden_size":4096,"head_dim":128,
        "intermediate_size":14336,"vocab_size":128256,"max_position_embeddings":131072,"torch_dtype":"bfloat16")";

    const kvcalc::Diagnostic* find_code(const kvcalc::Diagnostics& d, const std::string& field) {
        for (const auto& x : d) {
            if (x.field == field) return &x;
        }
        return nullptr;
    }

    TEST_CASE("more K/V heads than attention heads is an error naming both numbers") {
        const auto c = kvcalc::read_hf_config(R"({"model_type":"llama","num_attention_heads":8,"num_key_value_heads":32,)" +
                                              llama_tail + "}");
        REQUIRE(kvcalc::has_error(c.diagnostics));
        const auto* d = find_code(c.diagnostics, "num_key_value_heads");
        REQUIRE(d != nullptr);
        CHECK(d->severity == kvcalc::Severity::error);
        CHECK(d->message.find("32") != std::string::npos);
        CHECK(d->message.find("num_attention_heads 8") != std::string::npos);
    }

    TEST_CASE("K/V heads that do not divide the attention heads are an error naming both (vLLM asserts it)") {
        // vllm/attention/layer.py Attention.__init__: assert num_heads % num_kv_heads == 0.
        const auto c = kvcalc::read_hf_config(R"({"model_type":"llama","num_attention_heads":32,"num_key_value_heads":7,)" +
                                              llama_tail + "}");
        REQUIRE(has_code(c.diagnostics, "inconsistent", kvcalc::Severity::error));
        for (const auto& d : c.diagnostics) {
            if (d.code != "inconsistent") continue;
            CHECK(d.field == "num_key_value_heads");
            CHECK(d.message.find("num_attention_heads 32") != std::string::npos);
            CHECK(d.message.find("num_key_value_heads 7") != std::string::npos);
        }
    }

    TEST_CASE("NaN / Infinity in a number key is invalid, naming the value, not missing") {
        for (const char* token : {"NaN", "Infinity", "-Infinity"}) {
            INFO(token);
            const auto c = kvcalc::read_hf_config(std::string(R"({"model_type":"llama","num_hidden_layers":4,"hidden_size":)") +
                                                  token + R"(,"num_attention_heads":8,"max_position_embeddings":4096})");
            REQUIRE(has_code(c.diagnostics, "wrong_type", kvcalc::Severity::error));
            CHECK_FALSE(has_code(c.diagnostics, "missing_key", kvcalc::Severity::error));
            for (const auto& d : c.diagnostics) {
                if (d.code != "wrong_type") continue;
                CHECK(d.field == "hidden_size");
                CHECK(d.message.find(token) != std::string::npos);
                CHECK(d.message.find("1..1000000") != std::string::npos);
            }
        }
    }

    TEST_CASE("quantization_config.bits of 2^40 is an error, not a wrapped int") {
        const auto c = kvcalc::read_hf_config(R"({"model_type":"llama","num_attention_heads":32,"num_key_value_heads":8,
            "quantization_config":{"quant_method":"gptq","bits":1099511627776},)" + llama_tail + "}");
        REQUIRE(kvcalc::has_error(c.diagnostics));
        const auto* d = find_code(c.diagnostics, "quantization_config.bits");
        REQUIRE(d != nullptr);
        CHECK(d->message.find("1099511627776") != std::string::npos);
        // The widths transformers' GPTQConfig.post_init accepts.
        CHECK(d->message.find("2, 3, 4 or 8") != std::string::npos);
    }

    TEST_CASE("a number beyond a double (1e400) says so instead of a generic JSON error") {
        const auto c = kvcalc::read_hf_config(R"({"model_type":"llama","hidden_size":1e400})");
        REQUIRE(kvcalc::has_error(c.diagnostics));
        CHECK(c.diagnostics[0].message.find("1e400") != std::string::npos);
        CHECK(c.diagnostics[0].message.find("1.8e308") != std::string::npos);
        const auto comma = kvcalc::read_hf_config(R"({"model_type":"llama" "hidden_size":4096})");
        REQUIRE(kvcalc::has_error(comma.diagnostics));
        CHECK(comma.diagnostics[0].message.find("line 1, column") != std::string::npos);
    }
}

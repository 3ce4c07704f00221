// read_hf_config on configs that rely on transformers' class defaults and attribute maps: Falcon's multi_query and
// default max_position_embeddings, GPT-2's n_positions.
#include <doctest/doctest.h>

#include <string>
#include <variant>

#include "kvcalc/engines/context_limit.h"
#include "kvcalc/config/hf_config.h"

using namespace kvcalc;

namespace {

/// K/V heads of the first full-attention layer, 0 when there is none.
int first_kv_heads(const ModelSpec& s) {
    for (const auto& l : s.layers)
        if (const auto* f = std::get_if<FullAttention>(&l)) return f->num_key_value_heads;
    return 0;
}

// tiiuae/falcon-7b's config.json (transformers_version 4.28.1): its attention and length keys, verbatim values.
// It has num_kv_heads 71 next to multi_query true, and no max_position_embeddings.
const std::string kFalcon7b = R"({"alibi":false,"apply_residual_connection_post_layernorm":false,
    "architectures":["FalconForCausalLM"],"attention_dropout":0.0,"bias":false,"bos_token_id":11,"eos_token_id":11,
    "hidden_dropout":0.0,"hidden_size":4544,"initializer_range":0.02,"layer_norm_epsilon":1e-05,
    "model_type":"falcon","multi_query":true,"new_decoder_architecture":false,"num_attention_heads":71,
    "num_hidden_layers":32,"num_kv_heads":71,"parallel_attn":true,"torch_dtype":"bfloat16",
    "transformers_version":"4.28.1","use_cache":true,"vocab_size":65024})";

}  // namespace

TEST_SUITE("hf_config: transformers defaults") {
    TEST_CASE("Falcon-7B: multi_query means one K/V head; max_position_embeddings is FalconConfig's 2048") {
        const HfConfig c = read_hf_config(kFalcon7b);
        REQUIRE_FALSE(has_error(c.diagnostics));
        // vLLM falcon.py: multi_query without new_decoder_architecture → total_num_kv_heads 1.
        CHECK(first_kv_heads(c.spec) == 1);
        CHECK(c.arch.head_dim == 64);  // 4544 / 71
        // FalconConfig(max_position_embeddings=2048): vLLM's getattr sees the class default.
        CHECK(c.spec.max_position_embeddings == 2048);
        CHECK(context_limit(c.spec, EngineId::vllm).max_model_len == 2048);
        CHECK(context_limit(c.spec, EngineId::sglang).max_model_len == 2048);
    }

    TEST_CASE("Falcon-40B style new_decoder_architecture keeps num_kv_heads") {
        std::string cfg = kFalcon7b;
        const std::string from = "\"new_decoder_architecture\":false";
        cfg.replace(cfg.find(from), from.size(), "\"new_decoder_architecture\":true");
        const HfConfig c = read_hf_config(cfg);
        REQUIRE_FALSE(has_error(c.diagnostics));
        CHECK(first_kv_heads(c.spec) == 71);
    }

    TEST_CASE("StarCoder (gpt_bigcode): multi_query means one K/V head; n_positions 8192 is the length") {
        // bigcode/starcoder's config.json shape, length and attention keys.
        const HfConfig c = read_hf_config(R"({"activation_function":"gelu_pytorch_tanh",
            "architectures":["GPTBigCodeForCausalLM"],"model_type":"gpt_bigcode","multi_query":true,"n_embd":6144,
            "n_head":48,"n_inner":24576,"n_layer":40,"n_positions":8192,"torch_dtype":"float32","vocab_size":49152})");
        REQUIRE_FALSE(has_error(c.diagnostics));
        CHECK(first_kv_heads(c.spec) == 1);  // vLLM gpt_bigcode.py: total_num_kv_heads = 1 when multi_query
        CHECK(c.arch.head_dim == 128);       // 6144 / 48
        CHECK(context_limit(c.spec, EngineId::vllm).max_model_len == 8192);
        CHECK(context_limit(c.spec, EngineId::sglang).max_model_len == 8192);
        // multi_query false: one K/V head per query head.
        const HfConfig mha = read_hf_config(R"({"model_type":"gpt_bigcode","multi_query":false,"n_embd":768,
            "n_head":12,"n_layer":2,"n_positions":1024,"vocab_size":50257})");
        REQUIRE_FALSE(has_error(mha.diagnostics));
        CHECK(first_kv_heads(mha.spec) == 12);
    }

    TEST_CASE("GPT-2: n_positions is max_position_embeddings (GPT2Config.attribute_map) for every engine") {
        // openai-community/gpt2's config.json length and shape keys.
        const HfConfig c = read_hf_config(R"({"activation_function":"gelu_new","architectures":["GPT2LMHeadModel"],
            "model_type":"gpt2","n_ctx":1024,"n_embd":768,"n_head":12,"n_layer":12,"n_positions":1024,
            "vocab_size":50257})");
        REQUIRE_FALSE(has_error(c.diagnostics));
        CHECK(c.spec.max_position_embeddings == 1024);
        CHECK(context_limit(c.spec, EngineId::vllm).max_model_len == 1024);
        CHECK(context_limit(c.spec, EngineId::sglang).max_model_len == 1024);  // was SGLang's 2048 fallback
        CHECK(context_limit(c.spec, EngineId::llama_cpp).max_model_len == 1024);
    }
}

// The model_type traits table: transformers config-class defaults, layer rules and engine cache support.
// Each row cites the transformers file whose __init__ signature the defaults are read from.
#include "kvcalc/config/model_traits.h"

#include <algorithm>
#include <cctype>
#include <string>

namespace kvcalc {

const std::vector<ModelTypeTraits>& model_traits_table() {
    using R = LayerRule;
    static const std::vector<ModelTypeTraits> table{
        // ---- dense decoders
        {"llama", "LlamaConfig", "llama/configuration_llama.py",
         R"({"vocab_size":32000,"hidden_size":4096,"intermediate_size":11008,"num_hidden_layers":32,
             "num_attention_heads":32,"max_position_embeddings":2048,"tie_word_embeddings":false})"},
        // FalconConfig (transformers 5fd8edad): the Hub's falcon-7b config.json states no max_position_embeddings.
        {"falcon", "FalconConfig", "falcon/configuration_falcon.py",
         R"({"vocab_size":65024,"hidden_size":4544,"num_hidden_layers":32,"num_attention_heads":71,
             "max_position_embeddings":2048,"multi_query":true,"new_decoder_architecture":false})"},
        // GPTBigCodeConfig (transformers 05ff2e98): multi_query defaults to true (StarCoder), n_positions to 1024.
        {"gpt_bigcode", "GPTBigCodeConfig", "gpt_bigcode/configuration_gpt_bigcode.py",
         R"({"vocab_size":50257,"n_positions":1024,"n_embd":768,"n_layer":12,"n_head":12,"multi_query":true,
             "tie_word_embeddings":true})"},
        {"mistral", "MistralConfig", "mistral/configuration_mistral.py",
         R"({"vocab_size":32000,"hidden_size":4096,"intermediate_size":14336,"num_hidden_layers":32,
             "num_attention_heads":32,"num_key_value_heads":8,"max_position_embeddings":131072,
             "sliding_window":4096,"tie_word_embeddings":false})"},
        {"qwen2", "Qwen2Config", "qwen2/configuration_qwen2.py",
         R"({"vocab_size":151936,"hidden_size":4096,"intermediate_size":22016,"num_hidden_layers":32,
             "num_attention_heads":32,"num_key_value_heads":32,"max_position_embeddings":32768,
             "use_sliding_window":false,"sliding_window":4096,"max_window_layers":28,"tie_word_embeddings":false})"},
        {"qwen3", "Qwen3Config", "qwen3/configuration_qwen3.py",
         R"({"vocab_size":151936,"hidden_size":4096,"intermediate_size":22016,"num_hidden_layers":32,
             "num_attention_heads":32,"num_key_value_heads":32,"head_dim":128,"max_position_embeddings":32768,
             "use_sliding_window":false,"sliding_window":4096,"max_window_layers":28,"tie_word_embeddings":false})"},
        {"phi3", "Phi3Config", "phi3/configuration_phi3.py",
         R"({"vocab_size":32064,"hidden_size":3072,"intermediate_size":8192,"num_hidden_layers":32,
             "num_attention_heads":32,"max_position_embeddings":4096,"tie_word_embeddings":false})"},
        {"gemma", "GemmaConfig", "gemma/configuration_gemma.py",
         R"({"vocab_size":256000,"hidden_size":3072,"intermediate_size":24576,"num_hidden_layers":28,
             "num_attention_heads":16,"num_key_value_heads":16,"head_dim":256,"max_position_embeddings":8192,
             "tie_word_embeddings":true})"},
        // ---- sliding-window hybrids
        {"gemma2", "Gemma2Config", "gemma2/configuration_gemma2.py",
         R"({"vocab_size":256000,"hidden_size":2304,"intermediate_size":9216,"num_hidden_layers":26,
             "num_attention_heads":8,"num_key_value_heads":4,"head_dim":256,"max_position_embeddings":8192,
             "sliding_window":4096,"tie_word_embeddings":true})",
         R::alternating_sliding, true},
        {"gemma3_text", "Gemma3TextConfig", "gemma3/configuration_gemma3.py",
         R"({"vocab_size":262208,"hidden_size":2304,"intermediate_size":9216,"num_hidden_layers":26,
             "num_attention_heads":8,"num_key_value_heads":4,"head_dim":256,"max_position_embeddings":131072,
             "sliding_window":4096,"sliding_window_pattern":6,"tie_word_embeddings":true})",
         R::from_keys, true},
        {"gemma3", "Gemma3Config", "gemma3/configuration_gemma3.py", "{}", R::from_keys, true, "gemma3_text"},
        {"gemma3n_text", "Gemma3nTextConfig", "gemma3n/configuration_gemma3n.py", "{}", R::from_keys, true},
        {"gemma3n", "Gemma3nConfig", "gemma3n/configuration_gemma3n.py", "{}", R::from_keys, true, "gemma3n_text"},
        // Gemma4TextConfig: sliding_window 512, head_dim 256, and __post_init__'s kwargs.pop("global_head_dim", 512)
        // for the full-attention layers (a trimmed text_config without them still has them).
        {"gemma4_text", "Gemma4TextConfig", "gemma4/configuration_gemma4.py",
         R"({"head_dim":256,"global_head_dim":512,"sliding_window":512,"max_position_embeddings":131072})",
         R::from_keys, true},
        {"gemma4", "Gemma4Config", "gemma4/configuration_gemma4.py", "{}", R::from_keys, true, "gemma4_text"},
        {"cohere2", "Cohere2Config", "cohere2/configuration_cohere2.py",
         R"({"vocab_size":256000,"hidden_size":8192,"intermediate_size":22528,"num_hidden_layers":40,
             "num_attention_heads":64,"max_position_embeddings":8192,"sliding_window":4096,
             "sliding_window_pattern":4,"tie_word_embeddings":true})",
         R::from_keys, true},
        {"gpt_oss", "GptOssConfig", "gpt_oss/configuration_gpt_oss.py",
         R"({"vocab_size":201088,"hidden_size":2880,"intermediate_size":2880,"num_hidden_layers":36,
             "num_attention_heads":64,"num_key_value_heads":8,"head_dim":64,"max_position_embeddings":131072,
             "sliding_window":128,"num_local_experts":128,"num_experts_per_tok":4,"tie_word_embeddings":false})",
         R::alternating_sliding, true},
        {"exaone4", "Exaone4Config", "exaone4/configuration_exaone4.py", "{}", R::from_keys, true},
        // ---- chunked local attention
        {"llama4_text", "Llama4TextConfig", "llama4/configuration_llama4.py",
         R"({"vocab_size":202048,"hidden_size":5120,"intermediate_size":8192,"intermediate_size_mlp":16384,
             "num_hidden_layers":48,"num_attention_heads":40,"num_key_value_heads":8,"head_dim":128,
             "max_position_embeddings":131072,"num_local_experts":16,"num_experts_per_tok":1,
             "interleave_moe_layer_step":1,"attention_chunk_size":8192,"no_rope_layer_interval":4,
             "tie_word_embeddings":false})",
         R::llama4_chunked, true},
        {"llama4", "Llama4Config", "llama4/configuration_llama4.py", "{}", R::llama4_chunked, true, "llama4_text"},
        // ---- MoE
        {"mixtral", "MixtralConfig", "mixtral/configuration_mixtral.py",
         R"({"vocab_size":32000,"hidden_size":4096,"intermediate_size":14336,"num_hidden_layers":32,
             "num_attention_heads":32,"num_key_value_heads":8,"max_position_embeddings":131072,
             "num_local_experts":8,"num_experts_per_tok":2,"tie_word_embeddings":false})"},
        {"qwen2_moe", "Qwen2MoeConfig", "qwen2_moe/configuration_qwen2_moe.py",
         R"({"vocab_size":151936,"hidden_size":2048,"intermediate_size":5632,"num_hidden_layers":24,
             "num_attention_heads":16,"num_key_value_heads":16,"max_position_embeddings":32768,
             "use_sliding_window":false,"sliding_window":4096,"max_window_layers":28,"moe_intermediate_size":1408,
             "shared_expert_intermediate_size":5632,"num_experts":60,"num_experts_per_tok":4,
             "tie_word_embeddings":false})"},
        {"qwen3_moe", "Qwen3MoeConfig", "qwen3_moe/configuration_qwen3_moe.py",
         R"({"vocab_size":151936,"hidden_size":2048,"intermediate_size":6144,"num_hidden_layers":24,
             "num_attention_heads":32,"num_key_value_heads":4,"max_position_embeddings":32768,
             "use_sliding_window":false,"sliding_window":4096,"max_window_layers":28,"moe_intermediate_size":768,
             "num_experts":128,"num_experts_per_tok":8,"tie_word_embeddings":false})"},
        // ---- MLA
        {"deepseek_v3", "DeepseekV3Config", "deepseek_v3/configuration_deepseek_v3.py",
         R"({"vocab_size":129280,"hidden_size":7168,"intermediate_size":18432,"moe_intermediate_size":2048,
             "num_hidden_layers":61,"num_attention_heads":128,"num_key_value_heads":128,"n_shared_experts":1,
             "n_routed_experts":256,"num_experts_per_tok":8,"first_k_dense_replace":3,"q_lora_rank":1536,
             "kv_lora_rank":512,"qk_rope_head_dim":64,"v_head_dim":128,"qk_nope_head_dim":128,
             "max_position_embeddings":4096,"tie_word_embeddings":false})"},
        {"deepseek_v32", "DeepseekV32Config", "deepseek-ai/DeepSeek-V3.2-Exp configuration (remote code)", "{}"},
        {"kimi_k2", "DeepseekV3Config", "deepseek_v3/configuration_deepseek_v3.py", "{}"},
        // ---- recurrent hybrids
        {"lfm2", "Lfm2Config", "lfm2/configuration_lfm2.py",
         R"({"vocab_size":65536,"hidden_size":2560,"intermediate_size":12288,"num_hidden_layers":32,
             "num_attention_heads":32,"num_key_value_heads":8,"max_position_embeddings":128000,"conv_L_cache":3,
             "tie_word_embeddings":true})"},
        {"lfm2_vl", "Lfm2VlConfig", "lfm2_vl/configuration_lfm2_vl.py", "{}", R::from_keys, false, "lfm2"},
        {"jamba", "JambaConfig", "jamba/configuration_jamba.py",
         R"({"vocab_size":65536,"hidden_size":4096,"intermediate_size":14336,"num_hidden_layers":32,
             "num_attention_heads":32,"num_key_value_heads":8,"max_position_embeddings":262144,
             "attn_layer_period":8,"attn_layer_offset":4,"mamba_d_state":16,"mamba_d_conv":4,"mamba_expand":2,
             "num_experts":16,"num_experts_per_tok":2,"tie_word_embeddings":false})"},
        {"falcon_h1", "FalconH1Config", "falcon_h1/configuration_falcon_h1.py", "{}", R::falcon_h1_parallel},
        {"nemotron_h", "NemotronHConfig", "nemotron_h/configuration_nemotron_h.py", "{}"},
        {"qwen3_next", "Qwen3NextConfig", "qwen3_next/configuration_qwen3_next.py", "{}"},
        {"nemotron-nas", "DeciLMConfig", "nvidia/Llama-3_3-Nemotron-Super-49B-v1 configuration_decilm.py (remote code)",
         "{}"},
        // ---- multimodal wrappers whose text model defaults to another class
        {"llava", "LlavaConfig", "llava/configuration_llava.py", "{}", R::from_keys, false, "llama"},
        {"llava_next", "LlavaNextConfig", "llava_next/configuration_llava_next.py", "{}", R::from_keys, false, "llama"},
        {"mistral3", "Mistral3Config", "mistral3/configuration_mistral3.py", "{}", R::from_keys, false, "mistral"},
        // ---- bidirectional encoders (embedding / classification models): no KV cache
        {"bert", "BertConfig", "bert/configuration_bert.py", "{}", R::encoder_only},
        {"roberta", "RobertaConfig", "roberta/configuration_roberta.py", "{}", R::encoder_only},
        {"xlm-roberta", "XLMRobertaConfig", "xlm_roberta/configuration_xlm_roberta.py", "{}", R::encoder_only},
        {"distilbert", "DistilBertConfig", "distilbert/configuration_distilbert.py", "{}", R::encoder_only},
        {"modernbert", "ModernBertConfig", "modernbert/configuration_modernbert.py", "{}", R::encoder_only},
        {"nomic_bert", "NomicBertConfig", "nomic-ai/nomic-bert-2048 configuration (remote code)", "{}",
         R::encoder_only},
        {"electra", "ElectraConfig", "electra/configuration_electra.py", "{}", R::encoder_only},
        {"deberta-v2", "DebertaV2Config", "deberta_v2/configuration_deberta_v2.py", "{}", R::encoder_only},
        {"mpnet", "MPNetConfig", "mpnet/configuration_mpnet.py", "{}", R::encoder_only},
        {"camembert", "CamembertConfig", "camembert/configuration_camembert.py", "{}", R::encoder_only},
    };
    return table;
}

const ModelTypeTraits* find_model_traits(std::string_view model_type) {
    if (model_type.empty()) return nullptr;
    for (const auto& t : model_traits_table())
        if (t.model_type == model_type) return &t;
    return nullptr;
}

bool is_encoder_only(std::string_view model_type, const std::vector<std::string_view>& architectures) {
    if (const auto* t = find_model_traits(model_type); t && t->layer_rule == LayerRule::encoder_only) return true;
    auto ends_with = [](std::string_view s, std::string_view tail) {
        return s.size() >= tail.size() && s.substr(s.size() - tail.size()) == tail;
    };
    for (std::string_view a : architectures) {
        // BertModel, XLMRobertaModel, NomicBertModel, …ForMaskedLM: encoder classes whatever the model_type says.
        for (std::string_view enc : {"BertModel", "RobertaModel", "BertForMaskedLM", "RobertaForMaskedLM",
                                     "BertForSequenceClassification", "RobertaForSequenceClassification",
                                     "ModernBertModel", "ModernBertForMaskedLM"})
            if (ends_with(a, enc)) return true;
    }
    return false;
}

}  // namespace kvcalc

// Embedded config.json facts of popular models (the keys kvcalc reads, written from each repo's published
// config.json; the repo id is the source). Published parameter counts are from the model cards.
#include "kvcalc/catalog/catalog_popular.h"

namespace kvcalc {

namespace {

// Llama 3.x: RoPE 500000, vocab 128256; 8B/70B untied, 1B/3B tied embeddings.
const char* kLlama31_8b = R"({"architectures":["LlamaForCausalLM"],"model_type":"llama","hidden_size":4096,
"intermediate_size":14336,"num_hidden_layers":32,"num_attention_heads":32,"num_key_value_heads":8,"head_dim":128,
"vocab_size":128256,"max_position_embeddings":131072,"tie_word_embeddings":false,"torch_dtype":"bfloat16"})";
const char* kLlama31_70b = R"({"architectures":["LlamaForCausalLM"],"model_type":"llama","hidden_size":8192,
"intermediate_size":28672,"num_hidden_layers":80,"num_attention_heads":64,"num_key_value_heads":8,"head_dim":128,
"vocab_size":128256,"max_position_embeddings":131072,"tie_word_embeddings":false,"torch_dtype":"bfloat16"})";
const char* kLlama32_1b = R"({"architectures":["LlamaForCausalLM"],"model_type":"llama","hidden_size":2048,
"intermediate_size":8192,"num_hidden_layers":16,"num_attention_heads":32,"num_key_value_heads":8,"head_dim":64,
"vocab_size":128256,"max_position_embeddings":131072,"tie_word_embeddings":true,"torch_dtype":"bfloat16"})";
const char* kLlama32_3b = R"({"architectures":["LlamaForCausalLM"],"model_type":"llama","hidden_size":3072,
"intermediate_size":8192,"num_hidden_layers":28,"num_attention_heads":24,"num_key_value_heads":8,"head_dim":128,
"vocab_size":128256,"max_position_embeddings":131072,"tie_word_embeddings":true,"torch_dtype":"bfloat16"})";

// Qwen3 dense: head_dim 128, vocab 151936, 40960 positions (32768 native + YaRN), no sliding window.
const char* kQwen3_06b = R"({"architectures":["Qwen3ForCausalLM"],"model_type":"qwen3","hidden_size":1024,
"intermediate_size":3072,"num_hidden_layers":28,"num_attention_heads":16,"num_key_value_heads":8,"head_dim":128,
"vocab_size":151936,"max_position_embeddings":40960,"tie_word_embeddings":true,"use_sliding_window":false,
"sliding_window":null,"torch_dtype":"bfloat16"})";
const char* kQwen3_17b = R"({"architectures":["Qwen3ForCausalLM"],"model_type":"qwen3","hidden_size":2048,
"intermediate_size":6144,"num_hidden_layers":28,"num_attention_heads":16,"num_key_value_heads":8,"head_dim":128,
"vocab_size":151936,"max_position_embeddings":40960,"tie_word_embeddings":true,"use_sliding_window":false,
"torch_dtype":"bfloat16"})";
const char* kQwen3_4b = R"({"architectures":["Qwen3ForCausalLM"],"model_type":"qwen3","hidden_size":2560,
"intermediate_size":9728,"num_hidden_layers":36,"num_attention_heads":32,"num_key_value_heads":8,"head_dim":128,
"vocab_size":151936,"max_position_embeddings":40960,"tie_word_embeddings":true,"use_sliding_window":false,
"torch_dtype":"bfloat16"})";
const char* kQwen3_8b = R"({"architectures":["Qwen3ForCausalLM"],"model_type":"qwen3","hidden_size":4096,
"intermediate_size":12288,"num_hidden_layers":36,"num_attention_heads":32,"num_key_value_heads":8,"head_dim":128,
"vocab_size":151936,"max_position_embeddings":40960,"tie_word_embeddings":false,"use_sliding_window":false,
"torch_dtype":"bfloat16"})";
const char* kQwen3_14b = R"({"architectures":["Qwen3ForCausalLM"],"model_type":"qwen3","hidden_size":5120,
"intermediate_size":17408,"num_hidden_layers":40,"num_attention_heads":40,"num_key_value_heads":8,"head_dim":128,
"vocab_size":151936,"max_position_embeddings":40960,"tie_word_embeddings":false,"use_sliding_window":false,
"torch_dtype":"bfloat16"})";
const char* kQwen3_32b = R"({"architectures":["Qwen3ForCausalLM"],"model_type":"qwen3","hidden_size":5120,
"intermediate_size":25600,"num_hidden_layers":64,"num_attention_heads":64,"num_key_value_heads":8,"head_dim":128,
"vocab_size":151936,"max_position_embeddings":40960,"tie_word_embeddings":false,"use_sliding_window":false,
"torch_dtype":"bfloat16"})";
const char* kQwen3_30b_a3b = R"({"architectures":["Qwen3MoeForCausalLM"],"model_type":"qwen3_moe","hidden_size":2048,
"intermediate_size":6144,"moe_intermediate_size":768,"num_experts":128,"num_experts_per_tok":8,
"num_hidden_layers":48,"num_attention_heads":32,"num_key_value_heads":4,"head_dim":128,"vocab_size":151936,
"max_position_embeddings":40960,"tie_word_embeddings":false,"use_sliding_window":false,"torch_dtype":"bfloat16"})";
const char* kQwen3_235b = R"({"architectures":["Qwen3MoeForCausalLM"],"model_type":"qwen3_moe","hidden_size":4096,
"intermediate_size":12288,"moe_intermediate_size":1536,"num_experts":128,"num_experts_per_tok":8,
"num_hidden_layers":94,"num_attention_heads":64,"num_key_value_heads":4,"head_dim":128,"vocab_size":151936,
"max_position_embeddings":40960,"tie_word_embeddings":false,"use_sliding_window":false,"torch_dtype":"bfloat16"})";
const char* kQwen3_coder_480b = R"({"architectures":["Qwen3MoeForCausalLM"],"model_type":"qwen3_moe",
"hidden_size":6144,"intermediate_size":8192,"moe_intermediate_size":2560,"num_experts":160,"num_experts_per_tok":8,
"num_hidden_layers":62,"num_attention_heads":96,"num_key_value_heads":8,"head_dim":128,"vocab_size":151936,
"max_position_embeddings":262144,"tie_word_embeddings":false,"use_sliding_window":false,"torch_dtype":"bfloat16"})";
// Qwen3-Next: every 4th layer gated full attention, the rest Gated DeltaNet; 512 experts + 1 shared.
const char* kQwen3_next_80b = R"({"architectures":["Qwen3NextForCausalLM"],"model_type":"qwen3_next",
"hidden_size":2048,"intermediate_size":5120,"moe_intermediate_size":512,"shared_expert_intermediate_size":512,
"num_experts":512,"num_experts_per_tok":10,"num_hidden_layers":48,"num_attention_heads":16,"num_key_value_heads":2,
"head_dim":256,"full_attention_interval":4,"linear_num_key_heads":16,"linear_num_value_heads":32,
"linear_key_head_dim":128,"linear_value_head_dim":128,"linear_conv_kernel_dim":4,"vocab_size":151936,
"max_position_embeddings":262144,"tie_word_embeddings":false,"torch_dtype":"bfloat16"})";
const char* kQwen25_7b = R"({"architectures":["Qwen2ForCausalLM"],"model_type":"qwen2","hidden_size":3584,
"intermediate_size":18944,"num_hidden_layers":28,"num_attention_heads":28,"num_key_value_heads":4,
"vocab_size":152064,"max_position_embeddings":32768,"sliding_window":131072,"use_sliding_window":false,
"max_window_layers":28,"tie_word_embeddings":false,"torch_dtype":"bfloat16"})";
const char* kQwen25_32b = R"({"architectures":["Qwen2ForCausalLM"],"model_type":"qwen2","hidden_size":5120,
"intermediate_size":27648,"num_hidden_layers":64,"num_attention_heads":40,"num_key_value_heads":8,
"vocab_size":152064,"max_position_embeddings":32768,"sliding_window":131072,"use_sliding_window":false,
"max_window_layers":64,"tie_word_embeddings":false,"torch_dtype":"bfloat16"})";

// Mistral: Small 3.2 wraps the text model in text_config (Pixtral vision tower not counted); v0.1 slides.
const char* kMistralSmall32 = R"({"architectures":["Mistral3ForConditionalGeneration"],"model_type":"mistral3",
"text_config":{"model_type":"mistral","hidden_size":5120,"intermediate_size":32768,"num_hidden_layers":40,
"num_attention_heads":32,"num_key_value_heads":8,"head_dim":128,"vocab_size":131072,
"max_position_embeddings":131072,"sliding_window":null},"tie_word_embeddings":false,"torch_dtype":"bfloat16"})";
const char* kMistral7b01 = R"({"architectures":["MistralForCausalLM"],"model_type":"mistral","hidden_size":4096,
"intermediate_size":14336,"num_hidden_layers":32,"num_attention_heads":32,"num_key_value_heads":8,
"vocab_size":32000,"max_position_embeddings":32768,"sliding_window":4096,"tie_word_embeddings":false,
"torch_dtype":"bfloat16"})";

// Gemma 3: every 6th layer global, the others slide over 1024 tokens; tied embeddings, vocab 262208.
const char* kGemma3_4b = R"({"architectures":["Gemma3ForConditionalGeneration"],"model_type":"gemma3",
"text_config":{"model_type":"gemma3_text","hidden_size":2560,"intermediate_size":10240,"num_hidden_layers":34,
"num_attention_heads":8,"num_key_value_heads":4,"head_dim":256,"sliding_window":1024,"sliding_window_pattern":6,
"vocab_size":262208,"max_position_embeddings":131072},"torch_dtype":"bfloat16"})";
const char* kGemma3_12b = R"({"architectures":["Gemma3ForConditionalGeneration"],"model_type":"gemma3",
"text_config":{"model_type":"gemma3_text","hidden_size":3840,"intermediate_size":15360,"num_hidden_layers":48,
"num_attention_heads":16,"num_key_value_heads":8,"head_dim":256,"sliding_window":1024,"sliding_window_pattern":6,
"vocab_size":262208,"max_position_embeddings":131072},"torch_dtype":"bfloat16"})";
const char* kGemma3_27b = R"({"architectures":["Gemma3ForConditionalGeneration"],"model_type":"gemma3",
"text_config":{"model_type":"gemma3_text","hidden_size":5376,"intermediate_size":21504,"num_hidden_layers":62,
"num_attention_heads":32,"num_key_value_heads":16,"head_dim":128,"sliding_window":1024,"sliding_window_pattern":6,
"vocab_size":262208,"max_position_embeddings":131072},"torch_dtype":"bfloat16"})";

// gpt-oss: alternating 128-token sliding / full layers with attention sinks; experts ship as mxfp4.
const char* kGptOss20b = R"({"architectures":["GptOssForCausalLM"],"model_type":"gpt_oss","hidden_size":2880,
"intermediate_size":2880,"num_local_experts":32,"experts_per_token":4,"num_hidden_layers":24,
"num_attention_heads":64,"num_key_value_heads":8,"head_dim":64,"sliding_window":128,"attention_bias":true,
"layer_types":["sliding_attention","full_attention","sliding_attention","full_attention","sliding_attention",
"full_attention","sliding_attention","full_attention","sliding_attention","full_attention","sliding_attention",
"full_attention","sliding_attention","full_attention","sliding_attention","full_attention","sliding_attention",
"full_attention","sliding_attention","full_attention","sliding_attention","full_attention","sliding_attention",
"full_attention"],"vocab_size":201088,"max_position_embeddings":131072,"tie_word_embeddings":false,
"torch_dtype":"bfloat16","quantization_config":{"quant_method":"mxfp4"}})";
const char* kGptOss120b = R"({"architectures":["GptOssForCausalLM"],"model_type":"gpt_oss","hidden_size":2880,
"intermediate_size":2880,"num_local_experts":128,"experts_per_token":4,"num_hidden_layers":36,
"num_attention_heads":64,"num_key_value_heads":8,"head_dim":64,"sliding_window":128,"attention_bias":true,
"layer_types":["sliding_attention","full_attention","sliding_attention","full_attention","sliding_attention",
"full_attention","sliding_attention","full_attention","sliding_attention","full_attention","sliding_attention",
"full_attention","sliding_attention","full_attention","sliding_attention","full_attention","sliding_attention",
"full_attention","sliding_attention","full_attention","sliding_attention","full_attention","sliding_attention",
"full_attention","sliding_attention","full_attention","sliding_attention","full_attention","sliding_attention",
"full_attention","sliding_attention","full_attention","sliding_attention","full_attention","sliding_attention",
"full_attention"],"vocab_size":201088,"max_position_embeddings":131072,"tie_word_embeddings":false,
"torch_dtype":"bfloat16","quantization_config":{"quant_method":"mxfp4"}})";

// DeepSeek V3 / R1 (same architecture), Kimi K2: MLA (latent 512 + rope 64), 3 resp. 1 dense leading layers.
const char* kDeepSeekV3 = R"({"architectures":["DeepseekV3ForCausalLM"],"model_type":"deepseek_v3",
"hidden_size":7168,"intermediate_size":18432,"moe_intermediate_size":2048,"n_routed_experts":256,
"n_shared_experts":1,"num_experts_per_tok":8,"first_k_dense_replace":3,"num_hidden_layers":61,
"num_attention_heads":128,"num_key_value_heads":128,"q_lora_rank":1536,"kv_lora_rank":512,"qk_nope_head_dim":128,
"qk_rope_head_dim":64,"v_head_dim":128,"vocab_size":129280,"max_position_embeddings":163840,
"tie_word_embeddings":false,"torch_dtype":"bfloat16","quantization_config":{"quant_method":"fp8"}})";
const char* kKimiK2 = R"({"architectures":["DeepseekV3ForCausalLM"],"model_type":"kimi_k2","hidden_size":7168,
"intermediate_size":18432,"moe_intermediate_size":2048,"n_routed_experts":384,"n_shared_experts":1,
"num_experts_per_tok":8,"first_k_dense_replace":1,"num_hidden_layers":61,"num_attention_heads":64,
"num_key_value_heads":64,"q_lora_rank":1536,"kv_lora_rank":512,"qk_nope_head_dim":128,"qk_rope_head_dim":64,
"v_head_dim":128,"vocab_size":163840,"max_position_embeddings":131072,"tie_word_embeddings":false,
"torch_dtype":"bfloat16","quantization_config":{"quant_method":"fp8"}})";
const char* kDeepSeekV2Lite = R"({"architectures":["DeepseekV2ForCausalLM"],"model_type":"deepseek_v2",
"hidden_size":2048,"intermediate_size":10944,"moe_intermediate_size":1408,"n_routed_experts":64,
"n_shared_experts":2,"num_experts_per_tok":6,"first_k_dense_replace":1,"num_hidden_layers":27,
"num_attention_heads":16,"num_key_value_heads":16,"q_lora_rank":null,"kv_lora_rank":512,"qk_nope_head_dim":128,
"qk_rope_head_dim":64,"v_head_dim":128,"vocab_size":102400,"max_position_embeddings":163840,
"tie_word_embeddings":false,"torch_dtype":"bfloat16"})";

const char* kPhi4 = R"({"architectures":["Phi3ForCausalLM"],"model_type":"phi3","hidden_size":5120,
"intermediate_size":17920,"num_hidden_layers":40,"num_attention_heads":40,"num_key_value_heads":10,
"vocab_size":100352,"max_position_embeddings":16384,"sliding_window":null,"tie_word_embeddings":false,
"torch_dtype":"bfloat16"})";

// Falcon-H1: attention and a Mamba-2 mixer side by side in every layer (no layout key).
const char* kFalconH1_7b = R"({"architectures":["FalconH1ForCausalLM"],"model_type":"falcon_h1","hidden_size":3072,
"intermediate_size":12288,"num_hidden_layers":44,"num_attention_heads":12,"num_key_value_heads":2,"head_dim":128,
"mamba_d_ssm":3072,"mamba_n_heads":24,"mamba_d_head":128,"mamba_d_state":256,"mamba_n_groups":1,"mamba_d_conv":4,
"mamba_expand":2,"vocab_size":130048,"max_position_embeddings":262144,"tie_word_embeddings":false,
"torch_dtype":"bfloat16"})";

}  // namespace

std::vector<PopularModelSource> popular_model_sources() {
    return {
        {"llama-3.1-8b", "Llama 3.1 8B Instruct", "meta-llama/Llama-3.1-8B-Instruct", "bf16", kLlama31_8b, 8.03},
        {"llama-3.1-70b", "Llama 3.1 70B Instruct", "meta-llama/Llama-3.1-70B-Instruct", "bf16", kLlama31_70b, 70.6},
        {"llama-3.3-70b", "Llama 3.3 70B Instruct", "meta-llama/Llama-3.3-70B-Instruct", "bf16", kLlama31_70b, 70.6},
        {"llama-3.2-1b", "Llama 3.2 1B Instruct", "meta-llama/Llama-3.2-1B-Instruct", "bf16", kLlama32_1b, 1.24},
        {"llama-3.2-3b", "Llama 3.2 3B Instruct", "meta-llama/Llama-3.2-3B-Instruct", "bf16", kLlama32_3b, 3.21},
        {"qwen3-0.6b", "Qwen3 0.6B", "Qwen/Qwen3-0.6B", "bf16", kQwen3_06b, 0.6},
        {"qwen3-1.7b", "Qwen3 1.7B", "Qwen/Qwen3-1.7B", "bf16", kQwen3_17b, 1.7},
        {"qwen3-4b", "Qwen3 4B", "Qwen/Qwen3-4B", "bf16", kQwen3_4b, 4.0},
        {"qwen3-8b", "Qwen3 8B", "Qwen/Qwen3-8B", "bf16", kQwen3_8b, 8.2},
        {"qwen3-14b", "Qwen3 14B", "Qwen/Qwen3-14B", "bf16", kQwen3_14b, 14.8},
        {"qwen3-32b", "Qwen3 32B", "Qwen/Qwen3-32B", "bf16", kQwen3_32b, 32.8},
        {"qwen3-30b-a3b", "Qwen3 30B-A3B", "Qwen/Qwen3-30B-A3B", "bf16", kQwen3_30b_a3b, 30.5},
        {"qwen3-235b-a22b", "Qwen3 235B-A22B", "Qwen/Qwen3-235B-A22B", "bf16", kQwen3_235b, 235.0},
        {"qwen3-coder-480b-a35b", "Qwen3 Coder 480B-A35B", "Qwen/Qwen3-Coder-480B-A35B-Instruct", "bf16",
         kQwen3_coder_480b, 480.0},
        {"qwen3-next-80b-a3b", "Qwen3-Next 80B-A3B Instruct", "Qwen/Qwen3-Next-80B-A3B-Instruct", "bf16",
         kQwen3_next_80b, 80.0},
        {"qwen2.5-7b", "Qwen2.5 7B Instruct", "Qwen/Qwen2.5-7B-Instruct", "bf16", kQwen25_7b, 7.61},
        {"qwen2.5-32b", "Qwen2.5 32B Instruct", "Qwen/Qwen2.5-32B-Instruct", "bf16", kQwen25_32b, 32.5},
        {"mistral-small-3.2-24b", "Mistral Small 3.2 24B Instruct", "mistralai/Mistral-Small-3.2-24B-Instruct-2506",
         "bf16", kMistralSmall32, 24.0},
        {"mistral-7b-v0.1", "Mistral 7B v0.1", "mistralai/Mistral-7B-v0.1", "bf16", kMistral7b01, 7.24},
        {"gemma-3-4b", "Gemma 3 4B IT", "google/gemma-3-4b-it", "bf16", kGemma3_4b, 4.3},
        {"gemma-3-12b", "Gemma 3 12B IT", "google/gemma-3-12b-it", "bf16", kGemma3_12b, 12.2},
        {"gemma-3-27b", "Gemma 3 27B IT", "google/gemma-3-27b-it", "bf16", kGemma3_27b, 27.4},
        {"gpt-oss-20b", "gpt-oss 20B", "openai/gpt-oss-20b", "mxfp4", kGptOss20b, 20.9},
        {"gpt-oss-120b", "gpt-oss 120B", "openai/gpt-oss-120b", "mxfp4", kGptOss120b, 116.8},
        {"deepseek-v3", "DeepSeek V3", "deepseek-ai/DeepSeek-V3", "fp8", kDeepSeekV3, 671.0},
        {"deepseek-r1", "DeepSeek R1", "deepseek-ai/DeepSeek-R1", "fp8", kDeepSeekV3, 671.0},
        {"kimi-k2", "Kimi K2 Instruct", "moonshotai/Kimi-K2-Instruct", "fp8", kKimiK2, 1000.0},
        {"deepseek-v2-lite", "DeepSeek V2 Lite Chat", "deepseek-ai/DeepSeek-V2-Lite-Chat", "bf16", kDeepSeekV2Lite,
         15.7},
        {"phi-4", "Phi-4", "microsoft/phi-4", "bf16", kPhi4, 14.7},
        {"falcon-h1-7b", "Falcon-H1 7B Instruct", "tiiuae/Falcon-H1-7B-Instruct", "bf16", kFalconH1_7b, 0.0},
    };
}

}  // namespace kvcalc

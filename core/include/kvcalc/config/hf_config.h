// Reading a Hugging Face config.json into a ModelSpec (no I/O: the caller hands over the text).
// Key aliases, layer typing rules and the diagnostics are documented in docs/CONFIG_JSON.md.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "kvcalc/base/diagnostic.h"
#include "kvcalc/base/model_spec.h"

namespace kvcalc {

/// Architecture dimensions a config.json carries beyond ModelSpec: what param_count.h needs to count
/// parameters and what weights estimation needs to price them. 0 / empty / false means "absent".
struct HfArchitecture {
    std::string model_type;                 ///< `model_type` of the text model
    std::vector<std::string> architectures; ///< `architectures` (top level)
    int vocab_size = 0;
    /// Gemma 3n / Gemma 4 E-models' per-layer inputs (`hidden_size_per_layer_input`, 0 = none) and the vocabulary
    /// of their per-layer embedding table (`vocab_size_per_layer_input`, else vocab_size).
    int hidden_size_per_layer_input = 0;
    int vocab_size_per_layer_input = 0;
    int intermediate_size = 0;              ///< dense MLP width
    /// The MLP is gate + up + down (SwiGLU/GeGLU, 3 matrices); false for the up + down (fc1/fc2, c_fc/c_proj)
    /// MLPs of BLOOM, Falcon, GPT-J, GPT-2, GPTBigCode, GPT-NeoX, MPT, Phi-1/2, StarCoder2, OPT (their vLLM files).
    bool gated_mlp = true;
    /// Learned absolute position embeddings (GPT-2, GPTBigCode `wpe`: n_positions × hidden), 0 = none (RoPE/ALiBi).
    int learned_positions = 0;
    int moe_intermediate_size = 0;          ///< one routed expert's width
    int moe_latent_size = 0;                ///< Nemotron 3 latent MoE: routed experts work in this width, not hidden
    int shared_expert_intermediate_size = 0;///< total shared-expert width (Qwen2-MoE / Qwen3-Next style)
    int n_shared_experts = 0;               ///< DeepSeek style shared experts, each moe_intermediate_size wide
    int first_k_dense_replace = 0;          ///< leading layers with a dense MLP instead of experts (DeepSeek)
    std::vector<int> moe_layer_freq;        ///< per layer 1 = MoE, 0 = dense MLP (MiMo-V2 / Step `moe_layer_freq` list)
    bool tie_word_embeddings = false;       ///< lm_head shares the embedding matrix
    bool attention_bias = false;            ///< q/k/v (and o for gpt-oss) projections have biases
    bool qk_norm = false;                   ///< per-head RMSNorm on q and k (Qwen3, Gemma 3)
    bool attention_sinks = false;           ///< learned per-head sink logits (gpt-oss); no cache cost
    int head_dim = 0;                       ///< attention head dim of full/sliding layers
    int global_head_dim = 0;                ///< Gemma 4 full-attention head dim (0 = same as head_dim)
    int num_key_value_heads = 0;
    int num_global_key_value_heads = 0;     ///< Gemma 4 full-attention KV heads (0 = same)
    bool attention_k_eq_v = false;          ///< Gemma 4: K and V are one tensor
    // MLA (DeepSeek V2/V3, Kimi K2); kv_lora_rank == 0 when the model has no MLA.
    int q_lora_rank = 0, kv_lora_rank = 0, qk_nope_head_dim = 0, qk_rope_head_dim = 0, v_head_dim = 0;
    int index_head_dim = 0, index_n_heads = 0;  ///< DeepSeek V3.2 sparse-attention indexer
    // Mamba (Jamba = Mamba-1; Nemotron-H, Falcon-H1 = Mamba-2). 0 when absent.
    int mamba_num_heads = 0, mamba_head_dim = 0, mamba_d_state = 0, mamba_n_groups = 0;
    int mamba_d_conv = 0, mamba_d_inner = 0;
    // Per-layer blocks of hybrid / searched architectures (empty for uniform models).
    std::string layer_blocks;               ///< Nemotron-H hybrid_override_pattern: M Mamba-2, * attention, - MLP, E MoE
    std::vector<int> layer_mlp_widths;      ///< DeciLM block_configs MLP width per layer; 0 no MLP, -1 hidden×hidden linear
    std::vector<bool> layer_linear_attention;///< DeciLM attention replaced by a hidden×hidden linear
    int dense_intermediate_size = 0;        ///< Llama 4 intermediate_size_mlp (dense layers between MoE layers)
    int interleave_moe_layer_step = 0;      ///< Llama 4: every Nth layer is MoE (0 = not stated)
    int conv_l_cache = 0;                   ///< LFM2 conv_L_cache (short-convolution kernel)
    bool encoder_only = false;              ///< bidirectional encoder (BERT family): keeps no KV cache
    std::string torch_dtype;                ///< "bfloat16", "float16", "float32"; empty = not stated
    std::string quant_method;               ///< quantization_config.quant_method ("fp8", "mxfp4", "awq", "gptq", …)
    int quant_bits = 0;                     ///< quantization_config bits / num_bits, 0 = not stated
    int quant_group_size = 0;               ///< quantization_config group_size, 0 = not stated
    int quant_scale_bytes = 0;              ///< bytes of each group's scale: 0 = fp16 (GPTQ/AWQ), 4 = bitsandbytes fp32 absmax
    std::string kv_cache_quant;             ///< vLLM's auto cache dtype from the checkpoint ("fp8_e4m3"), else empty
};

/// What read_hf_config returns: the ModelSpec (layers typed, provenance filled), the extra dimensions, and
/// every problem found. When `diagnostics` holds an error the spec must not be used.
struct HfConfig {
    ModelSpec spec;
    HfArchitecture arch;
    Diagnostics diagnostics;
};

/// Parses the text of a Hugging Face config.json and types every layer (full / sliding / chunked / MLA / linear,
/// Mamba or short-conv state / none). Follows `text_config` for multimodal wrappers, fills keys the file leaves
/// out from the transformers config class of its model_type (model_traits.h), accepts the known key aliases and
/// records in `spec.provenance` which key (or class default) each fact came from. `Infinity`, `-Infinity` and
/// `NaN` (which Python's json writer emits) read as null with a warning naming the key. Never throws: malformed
/// JSON, wrong value types and absurd values (0 layers, 1e12 heads) come back as error diagnostics naming the key
/// path; missing optional keys come back as warnings saying what was assumed. Encoder-only models (BERT family)
/// come back with every layer NoCache and `arch.encoder_only` set. `spec.family` is "generic",
/// `spec.calibrated` false, `spec.id` empty (the caller names it); `spec.num_parameters` is filled from
/// param_count.h when the MLP widths are known.
HfConfig read_hf_config(std::string_view config_json_text);

}  // namespace kvcalc

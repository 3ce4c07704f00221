// Internal: which kind of sequence-mixing block each layer is, from the config's pattern keys.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "config/hf_config_keys.h"

namespace kvcalc::hf {

/// The mixer of one layer before dimensions are attached. `conv` is LFM2's gated short convolution.
enum class MixerKind { full, sliding, chunked, linear, mamba, conv, none };

/// Result of resolving the layer pattern: one kind per layer, plus whether every layer also carries a Mamba
/// mixer in parallel (Falcon-H1), and per-layer overrides from DeciLM `block_configs`.
struct LayerPattern {
    std::vector<MixerKind> kinds;
    bool parallel_mamba = false;
    std::vector<int> kv_heads;            ///< per layer, 0 = the config's num_key_value_heads (DeciLM groups)
    std::vector<std::int64_t> windows;    ///< per layer, 0 = the config's sliding_window (DeciLM window_length)
    std::vector<int> mlp_widths;          ///< DeciLM per-layer MLP width; 0 = no MLP, -1 = hidden×hidden linear
    std::vector<bool> linear_attention;   ///< DeciLM attention replaced by a hidden×hidden linear
    std::string blocks;                   ///< Nemotron-H hybrid_override_pattern, one character per layer
};

/// Resolves the per-layer mixer kind for `num_layers` layers from (first match wins): `layer_types`,
/// `hybrid_override_pattern` (Nemotron-H), `block_configs` (DeciLM / Nemotron-NAS), `hybrid_layer_pattern` (MiMo-V2),
/// `attn_layer_period`/`attn_layer_offset` (Jamba), the model_type's layer rule (model_traits.h: Falcon-H1
/// parallel, Llama 4 chunked, Gemma 2 / gpt-oss alternating), `full_attention_interval` (Qwen3-Next),
/// `use_sliding_window`/`max_window_layers` (Qwen2/3), `sliding_window_pattern` (Gemma 3, Cohere 2), a bare
/// `sliding_window` (every layer, Mistral v0.1), else all full attention. Problems go to `keys`.
LayerPattern resolve_layer_pattern(KeyReader& keys, int num_layers, const std::string& model_type,
                                   bool has_sliding_window);

}  // namespace kvcalc::hf

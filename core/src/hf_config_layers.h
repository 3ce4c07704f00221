// Internal: which kind of sequence-mixing block each layer is, from the config's pattern keys.
#pragma once
#include <vector>

#include "hf_config_keys.h"

namespace kvcalc::hf {

/// The mixer of one layer before dimensions are attached.
enum class MixerKind { full, sliding, linear, mamba, none };

/// Result of resolving the layer pattern: one kind per layer, plus whether every layer also carries a Mamba
/// mixer in parallel (Falcon-H1).
struct LayerPattern {
    std::vector<MixerKind> kinds;
    bool parallel_mamba = false;
};

/// Resolves the per-layer mixer kind for `num_layers` layers from (first match wins): `layer_types`,
/// `hybrid_override_pattern` (Nemotron-H), `attn_layer_period`/`attn_layer_offset` (Jamba), model_type
/// falcon_h1 (parallel), `full_attention_interval` (Qwen3-Next), `use_sliding_window`/`max_window_layers`
/// (Qwen2/3), `sliding_window_pattern` (Gemma 3, Cohere 2), model_type gemma2 (alternating), a bare
/// `sliding_window` (every layer, Mistral v0.1), else all full attention. Problems go to `keys`.
LayerPattern resolve_layer_pattern(KeyReader& keys, int num_layers, const std::string& model_type,
                                   bool has_sliding_window);

}  // namespace kvcalc::hf

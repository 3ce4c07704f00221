// Per-layer cache math under tensor parallelism: what one layer keeps per card for a KV format.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "kvcalc/base/diagnostic.h"
#include "kvcalc/base/kv_format.h"
#include "kvcalc/base/model_spec.h"

namespace kvcalc {

/// Largest tensor_parallel_size kvcalc prices (single-node rigs; docs/SOURCES.md "The KV formula").
inline constexpr int kMaxTensorParallel = 8;

/// One distinct layer cache of a model and how many layers have it (first-appearance order).
struct LayerGroup {
    LayerCache cache;
    int count = 0;
};

/// Groups model.layers, then model.parallel_caches (Falcon-H1's Mamba state beside each attention layer), into
/// distinct values, so per-layer math runs once per kind of cache and both lists are priced.
std::vector<LayerGroup> group_layers(const ModelSpec& model);

/// KV heads one rank holds: heads / tp when tp divides heads, 1 (replicated) when tp > heads and heads
/// divides tp, 0 when the split is impossible. Source: vLLM attention head sharding (replicates KV heads
/// when tp exceeds them); DESIGN.md.
int kv_heads_per_rank(int heads, int tp);

/// Bytes per sequence of a recurrent layer on one rank: state and conv elements are sharded by heads, each
/// rank's share rounded up to whole elements, then times its dtype bytes (vLLM MambaSpec page of the sharded
/// state shapes, mamba_utils). `tp` below 1 counts as 1.
std::int64_t recurrent_state_bytes_per_rank(const RecurrentState& state, int tp);

/// The tensor_parallel_size values in 1..8 that every layer (and num_attention_heads) of `model` accepts.
std::vector<int> valid_tensor_parallel_sizes(const ModelSpec& model);

/// One tensor_parallel_size value 1..8 and whether the model accepts it.
struct TpOption {
    int tensor_parallel_size = 1;
    bool valid = false;
    std::string reason;  ///< why not (empty when valid), e.g. "40 attention heads are not divisible by 3"
};

/// tensor_parallel_size 1..8 for `model`, each with whether it is valid and why not.
std::vector<TpOption> tensor_parallel_options(const ModelSpec& model);

/// Error diagnostic (field "tensor_parallel_size") when `tp` is outside 1..8 or does not split the model's
/// heads; the message lists the valid values. Empty when tp is fine.
Diagnostics check_tensor_parallel(const ModelSpec& model, int tp);
/// Same, from groups already made by group_layers(model).
Diagnostics check_tensor_parallel(const ModelSpec& model, const std::vector<LayerGroup>& groups, int tp);

/// What one layer keeps on one card. KV sizes are in 1/400 byte per token (see kBpeDenominator).
struct LayerFootprint {
    std::int64_t growing_x400_per_token = 0;  ///< full attention / MLA: per token of every sequence
    std::int64_t window_x400_per_token = 0;   ///< sliding window: per token inside the window
    std::int64_t window_tokens = 0;           ///< sliding_window (tokens)
    std::int64_t state_bytes_per_sequence = 0;///< recurrent state bytes per sequence on this card
    bool operator==(const LayerFootprint&) const = default;
};

/// Footprint of one layer on one card. Requires kv_heads_per_rank(...) > 0 (check_tensor_parallel first).
/// Full/sliding: heads_per_rank × (head_dim_k + head_dim_v) × bpe (K and V, also for attention_k_eq_v layers)
/// (docs/SOURCES.md "The KV formula"). Chunked local attention: like a sliding window of attention_chunk_size tokens. MLA:
/// (kv_lora_rank + qk_rope_head_dim) × bpe, not split by TP; with a DeepSeek V3.2 indexer, + 132 B (128 fp8 +
/// an fp32 scale) per layer, and a 1-byte cache stores the latent as 656 B (fp8 + scales + bf16 rope; vLLM
/// fp8_ds_mla, SGLang NSATokenToKVPool). Recurrent: state and conv elements × their dtype bytes, divided by tp
/// (heads are sharded).
LayerFootprint layer_footprint(const LayerCache& cache, const KvFormat& format, int tp);

/// The whole model on one card.
struct ModelFootprint {
    std::int64_t growing_x400_per_token = 0;     ///< summed over growing layers (or the measured override)
    std::int64_t sliding_x400_per_token_window = 0; ///< summed over sliding layers, × window tokens below
    std::int64_t sliding_window_tokens = 0;      ///< largest window among sliding layers
    std::int64_t sliding_fixed_x400 = 0;         ///< Σ per-layer x400 × window (at max_model_len ≥ window)
    std::int64_t state_bytes_per_sequence = 0;   ///< Σ recurrent layers
    int num_recurrent_layers = 0;
    int num_growing_layers = 0;
    int num_sliding_layers = 0;
};

/// Sums layer_footprint over model.layers, applying measured_kv_growing_bytes_per_token_tp1_bf16 when set.
ModelFootprint model_footprint(const ModelSpec& model, const KvFormat& format, int tp);
/// Same, from groups already made by group_layers(model) (the hot path reuses them).
ModelFootprint model_footprint(const ModelSpec& model, const std::vector<LayerGroup>& groups, const KvFormat& format,
                               int tp);

/// Sliding-window bytes on one card for a given max_model_len: each sliding layer keeps
/// min(window, max_model_len) tokens; constant in max_num_seqs as the original priced it (docs/SOURCES.md "The KV formula").
std::int64_t sliding_fixed_bytes(const ModelSpec& model, const KvFormat& format, int tp, std::int64_t max_model_len);

/// The original calculator's DeltaNet recurrent-state estimate, kept reproducible (not used in the budget):
/// gdn_layers × (k_heads·k_dim + v_heads·v_dim + conv_kernel·(k_heads·k_dim + v_heads·v_dim)) × 4 B × seqs.
/// 35B-A3B at seqs=1: 30 × 30,720 × 4 = 3,686,400 B (docs/SOURCES.md "The KV formula").
std::int64_t seed_deltanet_state_bytes(const ModelSpec& model, std::int64_t max_num_seqs);

/// The Gated-DeltaNet recurrent-state layer kvcalc puts in catalogs: a k_dim × v_dim fp32 matrix per value
/// head plus a bf16 conv state over (2·key_dim + value_dim) channels × (conv_kernel − 1) positions
/// (vLLM mamba_utils gated_delta_net state shapes; docs/SOURCES.md quirk 17).
RecurrentState gated_deltanet_state(int linear_num_key_heads, int linear_num_value_heads, int linear_key_head_dim,
                                    int linear_value_head_dim, int linear_conv_kernel_dim);

}  // namespace kvcalc

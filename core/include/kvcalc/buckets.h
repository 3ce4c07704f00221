// "Hybrid-layer cache buckets": identical per-card layer caches merged with a count.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "kvcalc/kv_format.h"
#include "kvcalc/layer_cache.h"
#include "kvcalc/model_spec.h"

namespace kvcalc {

/// One row of the buckets table: `layer_count` layers with the same LayerCache value.
struct CacheBucket {
    std::string kind;                       ///< "full_attention", "sliding_window", "mla_latent", "recurrent_state", "none"
    LayerCache cache;                       ///< the catalog value (TP=1 facts)
    int layer_count = 0;
    double bytes_per_token_per_card = 0.0;  ///< growing bytes per token per sequence on one card (exact rational)
    std::int64_t fixed_bytes_per_card = 0;  ///< sliding window or recurrent state at the scenario's length/seqs
};

/// Groups model.layers (first-appearance order). Uses max_model_len for sliding windows shorter than the window
/// and max_num_seqs for recurrent state. Requires a valid tp.
std::vector<CacheBucket> cache_buckets(const ModelSpec& model, const KvFormat& format, int tp,
                                       std::int64_t max_model_len, std::int64_t max_num_seqs);

/// Same, from groups already made by group_layers(model).
std::vector<CacheBucket> cache_buckets(const ModelSpec& model, const std::vector<LayerGroup>& groups,
                                       const KvFormat& format, int tp, std::int64_t max_model_len,
                                       std::int64_t max_num_seqs);

/// Name of a LayerCache alternative ("full_attention", ...).
const char* layer_cache_kind(const LayerCache& cache);

}  // namespace kvcalc

#include "kvcalc/buckets.h"

#include <algorithm>
#include <variant>

#include "kvcalc/layer_cache.h"
#include "kvcalc/units.h"

namespace kvcalc {

const char* layer_cache_kind(const LayerCache& cache) {
    // One name per alternative, no fall-back: a new layer kind does not compile until it is named here.
    return std::visit(overloaded{
                          [](const NoCache&) { return "none"; },
                          [](const FullAttention&) { return "full_attention"; },
                          [](const SlidingWindow&) { return "sliding_window"; },
                          [](const ChunkedLocalAttention&) { return "chunked_local_attention"; },
                          [](const MlaLatent&) { return "mla_latent"; },
                          [](const RecurrentState&) { return "recurrent_state"; },
                      },
                      cache);
}

std::vector<CacheBucket> cache_buckets(const ModelSpec& model, const KvFormat& format, int tp,
                                       std::int64_t max_model_len, std::int64_t max_num_seqs) {
    return cache_buckets(model, group_layers(model), format, tp, max_model_len, max_num_seqs);
}

std::vector<CacheBucket> cache_buckets(const ModelSpec& model, const std::vector<LayerGroup>& groups,
                                       const KvFormat& format, int tp, std::int64_t max_model_len,
                                       std::int64_t max_num_seqs) {
    std::vector<CacheBucket> out;
    out.reserve(groups.size());
    std::int64_t raw_growing_x400 = 0;
    for (const auto& g : groups) {
        const LayerFootprint f = layer_footprint(g.cache, format, tp);
        CacheBucket b;
        b.kind = layer_cache_kind(g.cache);
        b.cache = g.cache;
        b.layer_count = g.count;
        raw_growing_x400 += f.growing_x400_per_token * g.count;
        b.bytes_per_token_per_card = static_cast<double>(f.growing_x400_per_token * g.count) / kBpeDenominator;
        b.fixed_bytes_per_card =
            ceil_div(f.window_x400_per_token * std::min(f.window_tokens, max_model_len) * g.count, kBpeDenominator) +
            f.state_bytes_per_sequence * g.count * max_num_seqs;
        out.push_back(std::move(b));
    }
    // A measured per-token override rescales the growing buckets so the table adds up to what is priced.
    if (model.measured_kv_growing_bytes_per_token_tp1_bf16 && raw_growing_x400 > 0) {
        const double scale = static_cast<double>(model_footprint(model, groups, format, tp).growing_x400_per_token) /
                             static_cast<double>(raw_growing_x400);
        for (auto& b : out) b.bytes_per_token_per_card *= scale;
    }
    return out;
}

}  // namespace kvcalc

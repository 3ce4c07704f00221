#include "kvcalc/buckets.h"

#include <algorithm>
#include <type_traits>

#include "kvcalc/layer_cache.h"
#include "kvcalc/units.h"

namespace kvcalc {

const char* layer_cache_kind(const LayerCache& cache) {
    return std::visit(
        [](const auto& x) -> const char* {
            using T = std::decay_t<decltype(x)>;
            if constexpr (std::is_same_v<T, FullAttention>) return "full_attention";
            else if constexpr (std::is_same_v<T, SlidingWindow>) return "sliding_window";
            else if constexpr (std::is_same_v<T, MlaLatent>) return "mla_latent";
            else if constexpr (std::is_same_v<T, RecurrentState>) return "recurrent_state";
            else return "none";
        },
        cache);
}

std::vector<CacheBucket> cache_buckets(const ModelSpec& model, const KvFormat& format, int tp,
                                       std::int64_t max_model_len, std::int64_t max_num_seqs) {
    std::vector<CacheBucket> out;
    for (const auto& c : model.layers) {
        auto it = std::find_if(out.begin(), out.end(), [&](const CacheBucket& b) { return b.cache == c; });
        if (it != out.end()) {
            ++it->layer_count;
            continue;
        }
        CacheBucket b;
        b.kind = layer_cache_kind(c);
        b.cache = c;
        b.layer_count = 1;
        out.push_back(std::move(b));
    }
    const ModelFootprint whole = model_footprint(model, format, tp);
    std::int64_t raw_growing_x400 = 0;
    for (auto& b : out) {
        const LayerFootprint f = layer_footprint(b.cache, format, tp);
        raw_growing_x400 += f.growing_x400_per_token * b.layer_count;
        b.bytes_per_token_per_card =
            static_cast<double>(f.growing_x400_per_token * b.layer_count) / kBpeDenominator;
        b.fixed_bytes_per_card =
            ceil_div(f.window_x400_per_token * std::min(f.window_tokens, max_model_len) * b.layer_count, kBpeDenominator) +
            f.state_bytes_per_sequence * b.layer_count * max_num_seqs;
    }
    // A measured per-token override rescales the growing buckets so the table adds up to what is priced.
    if (model.measured_kv_growing_bytes_per_token_tp1_bf16 && raw_growing_x400 > 0) {
        const double scale = static_cast<double>(whole.growing_x400_per_token) / static_cast<double>(raw_growing_x400);
        for (auto& b : out) b.bytes_per_token_per_card *= scale;
    }
    return out;
}

}  // namespace kvcalc

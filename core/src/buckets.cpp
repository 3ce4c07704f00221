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

namespace {

/// Splits `total` over the buckets in `members` by `weight` (floor of each share, the rest to the last).
void share(std::vector<CacheBucket>& out, const std::vector<std::size_t>& members,
           const std::vector<long double>& weight, std::int64_t total) {
    long double sum = 0;
    for (std::size_t i : members) sum += weight[i];
    std::int64_t given = 0;
    for (std::size_t k = 0; k < members.size(); ++k) {
        const std::size_t i = members[k];
        const std::int64_t part =
            k + 1 == members.size()
                ? total - given
                : static_cast<std::int64_t>(static_cast<long double>(total) * weight[i] / sum);
        out[i].kv_bytes_per_card += part;
        given += part;
    }
}

}  // namespace

std::vector<CacheBucket> cache_buckets(const ModelSpec& model, const std::vector<LayerGroup>& groups,
                                       const KvFormat& format, int tp, std::int64_t max_model_len,
                                       std::int64_t max_num_seqs, const PricedKv* priced) {
    std::vector<CacheBucket> out;
    out.reserve(groups.size());
    std::int64_t raw_growing_x400 = 0;
    // Per bucket, what it keeps: growing per token, sliding per token and over its window, state per request.
    // (long double: a weight only sets proportions, and the products can pass 2^63 at the schema's limits)
    std::vector<long double> per_token, window_bytes, state;
    for (const auto& g : groups) {
        const LayerFootprint f = layer_footprint(g.cache, format, tp);
        const auto n = static_cast<long double>(g.count);
        per_token.push_back(static_cast<long double>(f.growing_x400_per_token + f.window_x400_per_token) * n);
        window_bytes.push_back(static_cast<long double>(f.window_x400_per_token) *
                               static_cast<long double>(std::min(f.window_tokens, max_model_len)) * n);
        state.push_back(static_cast<long double>(f.state_bytes_per_sequence) * n);
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
    if (!priced) return out;
    std::vector<std::size_t> growing, sliding, recurrent;
    for (std::size_t i = 0; i < out.size(); ++i) {
        if (state[i] > 0) recurrent.push_back(i);
        else if (window_bytes[i] > 0) sliding.push_back(i);
        else if (per_token[i] > 0) growing.push_back(i);
    }
    if (priced->sliding_bytes == 0 || sliding.empty()) {  // sliding layers priced at full length, with the rest
        growing.insert(growing.end(), sliding.begin(), sliding.end());
        std::sort(growing.begin(), growing.end());
        sliding.clear();
    }
    // A term with no bucket of its kind (none in practice) stays in the table: the growing buckets carry it.
    std::int64_t growing_total = priced->growing_bytes;
    if (sliding.empty()) growing_total += priced->sliding_bytes;
    if (recurrent.empty()) growing_total += priced->state_bytes;
    if (growing.empty() && growing_total > 0) {
        for (std::size_t i = 0; i < out.size(); ++i) growing.push_back(i);
        for (std::size_t i = 0; i < out.size(); ++i) per_token[i] = std::max<long double>(1, per_token[i]);
    }
    if (!growing.empty()) share(out, growing, per_token, growing_total);
    if (!sliding.empty()) share(out, sliding, window_bytes, priced->sliding_bytes);
    if (!recurrent.empty()) share(out, recurrent, state, priced->state_bytes);
    return out;
}

}  // namespace kvcalc

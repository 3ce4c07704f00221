#include "kvcalc/model/layer_cache.h"

#include <algorithm>
#include <string>

#include "kvcalc/base/checked_math.h"
#include "kvcalc/base/units.h"
#include "kvcalc/model/layer_kinds.h"

namespace kvcalc {

std::int64_t recurrent_state_bytes_per_rank(const RecurrentState& r, int tp) {
    const std::int64_t t = tp > 0 ? tp : 1;
    return ceil_div(r.state_elements, t) * r.state_dtype_bytes + ceil_div(r.conv_elements, t) * r.conv_dtype_bytes;
}

int kv_heads_per_rank(int heads, int tp) {
    if (heads <= 0 || tp <= 0) return 0;
    if (heads % tp == 0) return heads / tp;
    if (tp > heads && tp % heads == 0) return 1;  // replicated: every rank keeps one head
    return 0;
}

namespace {

/// Why `tp` cannot split `m`'s heads; empty when it can. Attention and linear-attention heads are sharded and
/// must divide evenly; KV heads are sharded or, when TP is a multiple of them, replicated (vLLM
/// QKVParallelLinear num_kv_head_replicas). MLA latents and layers without cache put no constraint.
std::string tp_reason(const std::vector<LayerGroup>& groups, const ModelSpec& m, int tp) {
    if (tp < 1 || tp > kMaxTensorParallel) return "kvcalc prices 1 to 8 GPUs per engine";
    const std::string t = std::to_string(tp);
    if (m.num_attention_heads > 0 && m.num_attention_heads % tp != 0)
        return std::to_string(m.num_attention_heads) + " attention heads are not divisible by " + t;
    for (const auto& g : groups) {
        auto kv = [&](int heads) -> std::string {
            if (kv_heads_per_rank(heads, tp) > 0) return {};
            return std::to_string(heads) + " KV heads neither divide by " + t + " nor divide it";
        };
        const TpHeads h = layer_tp_heads(g.cache);
        std::string why = h.kv_heads > 0 ? kv(h.kv_heads) : std::string();
        if (why.empty() && h.sharded_heads > 0 && h.sharded_heads % tp != 0)
            why = std::to_string(h.sharded_heads) + " linear-attention heads are not divisible by " + t;
        if (!why.empty()) return why;
    }
    return {};
}

bool tp_fits(const std::vector<LayerGroup>& groups, const ModelSpec& m, int tp) {
    return tp_reason(groups, m, tp).empty();
}

}  // namespace

std::vector<LayerGroup> group_layers(const ModelSpec& model) {
    std::vector<LayerGroup> out;
    out.reserve(4);
    std::size_t last = 0;
    auto add = [&](const LayerCache& c) {
        if (!out.empty() && out[last].cache == c) {
            ++out[last].count;
            return;
        }
        std::size_t i = 0;
        while (i < out.size() && !(out[i].cache == c)) ++i;
        if (i == out.size()) out.push_back({c, 0});
        ++out[i].count;
        last = i;
    };
    for (const auto& c : model.layers) add(c);
    for (const auto& c : model.parallel_caches) add(c);  // Falcon-H1: a Mamba state beside each attention layer
    return out;
}

std::vector<TpOption> tensor_parallel_options(const ModelSpec& model) {
    const auto groups = group_layers(model);
    std::vector<TpOption> out;
    for (int tp = 1; tp <= kMaxTensorParallel; ++tp) {
        std::string why = tp_reason(groups, model, tp);
        out.push_back({tp, why.empty(), std::move(why)});
    }
    return out;
}

std::vector<int> valid_tensor_parallel_sizes(const ModelSpec& model) {
    const auto groups = group_layers(model);
    std::vector<int> out;
    for (int tp = 1; tp <= kMaxTensorParallel; ++tp)
        if (tp_fits(groups, model, tp)) out.push_back(tp);
    return out;
}

Diagnostics check_tensor_parallel(const ModelSpec& model, int tp) {
    return check_tensor_parallel(model, group_layers(model), tp);
}

Diagnostics check_tensor_parallel(const ModelSpec& model, const std::vector<LayerGroup>& groups, int tp) {
    if (tp_fits(groups, model, tp)) return {};
    std::string valid;
    for (int v : valid_tensor_parallel_sizes(model)) valid += (valid.empty() ? "" : ", ") + std::to_string(v);
    const std::string why = tp_reason(groups, model, tp);
    return {{Severity::error, "tp_invalid", "tensor_parallel_size",
             "tensor_parallel_size " + std::to_string(tp) + " is not valid for " + model.id + ": " + why +
                 ". Valid values: " + (valid.empty() ? std::string("none") : valid)}};
}

LayerFootprint layer_footprint(const LayerCache& cache, const KvFormat& format, int tp) {
    // Bytes per token from the kind's facts (layer_kinds.h), then where they go by how the kind grows.
    std::int64_t x400 = 0;
    if (const auto h = layer_kv_heads(cache)) {
        const std::int64_t dims = std::int64_t{h->head_dim_k} + h->head_dim_v;  // K and V, also for attention_k_eq_v
        x400 = std::int64_t{kv_heads_per_rank(h->num_key_value_heads, tp)} * dims * format.bpe_x400;
    } else if (const auto l = layer_mla_latent(cache)) {
        x400 = (std::int64_t{l->kv_lora_rank} + l->qk_rope_head_dim) * format.bpe_x400;
        if (l->index_head_dim > 0) {
            // DeepSeek V3.2 (vLLM fp8_ds_mla, SGLang NSATokenToKVPool): a 1-byte cache keeps the latent in fp8 with
            // an fp32 scale per 128 values and the rope part in bf16 (656 B); every layer adds its indexer key,
            // fp8 + one fp32 scale per 128 values (132 B), whatever the dtype.
            if (format.bpe_x400 == kBpeDenominator) x400 = mla_fp8_latent_bytes(*l) * kBpeDenominator;
            x400 += mla_indexer_key_bytes(*l) * kBpeDenominator;
        }
    }
    LayerFootprint f;
    switch (layer_cache_growth(cache)) {
        case CacheGrowth::none: break;
        case CacheGrowth::per_token: f.growing_x400_per_token = x400; break;
        // Chunked local attention is priced like a window of one chunk: what a sequence keeps past its first chunk.
        case CacheGrowth::windowed:
            f.window_x400_per_token = x400;
            f.window_tokens = layer_window_tokens(cache);
            break;
        case CacheGrowth::per_sequence:
            if (const auto r = layer_recurrent_state(cache)) f.state_bytes_per_sequence = recurrent_state_bytes_per_rank(*r, tp);
            break;
    }
    return f;
}

ModelFootprint model_footprint(const ModelSpec& model, const KvFormat& format, int tp) {
    return model_footprint(model, group_layers(model), format, tp);
}

ModelFootprint model_footprint(const ModelSpec& model, const std::vector<LayerGroup>& groups, const KvFormat& format,
                               int tp) {
    ModelFootprint m;
    for (const auto& g : groups) {
        const LayerCache& c = g.cache;
        const std::int64_t n = g.count;
        const LayerFootprint f = layer_footprint(c, format, tp);
        // Saturating: check_model_limits keeps these far below 2^63, the window product included.
        m.growing_x400_per_token = sat_add(m.growing_x400_per_token, sat_mul(f.growing_x400_per_token, n));
        m.sliding_x400_per_token_window = sat_add(m.sliding_x400_per_token_window, sat_mul(f.window_x400_per_token, n));
        m.sliding_fixed_x400 =
            sat_add(m.sliding_fixed_x400, sat_mul(sat_mul(f.window_x400_per_token, f.window_tokens), n));
        m.sliding_window_tokens = std::max(m.sliding_window_tokens, f.window_tokens);
        m.state_bytes_per_sequence = sat_add(m.state_bytes_per_sequence, sat_mul(f.state_bytes_per_sequence, n));
        switch (layer_cache_growth(c)) {
            case CacheGrowth::none: break;
            case CacheGrowth::per_token: m.num_growing_layers += g.count; break;
            case CacheGrowth::windowed: m.num_sliding_layers += g.count; break;
            case CacheGrowth::per_sequence: m.num_recurrent_layers += g.count; break;
        }
    }
    if (model.measured_kv_growing_bytes_per_token_tp1_bf16) {
        // bf16 figure × (bpe / 2) / tp, kept in 1/400 byte: bytes × bpe_x400 / 2 / tp.
        m.growing_x400_per_token = *model.measured_kv_growing_bytes_per_token_tp1_bf16 * format.bpe_x400 / 2 / tp;
    }
    return m;
}

std::int64_t sliding_fixed_bytes(const ModelSpec& model, const KvFormat& format, int tp, std::int64_t max_model_len) {
    std::int64_t x400 = 0;
    for (const auto& g : group_layers(model)) {
        if (layer_cache_growth(g.cache) != CacheGrowth::windowed) continue;
        const LayerFootprint f = layer_footprint(g.cache, format, tp);
        x400 = sat_add(x400, sat_mul(sat_mul(f.window_x400_per_token, std::min(f.window_tokens, max_model_len)), g.count));
    }
    return sat_ceil_div(x400, kBpeDenominator);
}

std::int64_t seed_deltanet_state_bytes(const ModelSpec& m, std::int64_t max_num_seqs) {
    std::int64_t gdn_layers = 0;
    for (const auto& c : m.layers) gdn_layers += layer_cache_growth(c) == CacheGrowth::per_sequence ? 1 : 0;
    const std::int64_t kv = std::int64_t{m.linear_num_key_heads} * m.linear_key_head_dim +
                            std::int64_t{m.linear_num_value_heads} * m.linear_value_head_dim;
    const std::int64_t per_layer = kv + std::int64_t{m.linear_conv_kernel_dim} * kv;
    return gdn_layers * per_layer * 4 * max_num_seqs;
}

RecurrentState gated_deltanet_state(int k_heads, int v_heads, int k_dim, int v_dim, int conv_kernel) {
    RecurrentState s;
    s.state_elements = std::int64_t{v_heads} * k_dim * v_dim;
    const std::int64_t conv_channels = 2LL * k_heads * k_dim + std::int64_t{v_heads} * v_dim;
    s.conv_elements = conv_channels * std::max(conv_kernel - 1, 0);
    s.num_heads = k_heads;  // vLLM shards key and value heads together; key heads are the smaller count
    s.state_dtype_bytes = 4;
    s.conv_dtype_bytes = 2;
    return s;
}

}  // namespace kvcalc

// check_model_limits: every number of a user-supplied model inside the ranges of input_limits.h.
#include "kvcalc/deployment/input_limits.h"

#include "kvcalc/base/checked_math.h"
#include "kvcalc/engines/deployment.h"
#include "kvcalc/base/kv_format.h"
#include "kvcalc/model/layer_kinds.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace kvcalc {

namespace {

/// Stops after this many errors: one bad value repeated over 10,000 layers is one problem, not 10,000.
constexpr std::size_t kMaxErrors = 20;

struct Checker {
    const std::string& path;
    Diagnostics& d;
    std::size_t errors = 0;

    void fail(const char* code, const std::string& field, const std::string& message) {
        ++errors;
        if (errors <= kMaxErrors) d.push_back({Severity::error, code, field, message});
    }

    void range(const std::string& field, std::int64_t v, std::int64_t lo, std::int64_t hi, const char* why = "") {
        if (v >= lo && v <= hi) return;
        fail("out_of_range", field,
             field + " = " + std::to_string(v) + " is outside the valid range " + std::to_string(lo) + ".." +
                 std::to_string(hi) + why);
    }

    void gb(const std::string& field, double v, bool allow_zero) {
        if (std::isfinite(v) && (allow_zero ? v >= 0 : v > 0) && v <= kMaxModelGb) return;
        char buf[64];
        std::snprintf(buf, sizeof buf, "%g", v);
        fail("out_of_range", field,
             field + " = " + buf + (allow_zero ? " must be a finite number ≥ 0" : " must be a finite number > 0") +
                 " (decimal GB, at most 1e6)");
    }

    void layer(const std::string& at, const LayerCache& c) {
        // Each field of the layer's kind in its range (the fact sheet's table), then the rules between them.
        for (const LayerField& f : layer_fields(c)) range(at + "." + f.name, f.get(c), f.min, f.max, f.range_note);
        if (const auto p = layer_field_problem(c)) fail("bad_layer", at + "." + p->field, at + ": " + p->message);
    }

    void layers(const std::string& list, const std::vector<LayerCache>& v) {
        for (std::size_t i = 0; i < v.size() && errors < kMaxErrors; ++i) {
            if (i > 0 && v[i] == v[i - 1]) continue;  // a run of identical layers is checked once
            layer(list + "[" + std::to_string(i) + "]", v[i]);
        }
    }
};

}  // namespace

std::int64_t model_head_dim(const ModelSpec& m) {
    for (const auto& c : m.layers)
        if (const std::int64_t d = layer_entry_head_dim(c); d > 0) return d;
    return m.num_attention_heads > 0 ? m.hidden_size / m.num_attention_heads : 0;
}

bool check_breakdown_limits(int layers, int ratio, std::int64_t head_dim, int bpe_x400, const char* field,
                            Diagnostics& d) {
    if (layers <= 0 || ratio <= 0 || head_dim <= 0 || bpe_x400 <= 0) return true;
    // Doubles are exact enough for a bound: every factor is an integer below 2^27.
    const double worst = static_cast<double>(layers) * static_cast<double>((std::int64_t{1} << 27) / ratio) *
                         static_cast<double>(head_dim) * bpe_x400 / 400.0 * 65536.0;
    if (worst < static_cast<double>(std::int64_t{1} << 58)) return true;
    d.push_back({Severity::error, "out_of_range", field,
                 std::string(field) + " = " + std::to_string(layers) + " with " + std::to_string(head_dim) +
                     "-element entries every " + std::to_string(ratio) +
                     " tokens is too large an estimate: at the schema's limits (2^27 tokens × 65,536 sequences) it "
                     "would pass 2^58 bytes; lower the layers or the head dim, or raise the ratio"});
    return false;
}

bool load_beyond_limits(const Deployment& d, const Load& load) {
    const ModelFootprint& f = d.footprint;
    const long double tokens = static_cast<long double>(load.max_model_len) + static_cast<long double>(d.kv_extra_tokens);
    const long double seqs = static_cast<long double>(priced_requests(load));
    const long double per_token = static_cast<long double>(f.growing_x400_per_token) / kBpeDenominator +
                                  static_cast<long double>(f.sliding_x400_per_token_window) / kBpeDenominator;
    // × 2: llama.cpp keeps recurrent state and conv in fp32 where the footprint may price bf16.
    const long double per_card = per_token * tokens * seqs + 2.0L * static_cast<long double>(f.state_bytes_per_sequence) * seqs;
    const long double all_ranks = per_card * std::max(1, d.settings.tensor_parallel_size);
    return all_ranks >= static_cast<long double>(kMaxBytes);
}

bool check_model_limits(const ModelSpec& m, const std::string& path, Diagnostics& d) {
    Checker c{path, d};
    const std::string p = path + ".";
    const auto n = static_cast<std::int64_t>(m.layers.size());
    c.range(p + "layers", n, 1, kMaxModelLayers, " layers");
    c.range(p + "parallel_caches", static_cast<std::int64_t>(m.parallel_caches.size()), 0, n,
            " entries (at most one beside each layer)");
    if (n > kMaxModelLayers || static_cast<std::int64_t>(m.parallel_caches.size()) > n) return false;
    c.range(p + "hidden_size", m.hidden_size, 0, kMaxModelDim);
    c.range(p + "num_hidden_layers", m.num_hidden_layers, 0, kMaxModelLayers);
    c.range(p + "num_attention_heads", m.num_attention_heads, 0, kMaxModelHeads);
    c.range(p + "linear_num_key_heads", m.linear_num_key_heads, 0, kMaxModelHeads);
    c.range(p + "linear_num_value_heads", m.linear_num_value_heads, 0, kMaxModelHeads);
    c.range(p + "linear_key_head_dim", m.linear_key_head_dim, 0, kMaxModelDim);
    c.range(p + "linear_value_head_dim", m.linear_value_head_dim, 0, kMaxModelDim);
    c.range(p + "linear_conv_kernel_dim", m.linear_conv_kernel_dim, 0, 1024);
    if (c.errors == 0) {
        const std::int64_t channels = std::int64_t{m.linear_num_value_heads} * m.linear_value_head_dim;
        c.range(p + "linear_num_value_heads", channels, 0, kMaxLinearChannels,
                " as linear_num_value_heads × linear_value_head_dim (value channels)");
        c.range(p + "linear_key_head_dim", channels * m.linear_key_head_dim, 0, kMaxRecurrentElements,
                " as linear_num_value_heads × linear_value_head_dim × linear_key_head_dim (state elements)");
    }
    c.range(p + "num_experts", m.num_experts, 0, 1000000);
    c.range(p + "num_experts_per_tok", m.num_experts_per_tok, 0, 1000000);
    c.range(p + "max_position_embeddings", m.max_position_embeddings, 0, kMaxModelTokens,
            " tokens (0 = unknown)");
    c.range(p + "num_kv_shared_layers", m.num_kv_shared_layers, 0, n > 0 ? n - 1 : 0,
            " (a KV-shared layer reuses the cache of an earlier layer, so at least one layer must own one)");
    if (m.measured_kv_growing_bytes_per_token_tp1_bf16)
        c.range(p + "measured_kv_growing_bytes_per_token_tp1_bf16", *m.measured_kv_growing_bytes_per_token_tp1_bf16,
                1, kMaxMeasuredKvBytesPerToken, " bytes per token");
    for (std::size_t i = 0; i < m.weights.size(); ++i)
        c.gb(p + "weights[" + std::to_string(i) + "].size_gb", m.weights[i].size_gb,
             m.weights[i].id == kUnknownWeightsId);
    for (std::size_t i = 0; i < m.drafters.size(); ++i) {
        const std::string at = p + "drafters[" + std::to_string(i) + "]";
        c.gb(at + ".weights_gb", m.drafters[i].weights_gb, true);
        c.range(at + ".num_speculative_tokens", m.drafters[i].num_speculative_tokens, 0, 64);
        c.range(at + ".kv_extra_tokens_per_speculative_token", m.drafters[i].kv_extra_tokens_per_speculative_token, 0,
                kMaxKvExtraTokensPerSpeculativeToken);
    }
    c.layers(p + "layers", m.layers);
    c.layers(p + "parallel_caches", m.parallel_caches);
    if (c.errors > kMaxErrors)
        d.push_back({Severity::error, "too_many_errors", path,
                     std::to_string(c.errors - kMaxErrors) + " more problems in " + path + " not listed"});
    return c.errors == 0;
}

bool check_inline_model(const ModelSpec& m, const std::string& path, Diagnostics& d) {
    const std::size_t before = d.size();
    const std::string p = path + ".";
    const auto fail = [&](const std::string& field, const std::string& message) {
        d.push_back({Severity::error, "inconsistent", p + field, message});
    };
    const auto n = static_cast<std::int64_t>(m.layers.size());
    if (m.num_hidden_layers != n)
        fail("num_hidden_layers", p + "num_hidden_layers = " + std::to_string(m.num_hidden_layers) + " but " + p +
                                      "layers has " + std::to_string(n) +
                                      " layers: the runs' counts must add up to num_hidden_layers");
    if (!m.parallel_caches.empty() && static_cast<std::int64_t>(m.parallel_caches.size()) != n)
        fail("parallel_caches", p + "parallel_caches has " + std::to_string(m.parallel_caches.size()) +
                                    " entries for " + std::to_string(n) +
                                    " layers: give one beside every layer (\"kind\": \"none\" where a layer has none) or none");
    int max_kv_heads = 0;
    bool attention = false;
    for (const auto& c : m.layers) {
        if (const auto h = layer_kv_heads(c)) max_kv_heads = std::max(max_kv_heads, h->num_key_value_heads);
        attention = attention || layer_has_attention(c);
    }
    if (attention) {
        if (m.num_attention_heads < 1)
            fail("num_attention_heads", p + "num_attention_heads = " + std::to_string(m.num_attention_heads) +
                                            ": attention layers need num_attention_heads ≥ 1 (query heads; TP splits them)");
        else if (max_kv_heads > m.num_attention_heads)
            fail("num_attention_heads", "num_key_value_heads " + std::to_string(max_kv_heads) +
                                            " is more than num_attention_heads " + std::to_string(m.num_attention_heads) +
                                            ": each K/V head serves one or more query heads, so it must be at most " +
                                            std::to_string(m.num_attention_heads) + " (and divide it)");
    }
    if (m.num_experts > 0 ? m.num_experts_per_tok > m.num_experts : m.num_experts_per_tok > 0)
        fail("num_experts_per_tok", p + "num_experts_per_tok = " + std::to_string(m.num_experts_per_tok) +
                                        " with num_experts = " + std::to_string(m.num_experts) +
                                        ": a token is routed to at most num_experts experts (0 without experts)");
    return d.size() == before;
}

}  // namespace kvcalc

// The layer kinds' fact sheet: one exhaustive visit per fact (layer_kinds.h).
#include "kvcalc/model/layer_kinds.h"

#include <array>
#include <cstdio>
#include <type_traits>
#include <variant>

namespace kvcalc {

namespace {

constexpr std::size_t kKinds = std::variant_size_v<LayerCache>;

/// A default-valued layer of every alternative, in variant order (the variant's own list of kinds).
template <std::size_t... I>
std::array<LayerCache, kKinds> all_kinds(std::index_sequence<I...>) {
    return {LayerCache{std::in_place_index<I>}...};
}
const std::array<LayerCache, kKinds>& every_kind() {
    static const std::array<LayerCache, kKinds> kinds = all_kinds(std::make_index_sequence<kKinds>{});
    return kinds;
}

template <class A>
KvHeads heads_of(const A& a) {
    return {a.num_key_value_heads, a.head_dim_k, a.head_dim_v};
}

/// A LayerField over member `M` of kind `K`: get and set through the variant, no effect on another kind.
template <class K, class T, T K::*M>
constexpr LayerField field(const char* name, const char* fallback, std::int64_t min, std::int64_t max,
                           const char* note = "") {
    return {name,
            fallback,
            min,
            max,
            note,
            std::is_same_v<T, int>,
            [](const LayerCache& c) -> std::int64_t {
                const K* k = std::get_if<K>(&c);
                return k ? static_cast<std::int64_t>(k->*M) : 0;
            },
            [](LayerCache& c, std::int64_t v) {
                if (K* k = std::get_if<K>(&c)) k->*M = static_cast<T>(v);
            }};
}

/// The four fields of a grouped-query attention kind (full, sliding, chunked), then `extra`.
template <class K, std::size_t N>
constexpr std::array<LayerField, 4 + N> attention_fields(std::array<LayerField, N> extra) {
    std::array<LayerField, 4 + N> out{
        field<K, int, &K::num_key_value_heads>("num_key_value_heads", nullptr, 1, kMaxModelHeads),
        field<K, int, &K::head_dim_k>("head_dim_k", "head_dim", 1, kMaxModelDim),
        field<K, int, &K::head_dim_v>("head_dim_v", "head_dim_k", 1, kMaxModelDim),
        field<K, int, &K::attention_k_eq_v>("attention_k_eq_v", nullptr, 0, 1,
                                            " (1 = the weights hold no v_proj, K is reused as V; K and V are cached "
                                            "either way)"),
    };
    for (std::size_t i = 0; i < N; ++i) out[4 + i] = extra[i];
    return out;
}

constexpr auto kFullFields = attention_fields<FullAttention>(std::array<LayerField, 0>{});
constexpr auto kSlidingFields = attention_fields<SlidingWindow>(std::array{
    field<SlidingWindow, std::int64_t, &SlidingWindow::sliding_window>("sliding_window", nullptr, 1, kMaxModelTokens,
                                                                       " (tokens)")});
constexpr auto kChunkedFields = attention_fields<ChunkedLocalAttention>(
    std::array{field<ChunkedLocalAttention, std::int64_t, &ChunkedLocalAttention::attention_chunk_size>(
        "attention_chunk_size", nullptr, 1, kMaxModelTokens, " (tokens)")});
// One latent of kv_lora_rank + qk_rope_head_dim elements per token: a 0-element latent would be a 0-byte page,
// which the engine rules divide by.
constexpr std::array kMlaFields{
    field<MlaLatent, int, &MlaLatent::kv_lora_rank>(
        "kv_lora_rank", nullptr, 1, kMaxModelDim,
        " (an mla_latent layer stores kv_lora_rank + qk_rope_head_dim elements per token)"),
    field<MlaLatent, int, &MlaLatent::qk_rope_head_dim>("qk_rope_head_dim", nullptr, 0, kMaxModelDim),
    field<MlaLatent, int, &MlaLatent::index_head_dim>("index_head_dim", nullptr, 0, kMaxModelDim, " (0 = no indexer)"),
};
constexpr std::array kRecurrentFields{
    field<RecurrentState, std::int64_t, &RecurrentState::state_elements>("state_elements", nullptr, 0,
                                                                         kMaxRecurrentElements),
    field<RecurrentState, std::int64_t, &RecurrentState::conv_elements>("conv_elements", nullptr, 0,
                                                                        kMaxRecurrentElements),
    field<RecurrentState, int, &RecurrentState::num_heads>("num_heads", nullptr, 1, kMaxModelDim),
    field<RecurrentState, int, &RecurrentState::state_dtype_bytes>("state_dtype_bytes", nullptr, 1, 8),
    field<RecurrentState, int, &RecurrentState::conv_dtype_bytes>("conv_dtype_bytes", nullptr, 1, 8),
};

}  // namespace

const char* layer_kind_json_name(const LayerCache& cache) {
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

const char* layer_kind_label(const LayerCache& cache) {
    return std::visit(overloaded{
                          [](const NoCache&) { return "no cache"; },
                          [](const FullAttention&) { return "full attention"; },
                          [](const SlidingWindow&) { return "sliding window"; },
                          [](const ChunkedLocalAttention&) { return "chunked local attention"; },
                          [](const MlaLatent&) { return "MLA"; },
                          [](const RecurrentState&) { return "recurrent"; },
                      },
                      cache);
}

std::optional<LayerCache> layer_of_json_name(std::string_view name) {
    for (const LayerCache& c : every_kind())
        if (name == layer_kind_json_name(c)) return c;
    return std::nullopt;
}

std::string layer_kind_json_names() {
    // "none" last: it is the odd one out for a reader choosing a kind.
    std::string out;
    for (const LayerCache& c : every_kind())
        if (layer_cache_growth(c) != CacheGrowth::none) out += (out.empty() ? "" : ", ") + std::string(layer_kind_json_name(c));
    for (const LayerCache& c : every_kind())
        if (layer_cache_growth(c) == CacheGrowth::none) out += (out.empty() ? "" : ", ") + std::string(layer_kind_json_name(c));
    return out;
}

CacheGrowth layer_cache_growth(const LayerCache& cache) {
    return std::visit(overloaded{
                          [](const NoCache&) { return CacheGrowth::none; },
                          [](const FullAttention&) { return CacheGrowth::per_token; },
                          [](const SlidingWindow&) { return CacheGrowth::windowed; },
                          [](const ChunkedLocalAttention&) { return CacheGrowth::windowed; },
                          [](const MlaLatent&) { return CacheGrowth::per_token; },
                          [](const RecurrentState&) { return CacheGrowth::per_sequence; },
                      },
                      cache);
}

std::optional<KvHeads> layer_kv_heads(const LayerCache& cache) {
    using R = std::optional<KvHeads>;
    return std::visit(overloaded{
                          [](const NoCache&) -> R { return std::nullopt; },
                          [](const FullAttention& a) -> R { return heads_of(a); },
                          [](const SlidingWindow& a) -> R { return heads_of(a); },
                          [](const ChunkedLocalAttention& a) -> R { return heads_of(a); },
                          [](const MlaLatent&) -> R { return std::nullopt; },
                          [](const RecurrentState&) -> R { return std::nullopt; },
                      },
                      cache);
}

TpHeads layer_tp_heads(const LayerCache& cache) {
    return std::visit(overloaded{
                          [](const NoCache&) { return TpHeads{}; },
                          [](const FullAttention& a) { return TpHeads{a.num_key_value_heads, 0}; },
                          [](const SlidingWindow& a) { return TpHeads{a.num_key_value_heads, 0}; },
                          [](const ChunkedLocalAttention& a) { return TpHeads{a.num_key_value_heads, 0}; },
                          // One latent per token, replicated on every rank (not split by TP).
                          [](const MlaLatent&) { return TpHeads{}; },
                          [](const RecurrentState& r) { return TpHeads{0, r.num_heads}; },
                      },
                      cache);
}

MixerWeights layer_mixer_weights(const LayerCache& cache) {
    return std::visit(overloaded{
                          [](const NoCache&) { return MixerWeights::none; },
                          [](const FullAttention&) { return MixerWeights::gqa_attention; },
                          [](const SlidingWindow&) { return MixerWeights::gqa_attention; },
                          // Llama 4's chunked layers hold the same q/k/v/o projections as its full ones
                          // (Llama4TextAttention in transformers; only the mask and rope differ).
                          [](const ChunkedLocalAttention&) { return MixerWeights::gqa_attention; },
                          [](const MlaLatent&) { return MixerWeights::mla_attention; },
                          [](const RecurrentState&) { return MixerWeights::recurrent; },
                      },
                      cache);
}

int layer_kv_proj_tensors(const LayerCache& cache) {
    auto gqa = [](int k_eq_v) { return k_eq_v ? 1 : 2; };
    return std::visit(overloaded{
                          [](const NoCache&) { return 0; },
                          [&](const FullAttention& a) { return gqa(a.attention_k_eq_v); },
                          [&](const SlidingWindow& w) { return gqa(w.attention_k_eq_v); },
                          [&](const ChunkedLocalAttention& k) { return gqa(k.attention_k_eq_v); },
                          [](const MlaLatent&) { return 0; },
                          [](const RecurrentState&) { return 0; },
                      },
                      cache);
}

bool layer_has_attention(const LayerCache& cache) {
    return std::visit(overloaded{
                          [](const NoCache&) { return false; },
                          [](const FullAttention&) { return true; },
                          [](const SlidingWindow&) { return true; },
                          [](const ChunkedLocalAttention&) { return true; },
                          [](const MlaLatent&) { return true; },
                          [](const RecurrentState&) { return false; },
                      },
                      cache);
}

std::int64_t layer_entry_head_dim(const LayerCache& cache) {
    return std::visit(overloaded{
                          [](const NoCache&) -> std::int64_t { return 0; },
                          [](const FullAttention& a) -> std::int64_t { return a.head_dim_k; },
                          [](const SlidingWindow& a) -> std::int64_t { return a.head_dim_k; },
                          [](const ChunkedLocalAttention& a) -> std::int64_t { return a.head_dim_k; },
                          [](const MlaLatent& l) { return std::int64_t{l.kv_lora_rank} + l.qk_rope_head_dim; },
                          [](const RecurrentState&) -> std::int64_t { return 0; },
                      },
                      cache);
}

int layer_rotary_head_dim(const LayerCache& cache) {
    return std::visit(overloaded{
                          [](const NoCache&) { return 0; },
                          [](const FullAttention& a) { return a.head_dim_k; },
                          [](const SlidingWindow& a) { return a.head_dim_k; },
                          [](const ChunkedLocalAttention& a) { return a.head_dim_k; },
                          [](const MlaLatent& l) { return l.qk_rope_head_dim; },
                          [](const RecurrentState&) { return 0; },
                      },
                      cache);
}

std::int64_t layer_window_tokens(const LayerCache& cache) {
    return std::visit(overloaded{
                          [](const NoCache&) -> std::int64_t { return 0; },
                          [](const FullAttention&) -> std::int64_t { return 0; },
                          [](const SlidingWindow& w) { return w.sliding_window; },
                          [](const ChunkedLocalAttention& k) { return k.attention_chunk_size; },
                          [](const MlaLatent&) -> std::int64_t { return 0; },
                          [](const RecurrentState&) -> std::int64_t { return 0; },
                      },
                      cache);
}

std::optional<MlaLatent> layer_mla_latent(const LayerCache& cache) {
    using R = std::optional<MlaLatent>;
    return std::visit(overloaded{
                          [](const NoCache&) -> R { return std::nullopt; },
                          [](const FullAttention&) -> R { return std::nullopt; },
                          [](const SlidingWindow&) -> R { return std::nullopt; },
                          [](const ChunkedLocalAttention&) -> R { return std::nullopt; },
                          [](const MlaLatent& l) -> R { return l; },
                          [](const RecurrentState&) -> R { return std::nullopt; },
                      },
                      cache);
}

std::optional<RecurrentState> layer_recurrent_state(const LayerCache& cache) {
    using R = std::optional<RecurrentState>;
    return std::visit(overloaded{
                          [](const NoCache&) -> R { return std::nullopt; },
                          [](const FullAttention&) -> R { return std::nullopt; },
                          [](const SlidingWindow&) -> R { return std::nullopt; },
                          [](const ChunkedLocalAttention&) -> R { return std::nullopt; },
                          [](const MlaLatent&) -> R { return std::nullopt; },
                          [](const RecurrentState& r) -> R { return r; },
                      },
                      cache);
}

std::vector<std::pair<const char*, std::string>> layer_config_facts(const LayerCache& cache) {
    using Facts = std::vector<std::pair<const char*, std::string>>;
    auto n = [](std::int64_t v) { return std::to_string(v); };
    return std::visit(overloaded{
                          [](const NoCache&) { return Facts{}; },
                          [&](const FullAttention& a) {
                              return Facts{{"num_key_value_heads", n(a.num_key_value_heads)}, {"head_dim", n(a.head_dim_k)}};
                          },
                          [&](const SlidingWindow& w) { return Facts{{"sliding_window", n(w.sliding_window)}}; },
                          [&](const ChunkedLocalAttention& k) {
                              return Facts{{"attention_chunk_size", n(k.attention_chunk_size)}};
                          },
                          [&](const MlaLatent& l) {
                              Facts f{{"kv_lora_rank", n(l.kv_lora_rank)}, {"qk_rope_head_dim", n(l.qk_rope_head_dim)}};
                              if (l.index_head_dim > 0) f.push_back({"index_head_dim", n(l.index_head_dim)});
                              return f;
                          },
                          [](const RecurrentState&) { return Facts{}; },
                      },
                      cache);
}

std::string layer_shape_text(const LayerCache& cache) {
    char buf[160];
    auto heads = [&](const KvHeads& h, int k_eq_v) {
        std::snprintf(buf, sizeof buf, "%d KV heads x %d/%d dims, K+V%s", h.num_key_value_heads, h.head_dim_k,
                      h.head_dim_v, k_eq_v ? " (V = K, no v_proj)" : "");
        return std::string(buf);
    };
    auto tokens = [&](const char* what, std::int64_t n) {
        std::snprintf(buf, sizeof buf, ", %s %lld", what, static_cast<long long>(n));
        return std::string(buf);
    };
    return std::visit(
        overloaded{
            [](const NoCache&) { return std::string("nothing cached"); },
            [&](const FullAttention& f) { return heads(heads_of(f), f.attention_k_eq_v); },
            [&](const SlidingWindow& s) {
                return heads(heads_of(s), s.attention_k_eq_v) + tokens("window", s.sliding_window);
            },
            [&](const ChunkedLocalAttention& k) {
                return heads(heads_of(k), k.attention_k_eq_v) + tokens("chunk", k.attention_chunk_size);
            },
            [&](const MlaLatent& m) {
                if (m.index_head_dim > 0)
                    std::snprintf(buf, sizeof buf, "latent %d + rope %d + indexer %d", m.kv_lora_rank,
                                  m.qk_rope_head_dim, m.index_head_dim);
                else
                    std::snprintf(buf, sizeof buf, "latent %d + rope %d", m.kv_lora_rank, m.qk_rope_head_dim);
                return std::string(buf);
            },
            [&](const RecurrentState& r) {
                std::snprintf(buf, sizeof buf, "state %lld + conv %lld elements / seq, %d heads",
                              static_cast<long long>(r.state_elements), static_cast<long long>(r.conv_elements),
                              r.num_heads);
                return std::string(buf);
            },
        },
        cache);
}

std::span<const LayerField> layer_fields(const LayerCache& cache) {
    using S = std::span<const LayerField>;
    return std::visit(overloaded{
                          [](const NoCache&) { return S{}; },
                          [](const FullAttention&) { return S{kFullFields}; },
                          [](const SlidingWindow&) { return S{kSlidingFields}; },
                          [](const ChunkedLocalAttention&) { return S{kChunkedFields}; },
                          [](const MlaLatent&) { return S{kMlaFields}; },
                          [](const RecurrentState&) { return S{kRecurrentFields}; },
                      },
                      cache);
}

std::optional<LayerFieldProblem> layer_field_problem(const LayerCache& cache) {
    using R = std::optional<LayerFieldProblem>;
    return std::visit(
        overloaded{
            [](const NoCache&) -> R { return std::nullopt; },
            [](const FullAttention&) -> R { return std::nullopt; },
            [](const SlidingWindow&) -> R { return std::nullopt; },
            [](const ChunkedLocalAttention&) -> R { return std::nullopt; },
            [](const MlaLatent&) -> R { return std::nullopt; },
            [](const RecurrentState& r) -> R {
                if (r.state_elements >= 0 && r.conv_elements >= 0 && r.state_elements + r.conv_elements == 0)
                    return LayerFieldProblem{
                        "state_elements",
                        "a recurrent_state layer needs state_elements + conv_elements ≥ 1 (both are 0)"};
                return std::nullopt;
            },
        },
        cache);
}

std::vector<LayerKindCount> layer_kind_counts(const std::vector<LayerCache>& layers) {
    std::array<int, kKinds> counts{};
    for (const LayerCache& c : layers) ++counts[c.index()];
    std::vector<LayerKindCount> out;
    for (std::size_t i = 0; i < kKinds; ++i)
        if (counts[i] > 0 && layer_cache_growth(every_kind()[i]) != CacheGrowth::none)
            out.push_back({layer_kind_label(every_kind()[i]), counts[i]});
    return out;
}

}  // namespace kvcalc

// The layer kinds' fact sheet: every fact that depends on which LayerCache alternative a layer holds (its names,
// the heads tensor parallelism splits, its attention shape, the weights its projections hold, its state, what a
// front end shows, the numbers it stores with their JSON keys and valid ranges). Each fact is one exhaustive
// std::visit in layer_kinds.cpp, one lambda per alternative and no
// generic branch, so a new alternative does not compile until every fact says what it means for it. Other files
// ask these functions instead of testing the variant themselves; an engine's own per-kind spec (page bytes, most
// bytes per request) lives in that engine's rules.cpp, also one exhaustive visit.
#pragma once
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "kvcalc/base/model_spec.h"

namespace kvcalc {

/// How a layer kind's cache grows with the load.
enum class CacheGrowth {
    none,          ///< keeps nothing (NoCache)
    per_token,     ///< every token of every sequence (full attention, MLA)
    windowed,      ///< at most a window of tokens per sequence (sliding window, chunked local attention)
    per_sequence,  ///< a fixed state per sequence (recurrent)
};

/// The K/V heads a grouped-query attention layer (full, sliding-window and chunked local attention) caches: every
/// engine stores a K and a V vector per head per token, also for Gemma 4's `attention_k_eq_v` layers (vLLM
/// vllm/model_executor/models/gemma4.py Gemma4Attention.forward passes k and v to Attention; llama.cpp
/// src/models/gemma4-iswa.cpp uses Vcur = Kcur and build_attn stores both; SGLang
/// python/sglang/srt/models/gemma4_causal.py Gemma4Attention saves k and v through RadixAttention). What the
/// weights hold is `layer_kv_proj_tensors`.
struct KvHeads {
    int num_key_value_heads = 0;
    int head_dim_k = 0;
    int head_dim_v = 0;
};

/// The heads tensor parallelism splits in one layer: `kv_heads` are sharded when tp divides them and replicated
/// when they divide tp (vLLM QKVParallelLinear num_kv_head_replicas); `sharded_heads` must divide by tp (a
/// recurrent layer's state is split by heads). Both 0 when the layer puts no constraint on tp (MLA, no cache).
struct TpHeads {
    int kv_heads = 0;
    int sharded_heads = 0;
};

/// Which projections a layer's mixer holds weights for (param_count.cpp counts each set from the config).
enum class MixerWeights {
    none,           ///< no mixer weights counted (NoCache)
    gqa_attention,  ///< q, k, v, o projections over KvHeads
    mla_attention,  ///< DeepSeek multi-head latent attention projections
    recurrent,      ///< Gated DeltaNet or Mamba projections
};

/// The kind's name in the model JSON ("kind") and in buckets rows: "full_attention", "sliding_window",
/// "chunked_local_attention", "mla_latent", "recurrent_state", "none". Static text.
const char* layer_kind_json_name(const LayerCache& cache);

/// The kind's label for people ("full attention", "sliding window", "chunked local attention", "MLA",
/// "recurrent", "no cache"). Static text.
const char* layer_kind_label(const LayerCache& cache);

/// A default-valued layer of the kind whose JSON name is `name`; nullopt for an unknown name.
std::optional<LayerCache> layer_of_json_name(std::string_view name);

/// Every kind's JSON name, comma-separated in variant order (for "Valid: …" in error messages).
std::string layer_kind_json_names();

/// How the kind's cache grows.
CacheGrowth layer_cache_growth(const LayerCache& cache);

/// K/V heads of a grouped-query attention layer; nullopt for MLA, recurrent and no-cache layers.
std::optional<KvHeads> layer_kv_heads(const LayerCache& cache);

/// The heads tensor parallelism splits in this layer.
TpHeads layer_tp_heads(const LayerCache& cache);

/// Which weights the layer's projections hold.
MixerWeights layer_mixer_weights(const LayerCache& cache);

/// K/V projection matrices in a grouped-query attention layer's weights: 2 (k_proj and v_proj), 1 when
/// `attention_k_eq_v` leaves out v_proj (Gemma 4 full layers: the checkpoint has no v_proj, and vLLM's weight
/// iterator loads k_proj into the V slot too, vllm/model_executor/models/gemma4.py Gemma4Attention); 0 for the
/// other kinds. The cache stores K and V either way (KvHeads).
int layer_kv_proj_tensors(const LayerCache& cache);

/// Whether the layer is an attention layer, which needs query heads (config.json num_attention_heads ≥ 1).
bool layer_has_attention(const LayerCache& cache);

/// Elements of one cached entry per head per token: head_dim_k for GQA attention, kv_lora_rank +
/// qk_rope_head_dim for an MLA latent, 0 for recurrent and no-cache layers.
std::int64_t layer_entry_head_dim(const LayerCache& cache);

/// Dims per head that rotary embedding turns when config.json gives no rotary_dim: head_dim_k for GQA attention,
/// qk_rope_head_dim for MLA, 0 otherwise.
int layer_rotary_head_dim(const LayerCache& cache);

/// Tokens a windowed layer keeps per sequence at most (sliding_window, attention_chunk_size); 0 otherwise.
std::int64_t layer_window_tokens(const LayerCache& cache);

/// The latent of an MLA layer; nullopt otherwise.
std::optional<MlaLatent> layer_mla_latent(const LayerCache& cache);

/// The recurrent state of a recurrent layer; nullopt otherwise.
std::optional<RecurrentState> layer_recurrent_state(const LayerCache& cache);

/// The config.json facts a layer of this kind states, as (key, value) pairs, e.g. {"sliding_window", "1024"}.
/// The model facts list shows them once per kind.
std::vector<std::pair<const char*, std::string>> layer_config_facts(const LayerCache& cache);

/// One line a person reads for the layer's cache shape, e.g. "8 KV heads x 128/128 dims, K+V, window 1024".
std::string layer_shape_text(const LayerCache& cache);

/// KV heads, attention heads and linear-attention heads per layer: 1..100,000 (the config.json reader's limit).
inline constexpr std::int64_t kMaxModelHeads = 100000;
/// Head dims, widths, MLA ranks: 1..1,000,000 elements (the config.json reader's limit).
inline constexpr std::int64_t kMaxModelDim = 1000000;
/// State or conv elements of one recurrent layer per sequence: at most 2^40 (a real Mamba-2 layer has ~10^6).
/// With ≤ 8 bytes per element and ≤ 2 × 10,000 layers a sequence's state stays below 2^57 bytes.
inline constexpr std::int64_t kMaxRecurrentElements = std::int64_t{1} << 40;
/// Tokens in a sliding window, an attention chunk or max_position_embeddings: 1..10^9 (the reader's limit).
inline constexpr std::int64_t kMaxModelTokens = 1000000000;

/// One number a layer kind stores: its model-JSON key, what the reader takes when the key is absent, and its
/// valid range. The JSON form (scenario_json.cpp: layer_json, read_layer) and the input ranges (input_limits.cpp:
/// check_model_limits) walk a kind's fields instead of naming the kind. The ranges keep every engine's per-layer
/// bytes far below 2^63 (docs/RELIABILITY.md).
struct LayerField {
    const char* name;        ///< JSON key and the diagnostic field's tail, e.g. "sliding_window"
    /// When `name` is absent from a layer object: the value of this earlier field of the same kind, or else this
    /// other JSON key ("head_dim" for head_dim_k); nullptr = the value in a default layer of the kind.
    const char* fallback;
    std::int64_t min, max;   ///< valid range, inclusive
    const char* range_note;  ///< appended to an out-of-range message, e.g. " (tokens)"; "" for none
    bool int32;              ///< the member is an int: the JSON reader wants a 32-bit integer
    std::int64_t (*get)(const LayerCache&);    ///< the field's value (0 for a layer of another kind)
    void (*set)(LayerCache&, std::int64_t);    ///< sets it (no effect on a layer of another kind)
};

/// The fields of the layer's kind, in the order the reader reads and the limits check them (a NoCache has none).
std::span<const LayerField> layer_fields(const LayerCache& cache);

/// A rule between a kind's fields that no single range states: the field to name and the reason.
struct LayerFieldProblem {
    const char* field;    ///< one of layer_fields' names
    const char* message;  ///< follows "<path>: "
};

/// Why the layer's fields, each inside its range, still make no layer (a recurrent state of 0 + 0 elements);
/// nullopt when they do.
std::optional<LayerFieldProblem> layer_field_problem(const LayerCache& cache);

/// How many layers of one kind a list holds, with the kind's label.
struct LayerKindCount {
    const char* label = "";  ///< layer_kind_label
    int count = 0;
};

/// Layers of `layers` per kind, in variant order, only kinds that occur and keep a cache (for the model panel).
std::vector<LayerKindCount> layer_kind_counts(const std::vector<LayerCache>& layers);

}  // namespace kvcalc

// Size limits on what a user can hand the core (inline models, config.json text, requests, links) and the
// check that keeps every model inside them. The ranges are far beyond any published model and chosen so that
// no per-token or per-sequence footprint can overflow int64 (docs/RELIABILITY.md derives each bound).
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>

#include "kvcalc/base/diagnostic.h"
#include "kvcalc/base/model_spec.h"
#include "kvcalc/model/layer_kinds.h"  // kMaxModelHeads, kMaxModelDim, kMaxModelTokens, kMaxRecurrentElements

namespace kvcalc {

/// Most layers a model may have (model.layers, and model.parallel_caches separately): the config.json reader's
/// num_hidden_layers limit. A published model has at most a few hundred.
inline constexpr std::int64_t kMaxModelLayers = 10000;
/// linear_num_value_heads × linear_value_head_dim (value channels) at most 2^32, and × linear_key_head_dim at
/// most 2^40: keeps the GDN prefill scratch (≤ 2^21 chunks of 64 tokens) below 2^63.
inline constexpr std::int64_t kMaxLinearChannels = std::int64_t{1} << 32;
/// Checkpoint and drafter sizes: finite, at most 10^6 decimal GB (the same bound as weights_gb).
inline constexpr double kMaxModelGb = 1e6;
/// Measured growing-KV bytes per token override: 1..2^36.
inline constexpr std::int64_t kMaxMeasuredKvBytesPerToken = std::int64_t{1} << 36;
/// KV positions a drafter adds per speculative token: 0..4096 (Qwen's built-in MTP: 32).
inline constexpr int kMaxKvExtraTokensPerSpeculativeToken = 4096;

/// Longest Scenario::config_json accepted: 4 MiB. Real config.json files are 1–100 KB; the cap keeps a pasted
/// checkpoint or a hostile request from costing seconds and hundreds of MB before being rejected.
inline constexpr std::size_t kMaxConfigJsonBytes = std::size_t{4} << 20;
/// Longest evaluate_json request: the config_json cap plus 4 MiB for everything else (an inline model of
/// 10,000 one-layer runs is ~1 MB).
inline constexpr std::size_t kMaxRequestBytes = std::size_t{8} << 20;
/// Longest link query decode_query reads (64 KiB; a full link is < 1 KB) and most parameters it reads (256;
/// the codec has ~30 keys). The rest is ignored with one warning.
inline constexpr std::size_t kMaxQueryBytes = std::size_t{64} << 10;
inline constexpr std::size_t kMaxQueryParameters = 256;

struct Deployment;
struct Load;

/// True when the KV of `load` could reach kMaxBytes (2^60) in some engine's own arithmetic: an upper bound of
/// every engine rule's KV bytes (growing and sliding layers at the full length, recurrent state at fp32, summed
/// over all ranks) computed in long double, compared with 2^60. evaluate() then skips the engine's pricing and
/// reports the KV as kMaxBytes, which predict() rejects as too_large; below it no engine sum can overflow.
bool load_beyond_limits(const Deployment& deployment, const Load& load);

/// "Model head dim" of the breakdown's --compressed-head-dim / --indexer-head-dim 0: the head dim of the first
/// attention layer (an MLA layer's latent width kv_lora_rank + qk_rope_head_dim), else hidden_size /
/// num_attention_heads, else 0.
std::int64_t model_head_dim(const ModelSpec& model);

/// The --kv-breakdown extras at the schema's limits (2^27 tokens × 65,536 sequences, TP 1) must stay below
/// 2^58 B each (a quarter of kMaxBytes, so their sum with the other buckets cannot reach it); otherwise an error
/// on compressed_layers / indexer_ratio_layers naming the product. This makes the estimate valid for every length
/// and concurrency a solver may probe. `kv_bpe_x400`, `indexer_bpe_x400`: bytes per element × 400.
bool check_breakdown_limits(int layers, int ratio, std::int64_t head_dim, int bpe_x400, const char* field,
                            Diagnostics& d);

/// Checks every number of an inline or config.json model against the limits above (a model whose layers all keep
/// nothing is valid: an encoder-only model, priced as weights only with a note). Errors (code "out_of_range" or
/// "bad_layer") name `path` + the field (e.g. "model.layers[3].kv_lora_rank"), the value and
/// the valid range; identical consecutive layers are reported once. Appends to `d`; returns false on any error.
bool check_model_limits(const ModelSpec& model, const std::string& path, Diagnostics& d);

/// The consistency the config.json reader enforces (hf_config.cpp), for an inline `model` object: the layer runs
/// sum to num_hidden_layers; parallel_caches has one entry per layer or none; attention layers need
/// num_attention_heads ≥ 1 (TP splits them), and no layer has more K/V heads than num_attention_heads;
/// num_experts_per_tok ≤ num_experts (and 0 without experts). Errors (code "inconsistent") name `path` + the
/// field, both values and the rule. Call after check_model_limits passed; returns false on any error.
bool check_inline_model(const ModelSpec& model, const std::string& path, Diagnostics& d);

}  // namespace kvcalc

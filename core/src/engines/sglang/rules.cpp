// SGLang token-pool sizing (python/sglang/srt/mem_cache/memory_pool.py, model_executor/model_runner.py).
#include <algorithm>
#include "util/text.h"
#include <cmath>
#include <variant>

#include "engines/deploy_internal.h"
#include "engines/engine_common.h"
#include "kvcalc/engines/engine_rules.h"
#include "kvcalc/model/layer_cache.h"
#include "kvcalc/model/layer_kinds.h"

namespace kvcalc {

std::int64_t sglang_mla_cell_bytes(const MlaLatent& l, int kv_bytes) {
    // NSATokenToKVPool with an fp8 store keeps DeepSeek V3.2's latent in its fp8 layout; MLATokenToKVPool keeps
    // one latent of kv_lora_rank + qk_rope_head_dim values per token per layer. Either adds the indexer key.
    const std::int64_t latent = l.index_head_dim > 0 && kv_bytes == 1
                                    ? mla_fp8_latent_bytes(l)
                                    : static_cast<std::int64_t>(l.kv_lora_rank + l.qk_rope_head_dim) * kv_bytes;
    return latent + mla_indexer_key_bytes(l);
}

namespace {

/// SGLang --kv-cache-dtype names beside the spellings kvcalc writes (sglang_spelling in kv_dtype.cpp).
constexpr engine::KvSpellingAlias kSglangAliases[] = {{"bfloat16", KvFormatId::bf16}, {"fp16", KvFormatId::fp16}};

/// One layer in SGLang's token pool: K and V bytes per token on one rank. One lambda per LayerCache alternative
/// (no generic branch), so a new layer kind does not compile until SGLang's rule for it is written here.
struct CellSpec {
    std::int64_t k = 0, v = 0;
    bool windowed = false;   ///< sliding / chunked: priced at full length (no SWA pool split)
    bool recurrent = false;  ///< state kept in SGLang's separate Mamba pool, not the token pool
};
CellSpec cell_spec(const LayerCache& c, int tp_size, int bytes, Diagnostics& d) {
    // MHATokenToKVPool keeps a K and a V buffer per layer; Gemma 4's attention_k_eq_v layers fill both too
    // (python/sglang/srt/models/gemma4_causal.py Gemma4Attention: RadixAttention saves k and v).
    auto attention = [&](int kv_heads, int head_dim_k, int head_dim_v, bool windowed) {
        const std::int64_t h = engine::kv_heads_per_rank(kv_heads, tp_size, d);
        return CellSpec{h * head_dim_k * bytes, h * head_dim_v * bytes, windowed, false};
    };
    return std::visit(
        overloaded{
            [](const NoCache&) { return CellSpec{}; },
            [&](const FullAttention& a) {
                return attention(a.num_key_value_heads, a.head_dim_k, a.head_dim_v, false);
            },
            [&](const SlidingWindow& w) {
                return attention(w.num_key_value_heads, w.head_dim_k, w.head_dim_v, true);
            },
            [&](const ChunkedLocalAttention& k) {
                return attention(k.num_key_value_heads, k.head_dim_k, k.head_dim_v, true);
            },
            [&](const MlaLatent& l) { return CellSpec{sglang_mla_cell_bytes(l, bytes), 0, false, false}; },
            [](const RecurrentState&) { return CellSpec{0, 0, false, true}; },
        },
        c);
}

/// Bytes per element of SGLang's --kv-cache-dtype, from the one KV format table through SGLang's spellings; 0
/// for an unknown name.
int element_bytes(const SglangSettings& s) {
    if (s.kv_cache_dtype == "auto") return s.model_dtype_bytes;
    if (const KvFormat* f = engine::format_spelled(detail::sglang_spelling, s.kv_cache_dtype, kSglangAliases))
        return f->element_x400 / kBpeDenominator;  // SGLang's pool dtypes are whole bytes
    return 0;
}

}  // namespace

SglangLayerCell sglang_layer_cell(const LayerCache& layer, const SglangSettings& s) {
    const int bytes = element_bytes(s);
    if (bytes == 0) return {};
    Diagnostics d;
    const CellSpec sp = cell_spec(layer, s.tp_size, bytes, d);
    if (has_error(d)) return {};
    const auto state = layer_recurrent_state(layer);
    return {sp.k + sp.v, sp.recurrent && state ? recurrent_state_bytes_per_rank(*state, s.tp_size) : 0};
}

SglangKvPrediction predict_sglang_kv(const ModelSpec& m, const SglangSettings& s, std::int64_t available) {
    SglangKvPrediction p;
    const int bytes = element_bytes(s);
    if (bytes == 0) {
        p.diagnostics.push_back({Severity::error, "unknown_kv_cache_dtype", "kv_cache_dtype",
                                 "SGLang kv_cache_dtype " + text::quoted(s.kv_cache_dtype) +
                                     " is not known; valid: auto, bf16, fp8_e4m3, fp8_e5m2"});
        return p;
    }
    std::int64_t k_cell = 0, v_cell = 0;
    bool sliding = false, recurrent = false;
    for (const auto& c : m.layers) {
        const CellSpec sp = cell_spec(c, s.tp_size, bytes, p.diagnostics);
        k_cell += sp.k;
        v_cell += sp.v;
        sliding = sliding || sp.windowed;
        recurrent = recurrent || sp.recurrent;
    }
    if (has_error(p.diagnostics)) return p;
    p.cell_size_bytes = k_cell + v_cell;
    if (p.cell_size_bytes <= 0) {
        // Encoder-only (or attention-free) models: no token pool to size.
        p.notes.push_back("the model has no attention layers that keep a KV cache: SGLang sizes no token pool");
        return p;
    }
    p.max_total_num_tokens = std::max<std::int64_t>(0, available) / p.cell_size_bytes;
    p.k_bytes = k_cell * p.max_total_num_tokens;
    p.v_bytes = v_cell * p.max_total_num_tokens;
    if (sliding) {
        p.notes.push_back("sliding-window layers priced at full length (SGLang's SWA pool split, "
                          "swa_full_tokens_ratio, is not modelled)");
    }
    if (recurrent) {
        p.notes.push_back("recurrent state pool (Mamba / DeltaNet) not included: SGLang sizes it separately "
                          "from max_running_requests");
    }
    return p;
}

std::int64_t sglang_kv_pool_bytes(std::int64_t total_gpu_bytes, std::int64_t avail_after_load_bytes,
                                  double mem_fraction_static) {
    if (!std::isfinite(mem_fraction_static) || mem_fraction_static <= 0.0 || mem_fraction_static > 1.0) return 0;
    const double rest = static_cast<double>(avail_after_load_bytes) -
                        static_cast<double>(total_gpu_bytes) * (1.0 - mem_fraction_static);
    return rest > 0 ? static_cast<std::int64_t>(rest) : 0;
}

}  // namespace kvcalc

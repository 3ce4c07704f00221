// llama.cpp KV-cache allocation (llama-kv-cache.cpp, llama-kv-cache-iswa.cpp, llama-memory-recurrent.cpp).
#include <algorithm>
#include <optional>
#include <variant>
#include "util/text.h"

#include "engines/deploy_internal.h"
#include "engines/engine_common.h"
#include "kvcalc/base/checked_math.h"
#include "kvcalc/engines/engine_rules.h"
#include "kvcalc/config/model_traits.h"
#include "kvcalc/model/layer_kinds.h"

namespace kvcalc {

namespace {

using engine::ElemFormat;

/// The storage of one element under a llama.cpp cache type (-ctk / -ctv, common/arg.cpp kv_cache_types): the
/// format llama_cpp_spelling names so, or f32, which llama.cpp accepts and kvcalc has no KV format for.
bool ggml_format(const std::string& name, ElemFormat& f) {
    if (name == "f32") {
        f = {4, 1, 0};
        return true;
    }
    const KvFormat* format = engine::format_spelled(detail::llama_cpp_spelling, name);
    if (format) f = kv_element_storage(*format);
    return format != nullptr;
}

/// llama.cpp builds an SWA cache only for architectures whose load_hparams sets swa_type / n_swa (the
/// model_traits.h llama_cpp_swa column); elsewhere a config's sliding_window is ignored and the layer gets the
/// full context (phi3: "Phi SWA is currently disabled"; mistral).
bool llama_cpp_uses_swa(const std::string& model_type) {
    // A GGUF's general.architecture spells with '-' what config.json's model_type spells with '_' (gpt-oss).
    std::string name = model_type;
    std::replace(name.begin(), name.end(), '-', '_');
    const ModelTypeTraits* t = find_model_traits(name);
    return t && t->llama_cpp_swa;
}

std::int64_t pad(std::int64_t x, std::int64_t n) { return ceil_div(x, n) * n; }

/// One layer as llama.cpp caches it: K and V bytes per cell, the SWA window (0 = the non-SWA cache) or, for a
/// recurrent layer, its state. One lambda per LayerCache alternative (no generic branch), so a new layer kind does
/// not compile until llama.cpp's rule for it is written here.
struct CellSpec {
    std::int64_t k = 0, v = 0;   ///< bytes per cell (one token of one stream)
    std::int64_t window = 0;     ///< SWA cache window in tokens; 0 = full context
    bool keeps_kv = false;       ///< false: no KV cells (recurrent or no cache)
    bool swa_ignored = false;    ///< a sliding layer this architecture gives the full context
    std::optional<RecurrentState> recurrent;
};
CellSpec cell_spec(const LayerCache& c, const ElemFormat& fk, const ElemFormat& fv, bool swa) {
    auto attention = [&](int heads, int head_dim_k, int head_dim_v, std::int64_t window) {
        return CellSpec{heads * engine::head_vector_bytes(head_dim_k, fk),
                        heads * engine::head_vector_bytes(head_dim_v, fv), window, true, false, std::nullopt};
    };
    return std::visit(
        overloaded{
            [](const NoCache&) { return CellSpec{}; },
            [&](const FullAttention& a) { return attention(a.num_key_value_heads, a.head_dim_k, a.head_dim_v, 0); },
            [&](const SlidingWindow& w) {
                CellSpec sp = attention(w.num_key_value_heads, w.head_dim_k, w.head_dim_v, swa ? w.sliding_window : 0);
                sp.swa_ignored = !swa;
                return sp;
            },
            // LLM_ARCH_LLAMA4: swa_type LLAMA_SWA_TYPE_CHUNKED, n_swa 8192, pattern 3 chunked : 1 full
            // (src/llama-model.cpp load_hparams); the chunked layers live in the iSWA cache like any SWA layer.
            [&](const ChunkedLocalAttention& k) {
                return attention(k.num_key_value_heads, k.head_dim_k, k.head_dim_v, k.attention_chunk_size);
            },
            [&](const MlaLatent& l) {  // V is a view of K
                return CellSpec{engine::head_vector_bytes(l.kv_lora_rank + l.qk_rope_head_dim, fk), 0, 0, true,
                                false, std::nullopt};
            },
            [](const RecurrentState& r) { return CellSpec{0, 0, 0, false, false, r}; },
        },
        c);
}

/// The first builds with each rule (engine_rules.h LlamaCppSettings::build says where the numbers come from).
constexpr int kBuildPad256 = 7000;      // PR #17046: every cache pads to 256 cells
constexpr int kBuildSwaF16 = 8628;      // PR #21277: the SWA cache is never quantized

bool from_build(const LlamaCppSettings& s, int first) { return s.build == 0 || s.build >= first; }

/// A quantized -ctk/-ctv type (a ggml block type: q8_0, q4_0, ...); f32/f16/bf16 are not.
bool quantized(const ElemFormat& f) { return f.den > 1; }

/// Cell padding: 256 from kBuildPad256 or under flash attention, else 32 (llama-kv-cache.cpp get_padding).
std::int64_t cell_pad(const LlamaCppSettings& s) { return from_build(s, kBuildPad256) || s.flash_attn ? 256 : 32; }

/// Cells of one stream of the non-SWA cache: the stream's share of -c, padded (llama-kv-cache.cpp).
std::int64_t stream_cells(const LlamaCppSettings& s) {
    return pad(s.kv_unified ? s.n_ctx : s.n_ctx / s.n_seq_max, cell_pad(s));
}

/// Cells of one stream of the SWA cache for a window (llama_kv_cache_iswa's constructor): the window of every
/// sequence sharing the stream plus one ubatch, capped at the full stream and padded — before kBuildPad256
/// min(cap, pad(x, n_pad)), from it pad(min(cap, x), 256); --swa-full sizes it like the full one.
std::int64_t swa_stream_cells(const LlamaCppSettings& s, std::int64_t window) {
    const std::int64_t full = stream_cells(s);
    if (s.swa_full) return full;
    const std::int64_t want = window * (s.kv_unified ? s.n_seq_max : 1) + llama_cpp_effective_ubatch(s);
    return from_build(s, kBuildPad256) ? pad(std::min(full, want), 256) : std::min(full, pad(want, cell_pad(s)));
}

}  // namespace

LlamaCppLayerCells llama_cpp_layer_cells(const ModelSpec& m, const LlamaCppSettings& s, const LayerCache& layer) {
    ElemFormat fk, fv;
    if (!ggml_format(s.cache_type_k, fk) || !ggml_format(s.cache_type_v, fv) || s.n_ctx <= 0 || s.n_seq_max <= 0 ||
        s.n_ubatch <= 0)
        return {};
    const CellSpec sp = cell_spec(layer, fk, fv, llama_cpp_uses_swa(m.model_type));
    if (sp.recurrent)
        return {sat_mul(sp.recurrent->state_elements + sp.recurrent->conv_elements, 4), 1, false, true};
    if (!sp.keeps_kv) return {};
    if (sp.window > 0) return {sp.k + sp.v, swa_stream_cells(s, sp.window), true, false};
    return {sp.k + sp.v, stream_cells(s), false, false};
}

LlamaCppKvPrediction predict_llama_cpp_kv(const ModelSpec& m, const LlamaCppSettings& s) {
    LlamaCppKvPrediction p;
    ElemFormat fk, fv;
    if (!ggml_format(s.cache_type_k, fk) || !ggml_format(s.cache_type_v, fv)) {
        p.diagnostics.push_back({Severity::error, "unknown_cache_type", "cache_type_k",
                                 "llama.cpp cache type " + text::quoted(s.cache_type_k) + "/" + text::quoted(s.cache_type_v) +
                                     " is not known; valid: f32, f16, bf16, q8_0, q5_1, q5_0, q4_1, q4_0, iq4_nl"});
        return p;
    }
    if (s.n_ctx <= 0 || s.n_seq_max <= 0 || s.n_ubatch <= 0) {
        p.diagnostics.push_back({Severity::error, "bad_setting", "n_ctx",
                                 "n_ctx, n_seq_max and n_ubatch must be positive"});
        return p;
    }
    if (s.build < 0) {
        p.diagnostics.push_back({Severity::error, "bad_setting", "llama_cpp_build",
                                 "the llama.cpp build number must be 0 (the newest rules) or a release number bN"});
        return p;
    }
    // llama-kv-cache-iswa.cpp: the SWA cache gets its own types; from kBuildSwaF16 a quantized type becomes f16.
    ElemFormat swa_k = fk, swa_v = fv;
    if (from_build(s, kBuildSwaF16)) {
        if (quantized(swa_k)) swa_k = {2, 1, 0};
        if (quantized(swa_v)) swa_v = {2, 1, 0};
    }
    // Without --kv-unified every sequence gets its own stream of n_ctx / n_seq_max cells.
    const std::int64_t streams = s.kv_unified ? 1 : s.n_seq_max;
    const std::int64_t cells_per_stream = stream_cells(s);
    const bool swa = llama_cpp_uses_swa(m.model_type);
    p.streams = static_cast<int>(streams);
    // llama_memory_recurrent: r (conv) and s (SSM) tensors of n_embd_r() / n_embd_s() values per layer per
    // sequence, always f32 (llama-model.cpp create_memory passes GGML_TYPE_F32 for both), whatever -ctk/-ctv
    // say. Falcon-H1 keeps them beside the attention of every layer (spec.parallel_caches).
    auto add_recurrent = [&](const RecurrentState& r) {
        ++p.recurrent_layers;
        p.recurrent_bytes = sat_add(p.recurrent_bytes, sat_mul(sat_mul(r.state_elements + r.conv_elements, 4), s.n_seq_max));
    };
    for (const auto& c : m.parallel_caches)
        if (const auto r = layer_recurrent_state(c)) add_recurrent(*r);
    bool swa_ignored = false;
    for (const auto& c : m.layers) {
        const bool sliding = swa && layer_cache_growth(c) == CacheGrowth::windowed;
        const CellSpec sp = cell_spec(c, sliding ? swa_k : fk, sliding ? swa_v : fv, swa);
        if (sp.recurrent) add_recurrent(*sp.recurrent);
        if (!sp.keeps_kv) continue;
        swa_ignored = swa_ignored || sp.swa_ignored;
        const std::int64_t k = sp.k, v = sp.v, window = sp.window;
        if (window > 0) {
            // --swa-full keeps the separate SWA cache but sizes it like the full one.
            const std::int64_t cells = swa_stream_cells(s, window);
            ++p.swa_layers;
            p.swa_cells = cells;
            // Saturating (checked_math.h): predict() rejects a total at or above kMaxBytes by name.
            p.swa_bytes = sat_add(p.swa_bytes, sat_mul(sat_mul(k + v, cells), streams));
            p.k_bytes = sat_add(p.k_bytes, sat_mul(sat_mul(k, cells), streams));
            p.v_bytes = sat_add(p.v_bytes, sat_mul(sat_mul(v, cells), streams));
        } else {
            ++p.full_layers;
            p.full_cells = cells_per_stream;
            p.full_bytes = sat_add(p.full_bytes, sat_mul(sat_mul(k + v, cells_per_stream), streams));
            p.kv_bytes_per_token = sat_add(p.kv_bytes_per_token, k + v);
            p.k_bytes = sat_add(p.k_bytes, sat_mul(sat_mul(k, cells_per_stream), streams));
            p.v_bytes = sat_add(p.v_bytes, sat_mul(sat_mul(v, cells_per_stream), streams));
        }
    }
    p.total_bytes = sat_add(sat_add(p.full_bytes, p.swa_bytes), p.recurrent_bytes);
    if (swa_ignored && p.full_layers > 0) {
        p.notes.push_back("llama.cpp has no sliding-window cache for model_type \"" + m.model_type +
                          "\": sliding layers get the full context");
    }
    p.notes.push_back("layer split (-sm layer) spreads these bytes over the devices by layer; they are not divided "
                      "like tensor parallelism");
    return p;
}

}  // namespace kvcalc

// vLLM V1 KV-cache allocation rules. Each step names the upstream function it follows (docs/ENGINE_RULES.md).
#include <algorithm>
#include "util/text.h"
#include <cctype>
#include <string_view>
#include <optional>
#include <tuple>
#include <variant>

#include "engines/engine_common.h"
#include "kvcalc/engines/context_limit.h"
#include "kvcalc/engines/engine_rules.h"
#include "kvcalc/model/layer_cache.h"
#include "kvcalc/base/checked_math.h"
#include "kvcalc/base/units.h"

#include "engines/deploy_internal.h"

namespace kvcalc {

namespace {

using engine::ElemFormat;

/// vLLM's --kv-cache-dtype names (vllm/config/cache.py CacheDType) beside the spellings kvcalc writes
/// (vllm_dtype in kv_dtype.cpp): "fp8" and "fp8_inc" store e4m3 on CUDA.
constexpr engine::KvSpellingAlias kVllmAliases[] = {{"bf16", KvFormatId::bf16},
                                                    {"fp16", KvFormatId::fp16},
                                                    {"half", KvFormatId::fp16},
                                                    {"fp8", KvFormatId::fp8_e4m3},
                                                    {"fp8_inc", KvFormatId::fp8_e4m3}};

/// The storage of one element under a vLLM cache dtype name; "auto" is the model's dtype.
bool vllm_format(const std::string& name, int model_bytes, ElemFormat& f) {
    if (name == "auto") {
        f = {model_bytes, 1, 0};
        return true;
    }
    const KvFormat* format = engine::format_spelled(detail::vllm_spelling, name, kVllmAliases);
    if (format) f = kv_element_storage(*format);
    return format != nullptr;
}

using Kind = VllmLayerType::Kind;

/// Bytes per token of one attention layer on one rank: a K and a V vector per head. Gemma 4's attention_k_eq_v
/// layers too: their weights hold no v_proj, but vLLM loads k_proj into both the K and the V slot of
/// QKVParallelLinear and its Attention layer caches k and v (vllm/model_executor/models/gemma4.py
/// Gemma4Attention).
std::int64_t attention_bytes(int heads, int head_dim_k, int head_dim_v, const ElemFormat& f) {
    return heads * engine::head_vector_bytes(head_dim_k, f) + heads * engine::head_vector_bytes(head_dim_v, f);
}

/// Bytes per token of a Gemma 4 attention layer on one rank under a per-token-head dtype: gemma4.py
/// (Gemma4Attention, kv_cache_page_size_padded) gives a 512-wide head block_size × 1,040 B, (512 × 1) × 2 + 8 =
/// 1,032 padded to twice a 256-wide head's (256 × 1) × 2 + 8 = 520, so both layer types' pages divide. Other
/// models and dtypes keep `bytes`.
std::int64_t gemma4_padded_bytes(const VllmSettings& s, int heads, int head_dim, std::int64_t bytes) {
    const bool gemma4 = s.model_type.rfind("gemma4", 0) == 0;
    const bool per_token_head = s.kv_cache_dtype == "int8_per_token_head" || s.kv_cache_dtype == "fp8_per_token_head";
    constexpr std::int64_t kPaddedHeadBytes = 1040;
    return gemma4 && per_token_head && head_dim == 512 ? std::int64_t{heads} * kPaddedHeadBytes : bytes;
}

/// Per-rank spec of one layer cache; nullopt for layers that keep nothing. Every LayerCache alternative is
/// handled here (no generic branch), so a new kind fails to compile until vLLM's rule for it is written.
struct Spec {
    Kind kind;
    std::int64_t bytes, window;
};
std::optional<Spec> layer_spec(const LayerCache& c, const VllmSettings& s, const ElemFormat& f, bool fp8,
                               Diagnostics& d) {
    return std::visit(
        overloaded{
            [](const NoCache&) -> std::optional<Spec> { return std::nullopt; },
            [&](const FullAttention& a) -> std::optional<Spec> {
                const int h = engine::kv_heads_per_rank(a.num_key_value_heads, s.tensor_parallel_size, d);
                return Spec{Kind::full,
                            gemma4_padded_bytes(s, h, a.head_dim_k, attention_bytes(h, a.head_dim_k, a.head_dim_v, f)),
                            0};
            },
            [&](const SlidingWindow& w) -> std::optional<Spec> {
                const int h = engine::kv_heads_per_rank(w.num_key_value_heads, s.tensor_parallel_size, d);
                const std::int64_t b =
                    gemma4_padded_bytes(s, h, w.head_dim_k, attention_bytes(h, w.head_dim_k, w.head_dim_v, f));
                if (s.disable_hybrid_kv_cache_manager) return Spec{Kind::full, b, 0};
                return Spec{Kind::sliding, b, w.sliding_window};
            },
            [&](const ChunkedLocalAttention& k) -> std::optional<Spec> {
                // ChunkedLocalAttentionSpec under the hybrid manager (on by default since vLLM PR #29627; PR
                // #21761 had turned it off for chunked models, which prices these layers as full attention).
                const int h = engine::kv_heads_per_rank(k.num_key_value_heads, s.tensor_parallel_size, d);
                const std::int64_t b = attention_bytes(h, k.head_dim_k, k.head_dim_v, f);
                if (s.disable_hybrid_kv_cache_manager) return Spec{Kind::full, b, 0};
                return Spec{Kind::chunked, b, k.attention_chunk_size};
            },
            [&](const MlaLatent& l) -> std::optional<Spec> {
                // One latent per token, not split by TP. DeepSeek V3.2 fp8 layout: 512 fp8 + 4 fp32 scales + 64
                // bf16 rope = 656 B; its indexer key adds index_head_dim fp8 + one fp32 scale per 128.
                std::int64_t b = engine::head_vector_bytes(l.kv_lora_rank + l.qk_rope_head_dim, f);
                if (l.index_head_dim > 0) {
                    if (fp8) b = mla_fp8_latent_bytes(l);
                    b += mla_indexer_key_bytes(l);
                }
                return Spec{Kind::full, b, 0};
            },
            [&](const RecurrentState& r) -> std::optional<Spec> {
                return Spec{Kind::mamba, recurrent_state_bytes_per_rank(r, s.tensor_parallel_size), 0};
            },
        },
        c);
}

/// Blocks one request holds in one group of this type (the spec's max_memory_usage_bytes / page).
std::int64_t blocks_for(const VllmLayerType& t, std::int64_t max_len, const VllmPlan& p, std::int64_t batched) {
    switch (t.kind) {
        case Kind::full: return ceil_div(max_len + p.extra_tokens, t.block);
        // Sliding: the window, plus the tokens one scheduler step may add, plus one block because the window
        // does not start on a block boundary (SlidingWindowSpec.max_memory_usage_bytes).
        case Kind::sliding: return ceil_div(std::min(t.window - 1 + batched, max_len), t.block) + 1;
        case Kind::mamba: return p.mamba_align ? 2 : 1;
        // ChunkedLocalAttentionSpec.max_memory_usage_bytes: the chunk plus one step, no window − 1, no extra block.
        case Kind::chunked: return ceil_div(std::min(t.window + batched, max_len), t.block);
    }
    return 0;
}

/// Groups identical specs and unifies page sizes (kv_cache_utils.py unify_kv_cache_spec_page_size and the
/// Mamba/attention block-size alignment of hybrid models).
void unify(VllmPlan& p, int block_size) {
    auto& types = p.types;
    std::sort(types.begin(), types.end(), [](const VllmLayerType& a, const VllmLayerType& b) {
        return std::make_tuple(static_cast<int>(a.kind), a.bytes, a.window) <
               std::make_tuple(static_cast<int>(b.kind), b.bytes, b.window);
    });
    std::int64_t target = 0, mamba_page = 0, max_bpt = 0;
    for (auto& t : types) {
        t.block = block_size;
        if (t.kind == Kind::mamba) {
            mamba_page = std::max(mamba_page, t.bytes);
        } else {
            max_bpt = std::max(max_bpt, t.bytes);
            target = std::max(target, t.bytes * block_size);
        }
    }
    if (mamba_page > target && max_bpt > 0) {  // attention blocks grow until a page holds one Mamba state
        const std::int64_t block = block_size * ceil_div(mamba_page, block_size * max_bpt);
        target = block * max_bpt;
        p.notes.push_back("attention block size raised to " + std::to_string(block) +
                          " tokens so one page holds a whole recurrent state (vLLM hybrid page alignment)");
    }
    if (target == 0) target = mamba_page;
    for (auto& t : types) {
        if (t.kind == Kind::mamba) {
            t.page = target;
        } else {
            t.block = static_cast<int>(target / t.bytes);
            t.page = t.block * t.bytes;
            if (target % t.bytes != 0) {
                p.notes.push_back("page sizes of the layer types are not multiples of each other; vLLM may reject "
                                  "this model or pad differently");
            }
        }
    }
}

}  // namespace

VllmPlan make_vllm_plan(const std::vector<LayerGroup>& groups, const VllmSettings& s) {
    VllmPlan p;
    p.max_num_batched_tokens = s.max_num_batched_tokens;
    p.mamba_align = s.mamba_prefix_caching_align;
    ElemFormat f;
    if (!vllm_format(s.kv_cache_dtype, s.model_dtype_bytes, f)) {
        p.diagnostics.push_back({Severity::error, "unknown_kv_cache_dtype", "kv_cache_dtype",
                                 "vLLM kv_cache_dtype " + text::quoted(s.kv_cache_dtype) +
                                     " is not known; valid: auto, bfloat16, float16, fp8, fp8_e4m3, fp8_e5m2, "
                                     "fp8_inc, int8_per_token_head, nvfp4, turboquant_k8v4, turboquant_3bit_nc"});
        return p;
    }
    if (s.block_size <= 0 || s.max_num_batched_tokens <= 0) {
        p.diagnostics.push_back({Severity::error, "bad_setting", "block_size",
                                 "block_size and max_num_batched_tokens must be positive"});
        return p;
    }
    const bool fp8 = f.num == 1 && f.den == 1 && f.scale_bytes_per_head == 0;
    std::vector<std::optional<Spec>> specs;  // per group, to find its type once unify() has sorted them
    specs.reserve(groups.size());
    for (const auto& g : groups) {
        std::optional<Spec> sp = layer_spec(g.cache, s, f, fp8, p.diagnostics);
        // A layer that stores 0 bytes keeps nothing; as a type it would be a 0-byte page that unify() divides by.
        if (sp && sp->bytes <= 0) sp.reset();
        specs.push_back(sp);
        if (!sp) continue;
        auto it = std::find_if(p.types.begin(), p.types.end(), [&](const VllmLayerType& t) {
            return t.kind == sp->kind && t.bytes == sp->bytes && t.window == sp->window;
        });
        if (it == p.types.end()) it = p.types.insert(p.types.end(), VllmLayerType{sp->kind, sp->bytes, sp->window, 0});
        it->layers += g.count;
        if (sp->kind == Kind::full) p.kv_bytes_per_token += sp->bytes * g.count;
    }
    if (has_error(p.diagnostics)) return p;
    if (p.types.empty()) {  // encoder-only: EncoderOnlyAttentionSpec needs no memory, vLLM allocates no blocks
        p.notes.push_back("the model keeps no KV cache (encoder-only): vLLM allocates no cache blocks");
        return p;
    }
    unify(p, s.block_size);
    p.group_type.assign(groups.size(), -1);
    for (std::size_t i = 0; i < groups.size(); ++i)
        for (std::size_t t = 0; specs[i] && t < p.types.size(); ++t)
            if (p.types[t].kind == specs[i]->kind && p.types[t].bytes == specs[i]->bytes &&
                p.types[t].window == specs[i]->window)
                p.group_type[i] = static_cast<int>(t);
    int layers = 0, max_count = 0;
    for (const auto& t : p.types) layers += t.layers;
    int min_count = layers;
    p.min_block = s.block_size;
    for (const auto& t : p.types) {
        min_count = std::min(min_count, t.layers);
        max_count = std::max(max_count, t.layers);
        p.min_block = std::min(p.min_block, t.block);
    }
    // _get_kv_cache_groups_uniform_page_size: groups of group_size layers share one set of tensors.
    p.group_size = (p.types.size() == 1 || 4 * max_count < 5 * min_count) ? max_count : min_count;
    for (auto& t : p.types) {
        t.groups = static_cast<int>(ceil_div(t.layers, p.group_size));
        p.num_groups += t.groups;
    }
    p.page_size_bytes = p.types.front().page;
    return p;
}

std::int64_t vllm_blocks_per_request(const VllmPlan& p, std::int64_t max_len, std::int64_t batched) {
    if (batched <= 0) batched = p.max_num_batched_tokens;
    std::int64_t blocks = 0;
    for (const auto& t : p.types) blocks = sat_add(blocks, sat_mul(t.groups, blocks_for(t, max_len, p, batched)));
    return blocks;
}

std::int64_t vllm_type_blocks(const VllmPlan& p, const VllmLayerType& t, std::int64_t max_len, std::int64_t batched) {
    return blocks_for(t, max_len, p, batched > 0 ? batched : p.max_num_batched_tokens);
}

std::int64_t vllm_request_bytes(const VllmPlan& p, std::int64_t max_len, std::int64_t batched) {
    return sat_mul(sat_mul(vllm_blocks_per_request(p, max_len, batched), p.page_size_bytes), p.group_size);
}

VllmRequestSplit vllm_request_split(const VllmPlan& p, std::int64_t max_len, std::int64_t batched) {
    if (batched <= 0) batched = p.max_num_batched_tokens;
    VllmRequestSplit out;
    for (const auto& t : p.types) {
        // Saturating: the solvers probe lengths before predict's 2^60 demand check can refuse them.
        const std::int64_t blocks = sat_mul(t.groups, blocks_for(t, max_len, p, batched));
        out.blocks = sat_add(out.blocks, blocks);
        const std::int64_t b = sat_mul(sat_mul(blocks, p.page_size_bytes), p.group_size);
        switch (t.kind) {
            case Kind::full: out.full_bytes = sat_add(out.full_bytes, b); break;
            case Kind::sliding:
            case Kind::chunked: out.sliding_bytes = sat_add(out.sliding_bytes, b); break;
            case Kind::mamba: out.mamba_bytes = sat_add(out.mamba_bytes, b); break;
        }
    }
    return out;
}

std::int64_t vllm_num_blocks(const VllmPlan& p, std::int64_t available) {
    const std::int64_t per_block = sat_mul(p.page_size_bytes, p.group_size);
    return available > 0 && per_block > 0 ? available / per_block : 0;
}

std::int64_t vllm_estimate_max_model_len(const VllmPlan& p, std::int64_t available, std::int64_t limit,
                                         std::int64_t batched) {
    if (limit < 1 || vllm_request_bytes(p, 1, batched) > available) return 0;
    std::int64_t lo = 1, hi = limit;  // largest length whose request fits: vLLM's binary search
    while (lo < hi) {
        const std::int64_t mid = lo + (hi - lo + 1) / 2;
        if (vllm_request_bytes(p, mid, batched) <= available) lo = mid;
        else hi = mid - 1;
    }
    return lo;
}

VllmKvPrediction vllm_kv_lines(const VllmPlan& plan, std::int64_t max_len,
                               const std::vector<std::int64_t>& available_per_rank) {
    if (available_per_rank.empty()) {
        VllmKvPrediction p;
        p.diagnostics = plan.diagnostics;
        if (!has_error(p.diagnostics))
            p.diagnostics.push_back({Severity::error, "missing_input", "available_kv_bytes",
                                     "no available KV memory given (one value per tensor-parallel rank)"});
        return p;
    }
    return detail::vllm_kv_lines_uniform(plan, max_len,
                                         *std::min_element(available_per_rank.begin(), available_per_rank.end()),
                                         static_cast<int>(available_per_rank.size()));
}

detail::VllmPool detail::vllm_pool(const VllmPlan& plan, std::int64_t max_len, std::int64_t available,
                                   std::int64_t batched, const VllmRequestCost* known) {
    VllmPool p;
    p.available_kv_bytes = available;
    p.available_kv_gib = static_cast<double>(available) / static_cast<double>(kBytesPerGib);
    p.kv_bytes_per_token = plan.kv_bytes_per_token;
    if (plan.types.empty()) return p;  // nothing cached: no blocks, no refusal
    p.num_kv_cache_groups = plan.num_groups;
    p.page_size_bytes = plan.page_size_bytes;
    p.num_blocks = vllm_num_blocks(plan, available);
    p.gpu_kv_cache_tokens = p.num_blocks / p.num_kv_cache_groups * plan.min_block;
    if (known) {
        p.max_concurrency = known->max_concurrency;
        p.kv_needed_bytes = known->kv_needed_bytes;
    } else {
        const VllmRequestSplit one = vllm_request_split(plan, max_len, batched);
        p.max_concurrency = one.blocks > 0 ? static_cast<double>(p.num_blocks) / static_cast<double>(one.blocks) : 0;
        p.kv_needed_bytes = sat_add(sat_add(one.full_bytes, one.sliding_bytes), one.mamba_bytes);
    }
    if (available <= 0) {
        p.refuses_to_start = true;
    } else if (p.kv_needed_bytes > available) {
        p.refuses_to_start = true;
        p.estimated_max_model_len = vllm_estimate_max_model_len(plan, available, max_len, batched);
    }
    return p;
}

void detail::vllm_pool_notes(const VllmPool& p, int ranks, std::vector<std::string>& notes) {
    if (ranks > 1) notes.push_back("the KV pool is sized by the rank with the least free memory");
    if (p.num_kv_cache_groups == 0) return;  // no cache layers: the plan's note says so
    if (p.available_kv_bytes <= 0)
        notes.push_back("vLLM stops: no available memory for the cache blocks (weights and activations exceed "
                        "gpu_memory_utilization × VRAM)");
    else if (p.refuses_to_start)
        notes.push_back("vLLM refuses to start: one max_model_len request needs more KV than available; "
                        "estimated maximum model length is " + std::to_string(p.estimated_max_model_len));
    if (p.num_kv_cache_groups > 1)
        notes.push_back("hybrid model: vLLM's printed 'GPU KV cache size' divides the blocks evenly over " +
                        std::to_string(p.num_kv_cache_groups) +
                        " KV cache groups, so it is not the context the full-attention layers can hold; use "
                        "'Maximum concurrency' × max_model_len instead");
}

VllmKvPrediction detail::vllm_kv_lines_uniform(const VllmPlan& plan, std::int64_t max_len, std::int64_t available,
                                               int ranks) {
    VllmKvPrediction p;
    p.diagnostics = plan.diagnostics;
    if (has_error(p.diagnostics)) return p;
    const VllmPool pool = vllm_pool(plan, max_len, available, 0, nullptr);
    p.available_kv_bytes = pool.available_kv_bytes;
    p.available_kv_gib = pool.available_kv_gib;
    p.kv_bytes_per_token = pool.kv_bytes_per_token;
    for (const auto& t : plan.types) {
        if (t.kind == Kind::sliding || t.kind == Kind::chunked)
            p.sliding_bytes_per_sequence += blocks_for(t, max_len, plan, plan.max_num_batched_tokens) * t.page * t.layers;
        if (t.kind == Kind::mamba) p.state_bytes_per_sequence += t.bytes * (plan.mamba_align ? 2 : 1) * t.layers;
    }
    p.num_kv_cache_groups = pool.num_kv_cache_groups;
    p.page_size_bytes = pool.page_size_bytes;
    p.num_blocks = pool.num_blocks;
    p.gpu_kv_cache_tokens = pool.gpu_kv_cache_tokens;
    p.max_concurrency = pool.max_concurrency;
    p.kv_needed_bytes = pool.kv_needed_bytes;
    p.refuses_to_start = pool.refuses_to_start;
    p.estimated_max_model_len = pool.estimated_max_model_len;
    p.notes = plan.notes;
    vllm_pool_notes(pool, ranks, p.notes);
    return p;
}

VllmKvPrediction predict_vllm_kv(const ModelSpec& m, const VllmSettings& s,
                                 const std::vector<std::int64_t>& available_per_rank) {
    return predict_vllm_kv(m, group_layers(m), s, available_per_rank);
}

VllmKvPrediction predict_vllm_kv(const ModelSpec& m, const std::vector<LayerGroup>& groups, const VllmSettings& s,
                                 const std::vector<std::int64_t>& available_per_rank) {
    if (s.max_model_len < 0) {
        VllmKvPrediction p;
        p.diagnostics.push_back({Severity::error, "bad_setting", "max_model_len", "max_model_len must be ≥ 0"});
        return p;
    }
    // vLLM's own maximum and default (context_limit.h: _get_and_verify_max_len).
    const EngineContextLimit limit = context_limit(m, EngineId::vllm);
    const std::int64_t max_len = s.max_model_len > 0 ? s.max_model_len : limit.default_max_model_len;
    if (max_len <= 0) {
        VllmKvPrediction p;
        p.diagnostics.push_back({Severity::error, "missing_input", "max_model_len",
                                 "max_model_len is 0 and the model has no max_position_embeddings: set max_model_len"});
        return p;
    }
    VllmSettings with_type = s;
    if (with_type.model_type.empty()) with_type.model_type = m.model_type;
    VllmKvPrediction p = vllm_kv_lines(make_vllm_plan(groups, with_type), max_len, available_per_rank);
    if (limit.max_model_len > 0 && max_len > limit.max_model_len) {
        p.diagnostics.insert(p.diagnostics.begin(),
                             {Severity::warning, "max_model_len_above_model", "max_model_len",
                              "max_model_len " + std::to_string(max_len) + " exceeds the model's derived maximum " +
                                  std::to_string(limit.max_model_len) + " (" + limit.source +
                                  "); vLLM refuses this unless VLLM_ALLOW_LONG_MAX_MODEL_LEN=1 is set"});
    }
    return p;
}

}  // namespace kvcalc

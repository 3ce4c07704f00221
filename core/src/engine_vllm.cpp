// vLLM V1 KV-cache allocation rules. Each step names the upstream function it follows (docs/ENGINE_RULES.md).
#include <algorithm>
#include <tuple>

#include "engine_common.h"
#include "kvcalc/engine_rules.h"
#include "kvcalc/layer_cache.h"

namespace kvcalc {

namespace {

using engine::cdiv;
using engine::ElemFormat;

/// vLLM's --kv-cache-dtype names (vllm/config/cache.py CacheDType) and the storage of one element.
bool vllm_format(const std::string& name, int model_bytes, ElemFormat& f) {
    if (name == "auto") {
        f = {model_bytes, 1, 0};
    } else if (name == "bfloat16" || name == "bf16" || name == "float16" || name == "fp16" || name == "half") {
        f = {2, 1, 0};
    } else if (name == "fp8" || name == "fp8_e4m3" || name == "fp8_e5m2" || name == "fp8_inc") {
        f = {1, 1, 0};
    } else if (name == "int8_per_token_head") {
        f = {1, 1, 4};  // fp32 scale per token per head (vLLM PR #40391)
    } else if (name == "nvfp4") {
        f = {9, 16, 0};  // 4-bit values + one fp8 scale per 16
    } else {
        return false;
    }
    return true;
}

enum class Kind { full, sliding, mamba, chunked };

/// One layer's cache on one rank, as vLLM's KVCacheSpec sees it.
struct Spec {
    Kind kind = Kind::full;
    std::int64_t bytes = 0;   ///< per token (attention) or per sequence (mamba)
    std::int64_t window = 0;
    int count = 1;            ///< layers with this spec
    bool same(const Spec& o) const { return kind == o.kind && bytes == o.bytes && window == o.window; }
};

struct Type {
    Spec spec;
    int count = 0;
    int block = 16;               ///< tokens per block after page-size unification
    std::int64_t page = 0;
};

std::int64_t attention_bytes(int heads, int head_dim_k, int head_dim_v, int tensors, const ElemFormat& f) {
    const std::int64_t k = heads * engine::head_vector_bytes(head_dim_k, f);
    return tensors == 1 ? k : k + heads * engine::head_vector_bytes(head_dim_v, f);
}

/// Specs on one rank, one per distinct layer cache with its layer count; NoCache layers are skipped.
std::vector<Spec> layer_specs(const std::vector<LayerGroup>& groups, const VllmSettings& s, const ElemFormat& f,
                              bool fp8, Diagnostics& d) {
    std::vector<Spec> out;
    out.reserve(groups.size());
    for (const auto& g : groups) {
        const LayerCache& c = g.cache;
        if (const auto* a = std::get_if<FullAttention>(&c)) {
            const int h = engine::kv_heads_per_rank(a->num_key_value_heads, s.tensor_parallel_size, d);
            out.push_back({Kind::full, attention_bytes(h, a->head_dim_k, a->head_dim_v, a->k_v_tensors, f), 0, g.count});
        } else if (const auto* w = std::get_if<SlidingWindow>(&c)) {
            const int h = engine::kv_heads_per_rank(w->num_key_value_heads, s.tensor_parallel_size, d);
            const std::int64_t b = attention_bytes(h, w->head_dim_k, w->head_dim_v, w->k_v_tensors, f);
            if (s.disable_hybrid_kv_cache_manager) {
                out.push_back({Kind::full, b, 0, g.count});
            } else {
                out.push_back({Kind::sliding, b, w->sliding_window, g.count});
            }
        } else if (const auto* k = std::get_if<ChunkedLocalAttention>(&c)) {
            // ChunkedLocalAttentionSpec under the hybrid manager (on by default since vLLM PR #29627; PR #21761
            // had turned it off for chunked models, which prices these layers as full attention).
            const int h = engine::kv_heads_per_rank(k->num_key_value_heads, s.tensor_parallel_size, d);
            const std::int64_t b = attention_bytes(h, k->head_dim_k, k->head_dim_v, k->k_v_tensors, f);
            if (s.disable_hybrid_kv_cache_manager) {
                out.push_back({Kind::full, b, 0, g.count});
            } else {
                out.push_back({Kind::chunked, b, k->attention_chunk_size, g.count});
            }
        } else if (const auto* l = std::get_if<MlaLatent>(&c)) {
            // One latent per token, not split by TP. DeepSeek V3.2 fp8 layout: 512 fp8 + 4 fp32 scales + 64
            // bf16 rope = 656 B; its indexer key adds index_head_dim fp8 + one fp32 scale per 128.
            std::int64_t b = engine::head_vector_bytes(l->kv_lora_rank + l->qk_rope_head_dim, f);
            if (l->index_head_dim > 0) {
                if (fp8) b = l->kv_lora_rank + l->kv_lora_rank / 128 * 4 + 2LL * l->qk_rope_head_dim;
                b += l->index_head_dim + cdiv(l->index_head_dim, 128) * 4;
            }
            out.push_back({Kind::full, b, 0, g.count});
        } else if (const auto* r = std::get_if<RecurrentState>(&c)) {
            out.push_back({Kind::mamba, engine::recurrent_bytes_per_rank(*r, s.tensor_parallel_size), 0, g.count});
        }
    }
    // A layer that stores 0 bytes keeps nothing; as a spec it would be a 0-byte page that unify() divides by.
    out.erase(std::remove_if(out.begin(), out.end(), [](const Spec& x) { return x.bytes <= 0; }), out.end());
    return out;
}

/// Largest tokens one request can hold in a layer of this spec: SlidingWindowSpec.max_memory_usage_bytes.
std::int64_t blocks_per_request(const Spec& sp, int block, std::int64_t max_len, const VllmSettings& s) {
    switch (sp.kind) {
        case Kind::full:
            return cdiv(max_len, block);
        case Kind::sliding:
            return cdiv(std::min(sp.window - 1 + s.max_num_batched_tokens, max_len), block) + 1;
        case Kind::mamba:
            return s.mamba_prefix_caching_align ? 2 : 1;
        case Kind::chunked:  // ChunkedLocalAttentionSpec.max_memory_usage_bytes: no window − 1, no extra block
            return cdiv(std::min(sp.window + s.max_num_batched_tokens, max_len), block);
    }
    return 0;
}

/// check_enough_kv_cache_memory: bytes every layer needs for one request of `len` tokens (block 16 pages).
std::int64_t needed_bytes(const std::vector<Spec>& specs, std::int64_t len, const VllmSettings& s) {
    std::int64_t total = 0;
    for (const auto& sp : specs) {
        const std::int64_t page = sp.kind == Kind::mamba ? sp.bytes : sp.bytes * s.block_size;
        total += blocks_per_request(sp, s.block_size, len, s) * page * sp.count;
    }
    return total;
}

/// Groups identical specs and unifies page sizes (kv_cache_utils.py unify_kv_cache_spec_page_size and the
/// Mamba/attention block-size alignment in config of hybrid models).
std::vector<Type> unify(const std::vector<Spec>& specs, const VllmSettings& s, std::vector<std::string>& notes) {
    std::vector<Type> types;  // distinct specs in (kind, bytes, window) order, as vLLM groups them
    for (const auto& sp : specs) {
        std::size_t i = 0;
        while (i < types.size() && !types[i].spec.same(sp)) ++i;
        if (i == types.size()) types.push_back({sp, 0});
        types[i].count += sp.count;
    }
    std::sort(types.begin(), types.end(), [](const Type& a, const Type& b) {
        return std::make_tuple(static_cast<int>(a.spec.kind), a.spec.bytes, a.spec.window) <
               std::make_tuple(static_cast<int>(b.spec.kind), b.spec.bytes, b.spec.window);
    });
    std::int64_t target = 0, mamba_page = 0, max_bpt = 0;
    for (auto& t : types) {
        t.block = s.block_size;
        if (t.spec.kind == Kind::mamba) {
            mamba_page = std::max(mamba_page, t.spec.bytes);
        } else {
            max_bpt = std::max(max_bpt, t.spec.bytes);
            target = std::max(target, t.spec.bytes * s.block_size);
        }
    }
    if (mamba_page > target && max_bpt > 0) {  // attention blocks grow until a page holds one Mamba state
        const std::int64_t block = s.block_size * cdiv(mamba_page, s.block_size * max_bpt);
        target = block * max_bpt;
        notes.push_back("attention block size raised to " + std::to_string(block) +
                        " tokens so one page holds a whole recurrent state (vLLM hybrid page alignment)");
    }
    if (target == 0) target = mamba_page;
    for (auto& t : types) {
        if (t.spec.kind == Kind::mamba) {
            t.page = target;
        } else {
            t.block = static_cast<int>(target / t.spec.bytes);
            t.page = t.block * t.spec.bytes;
            if (target % t.spec.bytes != 0) {
                notes.push_back("page sizes of the layer types are not multiples of each other; vLLM may reject "
                                "this model or pad differently");
            }
        }
    }
    return types;
}

}  // namespace

VllmKvPrediction predict_vllm_kv(const ModelSpec& m, const VllmSettings& s,
                                 const std::vector<std::int64_t>& available_per_rank) {
    return predict_vllm_kv(m, group_layers(m), s, available_per_rank);
}

VllmKvPrediction predict_vllm_kv(const ModelSpec& m, const std::vector<LayerGroup>& groups, const VllmSettings& s,
                                 const std::vector<std::int64_t>& available_per_rank) {
    VllmKvPrediction p;
    ElemFormat f;
    if (!vllm_format(s.kv_cache_dtype, s.model_dtype_bytes, f)) {
        p.diagnostics.push_back({Severity::error, "unknown_kv_cache_dtype", "kv_cache_dtype",
                                 "vLLM kv_cache_dtype \"" + s.kv_cache_dtype +
                                     "\" is not known; valid: auto, bfloat16, float16, fp8, fp8_e4m3, fp8_e5m2, "
                                     "int8_per_token_head, nvfp4"});
        return p;
    }
    if (s.block_size <= 0 || s.max_num_batched_tokens <= 0 || s.max_model_len < 0) {
        p.diagnostics.push_back({Severity::error, "bad_setting", "block_size",
                                 "block_size and max_num_batched_tokens must be positive, max_model_len ≥ 0"});
        return p;
    }
    if (available_per_rank.empty()) {
        p.diagnostics.push_back({Severity::error, "missing_input", "available_kv_bytes",
                                 "no available KV memory given (one value per tensor-parallel rank)"});
        return p;
    }
    const std::int64_t max_len = s.max_model_len > 0 ? s.max_model_len : m.max_position_embeddings;
    if (max_len <= 0) {
        p.diagnostics.push_back({Severity::error, "missing_input", "max_model_len",
                                 "max_model_len is 0 and the model has no max_position_embeddings: set max_model_len"});
        return p;
    }
    if (m.max_position_embeddings > 0 && max_len > m.max_position_embeddings) {
        p.diagnostics.push_back({Severity::warning, "max_model_len_above_model", "max_model_len",
                                 "max_model_len " + std::to_string(max_len) + " exceeds the model's " +
                                     "max_position_embeddings " + std::to_string(m.max_position_embeddings) +
                                     "; vLLM refuses this unless rope scaling extends it or "
                                     "VLLM_ALLOW_LONG_MAX_MODEL_LEN=1 is set"});
    }
    const bool fp8 = f.num == 1 && f.den == 1 && f.scale_bytes_per_head == 0;
    const auto specs = layer_specs(groups, s, f, fp8, p.diagnostics);
    if (has_error(p.diagnostics)) return p;
    if (specs.empty()) {
        p.diagnostics.push_back({Severity::error, "no_cache_layers", "layers", "the model has no cache layers"});
        return p;
    }
    p.available_kv_bytes = *std::min_element(available_per_rank.begin(), available_per_rank.end());
    p.available_kv_gib = static_cast<double>(p.available_kv_bytes) / 1073741824.0;
    if (available_per_rank.size() > 1) {
        p.notes.push_back("the KV pool is sized by the rank with the least free memory");
    }
    for (const auto& sp : specs) {
        if (sp.kind == Kind::full) p.kv_bytes_per_token += sp.bytes * sp.count;
        if (sp.kind == Kind::sliding || sp.kind == Kind::chunked)
            p.sliding_bytes_per_sequence += blocks_per_request(sp, s.block_size, max_len, s) * sp.bytes * s.block_size * sp.count;
        if (sp.kind == Kind::mamba) p.state_bytes_per_sequence += sp.bytes * (s.mamba_prefix_caching_align ? 2 : 1) * sp.count;
    }
    const auto types = unify(specs, s, p.notes);
    int layers = 0;
    for (const auto& sp : specs) layers += sp.count;
    int min_count = layers > 0 ? layers : 1, max_count = 0, min_block = s.block_size;
    for (const auto& t : types) {
        min_count = std::min(min_count, t.count);
        max_count = std::max(max_count, t.count);
        min_block = std::min(min_block, t.block);
    }
    // _get_kv_cache_groups_uniform_page_size: groups of group_size layers share one set of tensors.
    const int group_size = (types.size() == 1 || 4 * max_count < 5 * min_count) ? max_count : min_count;
    std::int64_t blocks_per_req = 0;
    for (const auto& t : types) {
        const int groups = static_cast<int>(cdiv(t.count, group_size));
        p.num_kv_cache_groups += groups;
        blocks_per_req += groups * blocks_per_request(t.spec, t.block, max_len, s);
    }
    p.page_size_bytes = types.front().page;
    const std::int64_t group_page = p.page_size_bytes * group_size;
    p.num_blocks = p.available_kv_bytes > 0 && group_page > 0 ? p.available_kv_bytes / group_page : 0;
    p.gpu_kv_cache_tokens = p.num_blocks / p.num_kv_cache_groups * min_block;
    p.max_concurrency = blocks_per_req > 0 ? static_cast<double>(p.num_blocks) / static_cast<double>(blocks_per_req) : 0;
    p.kv_needed_bytes = needed_bytes(specs, max_len, s);
    if (p.available_kv_bytes <= 0) {
        p.refuses_to_start = true;
        p.notes.push_back("vLLM stops: no available memory for the cache blocks (weights and activations exceed "
                          "gpu_memory_utilization × VRAM)");
    } else if (p.kv_needed_bytes > p.available_kv_bytes) {
        p.refuses_to_start = true;
        std::int64_t lo = 0, hi = max_len;  // largest length whose need fits: binary search as vLLM does
        while (lo < hi) {
            const std::int64_t mid = lo + (hi - lo + 1) / 2;
            if (needed_bytes(specs, mid, s) <= p.available_kv_bytes) lo = mid; else hi = mid - 1;
        }
        p.estimated_max_model_len = lo;
        p.notes.push_back("vLLM refuses to start: one max_model_len request needs more KV than available; "
                          "estimated maximum model length is " + std::to_string(lo));
    }
    if (p.num_kv_cache_groups > 1) {
        p.notes.push_back("hybrid model: vLLM's printed 'GPU KV cache size' divides the blocks evenly over " +
                          std::to_string(p.num_kv_cache_groups) +
                          " KV cache groups, so it is not the context the full-attention layers can hold; use "
                          "'Maximum concurrency' × max_model_len instead");
    }
    return p;
}

}  // namespace kvcalc

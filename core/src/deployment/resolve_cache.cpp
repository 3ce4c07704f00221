// resolve() through a small per-thread cache. A deployment's look-ups, validation, layer groups and per-model
// lists do not depend on the load (max_model_len, max_num_seqs), which is what a user changes most; a scenario
// that differs from a cached one only there re-binds the cached deployment to its load (rebind_load) instead of
// resolving from scratch. Every other field is part of the key (same_but_load), so a changed config_json,
// model, GPU, format or TP resolves afresh. Per thread: no locks, and the page (WebAssembly) has one thread.
#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <string>
#include <tuple>
#include <utility>

#include "kvcalc/deployment/input_limits.h"
#include "deployment/predict_internal.h"

namespace kvcalc::detail {

namespace {

struct Entry {
    Scenario key;                                 ///< the scenario `deployment` was resolved for
    std::shared_ptr<Deployment> deployment;       ///< only changed while no caller holds it (use_count 1)
    Diagnostics diagnostics;                      ///< resolve()'s warnings and notes for it (never errors)
    const ActivationFit* fit = nullptr;
};

// Enough for the page's recompute (predict, three solvers, the shopping counts, the GPU-count solver) to keep
// the user's own scenario; most recently used first.
constexpr std::size_t kEntries = 8;
// A config.json is a few KB; a key this large is resolved each time rather than kept (input_limits.h allows 4 MiB).
constexpr std::size_t kMaxCachedConfigBytes = 256 * 1024;

struct Cache {
    std::array<Entry, kEntries> entries;
    std::size_t used = 0;
};

Cache& cache() {
    thread_local Cache c;
    return c;
}

// Text equality without a library call: the key's strings are short ids (a model, a GPU, a dtype), compared
// eight bytes at a time. The cache compares a whole Scenario per predict(), where std::string's operator== and
// memcmp calls cost more than pricing the KV.
template <class Word>
[[gnu::always_inline]] inline bool same_word(const char* x, const char* y) {
    Word u, v;
    std::memcpy(&u, x, sizeof u);
    std::memcpy(&v, y, sizeof v);
    return u == v;
}
[[gnu::always_inline]] inline bool same_text(const std::string& a, const std::string& b) {
    const std::size_t n = a.size();
    if (n != b.size()) return false;
    const char* x = a.data();
    const char* y = b.data();
    // Whole words, then the last word again (overlapping): no byte loop for the tail.
    if (n >= 8) {
        for (std::size_t i = 0; i + 8 <= n; i += 8)
            if (!same_word<std::uint64_t>(x + i, y + i)) return false;
        return same_word<std::uint64_t>(x + n - 8, y + n - 8);
    }
    if (n >= 4) return same_word<std::uint32_t>(x, y) && same_word<std::uint32_t>(x + n - 4, y + n - 4);
    if (n >= 2) return same_word<std::uint16_t>(x, y) && same_word<std::uint16_t>(x + n - 2, y + n - 2);
    return n == 0 || x[0] == y[0];
}
[[gnu::always_inline]] inline bool same(const std::string& a, const std::string& b) { return same_text(a, b); }
template <class T>
[[gnu::always_inline]] inline bool same(const T& a, const T& b) {
    return a == b;
}

template <class Tuple, std::size_t... I>
bool all_same(const Tuple& x, const Tuple& y, std::index_sequence<I...>) {
    return (same(std::get<I>(x), std::get<I>(y)) && ...);
}

// Scenario equality ignoring the load fields (max_model_len, max_num_seqs). The structured binding names every
// field: a field added to Scenario fails to compile here until it is made part of the key.
bool same_but_load(const Scenario& key, const Scenario& s) {
    const auto fields = [](const Scenario& c) {
        const auto& [model_id, model, config_json, weights_dtype, safetensors_index_json, safetensors_headers, hub_model, hub_gguf, compose, weights_variant, weights_gb, gpu, vram_gb,
                     vram_gib, gpus, engine, tensor_parallel_size, kv_cache_dtype, max_model_len, max_num_seqs,
                     gpu_memory_utilization, max_num_batched_tokens, allow_long_max_model_len, vllm_version,
                     vllm_sampler, vllm_usage_context, enforce_eager, block_size, kv_cache_memory_bytes, data_parallel_size,
                     enable_expert_parallel, cpu_offload_gib, swa_full, n_ubatch, llama_cpp_build, mtp,
                     drafter, drafter_gb, num_speculative_tokens, include_draft_kv, draft_kv_gb, compressed_layers,
                     compression_ratio, compressed_head_dim, indexer_ratio_layers, indexer_compress_ratio,
                     indexer_head_dim, indexer_format, measured] = c;
        (void)max_model_len;  // the load: a hit re-binds the deployment to it
        (void)max_num_seqs;
        // Cheap and most often changed first; config_json (kilobytes) and the inline model last.
        return std::tie(tensor_parallel_size, gpus, vram_gb, vram_gib, gpu_memory_utilization, max_num_batched_tokens,
                        allow_long_max_model_len, mtp, drafter_gb, enforce_eager, block_size, kv_cache_memory_bytes,
                        data_parallel_size, enable_expert_parallel, cpu_offload_gib, swa_full, n_ubatch,
                        llama_cpp_build, num_speculative_tokens, weights_gb,
                        include_draft_kv, draft_kv_gb, compressed_layers, compression_ratio, compressed_head_dim,
                        indexer_ratio_layers, indexer_compress_ratio, indexer_head_dim, model_id, gpu, kv_cache_dtype,
                        engine, weights_dtype, hub_model, hub_gguf, compose, weights_variant, vllm_version, vllm_sampler, vllm_usage_context, drafter,
                        indexer_format, measured, config_json, safetensors_index_json, safetensors_headers, model);
    };
    const auto x = fields(key), y = fields(s);
    return all_same(x, y, std::make_index_sequence<std::tuple_size_v<decltype(x)>>{});
}

std::shared_ptr<const Deployment> resolve_and_keep(Cache& c, const Scenario& s, Diagnostics& diags) {
    Diagnostics d;
    const ActivationFit* fit = nullptr;
    std::optional<Deployment> r = resolve_uncached(s, d, &fit);
    const bool keep = r && s.config_json.size() <= kMaxCachedConfigBytes &&
                      s.safetensors_index_json.size() <= 16 * kMaxCachedConfigBytes;
    diags.insert(diags.end(), d.begin(), d.end());
    if (!r) return nullptr;
    auto dep = std::make_shared<Deployment>(std::move(*r));
    if (keep) {
        if (c.used < kEntries) ++c.used;
        std::rotate(c.entries.begin(), c.entries.begin() + static_cast<std::ptrdiff_t>(c.used) - 1,
                    c.entries.begin() + static_cast<std::ptrdiff_t>(c.used));
        c.entries[0] = Entry{s, dep, std::move(d), fit};
    }
    return dep;
}

}  // namespace

std::shared_ptr<const Deployment> resolve_shared(const Scenario& s, Diagnostics& diags) {
    Cache& c = cache();
    for (std::size_t i = 0; i < c.used; ++i) {
        Entry& e = c.entries[i];
        if (!same_but_load(e.key, s)) continue;
        std::rotate(c.entries.begin(), c.entries.begin() + static_cast<std::ptrdiff_t>(i),
                    c.entries.begin() + static_cast<std::ptrdiff_t>(i) + 1);
        Entry& hit = c.entries[0];
        if (hit.key.max_model_len != s.max_model_len || hit.key.max_num_seqs != s.max_num_seqs) {
            // Someone still holds the old binding: give the entry its own copy before changing it.
            if (hit.deployment.use_count() > 1) hit.deployment = std::make_shared<Deployment>(*hit.deployment);
            if (!rebind_load(s, hit.fit, *hit.deployment)) {
                std::rotate(c.entries.begin(), c.entries.begin() + 1,
                            c.entries.begin() + static_cast<std::ptrdiff_t>(c.used));
                --c.used;
                c.entries[c.used] = Entry{};
                return resolve_and_keep(c, s, diags);
            }
            hit.key.max_model_len = s.max_model_len;
            hit.key.max_num_seqs = s.max_num_seqs;
        }
        if (!hit.diagnostics.empty()) diags.insert(diags.end(), hit.diagnostics.begin(), hit.diagnostics.end());
        return hit.deployment;
    }
    return resolve_and_keep(c, s, diags);
}

}  // namespace kvcalc::detail

namespace kvcalc {

std::optional<Deployment> resolve(const Scenario& s, Diagnostics& diags) {
    std::shared_ptr<const Deployment> d = detail::resolve_shared(s, diags);
    if (!d) return std::nullopt;
    return *d;
}

}  // namespace kvcalc

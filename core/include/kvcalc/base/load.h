// The load a deployment is evaluated at: what solvers and sweeps vary (max_model_len, max_num_seqs, the card).
#pragma once
#include <cstdint>

namespace kvcalc {

struct GpuSpec;

/// What changes between questions about one deployment: solvers and sweeps vary it, nothing else.
struct Load {
    std::int64_t max_model_len = 0;  ///< tokens per request
    std::int64_t max_num_seqs = 1;   ///< concurrent requests (llama.cpp -np)
    std::int64_t vram_bytes = 0;     ///< per card, as the engine sees it
    const GpuSpec* gpu = nullptr;    ///< the card when it is a catalog GPU (engine defaults depend on it)
    /// max_num_seqs is vLLM's default for the card (the user left it unset): a scheduler cap, not a demand. The
    /// KV asked for is then one max_model_len request, the one vLLM checks at start-up
    /// (vllm/v1/core/kv_cache_utils.py check_enough_kv_cache_memory); the concurrency the pool holds is reported.
    /// The non-KV terms still see the default count (the profiling run and CUDA graphs use it).
    bool max_num_seqs_is_default = false;
};

/// Full-length requests the KV terms price at `load`: max_num_seqs, or 1 under vLLM's default (see above).
inline std::int64_t priced_requests(const Load& load) { return load.max_num_seqs_is_default ? 1 : load.max_num_seqs; }

}  // namespace kvcalc

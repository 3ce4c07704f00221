// Measured start-up terms: what one real boot of vLLM printed about its memory, per card, with the settings of
// that boot. A Scenario that carries them is calibrated: the budget evaluates these terms instead of kvcalc's own
// predictions (io/startup_calibration.h makes them from a start-up log; docs/STARTUP_LOGS.md "Calibration").
#pragma once
#include <cstdint>
#include <optional>

namespace kvcalc {

/// The terms one boot printed, in bytes per rank (vLLM's "GiB" × 2^30), and the settings it booted with. A term
/// the log did not print is nullopt (kvcalc's prediction stands in); a setting it did not print is 0 (the
/// engine's default at that boot). Sources of the terms: vllm/v1/worker/gpu_worker.py determine_available_memory
/// and vllm/worker/worker.py determine_num_available_blocks (docs/STARTUP_LOGS.md lists the lines).
struct MeasuredTerms {
    // The boot's settings: the anchor every what-if is priced from.
    std::int64_t max_model_len = 0;           ///< tokens
    std::int64_t max_num_seqs = 0;
    std::int64_t max_num_batched_tokens = 0;
    double gpu_memory_utilization = 0.0;      ///< (0, 1]
    // The terms ("total_gpu_memory", "Model loading took", "PyTorch activation peak memory", "non_torch_memory",
    // "Estimated CUDA graph memory" when the release subtracts it, "Available KV cache memory").
    std::optional<std::int64_t> cuda_total_bytes;
    std::optional<std::int64_t> weights_bytes;
    std::optional<std::int64_t> torch_peak_bytes;    ///< the activation peak over the weights
    std::optional<std::int64_t> non_torch_bytes;
    std::optional<std::int64_t> cudagraph_bytes;     ///< only when the release subtracts it from the budget (0.21+)
    std::optional<std::int64_t> available_kv_bytes;
    /// The pool was set by --kv-cache-memory-bytes ("reserved … as specified by kv_cache_memory_bytes config"):
    /// it stays available_kv_bytes whatever the utilization.
    bool kv_cache_memory_fixed = false;

    bool operator==(const MeasuredTerms&) const = default;
};

}  // namespace kvcalc

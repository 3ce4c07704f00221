// The vLLM flags that change start-up memory without being the load: --enforce-eager and --block-size (carried in
// NonKvModel::flags), --kv-cache-memory-bytes, --data-parallel-size, --enable-expert-parallel, --cpu-offload-gb.
// How each is priced, with its vLLM source: docs/ENGINE_RULES.md "Flags that change memory".
#include <algorithm>
#include <cmath>
#include <string>

#include "engines/deploy_internal.h"
#include "kvcalc/base/checked_math.h"
#include "kvcalc/base/echo.h"
#include "kvcalc/base/units.h"
#include "kvcalc/deployment/scenario_fields.h"
#include "kvcalc/engines/vllm/accounting.h"

namespace kvcalc::detail {

namespace {

void push(Diagnostics& d, Severity severity, const char* code, const char* field, std::string message) {
    d.push_back({severity, code, field, std::move(message)});
}

// vllm/config/cache.py BlockSize = Literal[1, 8, 16, 32, 64, 128, 256].
bool vllm_block_size(int b) { return b == 1 || b == 8 || b == 16 || b == 32 || b == 64 || b == 128 || b == 256; }

std::string gib_text(std::int64_t bytes) {
    return two_decimals_text(static_cast<double>(bytes) / static_cast<double>(kBytesPerGib)) + " GiB";
}

// The checkpoint on one card: non-expert weights split by TP, routed experts by TP × DP (FusedMoEParallelConfig.make
// flattens TP across DP for every MoE layer, with or without expert parallel).
std::int64_t split_weights(std::int64_t total, int tp, int dp, double expert_share) {
    if (dp <= 1 || expert_share <= 0) return ceil_div(total, tp);
    const double w = static_cast<double>(total);
    return static_cast<std::int64_t>(std::ceil(w * (1.0 - expert_share) / tp + w * expert_share / (tp * dp)));
}

}  // namespace

double routed_expert_share(const ModelSpec& m) {
    if (m.num_experts <= 0 || m.num_parameters <= 0 || m.hidden_size <= 0) return 0;
    const double width = m.moe_intermediate_size > 0 ? m.moe_intermediate_size : static_cast<double>(m.intermediate_size);
    // Gated experts (gate, up, down) in every layer: first dense layers (DeepSeek's first_k_dense_replace) are few.
    const double routed = static_cast<double>(m.num_hidden_layers) * m.num_experts * 3.0 *
                          static_cast<double>(m.hidden_size) * width;
    return std::clamp(routed / static_cast<double>(m.num_parameters), 0.0, 1.0);
}

void check_vllm_flags(const Scenario& s, const Deployment& r, Diagnostics& d) {
    if (s.block_size != 0 && s.block_size >= 1 && s.block_size <= 256 && !vllm_block_size(s.block_size))
        push(d, Severity::error, "block_size_invalid", "block_size",
             "block_size = " + std::to_string(s.block_size) +
                 " is not one vLLM accepts; expected one of 1, 8, 16, 32, 64, 128, 256 (vllm/config/cache.py "
                 "BlockSize), or 0 = vLLM's default");
    const int tp = s.tensor_parallel_size, dp = s.data_parallel_size;
    if (tp >= 1 && tp <= kMaxTensorParallel && dp >= 1 && dp <= kMaxTensorParallel && tp * dp > kMaxTensorParallel)
        push(d, Severity::error, "too_many_cards", "data_parallel_size",
             "tensor_parallel_size " + std::to_string(tp) + " × data_parallel_size " + std::to_string(dp) + " = " +
                 std::to_string(tp * dp) + " cards; kvcalc prices at most " + std::to_string(kMaxTensorParallel) +
                 " cards in one box");
    const bool vllm = engine_info(r.engine).reads_vllm_memory_flags;
    const bool any = s.enforce_eager || s.block_size != 0 || s.kv_cache_memory_bytes || s.data_parallel_size != 1 ||
                     s.enable_expert_parallel || s.cpu_offload_gib != 0;
    if (!vllm && any)
        push(d, Severity::warning, "vllm_flag_ignored", "engine",
             std::string(engine_info(r.engine).display_name) +
                 " does not read vLLM's --enforce-eager, --block-size, --kv-cache-memory-bytes, "
                 "--data-parallel-size, --enable-expert-parallel or --cpu-offload-gb: they are not priced");
    // An offline LLM(...) run is vLLM's: another engine has no such entry point and its batch is its own.
    if (!vllm && parse_vllm_usage_context(s.vllm_usage_context) == VllmEntryPoint::llm_class)
        push(d, Severity::warning, "vllm_flag_ignored", "vllm_usage_context",
             std::string(engine_info(r.engine).display_name) + " does not read vLLM's --vllm-usage-context (" +
                 echo_cut(s.vllm_usage_context) + "): it is not priced");
    if (!vllm || !r.model) return;
    if (s.enable_expert_parallel && r.model->num_experts <= 0)
        push(d, Severity::warning, "expert_parallel_dense", "enable_expert_parallel",
             r.model->id + " has no routed experts: --enable-expert-parallel changes nothing");
    if (s.kv_cache_memory_bytes && s.gpu_memory_utilization > 0)
        push(d, Severity::warning, "gpu_memory_utilization_ignored", "gpu_memory_utilization",
             "kv_cache_memory_bytes is set: vLLM skips the memory profile and does not use gpu_memory_utilization "
             "(vllm/v1/worker/gpu_worker.py determine_available_memory)");
}

void resolve_vllm_flags(const Scenario& s, Deployment& r, Diagnostics& d) {
    const bool vllm = engine_info(r.engine).reads_vllm_memory_flags;
    r.data_parallel_size = vllm ? s.data_parallel_size : 1;
    r.enable_expert_parallel = vllm && s.enable_expert_parallel;
    r.kv_cache_memory_bytes = vllm ? s.kv_cache_memory_bytes : std::nullopt;
    r.cpu_offload_bytes = vllm ? round_to_int64(s.cpu_offload_gib * static_cast<double>(kBytesPerGib)) : 0;
    const int tp = std::max(r.settings.tensor_parallel_size, 1);
    // A checkpoint read tensor by tensor knows its busiest card at this TP; data parallelism re-splits experts,
    // which the tensor placement does not model, so it falls back to the parameter-share split.
    const std::int64_t on_card =
        r.settings.weights_bytes_per_rank > 0 && r.data_parallel_size == 1
            ? r.settings.weights_bytes_per_rank
            : split_weights(r.settings.weights_bytes_total, tp, r.data_parallel_size,
                            r.model ? routed_expert_share(*r.model) : 0.0);
    r.weights_bytes_per_card = std::max<std::int64_t>(0, on_card - r.cpu_offload_bytes);
    // maybe_offload_to_cpu moves whole parameters until the budget is used: an offload above the weights moves
    // them all (and vLLM may offload slightly more than asked, never less).
    if (r.cpu_offload_bytes > on_card)
        push(d, Severity::warning, "cpu_offload_above_weights", "cpu_offload_gib",
             "cpu_offload_gib " + gib_text(r.cpu_offload_bytes) + " is more than the " + gib_text(on_card) +
                 " of weights on each card: all of them are priced in CPU memory");
}

}  // namespace kvcalc::detail

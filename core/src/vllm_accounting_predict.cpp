// predict() glue for vLLM's start-up accounting (vllm_accounting.h): resolve once, re-evaluate per load.
#include "kvcalc/units.h"
#include "predict_internal.h"

namespace kvcalc::detail {


void resolve_vllm_accounting(const Scenario& s, VllmEra era, ResolvedScenario& r) {
    r.vllm_era = era;
    const VllmEraRules& rules = vllm_era_rules(era);
    ResolvedSettings& set = r.settings;
    set.vllm_version = rules.id;
    if (r.engine != EngineId::vllm) return;
    r.vllm_dims = vllm_profile_dims(*r.model);
    r.vllm_device = r.gpu ? vllm_device(*r.gpu) : vllm_device_from_total(set.vram_bytes);
    VllmServeFlags& f = r.vllm_flags;
    f.max_model_len = set.max_model_len;
    f.tensor_parallel_size = set.tensor_parallel_size;
    f.max_num_batched_tokens = s.max_num_batched_tokens;
    if (s.max_num_seqs > 0) f.max_num_seqs = s.max_num_seqs;
    if (s.gpu_memory_utilization > 0) f.gpu_memory_utilization = s.gpu_memory_utilization;
    f.num_speculative_tokens = set.num_speculative_tokens;
    const std::int64_t weights = ceil_div(set.weights_bytes_total, set.tensor_parallel_size);
    r.vllm_accounting = vllm_account(r.vllm_dims, r.vllm_device, f, era, weights);
    const VllmAccounting& a = r.vllm_accounting;
    // vLLM's defaults stand in for what the user left unset, everywhere the settings are shown or priced.
    set.max_num_seqs = a.max_num_seqs;
    set.gpu_memory_utilization = a.gpu_memory_utilization;
    if (r.uncalibrated_overheads) {
        set.max_num_batched_tokens = a.max_num_batched_tokens;
        r.error_band_bytes = a.error_band_bytes;
    }
}

void vllm_accounted_terms(const ResolvedScenario& r, std::int64_t max_model_len, std::int64_t max_num_seqs,
                          std::int64_t vram_bytes, BudgetTerms& t) {
    VllmServeFlags f = r.vllm_flags;
    f.max_model_len = max_model_len;
    f.max_num_seqs = max_num_seqs;
    VllmDevice dev = r.vllm_device;
    if (vram_bytes != r.settings.vram_bytes) {
        dev.cuda_total_bytes = r.gpu ? estimate_cuda_total_bytes(vram_bytes, false) : vram_bytes;
        dev.name = "other";
    }
    const std::int64_t weights = ceil_div(r.settings.weights_bytes_total, r.settings.tensor_parallel_size);
    const VllmAccounting a = vllm_account(r.vllm_dims, dev, f, r.vllm_era, weights, false);
    t.weights_bytes = a.weights_bytes;
    t.activation_bytes = a.torch_peak_bytes;
    t.cudagraph_workspace_bytes = a.non_torch_bytes + (a.cudagraph_subtracted ? a.cudagraph_bytes : 0);
    t.budget_bytes = a.requested_bytes;
}

}  // namespace kvcalc::detail

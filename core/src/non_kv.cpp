// The non-KV terms of a deployment: activation peak and CUDA graphs / workspace per card. The seed families keep
// their fitted terms (seed 000 §4, activation.cpp); config.json / popular models use estimate_vllm_overheads
// (engine_vllm_overheads.cpp); llama.cpp and SGLang model none (their notes say so). This is the one seam a
// different non-KV accounting plugs into.
#include <cmath>

#include "deploy_internal.h"

namespace kvcalc::detail {

NonKvModel non_kv_model(const Deployment& d, const ActivationFit* fit) {
    NonKvModel m;
    if (d.engine != EngineId::vllm) return m;  // Kind::none
    if (d.model->family == "generic") {
        VllmSettings vs;
        vs.tensor_parallel_size = d.settings.tensor_parallel_size;
        vs.max_num_batched_tokens = d.settings.max_num_batched_tokens.value_or(vs.max_num_batched_tokens);
        const UncalibratedOverheads o = estimate_vllm_overheads(*d.model, vs);
        m.kind = NonKvModel::Kind::uncalibrated_estimate;
        m.activation_bytes = o.activation_peak_bytes;
        m.workspace_bytes = o.non_torch_bytes + o.cuda_graph_bytes;
        m.error_band_bytes = o.error_band_bytes;
        return m;
    }
    m.kind = NonKvModel::Kind::seed_fit;
    m.activation = fit;
    return m;
}

void non_kv_terms(const Deployment& d, const Load& load, BudgetTerms& t) {
    const ResolvedSettings& s = d.settings;
    const int tp = s.tensor_parallel_size;
    switch (d.non_kv.kind) {
        case NonKvModel::Kind::none: break;
        case NonKvModel::Kind::uncalibrated_estimate:
            t.activation_bytes = d.non_kv.activation_bytes;
            t.cudagraph_workspace_bytes = d.non_kv.workspace_bytes;
            break;
        case NonKvModel::Kind::seed_fit: {
            const ActivationFit& fit = *d.non_kv.activation;
            t.activation_bytes = activation_peak_bytes(fit, *d.model, d.footprint.num_recurrent_layers, *d.format,
                                                       load.max_model_len, tp, s.max_num_batched_tokens);
            if (fit.gdn_prefill_scratch && s.max_num_batched_tokens)
                t.gdn_scratch_delta_bytes = gdn_prefill_scratch_bytes(*d.model, tp, *s.max_num_batched_tokens) -
                                            gdn_prefill_scratch_bytes(*d.model, tp, kGdnCalibrationBatchedTokens);
            // CUDA graphs + FlashInfer workspace + NCCL buffers: 0.5 + 1.0 × mem_util + 0.3 × (TP − 1) GB (seed 000 §4).
            t.cudagraph_workspace_bytes = std::llround((0.5 + 1.0 * s.gpu_memory_utilization + 0.3 * (tp - 1)) * 1e9);
            break;
        }
    }
}

}  // namespace kvcalc::detail

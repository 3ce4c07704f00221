// Per-card budget terms and the verdict rules (seed 000 "Per-card budget composition", Known limitations 1).
#include <algorithm>
#include <cmath>

#include "kvcalc/checked_math.h"
#include "kvcalc/predict.h"
#include "kvcalc/units.h"
#include "predict_internal.h"

namespace kvcalc {

const char* verdict_name(Verdict v) {
    switch (v) {
        case Verdict::pass: return "PASS";
        case Verdict::tight: return "TIGHT";
        case Verdict::fail: return "FAIL";
    }
    return "FAIL";
}

BudgetTerms compute_terms(const ResolvedScenario& r, std::int64_t max_model_len, std::int64_t max_num_seqs,
                          std::int64_t vram_bytes) {
    const ResolvedSettings& s = r.settings;
    const int tp = s.tensor_parallel_size;
    const ModelFootprint& fp = r.footprint;
    BudgetTerms t;
    // Products saturate (checked_math.h): the solvers probe lengths and counts up to 2^27 × 65,536, and a
    // saturated term is far above kMaxBytes, which predict() rejects by name.
    t.weights_bytes = sat_ceil_div(s.weights_bytes_total, tp);
    t.kv_tokens_per_sequence = sat_add(max_model_len, r.kv_extra_tokens);
    t.kv_one_sequence_bytes = sat_ceil_div(sat_mul(fp.growing_x400_per_token, t.kv_tokens_per_sequence), kBpeDenominator);
    t.kv_growing_requested_bytes = sat_mul(t.kv_one_sequence_bytes, max_num_seqs);
    t.kv_bytes_per_token = static_cast<double>(fp.growing_x400_per_token) / kBpeDenominator;
    t.kv_sliding_bytes = max_model_len >= fp.sliding_window_tokens
                             ? sat_ceil_div(fp.sliding_fixed_x400, kBpeDenominator)
                             : sliding_fixed_bytes(*r.model, *r.format, tp, max_model_len);
    t.recurrent_state_bytes = sat_mul(fp.state_bytes_per_sequence, max_num_seqs);
    if (r.engine != EngineId::vllm) {
        // llama.cpp / SGLang: only weights and KV are modelled (Report notes say so).
    } else if (r.uncalibrated_overheads) {
        detail::vllm_accounted_terms(r, max_model_len, max_num_seqs, vram_bytes, t);  // also sets budget_bytes
    } else {
        t.activation_bytes = activation_peak_bytes(*r.activation, *r.model, fp.num_recurrent_layers, *r.format,
                                                   max_model_len, tp, s.max_num_batched_tokens);
        if (r.activation->gdn_prefill_scratch && s.max_num_batched_tokens) {
            // Report the delta actually applied: activation_peak_bytes clamps the peak at 0, so a negative delta
            // larger than the rest of the peak only removes what was there.
            const std::int64_t without = activation_peak_bytes(*r.activation, *r.model, fp.num_recurrent_layers,
                                                               *r.format, max_model_len, tp, std::nullopt);
            t.gdn_scratch_delta_bytes = t.activation_bytes - without;
        }
        // CUDA graphs + FlashInfer workspace + NCCL buffers: 0.5 + 1.0 × mem_util + 0.3 × (TP − 1) GB (seed 000 §4).
        t.cudagraph_workspace_bytes = std::llround((0.5 + 1.0 * s.gpu_memory_utilization + 0.3 * (tp - 1)) * 1e9);
    }
    t.drafter_bytes = sat_ceil_div(s.drafter_bytes_total, tp);
    t.fixed_bytes = sat_add(sat_add(sat_add(t.weights_bytes, t.kv_sliding_bytes), sat_add(t.recurrent_state_bytes, t.activation_bytes)),
                            sat_add(t.cudagraph_workspace_bytes, t.drafter_bytes));
    if (!(r.engine == EngineId::vllm && r.uncalibrated_overheads))
        t.budget_bytes = std::llround(s.gpu_memory_utilization * static_cast<double>(vram_bytes));
    t.available_for_kv_bytes = std::max<std::int64_t>(0, sat_sub(t.budget_bytes, t.fixed_bytes));
    t.kv_growing_granted_bytes = std::min(t.kv_growing_requested_bytes, t.available_for_kv_bytes);
    t.demand_bytes = sat_add(t.fixed_bytes, t.kv_growing_requested_bytes);
    t.total_bytes = sat_add(t.fixed_bytes, t.kv_growing_granted_bytes);
    t.tight_band_bytes = std::max(kTightBandBytes, r.error_band_bytes);
    return t;
}

Verdict classify(const BudgetTerms& t) {
    if (t.budget_bytes <= 0 || t.fixed_bytes > t.budget_bytes) return Verdict::fail;
    if (t.available_for_kv_bytes < t.kv_one_sequence_bytes) return Verdict::fail;
    if (t.kv_growing_requested_bytes > t.available_for_kv_bytes) return Verdict::tight;
    if (sat_sub(t.budget_bytes, t.demand_bytes) < t.tight_band_bytes) return Verdict::tight;
    return Verdict::pass;
}

const char* largest_term(const BudgetTerms& t) {
    const std::pair<const char*, std::int64_t> terms[] = {
        {"weights", t.weights_bytes},
        {"kv_growing", t.kv_growing_requested_bytes},
        {"kv_sliding", t.kv_sliding_bytes},
        {"recurrent_state", t.recurrent_state_bytes},
        {"activation", t.activation_bytes},
        {"cudagraph_workspace", t.cudagraph_workspace_bytes},
        {"drafter", t.drafter_bytes},
    };
    const auto* best = &terms[0];
    for (const auto& x : terms)
        if (x.second > best->second) best = &x;
    return best->first;
}

}  // namespace kvcalc

// Helpers shared by the core tests.
#pragma once
#include "kvcalc/deployment/predict.h"

namespace kvtest {

/// Growing-KV bytes per token per card as the engine's plan prices it (vLLM's rules, the default engine): the
/// Report's kv_bytes_per_token for `model` with KV format `format` at tensor_parallel_size `tp` on an H100 80GB
/// (large enough that every seed model fits, so the plan is the engine's and not a refusal).
inline double per_token(const char* model, const char* format, int tp) {
    kvcalc::Scenario s;
    s.model_id = model;
    s.kv_cache_dtype = format;
    s.tensor_parallel_size = tp;
    s.gpus = tp;
    s.gpu = "h100-80gb";
    s.max_model_len = 4096;
    s.max_num_seqs = 1;
    const kvcalc::Report r = kvcalc::predict(s);
    return r.ok ? r.terms.kv_bytes_per_token : -1.0;
}

}  // namespace kvtest

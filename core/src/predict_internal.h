// Private pieces of predict() split into their own files (not part of the public API).
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "kvcalc/predict.h"

namespace kvcalc::detail {

/// The model of Scenario::config_json (or of a popular model re-priced with Scenario::weights_dtype): read with
/// read_hf_config, weights from estimate_weights unless weights_gb is set. Diagnostics of the config come back
/// with their key path prefixed "config_json."; nullptr when any error was found.
std::shared_ptr<const ModelSpec> model_from_config(const Scenario& s, Diagnostics& d);

/// Facts of `model` for display (layers by kind, KV heads, widths, experts, weights), each with its source.
std::vector<ModelFact> model_facts(const ModelSpec& model);
/// model_facts(model), computed once per model_catalog() entry; computed afresh for any other model.
std::shared_ptr<const std::vector<ModelFact>> shared_model_facts(const ModelSpec& model);

/// The engine's start-up numbers for the resolved scenario and its terms (vLLM, llama.cpp or SGLang rules).
StartupPrediction predict_startup(const ResolvedScenario& r, const BudgetTerms& t);

/// Prices the non-KV terms of `r` with vLLM's start-up accounting when it has no calibrated fit (vllm_accounting.h:
/// era, widths, card, the flags the user set), and applies vLLM's defaults to max_num_seqs = 0 /
/// gpu_memory_utilization = 0 / unset max_num_batched_tokens in r.settings. Calibrated fits keep their terms.
void resolve_vllm_accounting(const Scenario& s, VllmEra era, ResolvedScenario& r);

/// The vLLM-accounted terms of `r` at a load: weights (with load-time buffers), activation = torch peak,
/// cudagraph_workspace = non-torch (+ the CUDA-graph estimate where the era subtracts it), budget =
/// ceil(util × CUDA total). `vram_bytes` other than the scenario's is a card of that CUDA total's estimate.
void vllm_accounted_terms(const ResolvedScenario& r, std::int64_t max_model_len, std::int64_t max_num_seqs,
                          std::int64_t vram_bytes, BudgetTerms& t);

/// "vllm", "llama.cpp" or "sglang".
const char* engine_name(EngineId e);

}  // namespace kvcalc::detail

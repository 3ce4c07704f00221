// The prediction pipeline: Scenario → resolved facts → per-card terms → verdict → Report.
#pragma once
#include <cstdint>
#include <memory>
#include <optional>

#include "kvcalc/activation.h"
#include "kvcalc/gpu_catalog.h"
#include "kvcalc/layer_cache.h"
#include "kvcalc/report.h"
#include "kvcalc/scenario.h"
#include "kvcalc/vllm_accounting.h"

namespace kvcalc {

/// The serving engine whose rules apply (Scenario::engine).
enum class EngineId { vllm, llama_cpp, sglang };

/// A Scenario with every look-up done and every input validated; cheap to evaluate many times (solvers,
/// sweeps). Holds pointers into the Scenario (inline model) and the catalogs: it must not outlive them.
struct ResolvedScenario {
    const ModelSpec* model = nullptr;
    const KvFormat* format = nullptr;
    const ActivationFit* activation = nullptr;
    const GpuSpec* gpu = nullptr;       ///< nullptr when VRAM was given as a number
    const Drafter* drafter = nullptr;
    ResolvedSettings settings;
    std::vector<LayerGroup> groups;     ///< group_layers(*model)
    ModelFootprint footprint;           ///< per card at settings.tensor_parallel_size
    std::int64_t kv_extra_tokens = 0;   ///< MTP positions added to every sequence
    std::shared_ptr<const ModelSpec> owned_model;  ///< the model read from Scenario::config_json (model points here)
    EngineId engine = EngineId::vllm;
    /// true for family "generic" (config.json / popular models): the budget and the non-KV terms come from
    /// vLLM's start-up accounting (vllm_accounting.h, fields below) instead of a seed fit.
    bool uncalibrated_overheads = false;
    std::int64_t error_band_bytes = 0;           ///< ± per card on the non-KV terms
    /// vLLM's start-up accounting (vllm_accounting.h) prices the non-KV terms and the budget when
    /// uncalibrated_overheads: the era, the model's widths, the card and the flags the user set (unset = vLLM
    /// default). compute_terms re-evaluates it at each length / concurrency.
    VllmEra vllm_era = kNewestVllmEra;
    VllmProfileDims vllm_dims;
    VllmDevice vllm_device;
    VllmServeFlags vllm_flags;
    VllmAccounting vllm_accounting;              ///< at the scenario's own settings, with its explanations
};

/// Validates and resolves `scenario`; appends diagnostics (errors name the field, the value and what is valid).
/// Returns nullopt when any error was found.
std::optional<ResolvedScenario> resolve(const Scenario& scenario, Diagnostics& diagnostics);

/// Per-card terms for `r` at the given length, concurrency and VRAM (the hot path; no allocation).
BudgetTerms compute_terms(const ResolvedScenario& r, std::int64_t max_model_len, std::int64_t max_num_seqs,
                          std::int64_t vram_bytes);

/// PASS / TIGHT / FAIL from the terms (rules in report.h).
Verdict classify(const BudgetTerms& t);

/// Name of the largest per-card term ("weights", "kv_growing", "kv_sliding", "recurrent_state", "activation",
/// "cudagraph_workspace", "drafter").
const char* largest_term(const BudgetTerms& t);

/// Full prediction for one scenario. Never throws; errors come back in Report::diagnostics with ok = false.
Report predict(const Scenario& scenario);

}  // namespace kvcalc

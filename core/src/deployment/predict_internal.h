// Private pieces of predict() split into their own files (not part of the public API).
#pragma once
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "kvcalc/deployment/predict.h"

namespace kvcalc::detail {

/// The model of Scenario::config_json (or of a popular model re-priced with Scenario::weights_dtype): read with
/// read_hf_config, weights from estimate_weights unless weights_gb is set. Diagnostics of the config come back
/// with their key path prefixed "config_json."; nullptr when any error was found.
std::shared_ptr<const ModelSpec> model_from_config(const Scenario& s, Diagnostics& d);

/// Facts of `model` for display (layers by kind, KV heads, widths, experts, weights), each with its source.
std::vector<ModelFact> model_facts(const ModelSpec& model);
/// model_facts(model), computed once per model_catalog() entry; computed afresh for any other model.
std::shared_ptr<const std::vector<ModelFact>> shared_model_facts(const ModelSpec& model);
/// tensor_parallel_options(model), computed once per model_catalog() entry; computed afresh for any other model.
std::shared_ptr<const std::vector<TpOption>> shared_tensor_parallel_options(const ModelSpec& model);

/// resolve() without the cache. `fit` (may be null) receives the activation fit the non-KV model was resolved
/// with, which rebind_load() needs.
std::optional<Deployment> resolve_uncached(const Scenario& s, Diagnostics& diags, const ActivationFit** fit);

/// Turns `d`, resolved from a scenario equal to `s` except for max_model_len and max_num_seqs, into what
/// resolve(s) returns: the settings' load, the non-KV model (vLLM's defaults depend on the load) and vLLM's plan
/// (its max_num_batched_tokens). false when `s` fails a check resolve() makes on the load; `d` is then unusable.
bool rebind_load(const Scenario& s, const ActivationFit* fit, Deployment& d);

/// The report's assumed_defaults for what resolve() filled in itself (Deployment::assumed, kv_cache_dtype auto):
/// "max_model_len 131072 (not given: vLLM's default, the model's derived maximum, max_position_embeddings
/// 131072)". vLLM's own defaults (max_num_seqs, gpu_memory_utilization, …) come from explain_non_kv.
std::vector<std::string> load_assumed_defaults(const Deployment& d);

/// resolve(s) through a small per-thread cache of resolved deployments (resolve_cache.cpp): the shared result
/// is never changed afterwards; nullptr with the errors in `diags` when the scenario does not resolve.
std::shared_ptr<const Deployment> resolve_shared(const Scenario& s, Diagnostics& diags);

}  // namespace kvcalc::detail

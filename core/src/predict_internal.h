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

}  // namespace kvcalc::detail

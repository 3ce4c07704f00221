// The model a scenario refers to, and switching models without carrying over settings that belonged to the old one.
#pragma once
#include "kvcalc/catalog.h"
#include "kvcalc/scenario.h"

namespace kvcalc::ui {

/// The scenario's inline model when set, else the catalog entry for model_id; nullptr when unknown.
inline const ModelSpec* current_model(const Scenario& s) { return s.model ? &*s.model : find_model(s.model_id); }

/// Makes `model` the scenario's model: a catalog id (`inline_spec` false) or an inline spec (true, e.g. a pasted
/// config.json). Drops the preset, weights variant and drafter of the previous model, and moves
/// tensor_parallel_size / max_model_len into what the new model accepts.
void switch_model(Scenario& s, ModelSpec model, bool inline_spec);

}  // namespace kvcalc::ui

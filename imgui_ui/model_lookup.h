// The model a scenario refers to: its inline spec (pasted config.json) or its catalog entry.
#pragma once
#include "kvcalc/catalog.h"
#include "kvcalc/scenario.h"

namespace kvcalc::ui {

/// The scenario's inline model when set, else the catalog entry for model_id; nullptr when unknown.
inline const ModelSpec* current_model(const Scenario& s) { return s.model ? &*s.model : find_model(s.model_id); }

}  // namespace kvcalc::ui

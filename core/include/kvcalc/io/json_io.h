// JSON encodings ("schema": 1) of Scenario, ModelSpec, Diagnostic and Report (docs/SCHEMA.md). The solver, sweep
// and calibration results have theirs in json_results.h.
#pragma once
#include <string>

#include <nlohmann/json.hpp>

#include "kvcalc/base/diagnostic.h"
#include "kvcalc/base/scenario.h"
#include "kvcalc/engines/report.h"

namespace kvcalc {

/// Current schema number of every document.
inline constexpr int kSchemaVersion = 1;

/// Reads the keys present in `j` into `out` (absent keys keep their value, so a preset can be overlaid).
/// Never throws: wrong types, unknown keys and a wrong "schema" come back as diagnostics naming the field.
/// A "compose" key loads that preset first. An inline "model" object is read with model_from_json.
void read_scenario(const nlohmann::json& j, Scenario& out, Diagnostics& diagnostics);

/// Reads an inline ModelSpec (same keys as to_json(ModelSpec)); never throws.
void read_model(const nlohmann::json& j, ModelSpec& out, Diagnostics& diagnostics, const std::string& path);

/// Scenario → JSON with every key (defaults included), "schema": 1; a preset's id goes to "compose_source".
void to_json(nlohmann::json& j, const Scenario& s);
/// nlohmann ADL hook; throws std::invalid_argument with the first error message (use read_scenario to avoid it).
void from_json(const nlohmann::json& j, Scenario& s);
/// ModelSpec → JSON; consecutive identical layers are written as one run with "count".
void to_json(nlohmann::json& j, const ModelSpec& m);
/// One layer cache with its "kind" tag (the keys read_model reads in "layers" and "parallel_caches").
nlohmann::json layer_cache_json(const LayerCache& cache);
/// {"severity", "code", "field", "message"}.
void to_json(nlohmann::json& j, const Diagnostic& d);
/// Report → JSON ("schema": 1, "ok", "diagnostics", then settings/terms/verdict/… when ok); all memory in bytes.
void to_json(nlohmann::json& j, const Report& r);
}  // namespace kvcalc

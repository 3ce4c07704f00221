// JSON encodings ("schema": 1) of Scenario and Report (docs/SCHEMA.md).
#pragma once
#include <nlohmann/json.hpp>

#include "kvcalc/calibration.h"
#include "kvcalc/diagnostic.h"
#include "kvcalc/report.h"
#include "kvcalc/scenario.h"
#include "kvcalc/solver.h"

namespace kvcalc {

/// Current schema number of every document.
inline constexpr int kSchemaVersion = 1;

/// Reads the keys present in `j` into `out` (absent keys keep their value, so a preset can be overlaid).
/// Never throws: wrong types, unknown keys and a wrong "schema" come back as diagnostics naming the field.
/// A "compose" key loads that preset first. An inline "model" object is read with model_from_json.
void read_scenario(const nlohmann::json& j, Scenario& out, Diagnostics& diagnostics);

/// Reads an inline ModelSpec (same keys as to_json(ModelSpec)); never throws.
void read_model(const nlohmann::json& j, ModelSpec& out, Diagnostics& diagnostics, const std::string& path);

void to_json(nlohmann::json& j, const Scenario& s);
/// nlohmann ADL hook; throws std::invalid_argument with the first error message (use read_scenario to avoid it).
void from_json(const nlohmann::json& j, Scenario& s);
void to_json(nlohmann::json& j, const ModelSpec& m);
void to_json(nlohmann::json& j, const Diagnostic& d);
void to_json(nlohmann::json& j, const Report& r);
void to_json(nlohmann::json& j, const SolveResult& r);
void to_json(nlohmann::json& j, const CalibrationSummary& c);

}  // namespace kvcalc

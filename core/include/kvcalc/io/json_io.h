// JSON encodings ("schema": 1) of Scenario and Report (docs/SCHEMA.md).
#pragma once
#include <nlohmann/json.hpp>

#include "kvcalc/deployment/calibration.h"
#include "kvcalc/base/diagnostic.h"
#include "kvcalc/engines/report.h"
#include "kvcalc/base/scenario.h"
#include "kvcalc/deployment/solver.h"
#include "kvcalc/deployment/sweeps.h"

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
/// {"ok", "value", "value_rounded", "limiting_term", "bound", "diagnostics"}.
void to_json(nlohmann::json& j, const SolveResult& r);
/// {"gpu_index", "gpu", "cards", "total_vram_bytes", "max_num_seqs", "kv_cache_dtype", "valid", "runs", "verdict",
/// "max_model_len", "max_concurrency", "limiting_term", "note"}.
void to_json(nlohmann::json& j, const ShopRow& r);
/// {"budget_bytes", "points": [{"max_model_len", "demand_bytes", "verdict"}]}.
void to_json(nlohmann::json& j, const DemandCurve& c);
/// {"schema", "rows", "per_model", "correct", "total"} (docs/SCHEMA.md).
void to_json(nlohmann::json& j, const CalibrationSummary& c);

}  // namespace kvcalc

// JSON encodings of what the solvers, GPU shopping, the demand curve and calibration return (docs/SCHEMA.md),
// apart from json_io.h so that a reader of scenarios and reports does not pull those headers in.
#pragma once
#include <nlohmann/json.hpp>

#include "kvcalc/deployment/calibration.h"
#include "kvcalc/deployment/solver.h"
#include "kvcalc/deployment/sweeps.h"
#include "kvcalc/io/json_io.h"

namespace kvcalc {

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

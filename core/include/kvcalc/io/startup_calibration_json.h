// JSON of a calibration from a start-up log: the measured terms (Scenario "measured", also in links) and the
// "log" object of a calibrated report (docs/SCHEMA.md "Start-up log", docs/STARTUP_LOGS.md "Calibration").
#pragma once
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "kvcalc/base/diagnostic.h"
#include "kvcalc/base/measured_terms.h"
#include "kvcalc/io/startup_calibration.h"

namespace kvcalc {

/// {"max_model_len", "max_num_seqs", "max_num_batched_tokens", "gpu_memory_utilization", "cuda_total_gib",
///  "weights_gib", "torch_peak_gib", "non_torch_gib", "cudagraph_gib", "available_kv_gib",
///  "kv_cache_memory_fixed"}; terms not printed are left out, settings at 0 too.
void to_json(nlohmann::json& j, const MeasuredTerms& m);
/// Reads the same object (errors name "measured.KEY", the value and the valid range: sizes 0..1e6 GiB,
/// utilization (0, 1], lengths 0..2^27); false on an error.
bool read_measured_terms(const nlohmann::json& j, MeasuredTerms& m, Diagnostics& d);

/// The same terms as link text (URL key `mt`, docs/URL.md): "key:value" pairs joined by "," with the JSON keys
/// shortened (len, seqs, batch, util, total, weights, peak, nontorch, graphs, kv, fixed), sizes in GiB.
std::string measured_terms_text(const MeasuredTerms& m);
/// Reads that text; false (and an error naming the pair and what is valid) when a pair is unreadable.
bool parse_measured_terms_text(std::string_view text, MeasuredTerms& m, Diagnostics& d);

/// {"name", "label", "unit", "printed", "predicted", "calibrated", "difference" (calibrated − printed),
///  "line"}; predicted / calibrated / difference are null when that report is not ok.
void to_json(nlohmann::json& j, const LogComparisonRow& r);

/// The "log" object of a calibrated report: the read log (startup_log_json.h) plus "filled" (settings taken
/// from the log), "measured" (the terms priced) and "comparison" (compare_with_log).
nlohmann::json calibrated_log_json(const StartupLog& log, const StartupCalibration& c, const Report* predicted,
                                   const Report* calibrated);

}  // namespace kvcalc

// Calibration: measured boots against predictions.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "kvcalc/engines/report.h"
#include "kvcalc/base/scenario.h"

namespace kvcalc {

/// One measured boot. Every row booted and ran; measured_peak_gib is nvidia-smi MiB / 1024 (GiB).
struct CalibrationRow {
    std::string id;              ///< "<model>:<n>"
    std::string model_id;
    Scenario scenario;
    double measured_peak_gib = 0.0;
    bool circular = false;       ///< measured value was derived from the budget (docs/SOURCES.md quirk 25)
    std::string source;
    std::string note;            ///< how the settings were resolved
};

/// The 11 measured Qwen 27B boots and the 8 further rows of docs/SOURCES.md "Calibration rows".
const std::vector<CalibrationRow>& calibration_rows();

/// Which side of the measured peak the predicted reserve falls on, outside the band.
enum class ReserveCheck { within, over, under, not_checked };

/// How far under kvcalc's predicted reserve a measured peak may lie and still count as inside the band: the
/// pessimistic side of the band, widened from the measured rows' spread (docs/ACCURACY.md "The band"). The rigs'
/// peaks lie from 3.22 GB under to 1.07 GB over the reserve; the widest miss under it (the dual-turbo preset, TQ3 KV)
/// sets this side at 3.5 GB. An optimistic miss (the card used more than predicted) keeps the Report's own band.
inline constexpr std::int64_t kCalibrationBandBelowBytes = 3'500'000'000;

/// One row evaluated. A row is correct when the verdict agrees with what happened (it booted, so not FAIL) and the
/// measured peak lies inside the predicted band. The prediction is what vLLM allocates on each card: the fixed
/// terms plus the whole KV pool (terms.fixed_bytes + terms.available_for_kv_bytes), because vLLM turns all the memory
/// left after profiling into KV blocks whatever max_num_seqs asks (vllm/v1/core/kv_cache_utils.py,
/// get_num_blocks: available memory // page size). The band is [reserve − band_below_bytes, reserve + band_bytes]
/// in bytes (the peak converted from GiB); band_bytes is the Report's terms.tight_band_bytes. Circular rows (the
/// peak is the budget) are judged on the verdict alone.
struct CalibrationResult {
    std::string row_id, model_id;
    Report report;
    std::int64_t measured_peak_bytes = 0;
    bool correct = false;
    bool circular = false;
    std::int64_t predicted_reserve_bytes = 0;  ///< terms.fixed_bytes + terms.available_for_kv_bytes (0 when not ok)
    std::int64_t band_bytes = 0;               ///< tolerance above the reserve: terms.tight_band_bytes
    std::int64_t band_below_bytes = 0;         ///< tolerance under it: max(band_bytes, kCalibrationBandBelowBytes)
    ReserveCheck reserve = ReserveCheck::not_checked;
    /// The same check with every non-weight term priced at 0 (reserve = weights per card): what a model that
    /// ignored KV, activation, CUDA graphs and drafters would score. The table shows it fails.
    ReserveCheck reserve_weights_only = ReserveCheck::not_checked;
};

/// Correct rows / rows for one model.
struct CalibrationModelScore {
    std::string model_id;
    int correct = 0;
    int total = 0;
};

/// Every row's result, the per-model scores (first-appearance order) and the overall score.
struct CalibrationSummary {
    std::vector<CalibrationResult> results;
    std::vector<CalibrationModelScore> per_model;
    int correct = 0;
    int total = 0;
    int reserve_checked = 0;       ///< non-circular rows with an ok report
    int reserve_within = 0;        ///< … whose predicted reserve is within the band of the measured peak
    int reserve_over = 0, reserve_under = 0;
    int weights_only_within = 0;   ///< the same count for the weights-only ablation
};

/// "within", "over", "under", "not_checked".
const char* reserve_check_name(ReserveCheck c);

/// The reserve check of one prediction: within when predicted − band_below ≤ measured ≤ predicted + band_above;
/// over when the measured peak is further under the prediction, under when it is further above it.
ReserveCheck check_reserve(std::int64_t predicted_bytes, std::int64_t measured_bytes, std::int64_t band_above_bytes,
                           std::int64_t band_below_bytes);

/// The same check with one band on both sides.
inline ReserveCheck check_reserve(std::int64_t predicted_bytes, std::int64_t measured_bytes, std::int64_t band_bytes) {
    return check_reserve(predicted_bytes, measured_bytes, band_bytes, band_bytes);
}

/// Evaluates one row (verdict and reserve checks) without the per-model bookkeeping.
CalibrationResult evaluate_calibration_row(const CalibrationRow& row);

/// Evaluates every calibration row with predict(); each row is priced on the card that was measured.
CalibrationSummary run_calibration();

}  // namespace kvcalc

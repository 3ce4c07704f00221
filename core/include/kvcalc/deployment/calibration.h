// Calibration: measured boots against predictions.
#pragma once
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
    bool circular = false;       ///< measured value was derived from the budget (reference quirk 25)
    std::string source;
    std::string note;            ///< how the settings were resolved
};

/// Seed 003's 11 Qwen 27B rows followed by the 8 rows of reference/calibration.json.
const std::vector<CalibrationRow>& calibration_rows();

/// Which side of the measured peak the predicted reserve falls on, outside the band.
enum class ReserveCheck { within, over, under, not_checked };

/// One row evaluated. correct = the verdict agrees with what happened: a row that booted must not be FAIL.
/// The reserve check compares numbers instead, so it fails both ways: kvcalc's predicted reserve per card
/// (Report terms.total_bytes = fixed terms + the KV pool vLLM grants) against the measured nvidia-smi peak, both
/// in bytes (the peak converted from GiB), within ± the report's band (terms.tight_band_bytes: 1.5 GB for seed
/// fits, the wider uncalibrated band otherwise). Circular rows (the peak is the budget) are not checked.
struct CalibrationResult {
    std::string row_id, model_id;
    Report report;
    std::int64_t measured_peak_bytes = 0;
    bool correct = false;
    bool circular = false;
    std::int64_t predicted_reserve_bytes = 0;  ///< terms.total_bytes (0 when the report is not ok)
    std::int64_t band_bytes = 0;               ///< ± tolerance: terms.tight_band_bytes
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

/// The reserve check of one prediction: within when |predicted − measured| ≤ band, else over / under.
ReserveCheck check_reserve(std::int64_t predicted_bytes, std::int64_t measured_bytes, std::int64_t band_bytes);

/// Evaluates one row (verdict and reserve checks) without the per-model bookkeeping.
CalibrationResult evaluate_calibration_row(const CalibrationRow& row);

/// Evaluates every calibration row with predict(); each row is priced on the card that was measured.
CalibrationSummary run_calibration();

}  // namespace kvcalc

// Calibration: measured boots against predictions.
#pragma once
#include <string>
#include <vector>

#include "kvcalc/report.h"
#include "kvcalc/scenario.h"

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

/// One row evaluated. correct = the verdict agrees with what happened: a row that booted must not be FAIL.
struct CalibrationResult {
    std::string row_id, model_id;
    Report report;
    std::int64_t measured_peak_bytes = 0;
    bool correct = false;
    bool circular = false;
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
};

/// Evaluates every calibration row with predict(); each row is priced on the card that was measured.
CalibrationSummary run_calibration();

}  // namespace kvcalc

// Calibration from a start-up log: the facts read_startup_log found fill the scenario where the user gave nothing
// and become the scenario's measured terms (Scenario::measured), so every answer is priced from that machine's own
// boot. Also the comparison of each printed line with kvcalc's prediction. vLLM logs; docs/STARTUP_LOGS.md
// "Calibration".
#pragma once
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "kvcalc/base/diagnostic.h"
#include "kvcalc/base/scenario.h"
#include "kvcalc/engines/report.h"
#include "kvcalc/io/startup_log.h"

namespace kvcalc {

/// A scenario calibrated to a log. `filled` says which settings came from the log ("max_model_len 20000 (log
/// line 4)"); `diagnostics` why a fact was not used (errors only when the log may not be priced from).
struct StartupCalibration {
    bool ok = false;
    Scenario scenario;
    std::vector<std::string> filled;
    Diagnostics diagnostics;
};

/// The user's scenario with the log's settings where the user gave none (a field at its default counts as not
/// given; the model only when `model_given` is false and the log names a catalog model by its Hugging Face repo):
/// model, engine, tensor_parallel_size, max_model_len, gpu_memory_utilization, max_num_batched_tokens,
/// kv_cache_dtype, vllm_version (the banner's, or "V0" for V0's lines) and the VRAM (the printed CUDA total when
/// no GPU or VRAM is given); and `measured` from the log's terms (vLLM: weights, torch peak, non-torch,
/// the CUDA-graph estimate where the release subtracts it, the pool, the total). Not ok when the log is not
/// (log.ok false: nothing may be priced from it).
StartupCalibration calibrate_from_log(const Scenario& user, const StartupLog& log, bool model_given);

/// One printed number beside kvcalc's own prediction (the uncalibrated scenario) and the calibrated one.
struct LogComparisonRow {
    std::string name;                 ///< the fact ("available_kv_cache_gib")
    std::string label;                ///< the line's words ("Available KV cache memory")
    std::string unit;                 ///< "GiB", "tokens", "x"
    double printed = 0;
    std::optional<double> predicted;  ///< kvcalc without the log
    std::optional<double> calibrated; ///< kvcalc with the measured terms
    std::size_t line = 0;
};

/// The printed lines kvcalc predicts (weights, torch peak, non-torch, budget, available KV, GPU KV cache size,
/// maximum concurrency, the refusal's estimated maximum length), each beside both reports (either may be null).
std::vector<LogComparisonRow> compare_with_log(const StartupLog& log, const Report* predicted, const Report* calibrated);

}  // namespace kvcalc

// Checking the engine rules against a measured start-up log: one fixture (tests/data/real_cases/*.json) in,
// measured-vs-predicted checks out. Pure: the caller reads the file. Fixture format: docs/ENGINE_RULES.md.
#pragma once
#include <string>
#include <string_view>
#include <vector>

#include "kvcalc/base/diagnostic.h"

namespace kvcalc {

/// One compared quantity of one run, e.g. "gpu_kv_cache_tokens".
struct RealCaseCheck {
    std::string run;          ///< run label within the case ("" for single-run cases)
    std::string quantity;     ///< measured key name
    double measured = 0.0;
    double predicted = 0.0;
    double tolerance = 0.0;   ///< absolute; from the log's print rounding, or 1% for bytes per token
    bool within = false;      ///< |predicted − measured| ≤ tolerance
    bool expect_differ = false;  ///< the fixture says kvcalc cannot match this quantity
    std::string differ_reason;
    double ratio_lo = 0.0, ratio_hi = 0.0;  ///< for expect_differ: predicted / measured must stay in [lo, hi]
    /// True when the check behaves as the fixture says: within tolerance, or (expect_differ) outside it with
    /// predicted / measured inside [ratio_lo, ratio_hi].
    bool as_expected() const;
};

/// All checks of one real case.
struct RealCaseResult {
    std::string id, engine, architecture_class, model, source;
    std::vector<RealCaseCheck> checks;
    Diagnostics diagnostics;  ///< fixture or config problems; errors mean the case was not evaluated
    bool expected_to_differ() const;
    bool as_expected() const;
};

/// Evaluates one fixture: reads its config.json with read_hf_config, applies the named engine's rules
/// (predict_vllm_kv / predict_llama_cpp_kv / predict_sglang_kv, estimate_weights) to each run's settings and
/// available KV memory, and compares every measured value the fixture lists.
RealCaseResult evaluate_real_case(std::string_view fixture_json);

}  // namespace kvcalc

// Why an engine stops at start-up: one rule that the start-up lines, the verdict's sentence and the solvers read.
#pragma once
#include "kvcalc/engines/deployment.h"
#include "kvcalc/base/load.h"
#include "kvcalc/engines/report.h"

namespace kvcalc::detail {

/// Why `d`'s engine stops at this load, from the verdict's own terms; `engine_refuses` is the engine rule's
/// "one max_model_len request does not fit" (vLLM's _check_enough_kv_cache_memory). The order is the verdict's
/// (classify): the cache dtype first, then the weights, then the budget, then one request's KV.
StartupStop startup_stop(const Deployment& d, const Load& load, const BudgetTerms& t, bool engine_refuses);

/// Applies startup_stop() to an engine's predicted lines: sets stop, refuses_to_start and refusal (the engine's
/// error in its own terms). An engine that stops before it sizes the KV cache (no kernel, weights too large) prints
/// no KV line, so those lines are withdrawn (available = false, no estimate, no KV notes).
void apply_startup_stop(const Deployment& d, const Load& load, const BudgetTerms& t, StartupPrediction& out);

}  // namespace kvcalc::detail

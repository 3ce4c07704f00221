// The prediction pipeline: Scenario → Deployment → per-card terms at the scenario's load → verdict → Report.
#pragma once
#include "kvcalc/deployment.h"
#include "kvcalc/report.h"
#include "kvcalc/scenario.h"

namespace kvcalc {

/// Full prediction for one scenario: resolve + check_load + evaluate + notes + start-up lines + command.
/// Never throws; errors come back in Report::diagnostics with ok = false.
Report predict(const Scenario& scenario);

/// The prediction of an already resolved deployment at `load` (what predict() does after resolving; shopping
/// and the solvers reuse it so their rows equal predict() of the same scenario). `scenario` supplies the
/// reporting-only extras (--kv-breakdown fields).
Report predict(const Scenario& scenario, const Deployment& deployment, const Load& load);

}  // namespace kvcalc

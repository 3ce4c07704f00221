// The prediction pipeline: Scenario → Deployment → per-card terms at the scenario's load → verdict → Report.
#pragma once
#include <memory>

#include "kvcalc/engines/deployment.h"
#include "kvcalc/engines/report.h"
#include "kvcalc/base/scenario.h"

namespace kvcalc {

/// How much of a Report predict() writes. all: everything a front end shows. on_request: the numbers, the
/// verdict, the breakdown, buckets, lists and start-up numbers, but none of the wording (the fields report.h marks
/// "text": reason, notes, non_kv_model, assumed_defaults, command, startup.engine_rules, startup.notes) until
/// render_text(report) is called: for callers that read only numbers, or show the text later.
enum class ReportText { all, on_request };

/// Full prediction for one scenario: resolve + check_load + evaluate + start-up lines, and with ReportText::all
/// the notes, the reason and the command. Never throws; errors come back in Report::diagnostics with ok = false.
Report predict(const Scenario& scenario, ReportText text = ReportText::all);

/// The prediction of an already resolved deployment at `load` (what predict() does after resolving).
/// `scenario` supplies the reporting-only extras (--kv-breakdown fields).
Report predict(const Scenario& scenario, std::shared_ptr<const Deployment> deployment, const Load& load,
               ReportText text = ReportText::all);
/// Same for a deployment not held by a shared_ptr (copied into one: the report keeps what it evaluated).
Report predict(const Scenario& scenario, const Deployment& deployment, const Load& load);

/// Writes the text fields of `report` (report.h marks them) from its deployment and load: the same text
/// predict() with ReportText::all writes. No-op when the text is already there or the report is not ok.
void render_text(Report& report);

}  // namespace kvcalc

// The calibration's band check for docs/ACCURACY.md: measured peak vs predicted reserve per row.
#pragma once
#include <ostream>

#include "kvcalc/deployment/calibration.h"

namespace kvtools {

/// Markdown: one row per calibration row with kvcalc's predicted reserve and the measured peak, both in GiB,
/// the band and the verdict of the check (within / over / under), the same check for weights alone, and the
/// counts. The check fails both ways, and fails for every row if the non-weight terms are priced at 0.
void reserve_section(std::ostream& out, const kvcalc::CalibrationSummary& c);

}  // namespace kvtools

// Standalone SVG of the per-card memory breakdown (for docs and READMEs; light and dark themes).
#pragma once
#include <string>

#include "kvcalc/report.h"

namespace kvcli {

/// One stacked bar per card (gpus, or TP when gpus is 0; cards beyond TP are drawn empty), one segment per
/// non-zero term, the budget line (mem-util × VRAM) and the VRAM line, labels in GB (1e9 B).
/// Well-formed XML; every text is escaped. `r` must be ok.
std::string render_svg(const kvcalc::Report& r);

/// Escapes & < > " ' for XML text and attributes.
std::string xml_escape(const std::string& text);

}  // namespace kvcli

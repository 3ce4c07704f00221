// Standalone SVG of the per-card memory breakdown (for docs and READMEs; light and dark themes).
#pragma once
#include <string>
#include <vector>

#include "kvcalc/engines/report.h"

namespace kvcli {

/// One text of the drawing: where it sits (baseline `y`, `x` at its start, middle or end per `anchor`), its size
/// and the box it is given. Boxes are estimated for a sans-serif font at 0.62 em per character (0.68 bold) from
/// 0.95 em above the baseline to 0.25 em below, wider than common sans-serif glyphs, so boxes that do not meet
/// leave texts that do not meet.
struct SvgText {
    double x = 0, y = 0;
    double size = 12;
    bool bold = false;
    const char* anchor = "start";  ///< "start", "middle", "end"
    std::string text;              ///< raw (escaped when written)
    double x0 = 0, y0 = 0, x1 = 0, y1 = 0;  ///< its box
};

/// Where everything goes: the canvas, the plot area, the bars and every text and legend swatch. render_svg draws
/// exactly this, so a test of the boxes tests the drawing.
struct SvgLayout {
    double width = 0, height = 0;
    double plot_left = 0, plot_top = 0, plot_height = 0, bar_width = 0, bar_gap = 0;
    int cards = 1, tp = 1;
    std::int64_t top_bytes = 1;    ///< the value at the top of the plot
    std::vector<SvgText> texts;
    struct Swatch {
        double x, y, size;
        const char* colour;
    };
    std::vector<Swatch> swatches;  ///< legend squares, next to their texts
    double y_of(std::int64_t bytes) const;
};

/// The layout of `r`'s drawing. Axis labels of the VRAM and budget lines sit above the VRAM line and below the
/// budget line (budget ≤ VRAM), so they cannot cover each other however close the lines are; the canvas grows to
/// hold every box.
SvgLayout svg_layout(const kvcalc::Report& r);

/// One stacked bar per card (gpus, or TP when gpus is 0; cards beyond TP are drawn empty), one segment per
/// non-zero term, the budget line (mem-util × VRAM) and the VRAM line, labels in GB (1e9 B).
/// Well-formed XML; every text is escaped. `r` must be ok.
std::string render_svg(const kvcalc::Report& r);

/// Escapes & < > " ' for XML text and attributes.
std::string xml_escape(const std::string& text);

}  // namespace kvcli

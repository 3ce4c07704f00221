// Per-card stacked-bar SVG. Colours are mid-tone so they read on white and on GitHub's dark background;
// text colour follows prefers-color-scheme.
#include "svg.h"

#include "safe_text.h"

#include <algorithm>
#include <cstdio>
#include <vector>
#include <string>
#include <string_view>

#include "kvcalc/units.h"

namespace kvcli {

namespace {

struct Segment {
    std::string name;
    const char* colour;
    std::int64_t bytes;
};

/// Colour of a core term id (kvcalc::term_list ids); the terms and their labels come from the core.
const char* colour_of(std::string_view id) {
    if (id == "weights") return "#4e79a7";
    if (id == "kv_growing") return "#f28e2b";
    if (id == "kv_sliding") return "#edc948";
    if (id == "recurrent_state") return "#76b7b2";
    if (id == "activation") return "#e15759";
    if (id == "cudagraph_workspace") return "#9c755f";
    if (id == "drafter") return "#b07aa1";
    return "#bab0ac";  // a term this renderer has no colour for yet still shows
}

std::string num(double x) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1f", x);
    return buf;
}

std::string gb(std::int64_t bytes) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.2f GB", kvcalc::bytes_to_gb(bytes));
    return buf;
}

}  // namespace

std::string xml_escape(const std::string& raw) {
    // C0 controls and invalid UTF-8 (a config.json name can hold both) are not XML 1.0 characters.
    const std::string text = safe_text(raw);
    std::string out;
    for (const char c : text) {
        switch (c) {
            case '&': out += "&amp;"; break;
            case '<': out += "&lt;"; break;
            case '>': out += "&gt;"; break;
            case '"': out += "&quot;"; break;
            case '\'': out += "&apos;"; break;
            default: out += c;
        }
    }
    return out;
}

std::string render_svg(const kvcalc::Report& r) {
    const auto& t = r.terms;
    const auto& s = r.settings;
    const int tp = std::max(1, s.tensor_parallel_size);
    const int cards = std::max(tp, s.gpus);
    std::vector<Segment> segs;  // the core's per-card terms (KV as granted), in its order
    for (const kvcalc::Term& term : r.term_list) segs.push_back({std::string(term.label), colour_of(term.id), term.bytes});
    const std::int64_t shortfall = std::max<std::int64_t>(0, t.kv_growing_requested_bytes - t.kv_growing_granted_bytes);
    const std::int64_t top = std::max({s.vram_bytes, t.demand_bytes, t.total_bytes, std::int64_t{1}});

    const double bar_w = 56, gap = 28, left = 70, plot_top = 72, plot_h = 300, legend_w = 250;
    // wide enough for the title lines (about 6 px per character at 11-12 px sans-serif)
    const double text_w = 20 + 6.2 * static_cast<double>(std::max<std::size_t>(r.reason.size(), 90));
    const double width = std::max(left + cards * (bar_w + gap) + legend_w, text_w);
    const double height = plot_top + plot_h + 60;
    const auto y_of = [&](std::int64_t bytes) { return plot_top + plot_h * (1.0 - static_cast<double>(bytes) / top); };

    std::string o;
    o += "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
    o += "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + num(width) + "\" height=\"" + num(height) +
         "\" viewBox=\"0 0 " + num(width) + " " + num(height) + "\" font-family=\"sans-serif\" font-size=\"12\">\n";
    o += "<style>text{fill:#24292f}.axis{stroke:#57606a}@media (prefers-color-scheme: dark){text{fill:#e6edf3}"
         ".axis{stroke:#8b949e}}</style>\n";
    const std::string title = s.display_name + " - " + s.kv_cache_dtype + ", ctx " + std::to_string(s.max_model_len) +
                              ", seqs " + std::to_string(s.max_num_seqs) + ", TP " + std::to_string(tp) + ": " +
                              kvcalc::verdict_name(r.verdict);
    o += "<title>" + xml_escape(title) + "</title>\n";
    o += "<text x=\"10\" y=\"22\" font-size=\"14\" font-weight=\"bold\">" + xml_escape(title) + "</text>\n";
    o += "<text x=\"10\" y=\"40\">per card; GB = 1e9 bytes</text>\n";
    o += "<text x=\"10\" y=\"56\" font-size=\"11\">" + xml_escape(r.reason) + "</text>\n";

    for (int c = 0; c < cards; ++c) {
        const double x = left + c * (bar_w + gap);
        o += "<g class=\"bar\" data-card=\"" + std::to_string(c) + "\">\n";
        std::int64_t base = 0;
        if (c < tp) {
            for (const auto& sg : segs) {
                if (sg.bytes <= 0) continue;
                const double y1 = y_of(base + sg.bytes), y0 = y_of(base);
                o += "  <rect x=\"" + num(x) + "\" y=\"" + num(y1) + "\" width=\"" + num(bar_w) + "\" height=\"" +
                     num(y0 - y1) + "\" fill=\"" + sg.colour + "\"><title>" + xml_escape(sg.name) + ": " +
                     gb(sg.bytes) + "</title></rect>\n";
                base += sg.bytes;
            }
            if (shortfall > 0) {
                const double y1 = y_of(base + shortfall), y0 = y_of(base);
                o += "  <rect x=\"" + num(x) + "\" y=\"" + num(y1) + "\" width=\"" + num(bar_w) + "\" height=\"" +
                     num(y0 - y1) + "\" fill=\"none\" stroke=\"#f28e2b\" stroke-dasharray=\"4 3\"><title>KV requested "
                     "but not granted: " + gb(shortfall) + "</title></rect>\n";
            }
        }
        o += "  <text x=\"" + num(x + bar_w / 2) + "\" y=\"" + num(plot_top + plot_h + 16) +
             "\" text-anchor=\"middle\">GPU " + std::to_string(c) + (c < tp ? "" : " (idle)") + "</text>\n";
        if (c < tp) {
            o += "  <text x=\"" + num(x + bar_w / 2) + "\" y=\"" + num(plot_top + plot_h + 30) +
                 "\" text-anchor=\"middle\">" + gb(t.total_bytes) + "</text>\n";
        }
        o += "</g>\n";
    }
    const double x_end = left + cards * (bar_w + gap) - gap / 2;
    const auto hline = [&](std::int64_t bytes, const char* label, const char* dash) {
        const double y = y_of(bytes);
        o += "<line class=\"axis\" x1=\"" + num(left - 8) + "\" x2=\"" + num(x_end) + "\" y1=\"" + num(y) +
             "\" y2=\"" + num(y) + "\" stroke-width=\"1.5\"" + dash + "/>\n";
        o += "<text x=\"" + num(left - 10) + "\" y=\"" + num(y + 4) + "\" text-anchor=\"end\" font-size=\"10\">" +
             label + "</text>\n";
        o += "<text x=\"" + num(left - 10) + "\" y=\"" + num(y + 15) + "\" text-anchor=\"end\" font-size=\"10\">" +
             gb(bytes) + "</text>\n";
    };
    hline(s.vram_bytes, "VRAM", "");
    hline(t.budget_bytes, "budget", " stroke-dasharray=\"6 4\"");

    double ly = plot_top + 4;
    const double lx = x_end + 20;
    for (const auto& sg : segs) {
        if (sg.bytes <= 0) continue;
        o += "<rect x=\"" + num(lx) + "\" y=\"" + num(ly) + "\" width=\"12\" height=\"12\" fill=\"" + sg.colour +
             "\"/>\n";
        o += "<text x=\"" + num(lx + 18) + "\" y=\"" + num(ly + 10) + "\">" + xml_escape(sg.name) + " " +
             gb(sg.bytes) + "</text>\n";
        ly += 18;
    }
    if (shortfall > 0) {
        o += "<text x=\"" + num(lx) + "\" y=\"" + num(ly + 10) + "\">dashed: KV not granted " + gb(shortfall) +
             "</text>\n";
    }
    o += "</svg>\n";
    return o;
}

}  // namespace kvcli

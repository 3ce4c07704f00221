// Per-card stacked-bar SVG. Colours are mid-tone so they read on white and on GitHub's dark background;
// text colour follows prefers-color-scheme.
#include "svg.h"

#include "safe_text.h"

#include <algorithm>
#include <cstdio>
#include <vector>
#include <string>
#include <string_view>

#include "kvcalc/base/units.h"

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

namespace {

/// Characters, not bytes: UTF-8 continuation bytes take no width.
double glyphs(const std::string& text) {
    double n = 0;
    for (const unsigned char c : text) n += (c & 0xC0) != 0x80 ? 1 : 0;
    return n;
}

void add_text(SvgLayout& l, double x, double y, double size, bool bold, const char* anchor, std::string text) {
    SvgText t{x, y, size, bold, anchor, std::move(text)};
    const double w = glyphs(t.text) * size * (bold ? 0.68 : 0.62);
    const std::string_view a = anchor;
    t.x0 = a == "start" ? x : a == "middle" ? x - w / 2 : x - w;
    t.x1 = t.x0 + w;
    t.y0 = y - 0.95 * size;
    t.y1 = y + 0.25 * size;
    l.texts.push_back(std::move(t));
}

std::vector<Segment> segments(const kvcalc::Report& r) {
    std::vector<Segment> segs;  // the core's per-card terms (KV as granted), in its order
    for (const kvcalc::Term& term : r.term_list)
        if (term.bytes > 0) segs.push_back({std::string(term.label), colour_of(term.id), term.bytes});
    return segs;
}

std::int64_t shortfall_of(const kvcalc::Report& r) {
    return std::max<std::int64_t>(0, r.terms.kv_requested_bytes - r.terms.kv_granted_bytes);  // every KV kind
}

std::string title_of(const kvcalc::Report& r) {
    const auto& s = r.settings;
    return std::string(s.display_name) + " - " + std::string(s.kv_cache_dtype) + ", ctx " + std::to_string(s.max_model_len) + ", seqs " +
           std::to_string(s.max_num_seqs) + ", TP " + std::to_string(std::max(1, s.tensor_parallel_size)) + ": " +
           kvcalc::verdict_name(r.verdict);
}

}  // namespace

double SvgLayout::y_of(std::int64_t bytes) const {
    return plot_top + plot_height * (1.0 - static_cast<double>(bytes) / static_cast<double>(top_bytes));
}

SvgLayout svg_layout(const kvcalc::Report& r) {
    const auto& t = r.terms;
    const auto& s = r.settings;
    SvgLayout l;
    l.tp = std::max(1, s.tensor_parallel_size);
    l.cards = std::max(l.tp, s.gpus);
    l.top_bytes = std::max({s.vram_bytes, t.demand_bytes, t.total_bytes, std::int64_t{1}});
    l.bar_width = 56;
    l.bar_gap = 28;
    l.plot_height = 300;
    constexpr double kAxisSize = 10, kPad = 3;

    add_text(l, 10, 22, 14, true, "start", title_of(r));
    add_text(l, 10, 40, 12, false, "start", "per card; GB = 1e9 bytes");
    add_text(l, 10, 56, 11, false, "start", r.reason);
    // The VRAM label rides above its line; the plot starts low enough that it stays below the reason line.
    l.plot_top = 56 + 0.25 * 11 + kPad + (0.95 + 0.25) * kAxisSize + kPad + 2;

    // Axis labels, right-aligned left of the plot: VRAM above the VRAM line, budget below the budget line.
    const std::string vram_label = "VRAM " + gb(s.vram_bytes);
    const std::string budget_label = "budget " + gb(t.budget_bytes);
    const double axis_w = std::max(glyphs(vram_label), glyphs(budget_label)) * kAxisSize * 0.62;
    l.plot_left = 10 + axis_w + 12;
    const double label_x = l.plot_left - 10;
    add_text(l, label_x, l.y_of(s.vram_bytes) - kPad - 0.25 * kAxisSize, kAxisSize, false, "end", vram_label);
    add_text(l, label_x, l.y_of(t.budget_bytes) + kPad + 0.95 * kAxisSize, kAxisSize, false, "end", budget_label);

    // Under each bar: the card, then its reserved total (or "idle": one short word fits the bar's pitch).
    const double bottom = l.plot_top + l.plot_height;
    for (int c = 0; c < l.cards; ++c) {
        const double mid = l.plot_left + c * (l.bar_width + l.bar_gap) + l.bar_width / 2;
        add_text(l, mid, bottom + 16, 12, false, "middle", "GPU " + std::to_string(c));
        add_text(l, mid, bottom + 32, 12, false, "middle", c < l.tp ? gb(t.total_bytes) : std::string("idle"));
    }

    // Legend right of the plot, one row per drawn term, then the dashed outline's meaning.
    const double x_end = l.plot_left + l.cards * (l.bar_width + l.bar_gap) - l.bar_gap / 2;
    const double lx = x_end + 20;
    double ly = l.plot_top + 4;
    for (const auto& sg : segments(r)) {
        l.swatches.push_back({lx, ly, 12, sg.colour});
        add_text(l, lx + 18, ly + 10, 12, false, "start", sg.name + " " + gb(sg.bytes));
        ly += 18;
    }
    if (const std::int64_t gap = shortfall_of(r); gap > 0)
        add_text(l, lx, ly + 10, 12, false, "start", "dashed: KV not granted " + gb(gap));

    double right = x_end, low = bottom + 32;
    for (const auto& x : l.texts) right = std::max(right, x.x1), low = std::max(low, x.y1);
    l.width = right + 10;
    l.height = low + 10;
    return l;
}

std::string render_svg(const kvcalc::Report& r) {
    const auto& t = r.terms;
    const auto& s = r.settings;
    const SvgLayout l = svg_layout(r);
    const std::vector<Segment> segs = segments(r);
    const std::int64_t shortfall = shortfall_of(r);

    std::string o;
    o += "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
    o += "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + num(l.width) + "\" height=\"" + num(l.height) +
         "\" viewBox=\"0 0 " + num(l.width) + " " + num(l.height) + "\" font-family=\"sans-serif\" font-size=\"12\">\n";
    o += "<style>text{fill:#24292f}.axis{stroke:#57606a}@media (prefers-color-scheme: dark){text{fill:#e6edf3}"
         ".axis{stroke:#8b949e}}</style>\n";
    o += "<title>" + xml_escape(title_of(r)) + "</title>\n";

    for (int c = 0; c < l.tp && c < l.cards; ++c) {
        const double x = l.plot_left + c * (l.bar_width + l.bar_gap);
        o += "<g class=\"bar\" data-card=\"" + std::to_string(c) + "\">\n";
        std::int64_t base = 0;
        for (const auto& sg : segs) {
            const double y1 = l.y_of(base + sg.bytes), y0 = l.y_of(base);
            o += "  <rect x=\"" + num(x) + "\" y=\"" + num(y1) + "\" width=\"" + num(l.bar_width) + "\" height=\"" +
                 num(y0 - y1) + "\" fill=\"" + sg.colour + "\"><title>" + xml_escape(sg.name) + ": " + gb(sg.bytes) +
                 "</title></rect>\n";
            base += sg.bytes;
        }
        if (shortfall > 0) {
            const double y1 = l.y_of(base + shortfall), y0 = l.y_of(base);
            o += "  <rect x=\"" + num(x) + "\" y=\"" + num(y1) + "\" width=\"" + num(l.bar_width) + "\" height=\"" +
                 num(y0 - y1) + "\" fill=\"none\" stroke=\"#f28e2b\" stroke-dasharray=\"4 3\"><title>KV requested "
                 "but not granted: " + gb(shortfall) + "</title></rect>\n";
        }
        o += "</g>\n";
    }
    for (int c = l.tp; c < l.cards; ++c)  // idle cards: an empty group, so every card has one
        o += "<g class=\"bar\" data-card=\"" + std::to_string(c) + "\"></g>\n";

    const double x_end = l.plot_left + l.cards * (l.bar_width + l.bar_gap) - l.bar_gap / 2;
    const auto hline = [&](std::int64_t bytes, const char* dash) {
        const double y = l.y_of(bytes);
        o += "<line class=\"axis\" x1=\"" + num(l.plot_left - 8) + "\" x2=\"" + num(x_end) + "\" y1=\"" + num(y) +
             "\" y2=\"" + num(y) + "\" stroke-width=\"1.5\"" + dash + "/>\n";
    };
    hline(s.vram_bytes, "");
    hline(t.budget_bytes, " stroke-dasharray=\"6 4\"");
    for (const auto& sw : l.swatches)
        o += "<rect x=\"" + num(sw.x) + "\" y=\"" + num(sw.y) + "\" width=\"" + num(sw.size) + "\" height=\"" +
             num(sw.size) + "\" fill=\"" + sw.colour + "\"/>\n";
    for (const auto& x : l.texts) {
        o += "<text x=\"" + num(x.x) + "\" y=\"" + num(x.y) + "\"";
        if (std::string_view(x.anchor) != "start") o += std::string(" text-anchor=\"") + x.anchor + "\"";
        if (x.size != 12) o += " font-size=\"" + num(x.size) + "\"";
        if (x.bold) o += " font-weight=\"bold\"";
        o.append(">").append(xml_escape(x.text)).append("</text>\n");  // (GCC 12 -Wrestrict misfires on ">" + s)
    }
    o += "</svg>\n";
    return o;
}

}  // namespace kvcli

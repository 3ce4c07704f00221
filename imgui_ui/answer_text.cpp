// Context answers and the page's full text answer (answer_text.h).
#include "answer_text.h"

#include <algorithm>

#include "kvcalc/base/gpu_catalog.h"
#include "log_text.h"
#include "text_export.h"
#include "widgets.h"

namespace kvcalc::ui {

namespace {

/// Rows of the shopping list read out: the first few, as the panel's top rows.
constexpr std::size_t kShopRowsRead = 3;

bool one_answer(const Derived& d) {
    return d.max_len_seqs <= 1 || (d.max_len_all.ok && d.max_len.ok && d.max_len_all.value == d.max_len.value);
}

}  // namespace

std::string context_answer(const App& app, int width) {
    const Derived& d = app.derived;
    const std::string boots = d.max_len.ok && d.max_len.value > 0 ? short_tokens(d.max_len.value) : std::string("none");
    if (one_answer(d)) return (width <= 0 ? "largest context " : width == 1 ? "max context " : "max ") + boots;
    const std::string n = std::to_string(d.max_len_seqs);
    const bool any = d.max_len_all.ok && d.max_len_all.value > 0;
    const std::string all = any ? short_tokens(d.max_len_all.value) : std::string("none");
    if (width <= 0)
        return (any ? n + " users × " + all + " fit" : n + " users fit at no length") + "; one request up to " + boots +
               " boots";
    if (width == 1) return (any ? n + " × " + all + " fit" : n + " × none fit") + "; 1 × " + boots + " boots";
    if (width <= 3) return n + "×" + all + " fit, 1×" + boots + " boots";
    return n + "×" + all + " fit";
}

std::string full_text_answer(const App& app) {
    std::string out = announcement(app);
    if (!app.report.ok) return out + log_mirror_text(app);
    const Derived& d = app.derived;
    if (!one_answer(d))
        out += d.max_len_all.ok
                   ? " Largest max_model_len at which all " + std::to_string(d.max_len_seqs) +
                         " sequences fit at once: " + format_count(d.max_len_all.value) + " tokens."
                   : " All " + std::to_string(d.max_len_seqs) + " sequences fit at once at no max_model_len.";
    std::size_t read = 0;
    for (const ShopRow& row : d.shop) {
        if (read == kShopRowsRead || !row.valid || !row.runs) break;
        const GpuSpec* g = find_gpu(row.gpu_id);
        out += std::string(read == 0 ? " GPU shopping: " : "; ") + std::to_string(row.cards) + " × " +
               (g ? short_gpu_name(*g) : row.gpu_id) + " (" + format_bytes(row.total_vram_bytes, app.ui.unit) + ") " +
               std::string(verdict_name(row.verdict));
        ++read;
    }
    if (read > 0) out += ".";
    const std::vector<std::string> lines = startup_lines(app);
    if (!lines.empty()) {
        out += " Predicted start-up lines:";
        for (const std::string& l : lines) out += " " + l + ".";
    }
    out += log_mirror_text(app);
    out += " Command: " + serve_command_text(app);
    return out;
}

}  // namespace kvcalc::ui

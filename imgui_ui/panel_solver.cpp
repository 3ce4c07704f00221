// Solver panel: the largest context and concurrency, the fewest GPUs, and the memory-vs-context curve.
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "keyboard_nav.h"
#include "panels.h"
#include "text_export.h"
#include "widgets.h"

namespace kvcalc::ui {

namespace {

/// One answer line with its limiting term and an "apply" button. Returns true when applied.
bool answer(UiState& ui, const char* what, const SolveResult& r, const std::string& value_text, const char* apply_id,
            const char* hitbox, const std::string& safe_text = {}) {
    if (!r.ok) {
        // The error that ends the search (nothing_fits names the cache dtype when the card has no kernel for it),
        // not a warning about the scenario that came before it.
        const auto why = std::find_if(r.diagnostics.begin(), r.diagnostics.end(),
                                      [](const Diagnostic& d) { return d.severity == Severity::error; });
        ImGui::Text("%s: ", what);
        ImGui::SameLine(0, 0);
        text_dim(why != r.diagnostics.end() ? why->message : r.diagnostics.empty() ? "none fits" : r.diagnostics.front().message);
        return false;
    }
    describe_next_item(std::string("use ") + what, value_text);
    const bool applied = tap_button(ui, apply_id);
    record_hitbox(ui, hitbox);
    ImGui::SameLine();
    ImGui::AlignTextToFramePadding();
    text_wrapped(std::string(what) + ": " + value_text);
    ui.drawn_text[std::string("solver_") + hitbox] = std::string(what) + ": " + value_text;  // as drawn (tests)
    text_dim(std::string("  limited by ") + (r.bound == "budget" ? std::string("the budget; largest term: ") +
                                                                       std::string(term_label(r.limiting_term))
                                                                 : r.bound));
    // Lengths under the answer that do not boot (V0 above 32K): said, so a shorter pick is not taken as safe.
    for (const Diagnostic& g : r.diagnostics) {
        if (g.code != "solve_gap") continue;
        text_dim("  " + g.message);
        ui.drawn_text[std::string("solver_gap_") + hitbox] = g.message;
    }
    // The core's safe answer: still fits when kvcalc is its whole error band too optimistic.
    if (!safe_text.empty() && r.safe_value != r.value) {
        char band[32];
        std::snprintf(band, sizeof band, "%.2f GiB", static_cast<double>(r.safe_band_bytes) / 1073741824.0);
        const std::string line = "  safe: " + (r.safe_value > 0 ? safe_text : std::string("none")) +
                                 " (fits even if kvcalc is " + band + " optimistic)";
        text_dim(line);
        ui.drawn_text[std::string("solver_safe_") + hitbox] = line;
    }
    return applied;
}

void curve(const App& app) {
    const Derived& d = app.derived;
    if (d.curve.size() < 2) return;
    const float em = ImGui::GetFontSize();
    const float w = ImGui::GetContentRegionAvail().x, h = em * 9.0f;
    const ImVec2 p = ImGui::GetCursorScreenPos();
    const float left = p.x + em * 3.2f, right = p.x + w - em * 0.5f, top = p.y + em * 0.5f, bottom = p.y + h - em * 1.5f;
    ImDrawList* draw = ImGui::GetWindowDrawList();
    draw->AddRectFilled(ImVec2(left, top), ImVec2(right, bottom), ImGui::GetColorU32(ImGuiCol_FrameBg));
    const double x0 = std::log(static_cast<double>(d.curve.front().max_model_len));
    const double x1 = std::log(static_cast<double>(d.curve.back().max_model_len));
    std::int64_t y_max = d.budget_bytes;
    for (const CurvePoint& c : d.curve) y_max = std::max(y_max, c.demand_bytes);
    y_max = y_max * 11 / 10;
    auto px = [&](std::int64_t len) {
        return left + static_cast<float>((std::log(static_cast<double>(std::max<std::int64_t>(len, 1))) - x0) / (x1 - x0)) * (right - left);
    };
    auto py = [&](std::int64_t bytes) {
        return bottom - static_cast<float>(static_cast<double>(bytes) / static_cast<double>(y_max)) * (bottom - top);
    };
    const ImU32 text = ImGui::GetColorU32(ImGuiCol_Text), dim = ImGui::GetColorU32(ImGuiCol_TextDisabled);
    const ImU32 budget = verdict_color(Verdict::tight, app.ui.dark_theme);
    draw->AddLine(ImVec2(left, py(d.budget_bytes)), ImVec2(right, py(d.budget_bytes)), budget, 2.0f);
    for (std::size_t i = 1; i < d.curve.size(); ++i)
        draw->AddLine(ImVec2(px(d.curve[i - 1].max_model_len), py(d.curve[i - 1].demand_bytes)),
                      ImVec2(px(d.curve[i].max_model_len), py(d.curve[i].demand_bytes)), term_color(0), 2.5f);
    const float cur = px(app.report.settings.max_model_len);
    draw->AddLine(ImVec2(cur, top), ImVec2(cur, bottom), text, 1.5f);
    auto dashed = [&](std::int64_t len, ImU32 color) {
        const float x = px(len);
        for (float y = top; y < bottom; y += em * 0.6f) draw->AddLine(ImVec2(x, y), ImVec2(x, y + em * 0.3f), color, 2.0f);
    };
    const bool two = d.max_len_seqs > 1 && d.max_len_all.ok && d.max_len.ok && d.max_len_all.value != d.max_len.value;
    if (d.max_len.ok) dashed(d.max_len.value, two ? dim : verdict_color(Verdict::pass, app.ui.dark_theme));
    if (two) dashed(d.max_len_all.value, verdict_color(Verdict::pass, app.ui.dark_theme));
    char buf[48];
    std::snprintf(buf, sizeof buf, "%.0f", in_unit(y_max, app.ui.unit));
    draw->AddText(ImVec2(p.x, top), dim, buf);
    draw->AddText(ImVec2(p.x, bottom - em), dim, unit_name(app.ui.unit));
    const std::string lo = format_count(d.curve.front().max_model_len), hi = format_count(d.curve.back().max_model_len);
    draw->AddText(ImVec2(left, bottom + em * 0.2f), dim, lo.c_str());
    draw->AddText(ImVec2(right - ImGui::CalcTextSize(hi.c_str()).x, bottom + em * 0.2f), dim, hi.c_str());
    ImGui::Dummy(ImVec2(w, h));
    text_dim(two ? "Per-card demand vs max_model_len (log scale). Amber: budget. Solid: current. Green dashes: all "
                   "max_num_seqs sequences fit. Grey dashes: one request boots."
                 : "Per-card demand vs max_model_len (log scale). Amber: budget. Solid: current. Dashed: largest that boots.");
}

}  // namespace

bool panel_solver(App& app) {
    const Derived& d = app.derived;
    bool changed = false;
    if (!app.report.ok) {
        ImGui::TextDisabled("Fix the settings first.");
        return false;
    }
    auto tokens = [](const SolveResult& r) {
        return format_count(r.value) + " tokens" +
               (r.value_rounded != r.value ? " (" + format_count(r.value_rounded) + " rounded)" : std::string());
    };
    auto safe_tokens = [](const SolveResult& r) { return format_count(r.safe_value_rounded) + " tokens"; };
    // With several sequences the two context questions have different answers; each line says which it answers.
    const bool two = d.max_len_seqs > 1 && !(d.max_len_all.ok && d.max_len.ok && d.max_len_all.value == d.max_len.value);
    if (two) {
        const std::string n = std::to_string(d.max_len_seqs);
        if (answer(app.ui, ("Largest max_model_len for all " + n + " sequences at once").c_str(), d.max_len_all,
                   tokens(d.max_len_all), "use##len_all", "use_len_all", safe_tokens(d.max_len_all))) {
            app.scenario.max_model_len = std::max<std::int64_t>(d.max_len_all.value_rounded, 1);
            changed = true;
        }
    }
    if (answer(app.ui, two ? "Largest max_model_len that boots (one full request)" : "Largest max_model_len", d.max_len,
               tokens(d.max_len), "use##len", "use_len", safe_tokens(d.max_len))) {
        app.scenario.max_model_len = std::max<std::int64_t>(d.max_len.value_rounded, 1);
        changed = true;
    }
    if (answer(app.ui, "Largest max_num_seqs", d.max_seqs, format_count(d.max_seqs.value) + " at full length",
               "use##seqs", "use_seqs", format_count(d.max_seqs.safe_value))) {
        app.scenario.max_num_seqs = d.max_seqs.value;
        changed = true;
    }
    if (answer(app.ui, "Fewest GPUs", d.min_gpus, std::to_string(d.min_gpus.value) + " (tensor_parallel_size)",
               "use##gpus", "use_gpus")) {
        app.scenario.tensor_parallel_size = static_cast<int>(d.min_gpus.value);
        app.scenario.gpus = 0;
        changed = true;
    }
    curve(app);
    if (changed) app.scenario.compose.clear();
    return changed;
}

}  // namespace kvcalc::ui

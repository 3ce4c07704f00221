// Result panel: verdict banner, per-card stacked bar against the budget and VRAM lines, term table, start-up.
#include <algorithm>
#include <cmath>

#include "keyboard_nav.h"
#include "kvcalc/base/units.h"
#include "kvcalc/engines/deployment.h"
#include "panels.h"
#include "text_export.h"
#include "widgets.h"

namespace kvcalc::ui {

namespace {

void invalid_banner(App& app) {
    std::string detail;
    for (const Diagnostic& d : app.report.diagnostics)
        if (d.severity == Severity::error) detail += d.message + "\n";
    verdict_banner(app.ui, Verdict::fail, "Cannot evaluate these settings",
                   detail.empty() ? "unknown error" : detail);
}

void term_table(App& app) {
    const Report& r = app.report;
    const ByteUnit u = app.ui.unit;
    const ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH | ImGuiTableFlags_SizingStretchProp;
    if (!ImGui::BeginTable("##terms", 3, flags)) return;
    ImGui::TableSetupColumn("Per-card term", ImGuiTableColumnFlags_WidthStretch, 3.0f);
    ImGui::TableSetupColumn(u == ByteUnit::gib ? "GiB ◂" : "GiB", ImGuiTableColumnFlags_WidthStretch, 1.0f);
    ImGui::TableSetupColumn(u == ByteUnit::gb ? "GB ◂" : "GB", ImGuiTableColumnFlags_WidthStretch, 1.0f);
    ImGui::TableHeadersRow();
    auto row = [&](const char* label, std::int64_t bytes, bool strong) {
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        if (strong) ImGui::TextUnformatted(label);
        else ImGui::TextDisabled("%s", label);
        ImGui::TableNextColumn();
        ImGui::Text("%.2f", bytes_to_gib(bytes));
        ImGui::TableNextColumn();
        ImGui::Text("%.2f", bytes_to_gb(bytes));
    };
    for (const Term& t : r.term_list) {  // the core's list: non-zero terms in subtraction order
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        const ImVec2 p = ImGui::GetCursorScreenPos();
        const float em = ImGui::GetFontSize();
        ImGui::GetWindowDrawList()->AddRectFilled(ImVec2(p.x, p.y + em * 0.2f), ImVec2(p.x + em * 0.7f, p.y + em * 0.9f),
                                                  term_color(static_cast<int>(term_rank(t.id))));
        ImGui::Dummy(ImVec2(em * 0.8f, em));
        ImGui::SameLine();
        ImGui::TextUnformatted(t.label.data(), t.label.data() + t.label.size());
        ImGui::TableNextColumn();
        ImGui::Text("%.2f", bytes_to_gib(t.bytes));
        ImGui::TableNextColumn();
        ImGui::Text("%.2f", bytes_to_gb(t.bytes));
    }
    if (r.terms.kv_requested_bytes != r.terms.kv_granted_bytes)  // all KV, as the verdict and its sentence count it
        row("KV requested (all sequences)", r.terms.kv_requested_bytes, false);
    // The engine the scenario runs (llama.cpp and SGLang reserve too, by their own rules).
    const EngineInfo* engine = find_engine(r.engine);
    const std::string total = "Total " + std::string(engine ? engine->display_name : "engine") + " reserves";
    app.ui.drawn_text["result_total_label"] = total;
    row(total.c_str(), r.terms.total_bytes, true);
    row("Budget (utilization × VRAM)", r.terms.budget_bytes, true);
    row("VRAM per card", r.settings.vram_bytes, false);
    ImGui::EndTable();
}

/// What the engine prints at start-up, as the core predicts it from the per-rank KV room (Report::startup,
/// engine_rules.h): vLLM's available KV memory, KV cache size in tokens, maximum concurrency, or its refusal.
void startup_numbers(App& app) {
    const StartupPrediction& st = app.report.startup;
    if (!st.available && !st.refuses_to_start) {
        for (const std::string& n : st.notes) ImGui::TextDisabled("%s", n.c_str());
        return;
    }
    ImGui::Text("Predicted %s start-up log:", std::string(app.report.engine).c_str());
    ImGui::Indent();
    for (const std::string& line : startup_lines(app))
        text_wrapped(line, st.refuses_to_start && line == st.refusal ? verdict_color(Verdict::fail, app.ui.dark_theme) : 0);
    for (const std::string& n : st.notes) text_dim(n);
    ImGui::Unindent();
    // An engine that stops before it sizes the cache prints no per-token figure; the terms still have one.
    const std::int64_t per_token = st.kv_bytes_per_token > 0 ? st.kv_bytes_per_token
                                                             : std::llround(app.report.terms.kv_bytes_per_token);
    const std::string rules =
        st.engine_rules + (per_token > 0 ? "; KV per token per rank: " + format_count(per_token) + " B" : std::string());
    text_dim(rules);
    app.ui.drawn_text["startup_rules"] = rules;
}

}  // namespace

void result_bar(const App& app) {
    const Report& r = app.report;
    std::vector<BarSegment> segments;
    // The labels are the core's static text (term_label's table), so their data() is a C string.
    for (const Term& t : r.term_list)
        segments.push_back({t.label.data(), t.bytes, term_color(static_cast<int>(term_rank(t.id)))});
    const std::int64_t overflow = r.terms.kv_requested_bytes - r.terms.kv_granted_bytes;  // every KV kind, not only growing
    const ImU32 budget = verdict_color(Verdict::tight, app.ui.dark_theme);
    const ImU32 vram = ImGui::GetColorU32(ImGuiCol_Text);
    // Scaled to the card: KV that is asked for but not granted is drawn up to the bar's end (the legend says how much).
    const std::int64_t scale = std::max(r.settings.vram_bytes, r.terms.total_bytes) * 21 / 20;
    ImGui::Text("Each of %d card%s (tensor_parallel_size %d):", r.settings.tensor_parallel_size,
                r.settings.tensor_parallel_size == 1 ? "" : "s", r.settings.tensor_parallel_size);
    stacked_bar(segments, overflow, {{"budget", r.terms.budget_bytes, budget}, {"VRAM", r.settings.vram_bytes, vram}},
                scale, app.ui.unit);
}

void result_banner(App& app) {
    const Report& r = app.report;
    std::string title = std::string(verdict_name(r.verdict)) + " · " + format_bytes(r.terms.total_bytes, app.ui.unit) +
                        " of " + format_bytes(r.terms.budget_bytes, app.ui.unit) + " budget per card";
    app.ui.drawn_text["result_banner"] = verdict_banner(
        app.ui, r.verdict, title, verdict_sentence(app) + "\nLargest term: " + std::string(term_label(r.limiting_term)) + ".");
}

void verdict_summary(App& app) {
    if (app.report.ok) result_banner(app);
    else invalid_banner(app);
    ImGui::Spacing();
}

bool sticky_verdict(App& app) {
    const Verdict v = app.report.ok ? app.report.verdict : Verdict::fail;
    const ImU32 color = verdict_color(v, app.ui.dark_theme);
    ImVec4 tint = ImGui::ColorConvertU32ToFloat4(color);
    tint.w = 0.10f;
    const float em = ImGui::GetFontSize();
    const float w = ImGui::GetContentRegionAvail().x;
    const float h = std::max(ImGui::GetFrameHeight(), em * 2.0f);
    const std::string more = "  ▾";
    std::string line = verdict_line(app);
    for (int level = 1; level < kVerdictLineLevels && ImGui::CalcTextSize((line + more).c_str()).x > w - em; ++level)
        line = verdict_line(app, level);  // the widest wording that fits the screen
    app.ui.sticky_line = line;
    app.ui.sticky_clipped = ImGui::CalcTextSize((line + more).c_str()).x > w - em;
    const ImVec2 p = ImGui::GetCursorScreenPos();
    describe_next_item("Verdict, show the result", line);
    const bool tapped = ImGui::InvisibleButton("##sticky_verdict", ImVec2(w, h));
    record_hitbox(app.ui, "sticky_verdict");
    ImDrawList* draw = ImGui::GetWindowDrawList();
    draw->AddRectFilled(p, ImVec2(p.x + w, p.y + h), ImGui::ColorConvertFloat4ToU32(tint), em * 0.3f);
    draw->AddRect(p, ImVec2(p.x + w, p.y + h), color, em * 0.3f);
    draw->PushClipRect(p, ImVec2(p.x + w, p.y + h), true);
    draw->AddText(ImVec2(p.x + em * 0.5f, p.y + (h - em) * 0.5f), color, (line + more).c_str());
    draw->PopClipRect();
    if (ImGui::IsItemHovered() && !app.ui.touch_input) ImGui::SetTooltip("Show the result");
    return tapped;
}

void panel_result(App& app) {
    const Report& r = app.report;
    if (!r.ok) {
        invalid_banner(app);
        return;
    }
    result_banner(app);
    result_bar(app);
    ImGui::Spacing();
    term_table(app);
    startup_numbers(app);
    for (const std::string& note : r.notes) bullet_wrapped(note);
    for (const Diagnostic& d : r.diagnostics)
        if (d.severity != Severity::error) bullet_wrapped(d.message);
}

}  // namespace kvcalc::ui

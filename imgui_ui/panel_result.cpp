// Result panel: verdict banner, per-card stacked bar against the budget and VRAM lines, term table, start-up.
#include <algorithm>
#include <cmath>

#include "kvcalc/units.h"
#include "panels.h"
#include "text_export.h"
#include "widgets.h"

namespace kvcalc::ui {

namespace {

void invalid_banner(const App& app) {
    std::string detail;
    for (const Diagnostic& d : app.report.diagnostics)
        if (d.severity == Severity::error) detail += d.message + "\n";
    verdict_banner(Verdict::fail, app.ui.dark_theme, "Cannot evaluate these settings",
                   detail.empty() ? "unknown error" : detail);
}

void term_table(const App& app) {
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
    int i = 0;
    for (const NamedTerm& t : budget_terms(r)) {
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        const ImVec2 p = ImGui::GetCursorScreenPos();
        const float em = ImGui::GetFontSize();
        ImGui::GetWindowDrawList()->AddRectFilled(ImVec2(p.x, p.y + em * 0.2f), ImVec2(p.x + em * 0.7f, p.y + em * 0.9f),
                                                  term_color(i++));
        ImGui::Dummy(ImVec2(em * 0.8f, em));
        ImGui::SameLine();
        ImGui::TextUnformatted(t.label);
        ImGui::TableNextColumn();
        ImGui::Text("%.2f", bytes_to_gib(t.bytes));
        ImGui::TableNextColumn();
        ImGui::Text("%.2f", bytes_to_gb(t.bytes));
    }
    if (r.terms.kv_growing_requested_bytes != r.terms.kv_growing_granted_bytes)
        row("KV requested (all sequences)", r.terms.kv_growing_requested_bytes, false);
    row("Total vLLM reserves", r.terms.total_bytes, true);
    row("Budget (utilization × VRAM)", r.terms.budget_bytes, true);
    row("VRAM per card", r.settings.vram_bytes, false);
    ImGui::EndTable();
}

/// What the engine prints at start-up, as the core predicts it from the per-rank KV room (Report::startup,
/// engine_rules.h): vLLM's available KV memory, KV cache size in tokens, maximum concurrency, or its refusal.
void startup_numbers(const App& app) {
    const StartupPrediction& st = app.report.startup;
    if (!st.available) {
        for (const std::string& n : st.notes) ImGui::TextDisabled("%s", n.c_str());
        return;
    }
    const std::string& engine = app.report.engine;
    ImGui::Text("Predicted %s start-up log:", engine.c_str());
    ImGui::Indent();
    ImGui::PushTextWrapPos(0.0f);
    if (engine == "llama.cpp") {
        ImGui::Text("KV cache size (all devices): %s", format_bytes(st.llama_cpp_kv_total_bytes, app.ui.unit).c_str());
    } else {
        ImGui::Text("Available KV cache memory: %.2f GiB", st.available_kv_gib);
        ImGui::Text("%s: %s tokens", engine == "sglang" ? "max_total_num_tokens" : "GPU KV cache size",
                    format_count(st.gpu_kv_cache_tokens).c_str());
        if (engine == "vllm")
            ImGui::Text("Maximum concurrency for %s tokens per request: %.2fx",
                        format_count(app.report.settings.max_model_len).c_str(), st.max_concurrency);
        if (st.refuses_to_start) {
            ImGui::TextColored(ImVec4(0.95f, 0.35f, 0.3f, 1.0f), "Refuses to start: not enough KV cache for one request");
            if (st.estimated_max_model_len > 0)
                ImGui::Text("Estimated maximum model length: %s", format_count(st.estimated_max_model_len).c_str());
        }
    }
    for (const std::string& n : st.notes) ImGui::TextDisabled("%s", n.c_str());
    ImGui::PopTextWrapPos();
    ImGui::Unindent();
    ImGui::TextDisabled("%s; KV per token per rank: %s B", st.engine_rules.c_str(),
                        format_count(st.kv_bytes_per_token).c_str());
}

}  // namespace

void result_bar(const App& app) {
    const Report& r = app.report;
    std::vector<BarSegment> segments;
    int i = 0;
    for (const NamedTerm& t : budget_terms(r)) segments.push_back({t.label, t.bytes, term_color(i++)});
    const std::int64_t overflow = r.terms.kv_growing_requested_bytes - r.terms.kv_growing_granted_bytes;
    const ImU32 budget = verdict_color(Verdict::tight, app.ui.dark_theme);
    const ImU32 vram = ImGui::GetColorU32(ImGuiCol_Text);
    const std::int64_t scale =
        std::max({r.settings.vram_bytes, r.terms.demand_bytes, r.terms.total_bytes}) * 21 / 20;
    ImGui::Text("Each of %d card%s (tensor_parallel_size %d):", r.settings.tensor_parallel_size,
                r.settings.tensor_parallel_size == 1 ? "" : "s", r.settings.tensor_parallel_size);
    stacked_bar(segments, overflow, {{"budget", r.terms.budget_bytes, budget}, {"VRAM", r.settings.vram_bytes, vram}},
                scale, app.ui.unit);
}

void result_banner(const App& app) {
    const Report& r = app.report;
    std::string title = std::string(verdict_name(r.verdict)) + " · " + format_bytes(r.terms.total_bytes, app.ui.unit) +
                        " of " + format_bytes(r.terms.budget_bytes, app.ui.unit) + " budget per card";
    verdict_banner(r.verdict, app.ui.dark_theme, title,
                   r.reason + "\nLargest term: " + term_label(r.limiting_term) + ".");
}

void verdict_summary(const App& app) {
    if (app.report.ok) result_banner(app);
    else invalid_banner(app);
    ImGui::Spacing();
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

// Calibration: every measured boot with its predicted peak and verdict, and the overall score.
#include "kvcalc/units.h"
#include "panels.h"
#include "widgets.h"

namespace kvcalc::ui {

void panel_calibration(App& app) {
    if (!app.calibration_done) {  // 19 predictions: run once, the first time the panel is open
        app.calibration = run_calibration();
        app.calibration_done = true;
    }
    const CalibrationSummary& c = app.calibration;
    ImGui::Text("Score: %d of %d measured boots predicted to boot (not FAIL)", c.correct, c.total);
    for (const CalibrationModelScore& m : c.per_model)
        ImGui::BulletText("%s: %d / %d", m.model_id.c_str(), m.correct, m.total);
    const float em = ImGui::GetFontSize();
    const ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_ScrollY | ImGuiTableFlags_BordersInnerH |
                                  ImGuiTableFlags_SizingStretchProp;
    if (!ImGui::BeginTable("##calibration", 4, flags, ImVec2(0, em * 14.0f))) return;
    ImGui::TableSetupScrollFreeze(0, 1);
    ImGui::TableSetupColumn("Row", ImGuiTableColumnFlags_WidthStretch, 2.2f);
    ImGui::TableSetupColumn("Measured GiB", ImGuiTableColumnFlags_WidthStretch, 1.2f);
    ImGui::TableSetupColumn("Predicted GiB", ImGuiTableColumnFlags_WidthStretch, 1.2f);
    ImGui::TableSetupColumn("Verdict", ImGuiTableColumnFlags_WidthStretch, 1.0f);
    ImGui::TableHeadersRow();
    for (const CalibrationResult& r : c.results) {
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        ImGui::TextUnformatted(r.row_id.c_str());
        if (r.circular && ImGui::IsItemHovered())
            ImGui::SetTooltip("The measured value was derived from the budget, so it cannot confirm the prediction.");
        ImGui::TableNextColumn();
        ImGui::Text("%.2f%s", bytes_to_gib(r.measured_peak_bytes), r.circular ? " *" : "");
        ImGui::TableNextColumn();
        if (r.report.ok) ImGui::Text("%.2f", bytes_to_gib(r.report.terms.total_bytes));
        else ImGui::TextDisabled("—");
        ImGui::TableNextColumn();
        const Verdict v = r.report.ok ? r.report.verdict : Verdict::fail;
        ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(verdict_color(v, app.ui.dark_theme)), "%s%s",
                           r.report.ok ? verdict_name(v) : "invalid", r.correct ? "" : " (wrong)");
    }
    ImGui::EndTable();
    ImGui::TextDisabled("* circular: measured from the budget. \"(wrong)\": the row booted but was predicted FAIL.");
}

}  // namespace kvcalc::ui

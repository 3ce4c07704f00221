// Calibration: every measured boot with its predicted peak and verdict, and the overall score.
#include "kvcalc/base/units.h"
#include "panels.h"
#include "widgets.h"

namespace kvcalc::ui {

void panel_calibration(App& app) {
    if (!app.calibration_done) {  // 19 predictions: run once, the first time the panel is open
        app.calibration = run_calibration();
        app.calibration_done = true;
    }
    const CalibrationSummary& c = app.calibration;
    ImGui::Text("Score: %d of %d measured boots predicted to boot, with the measured peak inside the band", c.correct,
                c.total);
    for (const CalibrationModelScore& m : c.per_model)
        ImGui::BulletText("%s: %d / %d", m.model_id.c_str(), m.correct, m.total);
    const float em = ImGui::GetFontSize();
    const ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_ScrollY | ImGuiTableFlags_BordersInnerH |
                                  ImGuiTableFlags_SizingStretchProp;
    if (!ImGui::BeginTable("##calibration", 4, flags, ImVec2(0, em * 14.0f))) return;
    ImGui::TableSetupScrollFreeze(0, 1);
    ImGui::TableSetupColumn("Measured boot", ImGuiTableColumnFlags_WidthStretch, 2.4f);
    ImGui::TableSetupColumn(unit_name(app.ui.unit), ImGuiTableColumnFlags_WidthStretch, 1.0f);
    ImGui::TableSetupColumn("kvcalc", ImGuiTableColumnFlags_WidthStretch, 1.0f);
    ImGui::TableSetupColumn("Verdict", ImGuiTableColumnFlags_WidthStretch, 1.1f);
    ImGui::TableHeadersRow();
    for (const CalibrationResult& r : c.results) {
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        const ResolvedSettings& rs = r.report.settings;  // name the boot by what was run, not by its table row
        const std::string label = r.report.ok ? std::string(rs.display_name) + " · " + short_tokens(rs.max_model_len) + " × " +
                                                    std::to_string(rs.max_num_seqs)
                                              : r.model_id;
        ImGui::TextUnformatted(label.c_str());
        if (r.circular && ImGui::IsItemHovered())
            ImGui::SetTooltip("The measured value was derived from the budget, so it cannot confirm the prediction.");
        ImGui::TableNextColumn();
        ImGui::Text("%.2f%s", in_unit(r.measured_peak_bytes, app.ui.unit), r.circular ? " *" : "");
        ImGui::TableNextColumn();
        if (r.report.ok) ImGui::Text("%.2f", in_unit(r.report.terms.total_bytes, app.ui.unit));
        else ImGui::TextDisabled("—");
        ImGui::TableNextColumn();
        const Verdict v = r.report.ok ? r.report.verdict : Verdict::fail;
        ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(verdict_color(v, app.ui.dark_theme)), "%s%s",
                           r.report.ok ? verdict_name(v) : "invalid", r.correct ? "" : " (wrong)");
    }
    ImGui::EndTable();
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextDisabled("Measured and predicted memory per card in %s. * circular: measured from the budget. "
                        "\"(wrong)\": the row booted but was predicted FAIL. These boots cover the Qwen 3.6 and "
                        "Gemma 4 families only.", unit_name(app.ui.unit));
    ImGui::PopTextWrapPos();
}

}  // namespace kvcalc::ui

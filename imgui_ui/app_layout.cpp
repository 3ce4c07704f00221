// Frame layout: header, then the panels side by side on a desktop or in one scrolling column on a phone.
#include <imgui.h>

#include "app.h"
#include "panels.h"
#include "theme.h"
#include "touch_scroll.h"
#include "widgets.h"

namespace kvcalc::ui {

namespace {

constexpr float kNarrowBelowPx = 760.0f;   ///< single column below this width (CSS px)
constexpr float kThreeColumnsPx = 1180.0f; ///< three columns from this width

bool section(const char* title, bool open_by_default = true) {
    ImGui::Spacing();
    return ImGui::CollapsingHeader(title, open_by_default ? ImGuiTreeNodeFlags_DefaultOpen : 0);
}

/// Title, theme and unit switches. Theme/unit only change the view (and the URL), not the scenario.
void header(App& app) {
    ImGui::TextUnformatted("kvcalc");
    ImGui::SameLine();
    ImGui::TextDisabled(app.ui.narrow_layout ? "will it fit?" : "will this LLM fit on my GPUs with vLLM?");
    const float em = ImGui::GetFontSize();
    ImGui::SameLine(ImGui::GetWindowContentRegionMax().x - em * 12.5f);
    if (ImGui::SmallButton(app.ui.unit == ByteUnit::gib ? "unit: GiB" : "unit: GB")) {
        app.ui.unit = app.ui.unit == ByteUnit::gib ? ByteUnit::gb : ByteUnit::gib;
        app.url_dirty = true;
    }
    record_hitbox(app.ui, "unit");
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("Unit of every figure: GiB = 2^30 B, GB = 10^9 B. Tap to switch.");
    ImGui::SameLine();
    if (ImGui::SmallButton(app.ui.dark_theme ? "Light theme" : "Dark theme")) {
        app.ui.dark_theme = !app.ui.dark_theme;
        app.ui.theme_applied = false;
        app.url_dirty = true;
    }
    record_hitbox(app.ui, "theme");
    ImGui::Separator();
}

bool inputs_column(App& app) {
    bool changed = false;
    if (section("Model")) changed |= panel_model(app);
    if (section("Hardware")) changed |= panel_hardware(app);
    if (section("Serving")) changed |= panel_serving(app);
    return changed;
}

void result_column(App& app) {
    if (section("Result")) panel_result(app);
    if (section("Cache buckets")) panel_buckets(app);
}

bool analysis_column(App& app, bool narrow) {
    bool changed = false;
    if (section("Solver")) changed |= panel_solver(app);
    if (section("GPU shopping", !narrow)) changed |= panel_shopping(app);
    if (section("Share")) panel_share(app);
    if (section("Calibration", false)) panel_calibration(app);
    return changed;
}

/// A full-height child column; returns what the body returned.
template <class Body>
bool column(const char* id, float width, Body body) {
    ImGui::BeginChild(id, ImVec2(width, 0), false);
    const bool changed = body();
    ImGui::EndChild();
    return changed;
}

}  // namespace

bool draw_app(App& app, float view_w, float view_h) {
    const bool narrow = view_w < kNarrowBelowPx;
    if (narrow != app.ui.narrow_layout || !app.ui.theme_applied) {
        app.ui.narrow_layout = narrow;
        apply_theme(app.ui.dark_theme, narrow);
        app.ui.theme_applied = true;
    }
    const bool url_was_dirty = app.url_dirty;
    ImGui::SetNextWindowPos(ImVec2(0, 0));
    ImGui::SetNextWindowSize(ImVec2(view_w, view_h));
    const ImGuiWindowFlags root_flags = ImGuiWindowFlags_NoTitleBar | ImGuiWindowFlags_NoResize |
                                        ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoCollapse |
                                        ImGuiWindowFlags_NoBringToFrontOnFocus |
                                        (narrow || app.ui.embed ? 0 : ImGuiWindowFlags_NoScrollbar);
    ImGui::Begin("kvcalc", nullptr, root_flags);
    bool changed = false;
    if (!app.ui.embed) header(app);
    panel_url_warnings(app);
    if (app.ui.embed) {
        panel_embed(app);
    } else if (narrow) {
        verdict_summary(app);
        changed |= inputs_column(app);
        result_column(app);
        changed |= analysis_column(app, true);
    } else {
        const float spacing = ImGui::GetStyle().ItemSpacing.x;
        const float avail = ImGui::GetContentRegionAvail().x;
        if (view_w >= kThreeColumnsPx) {
            const float w = (avail - 2 * spacing) / 3.0f;
            changed |= column("##inputs", w, [&] { return inputs_column(app); });
            ImGui::SameLine();
            column("##result", w, [&] { result_column(app); return false; });
            ImGui::SameLine();
            changed |= column("##analysis", 0, [&] { return analysis_column(app, false); });
        } else {
            const float w = (avail - spacing) * 0.42f;
            changed |= column("##inputs", w, [&] { return inputs_column(app); });
            ImGui::SameLine();
            changed |= column("##rest", 0, [&] {
                result_column(app);
                return analysis_column(app, false);
            });
        }
    }
    drag_to_scroll(app.ui);
    ImGui::End();
    if (changed) app.dirty = true;
    return changed || app.url_dirty != url_was_dirty || !app.ui.theme_applied;
}

}  // namespace kvcalc::ui

// Frame layout: header, then the panels side by side on a desktop or in one scrolling column on a phone.
#include <algorithm>

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
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted("kvcalc");
    ImGui::SameLine();
    ImGui::TextDisabled(app.ui.narrow_layout ? "will it fit?" : "will this LLM fit on my GPUs with vLLM?");
    const char* unit = app.ui.unit == ByteUnit::gib ? "Units: GiB" : "Units: GB";
    const char* theme = app.ui.dark_theme ? "Theme: dark" : "Theme: light";
    const ImGuiStyle& st = ImGui::GetStyle();
    const float pad = (app.ui.touch_layout ? st.FramePadding.x : st.FramePadding.x) * 2;
    const float w = ImGui::CalcTextSize(unit).x + ImGui::CalcTextSize(theme).x + pad * 2 + st.ItemSpacing.x;
    ImGui::SameLine(std::max(ImGui::GetCursorPosX(), ImGui::GetWindowContentRegionMax().x - w));
    if (tap_button(app.ui, unit)) {
        app.ui.unit = app.ui.unit == ByteUnit::gib ? ByteUnit::gb : ByteUnit::gib;
        app.url_dirty = true;
    }
    record_hitbox(app.ui, "unit");
    if (ImGui::IsItemHovered() && !app.ui.touch_input)
        ImGui::SetTooltip("Unit of every figure: GiB = 2^30 B, GB = 10^9 B. Click to switch.");
    ImGui::SameLine();
    if (tap_button(app.ui, theme)) {
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
    changed |= panel_gguf(app);  // its own collapsing header, open while a GGUF model is in use
    if (section("Hardware")) changed |= panel_hardware(app);
    if (section("Context")) changed |= panel_context(app);
    if (!app.ui.narrow_layout && section("Serving")) changed |= panel_serving(app);
    return changed;
}

/// The start-up log sits right under the Result: its lines are read against the verdict above them.
bool log_section(App& app) { return section("Start-up log") && panel_log(app); }

bool result_column(App& app) {
    app.ui.result_scroll_y = ImGui::GetCursorPosY();
    if (section("Result")) panel_result(app);
    const bool changed = log_section(app);
    if (section("Cache buckets", !app.ui.narrow_layout)) panel_buckets(app);
    return changed;
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

/// Phones: the header and the one-line verdict stay put; everything else scrolls below them, with the Result
/// directly under the three questions (model, hardware, context) and the other settings after it.
bool phone_page(App& app) {
    if (sticky_verdict(app)) app.ui.scroll_to_result = true;
    // No scrollbar: a finger scrolls the page, and a thumb landing on a 6 px bar would jump it to that spot.
    ImGui::BeginChild("##page", ImVec2(0, 0), false, ImGuiWindowFlags_NoScrollbar);
    panel_url_warnings(app);
    bool changed = inputs_column(app);
    changed |= result_column(app);
    if (section("Serving")) changed |= panel_serving(app);
    changed |= analysis_column(app, true);
    if (app.ui.scroll_to_result) {
        ImGui::SetScrollY(std::max(0.0f, app.ui.result_scroll_y - ImGui::GetStyle().ItemSpacing.y));
        app.ui.scroll_to_result = false;
    }
    drag_to_scroll(app.ui);
    ImGui::EndChild();
    return changed;
}

}  // namespace

bool draw_app(App& app, float view_w, float view_h) {
    const bool narrow = view_w < kNarrowBelowPx;
    const bool touch = narrow || app.ui.coarse_pointer;
    app.ui.view_h = view_h;
    app.ui.text_fields.clear();
    app.ui.hitboxes.clear();
    app.ui.drawn_text.clear();  // only what this frame draws (a closed combo's rows must not linger)
    if (narrow != app.ui.narrow_layout || touch != app.ui.touch_layout || !app.ui.theme_applied) {
        app.ui.narrow_layout = narrow;
        app.ui.touch_layout = touch;
        apply_theme(app.ui.dark_theme, touch);
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
    if (app.ui.embed) {
        panel_url_warnings(app);
        panel_embed(app);
    } else if (narrow) {
        changed |= phone_page(app);
    } else {
        panel_url_warnings(app);
        const float spacing = ImGui::GetStyle().ItemSpacing.x;
        const float avail = ImGui::GetContentRegionAvail().x;
        if (view_w >= kThreeColumnsPx) {
            const float w = (avail - 2 * spacing) / 3.0f;
            changed |= column("##inputs", w, [&] { return inputs_column(app); });
            ImGui::SameLine();
            changed |= column("##result", w, [&] { return result_column(app); });
            ImGui::SameLine();
            changed |= column("##analysis", 0, [&] { return analysis_column(app, false); });
        } else {
            const float w = (avail - spacing) * 0.42f;
            changed |= column("##inputs", w, [&] { return inputs_column(app); });
            ImGui::SameLine();
            changed |= column("##rest", 0, [&] {
                const bool log_changed = result_column(app);
                return analysis_column(app, false) || log_changed;
            });
        }
    }
    if (!narrow) drag_to_scroll(app.ui);
    hold_scroll_anchor(app.ui, changed);
    ImGui::End();
    if (changed) app.dirty = true;
    return changed || app.url_dirty != url_was_dirty || !app.ui.theme_applied;
}

}  // namespace kvcalc::ui

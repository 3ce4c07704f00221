// Drag-to-scroll on top of ImGui's internal window data (the public API has no "window under the mouse").
#include "touch_scroll.h"

#include <cmath>
#include <limits>

#include <imgui.h>
#include <imgui_internal.h>

namespace kvcalc::ui {

namespace {

/// Scrolls `w` by `dy` (content moves with the finger); what `w` cannot take at its top or bottom goes to the next
/// scrollable parent, so a swipe on an inner list that reached its end keeps moving the page.
void scroll_chain(ImGuiWindow* w, float dy) {
    while (w && dy != 0.0f) {
        if (w->ScrollMax.y > 0.0f) {
            const float target = w->Scroll.y - dy;
            const float clamped = std::fmin(std::fmax(target, 0.0f), w->ScrollMax.y);
            ImGui::SetScrollY(w, clamped);
            dy = clamped - target;  // the part of the move this window could not take (sign: same as the finger)
            if (std::fabs(dy) < 0.5f) return;
        }
        if (!(w->Flags & ImGuiWindowFlags_ChildWindow)) return;
        w = w->ParentWindow;
    }
}

}  // namespace

void drag_to_scroll(UiState& ui) {
    ImGuiContext& g = *ImGui::GetCurrentContext();
    const ImGuiIO& io = ImGui::GetIO();
    if (!io.MouseDown[0]) {
        ui.drag_scroll_window = 0;
        ui.drag_scrolling = false;
        ui.slider_sideways = false;
        return;
    }
    if (ImGui::IsMouseClicked(0)) {
        ui.drag_scroll_window = 0;
        ui.drag_scrolling = false;
        if (!ui.touch_input && ImGui::IsAnyItemHovered()) return;  // a mouse drag on a widget belongs to it
        ImGuiWindow* w = g.HoveredWindow;
        while (w && w->ScrollMax.y <= 0.0f && (w->Flags & ImGuiWindowFlags_ChildWindow)) w = w->ParentWindow;
        if (w && w->ScrollMax.y > 0.0f) ui.drag_scroll_window = w->ID;
        ui.drag_start_x = io.MousePos.x;
        ui.drag_start_y = io.MousePos.y;
        return;
    }
    if (ui.drag_scroll_window == 0) return;
    ImGuiWindow* w = ImGui::FindWindowByID(ui.drag_scroll_window);
    if (!w) return;
    if (!ui.drag_scrolling) {
        const float dx = io.MousePos.x - ui.drag_start_x, dy = io.MousePos.y - ui.drag_start_y;
        const bool vertical = std::fabs(dy) > ImGui::GetFontSize() * 0.5f && std::fabs(dy) > 2.0f * std::fabs(dx);
        if (!vertical || (io.WantTextInput && !ui.touch_input)) return;  // a mouse may be selecting text
        ui.drag_scrolling = true;
        scroll_chain(w, dy);  // catch up with the finger
    } else if (io.MouseDelta.y != 0.0f) {
        scroll_chain(w, io.MouseDelta.y);
    }
    if (g.ActiveId != 0) ImGui::ClearActiveID();  // the button, row or slider under the finger must not fire
}

namespace {

constexpr double kAnchorSeconds = 1.5;  ///< long enough for the recompute and the frames after it

/// The hitbox of `anchor.at_change` still drawn now that the finger was on, else the one nearest it vertically.
std::string pick_anchor(const UiState& ui) {
    const ScrollAnchor& a = ui.anchor;
    std::string best;
    float best_d = std::numeric_limits<float>::max();
    for (const auto& [name, then] : a.at_change) {
        if (!ui.hitboxes.count(name)) continue;  // e.g. a combo row: the popup closed
        const bool inside_x = a.finger_x >= then.x && a.finger_x <= then.x + then.w;
        float d = a.finger_y < then.y ? then.y - a.finger_y : a.finger_y > then.y + then.h ? a.finger_y - then.y - then.h : 0.0f;
        if (!inside_x) d += 0.5f;  // same row but beside it: a close second
        if (d < best_d) {
            best_d = d;
            best = name;
        }
    }
    return best;
}

}  // namespace

void hold_scroll_anchor(UiState& ui, bool changed) {
    const ImGuiIO& io = ImGui::GetIO();
    ScrollAnchor& a = ui.anchor;
    if (ImGui::IsMouseClicked(0) || io.MouseWheel != 0.0f || ui.drag_scrolling || ImGui::GetTime() > a.until) {
        a.at_change.clear();
        a.name.clear();
    }
    if (!a.at_change.empty()) {
        if (a.name.empty()) a.name = pick_anchor(ui);
        const auto then = a.at_change.find(a.name);
        const auto now = ui.hitboxes.find(a.name);
        if (then != a.at_change.end() && now != ui.hitboxes.end()) {
            const float dy = now->second.y - then->second.y;
            ImGuiWindow* w = ImGui::FindWindowByID(now->second.window);
            while (w && w->ScrollMax.y <= 0.0f && (w->Flags & ImGuiWindowFlags_ChildWindow)) w = w->ParentWindow;
            if (w && w->ScrollMax.y > 0.0f && std::fabs(dy) >= 1.0f &&
                w->ScrollTarget.y == std::numeric_limits<float>::max()) {
                ImGui::SetScrollY(w, w->Scroll.y + dy);  // applied when the window begins next frame
                a.corrected += dy;
            }
        }
    }
    if (changed) {
        a.at_change = ui.hitboxes;
        a.finger_x = io.MouseClickedPos[0].x;
        a.finger_y = io.MouseClickedPos[0].y;
        a.name.clear();
        a.until = ImGui::GetTime() + kAnchorSeconds;
        a.corrected = 0;
    }
}

}  // namespace kvcalc::ui

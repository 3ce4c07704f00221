// Drag-to-scroll on top of ImGui's internal window data (the public API has no "window under the mouse").
#include "touch_scroll.h"

#include <cmath>

#include <imgui.h>
#include <imgui_internal.h>

namespace kvcalc::ui {

void drag_to_scroll(UiState& ui) {
    ImGuiContext& g = *ImGui::GetCurrentContext();
    const ImGuiIO& io = ImGui::GetIO();
    if (!io.MouseDown[0]) {
        ui.drag_scroll_window = 0;
        ui.drag_scrolling = false;
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
        if (!vertical || io.WantTextInput) return;
        ui.drag_scrolling = true;
        ImGui::SetScrollY(w, w->Scroll.y - dy);  // catch up with the finger
    } else if (io.MouseDelta.y != 0.0f) {
        ImGui::SetScrollY(w, w->Scroll.y - io.MouseDelta.y);
    }
    if (g.ActiveId != 0) ImGui::ClearActiveID();  // the button, row or slider under the finger must not fire
}

}  // namespace kvcalc::ui

// Drag-to-scroll on top of ImGui's internal window data (the public API has no "window under the mouse").
#include "touch_scroll.h"

#include <imgui.h>
#include <imgui_internal.h>

namespace kvcalc::ui {

void drag_to_scroll(UiState& ui) {
    ImGuiContext& g = *ImGui::GetCurrentContext();
    const ImGuiIO& io = ImGui::GetIO();
    if (!io.MouseDown[0]) {
        ui.drag_scroll_window = 0;
        return;
    }
    if (ImGui::IsMouseClicked(0)) {
        ui.drag_scroll_window = 0;
        if (ImGui::IsAnyItemHovered() || ImGui::IsAnyItemActive()) return;
        ImGuiWindow* w = g.HoveredWindow;
        while (w && w->ScrollMax.y <= 0.0f && (w->Flags & ImGuiWindowFlags_ChildWindow)) w = w->ParentWindow;
        if (w && w->ScrollMax.y > 0.0f) ui.drag_scroll_window = w->ID;
        return;
    }
    // Pressing a window's background makes its move handle the active id (even with NoMove): that one is ours.
    const bool widget_active = g.ActiveId != 0 && !(g.ActiveIdWindow && g.ActiveId == g.ActiveIdWindow->MoveId);
    if (ui.drag_scroll_window == 0 || io.MouseDelta.y == 0.0f || widget_active) return;
    if (ImGuiWindow* w = ImGui::FindWindowByID(ui.drag_scroll_window)) ImGui::SetScrollY(w, w->Scroll.y - io.MouseDelta.y);
}

}  // namespace kvcalc::ui

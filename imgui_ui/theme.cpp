// Styles: ImGui's dark/light colours with softer corners and larger padding on touch screens.
#include "theme.h"

#include <imgui.h>

namespace kvcalc::ui {

void apply_theme(bool dark, bool touch_friendly) {
    ImGuiStyle style;
    if (dark) ImGui::StyleColorsDark(&style);
    else ImGui::StyleColorsLight(&style);
    style.WindowRounding = 0.0f;
    style.ChildRounding = 4.0f;
    style.FrameRounding = 4.0f;
    style.GrabRounding = 4.0f;
    style.WindowBorderSize = 0.0f;
    style.FramePadding = touch_friendly ? ImVec2(8.0f, 7.0f) : ImVec2(6.0f, 4.0f);
    style.ItemSpacing = touch_friendly ? ImVec2(8.0f, 8.0f) : ImVec2(8.0f, 5.0f);
    style.GrabMinSize = touch_friendly ? 22.0f : 12.0f;
    style.ScrollbarSize = touch_friendly ? 6.0f : 14.0f;
    style.TouchExtraPadding = touch_friendly ? ImVec2(4.0f, 4.0f) : ImVec2(0.0f, 0.0f);
    if (dark) {
        style.Colors[ImGuiCol_WindowBg] = ImVec4(0.11f, 0.15f, 0.20f, 1.0f);
        style.Colors[ImGuiCol_ChildBg] = ImVec4(0.0f, 0.0f, 0.0f, 0.0f);
        style.Colors[ImGuiCol_Header] = ImVec4(0.20f, 0.30f, 0.42f, 1.0f);
    } else {
        style.Colors[ImGuiCol_WindowBg] = ImVec4(0.97f, 0.97f, 0.96f, 1.0f);
    }
    ImGui::GetStyle() = style;
}

}  // namespace kvcalc::ui

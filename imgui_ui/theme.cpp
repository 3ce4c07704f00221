// Styles: ImGui's dark/light colours with text contrast of at least 4.5:1 (WCAG AA) on the window background, and
// touch-sized targets on phones and tablets.
#include "theme.h"

#include <imgui.h>

namespace kvcalc::ui {

namespace {

/// Frame height on touch layouts is the font (16 px) + 2 × 10 = 36 px; TouchExtraPadding adds 4 px on each side,
/// so every button, field and checkbox takes a 44 px tap.
constexpr float kTouchFramePadY = 10.0f;
constexpr float kTouchExtraPad = 4.0f;

}  // namespace

void apply_theme(bool dark, bool touch_friendly) {
    ImGuiStyle style;
    if (dark) ImGui::StyleColorsDark(&style);
    else ImGui::StyleColorsLight(&style);
    style.WindowRounding = 0.0f;
    style.ChildRounding = 4.0f;
    style.FrameRounding = 4.0f;
    style.GrabRounding = 4.0f;
    style.WindowBorderSize = 0.0f;
    style.FramePadding = touch_friendly ? ImVec2(10.0f, kTouchFramePadY) : ImVec2(6.0f, 4.0f);
    style.ItemSpacing = touch_friendly ? ImVec2(8.0f, 8.0f) : ImVec2(8.0f, 5.0f);
    style.GrabMinSize = touch_friendly ? 22.0f : 12.0f;
    style.ScrollbarSize = touch_friendly ? 6.0f : 14.0f;
    style.TouchExtraPadding = touch_friendly ? ImVec2(kTouchExtraPad, kTouchExtraPad) : ImVec2(0.0f, 0.0f);
    style.SelectableTextAlign = ImVec2(0.0f, 0.5f);  // list rows are frame-high on touch: centre their text
    ImVec4* c = style.Colors;
    if (dark) {
        c[ImGuiCol_WindowBg] = ImVec4(0.11f, 0.15f, 0.20f, 1.0f);
        c[ImGuiCol_ChildBg] = ImVec4(0.0f, 0.0f, 0.0f, 0.0f);
        c[ImGuiCol_PopupBg] = ImVec4(0.09f, 0.12f, 0.16f, 0.98f);
        c[ImGuiCol_Header] = ImVec4(0.20f, 0.30f, 0.42f, 1.0f);
        c[ImGuiCol_TextDisabled] = ImVec4(0.66f, 0.69f, 0.73f, 1.0f);  // 6.1:1 on the window background
    } else {
        c[ImGuiCol_WindowBg] = ImVec4(0.97f, 0.97f, 0.96f, 1.0f);
        c[ImGuiCol_PopupBg] = ImVec4(1.0f, 1.0f, 1.0f, 0.99f);
        c[ImGuiCol_Text] = ImVec4(0.08f, 0.09f, 0.11f, 1.0f);
        c[ImGuiCol_TextDisabled] = ImVec4(0.33f, 0.35f, 0.38f, 1.0f);  // 7.0:1
        c[ImGuiCol_FrameBg] = ImVec4(0.86f, 0.88f, 0.91f, 1.0f);       // fields and radio circles visible on the page
        c[ImGuiCol_FrameBgHovered] = ImVec4(0.78f, 0.83f, 0.90f, 1.0f);
        c[ImGuiCol_Border] = ImVec4(0.45f, 0.48f, 0.52f, 0.60f);
        c[ImGuiCol_CheckMark] = ImVec4(0.10f, 0.35f, 0.75f, 1.0f);
        style.FrameBorderSize = 1.0f;
    }
    // The keyboard focus ring (keyboard_nav.cpp draws it 3 px wide): amber #FFD166 on the dark background (11:1),
    // dark blue #0040A6 on the light one (9:1), both far above WCAG's 3:1 for focus indicators.
    c[ImGuiCol_NavHighlight] = dark ? ImVec4(1.0f, 0.82f, 0.40f, 1.0f) : ImVec4(0.0f, 0.25f, 0.65f, 1.0f);
    ImGui::GetStyle() = style;
}

}  // namespace kvcalc::ui

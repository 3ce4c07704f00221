// Drag-to-scroll: ImGui scrolls with the wheel and the scrollbar only; phones need the content to follow a finger.
#pragma once
#include "app.h"

namespace kvcalc::ui {

/// Call once per frame after every window was submitted. A press that does not land on an interactive item starts
/// a drag that scrolls the window under it (or the nearest scrollable parent) until release.
void drag_to_scroll(UiState& ui);

}  // namespace kvcalc::ui

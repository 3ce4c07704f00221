// Drag-to-scroll: ImGui scrolls with the wheel and the scrollbar only; phones need the content to follow a finger.
#pragma once
#include "app.h"

namespace kvcalc::ui {

/// Call once per frame after every window was submitted. A press that turns into a mostly vertical drag scrolls
/// the window under it (or the nearest scrollable parent) until release, and the widget it began on is released
/// without firing (as on a phone). Text being edited keeps the drag. With a mouse only presses on the background
/// scroll.
void drag_to_scroll(UiState& ui);

/// Call once per frame after every window was submitted (and after drag_to_scroll), with whether the user changed
/// something this frame. After a change, the control nearest the finger is held at its place on screen for a
/// moment: if the new layout moved it, the window holding it (or the nearest scrollable parent) scrolls by as
/// much. A new press, a wheel turn or a drag lets go.
void hold_scroll_anchor(UiState& ui, bool changed);

}  // namespace kvcalc::ui

// Keyboard use and the screen-reader mirror of the canvas: every labelled Dear ImGui item of a frame is learnt
// through Dear ImGui's test-engine hooks (IMGUI_ENABLE_TEST_ENGINE, imgui_internal.h), Tab / Shift+Tab walk them in
// the order they are drawn (Dear ImGui 1.86's own Tab reaches text fields only, and only inside one window), the
// focused one gets a strong ring, and its label, value and help are handed to the page as text.
#pragma once
#include <string>

#include "app.h"

namespace kvcalc::ui {

/// Names the next item the panels submit (a combo, a "##" field, an invisible button) and its current value, for
/// the screen-reader mirror. `label` replaces the item's own (often hidden) label; `text_field`: an InputText, which
/// Tab starts editing.
void describe_next_item(const std::string& label, const std::string& value = {}, bool text_field = false);

/// The next item is a text field showing `value`: named `label` unless describe_next_item named it already.
void describe_next_text_field(const std::string& label, const std::string& value);

/// Attaches `help` to the last labelled item (help_marker calls it before drawing its "(?)" button) and returns
/// that item's label ("" when there is none).
std::string describe_help_for_last_item(const std::string& help);

/// A Tab request from the page: "next", "prev", "first" (the canvas got focus by Tab), "last" (by Shift+Tab).
/// Returns false for messages that are not about navigation.
bool take_nav_message(const std::string& kind, const std::string& text);

/// After ImGui::NewFrame, before the panels: carries out a pending Tab request on the previous frame's items
/// (focus, scroll into view, start editing a text field). At either end the page moves its focus on instead.
void apply_nav_request();

/// After the panels: draws the focus ring on the keyboard-focused item and, when the focus or its value changed,
/// hands the item's description to the page (announce_focus). Then starts collecting the next frame's items.
void end_nav_frame(const UiState& ui);

/// The keyboard-focused item (last frame) takes typed text: a text field, a slider or a drag.
bool focused_is_inputable();

/// The description the mirror shows for the focused item ("" when nothing has keyboard focus).
const std::string& focused_description();

}  // namespace kvcalc::ui

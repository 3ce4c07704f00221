// The page's HTML <input> as the text entry of ImGui fields (soft keyboards, IME, clipboard): see TextProxy in app.h
// and web/text_proxy.js.
#pragma once
#include "app.h"
#include "platform.h"

namespace kvcalc::ui {

/// After a frame: tells the page when a field started or stopped being edited.
void sync_text_proxy(UiState& ui);

/// Takes a "text" / "text_done" message from the page. Returns false for other kinds (not handled here).
bool take_text_message(UiState& ui, const HostMessage& m);

/// The `inputmode` attribute for a field kind ("numeric", "decimal", "search", "url", "text").
const char* inputmode_name(FieldKind kind);

}  // namespace kvcalc::ui

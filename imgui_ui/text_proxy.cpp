// ImGui side of the text proxy: sessions start and end with ImGui's active field, edits arrive as messages.
#include "text_proxy.h"

#include <cstdlib>

#include <imgui.h>
#include <imgui_internal.h>  // GetActiveID

namespace kvcalc::ui {

const char* inputmode_name(FieldKind kind) {
    switch (kind) {
        case FieldKind::numeric: return "numeric";
        case FieldKind::decimal: return "decimal";
        case FieldKind::search: return "search";
        case FieldKind::url: return "url";
        case FieldKind::text: break;
    }
    return "text";
}

void sync_text_proxy(UiState& ui) {
    TextProxy& t = ui.text;
    if (t.session_id == 0) return;
    if (ImGui::GetActiveID() != t.session_id) {  // clicked elsewhere, Enter, a drag took over
        if (t.began) text_input_end();
        t = TextProxy{};
        return;
    }
    if (!t.began) {
        text_input_begin(t.session_id, inputmode_name(t.kind), t.imgui_text, t.imgui_sel_start, t.imgui_sel_end);
        t.began = true;
    }
}

bool take_text_message(UiState& ui, const HostMessage& m) {
    if (m.kind != "text" && m.kind != "text_done") return false;
    TextProxy& t = ui.text;
    // source: "<session>:<start>:<end>"; a message from an ended session is dropped.
    char* end = nullptr;
    const unsigned long session = std::strtoul(m.source.c_str(), &end, 10);
    if (t.session_id == 0 || session != t.session_id) return true;
    if (m.kind == "text_done") {
        t.done = true;
        return true;
    }
    int start = 0, stop = 0;
    if (end && *end == ':') {
        start = static_cast<int>(std::strtol(end + 1, &end, 10));
        if (end && *end == ':') stop = static_cast<int>(std::strtol(end + 1, &end, 10));
    }
    t.text = m.text;
    t.sel_start = start;
    t.sel_end = stop;
    t.pending = true;
    return true;
}

}  // namespace kvcalc::ui

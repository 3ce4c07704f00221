// Keyboard navigation and the focus mirror (keyboard_nav.h). The test-engine hooks below are Dear ImGui's own
// extension points: it calls ItemAdd for every item with an id and ItemInfo for the labelled widgets.
#include "keyboard_nav.h"

#include <algorithm>
#include <cstdarg>
#include <vector>

#include <imgui.h>
#include <imgui_internal.h>

#include "platform.h"

namespace kvcalc::ui {

namespace {

struct NavItem {
    ImGuiID id = 0;
    ImGuiWindow* window = nullptr;
    ImRect rect;
    std::string label;
    std::string value;
    std::string help;
    ImGuiItemStatusFlags status = 0;
    ImGuiItemFlags item_flags = 0;
    bool described = false;  ///< named by describe_next_item (its label wins over the widget's)
    bool text_field = false; ///< an InputText (Tab starts editing it)
};

struct Registry {
    std::vector<NavItem> current, previous;
    std::string next_label, next_value;
    bool next_text_field = false;
    bool has_next = false;
    std::string pending;  ///< Tab request for the next frame
    std::string announced;
    ImGuiID announced_id = 0;
    std::string description;
};

Registry& reg() {
    static Registry r;  // one per process, like Dear ImGui's own context
    return r;
}

/// The visible part of an ImGui label ("GPUs##hw" → "GPUs", "##log" → "").
std::string visible_label(const char* label) {
    if (!label) return {};
    const char* end = ImGui::FindRenderedTextEnd(label);
    return std::string(label, end);
}

NavItem* find_current(ImGuiID id) {
    auto& v = reg().current;
    for (auto it = v.rbegin(); it != v.rend(); ++it)
        if (it->id == id) return &*it;
    return nullptr;
}

bool in_popup(const ImGuiWindow* w) {
    return w && (w->Flags & (ImGuiWindowFlags_Popup | ImGuiWindowFlags_Tooltip)) != 0;
}

/// Items Tab visits: labelled, enabled, not in a popup (arrows and Escape handle an open popup), one per id.
std::vector<const NavItem*> tab_order(const std::vector<NavItem>& items) {
    std::vector<const NavItem*> out;
    for (const NavItem& it : items) {
        if (it.label.empty() || in_popup(it.window) || (it.item_flags & ImGuiItemFlags_Disabled)) continue;
        if (std::any_of(out.begin(), out.end(), [&](const NavItem* o) { return o->id == it.id; })) continue;
        out.push_back(&it);
    }
    return out;
}

std::string describe(const NavItem& it, bool editing) {
    std::string out = it.label;
    const char* role = it.text_field                                     ? "text field"
                       : (it.status & ImGuiItemStatusFlags_Checkable)    ? "checkbox"
                       : (it.status & ImGuiItemStatusFlags_Openable)     ? "section"
                       : (it.item_flags & ImGuiItemFlags_Inputable)      ? "slider"
                                                                         : "button";
    out += std::string(", ") + role;
    if (it.status & ImGuiItemStatusFlags_Checkable)
        out += (it.status & ImGuiItemStatusFlags_Checked) ? ", checked" : ", not checked";
    if (it.status & ImGuiItemStatusFlags_Openable)
        out += (it.status & ImGuiItemStatusFlags_Opened) ? ", expanded" : ", collapsed";
    if (!it.value.empty()) out += ", " + it.value;
    if (editing) out += ", editing";
    if (!it.help.empty()) out += ". " + it.help;
    return out;
}

}  // namespace

void describe_next_item(const std::string& label, const std::string& value, bool text_field) {
    Registry& r = reg();
    r.next_text_field = text_field;
    r.next_label = label;
    r.next_value = value;
    r.has_next = true;
}

void describe_next_text_field(const std::string& label, const std::string& value) {
    Registry& r = reg();
    if (!r.has_next) r.next_label = label;
    r.next_value = value;
    r.next_text_field = true;
    r.has_next = true;
}

std::string describe_help_for_last_item(const std::string& help) {
    auto& v = reg().current;
    for (auto it = v.rbegin(); it != v.rend(); ++it)
        if (!it->label.empty()) {
            it->help = help;
            return it->label;
        }
    return {};
}

bool take_nav_message(const std::string& kind, const std::string& text) {
    if (kind != "nav") return false;
    reg().pending = text;
    return true;
}

void apply_nav_request() {
    Registry& r = reg();
    if (r.pending.empty()) return;
    const std::string request = r.pending;
    r.pending.clear();
    ImGuiContext& g = *GImGui;
    const std::vector<const NavItem*> order = tab_order(r.previous);
    if (order.empty()) return;
    const ImGuiID at = g.ActiveId ? g.ActiveId : g.NavId;
    const auto here = std::find_if(order.begin(), order.end(), [&](const NavItem* it) { return it->id == at; });
    const long n = static_cast<long>(order.size());
    long to = 0;
    if (request == "first") to = 0;
    else if (request == "last") to = n - 1;
    else if (here == order.end()) to = request == "prev" ? n - 1 : 0;
    else to = (here - order.begin()) + (request == "prev" ? -1 : 1);
    if (to < 0 || to >= n) {  // past either end: the page's next (or previous) element gets the focus
        if (g.ActiveId) ImGui::ClearActiveID();
        g.NavDisableHighlight = true;
        leave_canvas(to < 0 ? -1 : 1);
        return;
    }
    const NavItem& target = *order[static_cast<std::size_t>(to)];
    if (g.ActiveId && g.ActiveId != target.id) ImGui::ClearActiveID();
    ImGui::FocusWindow(target.window);
    ImGui::SetFocusID(target.id, target.window);
    target.window->NavRectRel[ImGuiNavLayer_Main] = ImGui::WindowRectAbsToRel(target.window, target.rect);
    g.NavDisableHighlight = false;
    g.NavDisableMouseHover = true;
    ImGui::ScrollToRect(target.window, target.rect, ImGuiScrollFlags_KeepVisibleEdgeY);
    if (target.text_field) g.NavActivateInputId = target.id;  // like a web page: Tab into a field and type
}

void end_nav_frame(const UiState& ui) {
    (void)ui;
    Registry& r = reg();
    ImGuiContext& g = *GImGui;
    const bool editing = g.ActiveId != 0 && find_current(g.ActiveId) && find_current(g.ActiveId)->text_field;
    const ImGuiID focus = editing ? g.ActiveId : (!g.NavDisableHighlight ? g.NavId : 0);
    const NavItem* item = focus ? find_current(focus) : nullptr;
    r.description = item ? describe(*item, editing) : std::string();
    if (item && !in_popup(item->window) && item->window && item->window->ClipRect.Overlaps(item->rect)) {
        // Dear ImGui's own highlight is 2 px; this ring (3 px, in the text colour on the window background, which is
        // at least 4.5:1 in both themes) stays visible on every widget colour.
        ImDrawList* fg = ImGui::GetForegroundDrawList();
        const float pad = 3.0f;
        ImRect ring(ImVec2(item->rect.Min.x - pad, item->rect.Min.y - pad),
                    ImVec2(item->rect.Max.x + pad, item->rect.Max.y + pad));
        ring.ClipWith(item->window->ClipRect);
        fg->AddRect(ring.Min, ring.Max, ImGui::GetColorU32(ImGuiCol_NavHighlight), 4.0f, 0, 3.0f);
    }
    // Announced when the focus moves or what it shows changes (a checkbox toggled), not while typing.
    if (item && (focus != r.announced_id || (!editing && r.description != r.announced))) {
        r.announced_id = focus;
        r.announced = r.description;
        announce_focus(r.description);
    } else if (!item && r.announced_id != 0) {
        r.announced_id = 0;
        r.announced.clear();
    }
    r.previous.swap(r.current);
    r.current.clear();
    r.has_next = false;
}

bool focused_is_inputable() {
    const ImGuiID id = GImGui->NavId;
    for (const NavItem& it : reg().previous)
        if (it.id == id) return it.text_field || (it.item_flags & ImGuiItemFlags_Inputable);
    return false;
}

const std::string& focused_description() { return reg().description; }

}  // namespace kvcalc::ui

// ---- Dear ImGui test-engine hooks (declared in imgui_internal.h when IMGUI_ENABLE_TEST_ENGINE is defined) ----

void ImGuiTestEngineHook_ItemAdd(ImGuiContext* ctx, const ImRect& bb, ImGuiID id) {
    using namespace kvcalc::ui;
    Registry& r = reg();
    NavItem it;
    it.id = id;
    it.window = ctx->CurrentWindow;
    it.rect = bb;
    it.item_flags = ctx->CurrentItemFlags;
    if (r.has_next) {
        it.label = r.next_label;
        it.value = r.next_value;
        it.described = true;
        it.text_field = r.next_text_field;
        r.has_next = false;
    }
    r.current.push_back(std::move(it));
}

void ImGuiTestEngineHook_ItemInfo(ImGuiContext* ctx, ImGuiID id, const char* label, ImGuiItemStatusFlags flags) {
    using namespace kvcalc::ui;
    NavItem* it = find_current(id);
    if (!it) return;
    it->status = flags;
    it->item_flags = ctx->LastItemData.InFlags;
    if (!it->described) it->label = visible_label(label);
}

void ImGuiTestEngineHook_Log(ImGuiContext*, const char*, ...) {}

const char* ImGuiTestEngine_FindItemDebugLabel(ImGuiContext*, ImGuiID id) {
    for (const auto& it : kvcalc::ui::reg().previous)
        if (it.id == id) return it.label.c_str();
    return nullptr;
}

// Widget helpers: number entry tuned for taps, banner, bars drawn with ImDrawList (ImPlot is not packaged).
#include "widgets.h"

#include "keyboard_nav.h"

#include <algorithm>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <type_traits>

#include <imgui_internal.h>  // FindRenderedTextEnd

#include "kvcalc/base/units.h"

namespace kvcalc::ui {

namespace {
/// Term colours, by term_rank() (the core's subtraction order).
constexpr ImU32 kTermColors[] = {
    IM_COL32(66, 133, 244, 255), IM_COL32(0, 172, 193, 255),  IM_COL32(171, 71, 188, 255), IM_COL32(255, 112, 67, 255),
    IM_COL32(141, 110, 99, 255), IM_COL32(236, 64, 122, 255), IM_COL32(124, 179, 66, 255), IM_COL32(120, 144, 156, 255)};
}  // namespace

void same_line_if_room(float width) {
    ImGui::SameLine();
    if (ImGui::GetContentRegionAvail().x < width) ImGui::NewLine();
}

namespace {
float help_marker_width() { return ImGui::CalcTextSize("(?)").x + ImGui::GetStyle().FramePadding.x * 2; }
}  // namespace

float width_with_label_and_help(float preferred, const char* label) {
    const ImGuiStyle& style = ImGui::GetStyle();
    const float avail = ImGui::GetContentRegionAvail().x;
    const float rest = style.ItemInnerSpacing.x + ImGui::CalcTextSize(label, nullptr, true).x + style.ItemSpacing.x +
                       help_marker_width();
    return std::max(avail / 4, std::min(preferred, avail - rest));
}

void help_marker(UiState& ui, const char* text) {
    same_line_if_room(help_marker_width());
    ImGui::PushID(text);
    const std::string about = describe_help_for_last_item(text);
    describe_next_item(about.empty() ? "Help" : "Help on " + about, text);
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyle().Colors[ImGuiCol_TextDisabled]);
    ImGui::PushStyleColor(ImGuiCol_Button, ImVec4(0, 0, 0, 0));
    const bool clicked = tap_button(ui, "(?)");
    ImGui::PopStyleColor(2);
    const float wrap = std::min(ImGui::GetFontSize() * 28.0f, ImGui::GetIO().DisplaySize.x - ImGui::GetFontSize() * 3);
    if (clicked) ImGui::OpenPopup("##help");
    if (ImGui::IsItemHovered() && !ui.touch_input && !ImGui::IsPopupOpen("##help")) {
        ImGui::BeginTooltip();
        ImGui::TextUnformatted(break_at_spaces(text, wrap).c_str());
        ImGui::EndTooltip();
    }
    if (ImGui::BeginPopup("##help")) {
        ImGui::TextUnformatted(break_at_spaces(text, wrap).c_str());
        ImGui::EndPopup();
    }
    ImGui::PopID();
}

bool tap_button(const UiState& ui, const char* label) {
    return ui.touch_layout ? ImGui::Button(label) : ImGui::SmallButton(label);
}

namespace {

/// Copies the page's text into the active field, and records what ImGui shows (for the start of a session).
int proxy_callback(ImGuiInputTextCallbackData* d) {
    TextProxy& t = *static_cast<TextProxy*>(d->UserData);
    if (t.pending && t.session_id == ImGui::GetActiveID()) {
        const std::string text = t.text.substr(0, static_cast<std::size_t>(std::max(0, d->BufSize - 1)));
        d->DeleteChars(0, d->BufTextLen);
        d->InsertChars(0, text.c_str());
        const int n = d->BufTextLen;
        d->SelectionStart = std::clamp(t.sel_start, 0, n);
        d->SelectionEnd = std::clamp(t.sel_end, d->SelectionStart, n);
        d->CursorPos = d->SelectionEnd;
        t.pending = false;
    }
    t.imgui_text.assign(d->Buf, static_cast<std::size_t>(d->BufTextLen));
    t.imgui_sel_start = std::min(d->SelectionStart, d->SelectionEnd);
    t.imgui_sel_end = std::max(d->SelectionStart, d->SelectionEnd);
    if (t.imgui_sel_start == t.imgui_sel_end) t.imgui_sel_start = t.imgui_sel_end = d->CursorPos;
    return 0;
}

bool field_core(UiState& ui, const char* label, const char* hint, char* buf, std::size_t size, FieldKind kind,
                ImGuiInputTextFlags flags) {
    const ImGuiID id = ImGui::GetID(label);
    const std::string shown(label, ImGui::FindRenderedTextEnd(label));
    describe_next_text_field(shown.empty() && hint ? std::string(hint) : shown,  // "##search": its hint names it
                             ui.text.session_id == id ? ui.text.imgui_text : std::string(buf));
    bool changed = ImGui::InputTextWithHint(label, hint, buf, size, flags | ImGuiInputTextFlags_CallbackAlways,
                                            proxy_callback, &ui.text);
    // The page's last edit arrived on the frame the field was left (typed, then tapped "Load" at once): keep it.
    if (ui.text.pending && ui.text.session_id == id && !ImGui::IsItemActive() && size > 0) {
        const std::size_t n = std::min(ui.text.text.size(), size - 1);
        ui.text.text.copy(buf, n);
        buf[n] = '\0';
        ui.text.pending = false;
        changed = true;
    }
    const ImVec2 a = ImGui::GetItemRectMin(), b = ImGui::GetItemRectMax();
    const Hitbox box{a.x, a.y, b.x - a.x, b.y - a.y};
    ui.text_fields.push_back({id, box, kind});
    if (ImGui::IsItemActive()) {
        if (ui.text.session_id != id) {
            ui.text = TextProxy{};
            ui.text.session_id = id;
            ui.text.kind = kind;
            ui.text.box = box;
            ui.text.imgui_text = buf;  // the callback ran before the reset above: seed from the buffer
            ui.text.imgui_sel_end = static_cast<int>(ui.text.imgui_text.size());
            ui.text.imgui_sel_start = (flags & ImGuiInputTextFlags_AutoSelectAll) ? 0 : ui.text.imgui_sel_end;
        }
        // On a phone the soft keyboard covers the lower half: bring the field up before it opens.
        if (ImGui::IsItemActivated() && ui.narrow_layout && b.y > ui.view_h * 0.45f) ImGui::SetScrollHereY(0.2f);
        if (ui.text.done && !ui.text.pending) {
            ui.text.done = false;
            ImGui::ClearActiveID();
        }
    }
    return changed;
}


constexpr std::int64_t kContextChips[] = {4096, 8192, 16384, 32768, 65536, 131072};

template <class T>
bool parse_number(const char* text, T* out) {
    char* end = nullptr;
    if constexpr (std::is_integral_v<T>) {
        const long long v = std::strtoll(text, &end, 10);
        if (end == text) return false;
        *out = static_cast<T>(v);
    } else {
        const double v = std::strtod(text, &end);
        if (end == text || !std::isfinite(v)) return false;
        *out = static_cast<T>(v);
    }
    while (*end == ' ') ++end;
    return *end == '\0';
}

std::string number_text(std::int64_t v) { return format_count(v); }
std::string number_text(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g", v);
    return buf;
}

/// `text` without the blanks around it.
std::string trimmed(const char* text) {
    std::string t(text);
    const auto first = t.find_first_not_of(' ');
    if (first == std::string::npos) return {};
    return t.substr(first, t.find_last_not_of(' ') - first + 1);
}

/// The body of int_field / decimal_field: formats *value, lets the user edit it, and hands the text to the core's
/// field table, which accepts it or says why not.
template <class T>
bool number_field(UiState& ui, const char* label, const ScenarioField& field, T* value, const char* format,
                  FieldKind kind, const char* note_key, T soft_hi, const std::string& above_soft_note) {
    char buf[48];
    std::snprintf(buf, sizeof buf, format, *value);
    const T before = *value;
    const ImGuiInputTextFlags flags = ImGuiInputTextFlags_CharsDecimal | ImGuiInputTextFlags_AutoSelectAll |
                                      ImGuiInputTextFlags_NoUndoRedo;
    const bool edited = field_core(ui, label, "", buf, sizeof buf, kind, flags);
    if (ImGui::IsItemActivated()) ui.edit_start[note_key] = static_cast<double>(*value);
    if (edited) {
        const std::string text = trimmed(buf);
        Scenario probe;  // the core reads the text; the app's scenario changes only through *value
        const FieldTextStatus status =
            text.empty() ? FieldTextStatus::not_a_value : set_field_from_text(field, text, probe);
        T typed{};
        const bool number = parse_number(text.c_str(), &typed);
        const auto start = ui.edit_start.find(note_key);
        ui.pending_notes.erase(note_key);
        if (status == FieldTextStatus::ok && number) {
            if (soft_hi > 0 && typed > soft_hi) {
                *value = soft_hi;
                ui.clamp_notes[note_key] = above_soft_note + " (typed " + number_text(typed) + ")";
            } else {
                *value = typed;
                ui.clamp_notes.erase(note_key);
            }
        } else {
            // Refused: the value from before this edit stays (not a prefix of what was typed).
            if (start != ui.edit_start.end()) *value = static_cast<T>(start->second);
            if (status == FieldTextStatus::out_of_range && !(number && typed < field.min)) {
                ui.clamp_notes[note_key] = field_range_message(field, text);  // more digits cannot help
            } else if (!text.empty()) {  // below the minimum or unfinished ("-", "1."): judged when the field is left
                ui.pending_notes[note_key] =
                    status == FieldTextStatus::out_of_range
                        ? field_range_message(field, text)
                        : std::string(field.name) + " = " + text + " " + field_status_text(field, status) +
                              "; expected " + field_valid_text(field);
            }
        }
    }
    const auto pending = ui.pending_notes.find(note_key);
    if (pending != ui.pending_notes.end() && !ImGui::IsItemActive()) {
        ui.clamp_notes[note_key] = pending->second;
        ui.pending_notes.erase(pending);
    }
    return *value != before;
}

/// The entry box, then "-" and "+" buttons, then the visible part of the label.
bool stepper_impl(UiState& ui, const char* label, const ScenarioField& field, std::int64_t* value, std::int64_t step,
                  std::int64_t lo, std::int64_t hi) {
    const std::int64_t before = *value;
    const float button = ImGui::GetFrameHeight();
    const float inner = ImGui::GetStyle().ItemInnerSpacing.x;
    ImGui::PushID(label);
    ImGui::BeginGroup();
    ImGui::SetNextItemWidth(std::max(button, ImGui::CalcItemWidth() - 2.0f * (button + inner)));
    const std::string name(label, ImGui::FindRenderedTextEnd(label));
    describe_next_item(name);
    int_field(ui, "##value", field, value, label);
    record_hitbox(ui, (std::string(label) + " field").c_str());
    ImGui::PushButtonRepeat(true);
    ImGui::SameLine(0, inner);
    bool stepped = false;
    describe_next_item("decrease " + name, "by " + std::to_string(step));
    if (ImGui::Button("-", ImVec2(button, button))) {
        *value = std::clamp(*value - step, lo, hi);
        stepped = true;
    }
    record_hitbox(ui, (std::string(label) + "-").c_str());
    ImGui::SameLine(0, inner);
    describe_next_item("increase " + name, "by " + std::to_string(step));
    if (ImGui::Button("+", ImVec2(button, button))) {
        *value = std::clamp(*value + step, lo, hi);
        stepped = true;
    }
    record_hitbox(ui, (std::string(label) + "+").c_str());
    ImGui::PopButtonRepeat();
    const char* end = ImGui::FindRenderedTextEnd(label);
    if (end != label) {
        ImGui::SameLine(0, inner);
        ImGui::AlignTextToFramePadding();
        ImGui::TextUnformatted(label, end);
    }
    ImGui::EndGroup();
    ImGui::PopID();
    if (stepped) ui.clamp_notes.erase(label);  // a step is always a valid value
    clamp_note(ui, label);
    return *value != before;
}

/// On touch, undoes what a slider did until the finger has moved sideways (ImGui sets the value at the press).
template <class T>
void guard_touch_slider(UiState& ui, T* value, T before) {
    if (!ui.touch_input || !ImGui::IsItemActive()) return;
    const ImGuiIO& io = ImGui::GetIO();
    const float dx = io.MousePos.x - io.MouseClickedPos[0].x, dy = io.MousePos.y - io.MouseClickedPos[0].y;
    const bool sideways = std::fabs(dx) > ImGui::GetFontSize() * 0.6f && std::fabs(dx) > 1.5f * std::fabs(dy);
    if (sideways) ui.slider_sideways = true;
    if (!ui.slider_sideways) *value = before;
}

}  // namespace

bool text_field(UiState& ui, const char* label, const char* hint, char* buf, std::size_t size, FieldKind kind) {
    return field_core(ui, label, hint, buf, size, kind, ImGuiInputTextFlags_None);
}

bool int_field(UiState& ui, const char* label, const ScenarioField& field, std::int64_t* value, const char* note_key,
               std::int64_t soft_hi, const std::string& above_soft_note) {
    return number_field<std::int64_t>(ui, label, field, value, "%" PRId64, FieldKind::numeric, note_key, soft_hi,
                                      above_soft_note);
}

bool decimal_field(UiState& ui, const char* label, const ScenarioField& field, double* value, const char* format,
                   const char* note_key) {
    return number_field<double>(ui, label, field, value, format, FieldKind::decimal, note_key, 0.0, {});
}

const ScenarioField& field_row(const char* name) {
    const ScenarioField* row = find_scenario_field(name);
    IM_ASSERT(row && "a name from the scenario field table");
    return *row;
}

void clamp_note(const UiState& ui, const char* note_key) {
    const auto it = ui.clamp_notes.find(note_key);
    if (it == ui.clamp_notes.end()) return;
    text_wrapped("Note: " + it->second, verdict_color(Verdict::tight, ui.dark_theme));
}

bool stepper(UiState& ui, const char* label, const ScenarioField& field, std::int64_t* value, std::int64_t step) {
    return stepper_impl(ui, label, field, value, step, static_cast<std::int64_t>(field.min),
                        static_cast<std::int64_t>(field.max));
}

bool stepper(UiState& ui, const char* label, const ScenarioField& field, std::int64_t* value, std::int64_t step,
             std::int64_t lo, std::int64_t hi) {
    return stepper_impl(ui, label, field, value, step, lo, hi);
}

bool touch_slider(UiState& ui, const char* label, float* value, float lo, float hi, const char* format) {
    const float before = *value;
    char shown[48];
    std::snprintf(shown, sizeof shown, format, static_cast<double>(*value));
    describe_next_item(std::string(label, ImGui::FindRenderedTextEnd(label)), shown);
    ImGui::SliderFloat(label, value, lo, hi, format, ImGuiSliderFlags_AlwaysClamp);
    guard_touch_slider(ui, value, before);
    return *value != before;
}

std::int64_t power_of_two_step(std::int64_t value, bool up, std::int64_t lo, std::int64_t hi) {
    constexpr std::int64_t kTop = std::int64_t{1} << 40;
    std::int64_t p = 1;
    if (up) {
        while (p <= value && p < kTop) p *= 2;  // smallest power of two above value
    } else {
        while (p * 2 < value && p < kTop) p *= 2;  // largest power of two below value
    }
    return std::clamp(p, lo, hi);
}

std::string short_tokens(std::int64_t tokens) {
    if (tokens < 10240) return format_count(tokens);
    const std::int64_t k = tokens / 1024;
    return format_count(k) + "K";
}

bool context_editor(UiState& ui, std::int64_t* tokens, std::int64_t lo, std::int64_t hi, std::int64_t model_max,
                    const std::string& model_name, const std::string& limit_source) {
    const ScenarioField& field = field_row("max_model_len");
    const std::int64_t step_hi = model_max > 0 ? model_max : static_cast<std::int64_t>(field.max);
    const std::int64_t before = *tokens;
    const float em = ImGui::GetFontSize();
    ImGui::PushID("ctx");
    ImGui::SetNextItemWidth(-1.0f);
    describe_next_item("max_model_len slider", format_count(*tokens) + " tokens");
    ImGui::SliderScalar("##log", ImGuiDataType_S64, tokens, &lo, &hi, "%" PRId64 " tokens",
                        ImGuiSliderFlags_Logarithmic | ImGuiSliderFlags_AlwaysClamp);
    guard_touch_slider(ui, tokens, before);
    record_hitbox(ui, "max_model_len_slider");
    // Chips: the context sizes people ask about, and the model's maximum.
    const float right = ImGui::GetContentRegionAvail().x + ImGui::GetCursorScreenPos().x;
    bool first = true;
    auto chip = [&](const std::string& text, std::int64_t value, const char* hitbox) {
        const float w = ImGui::CalcTextSize(text.c_str()).x + ImGui::GetStyle().FramePadding.x * 2;
        if (!first) {
            ImGui::SameLine();
            if (ImGui::GetCursorScreenPos().x + w > right) ImGui::NewLine();
        }
        first = false;
        const bool on = *tokens == value;
        if (on) ImGui::PushStyleColor(ImGuiCol_Button, ImGui::GetStyle().Colors[ImGuiCol_ButtonActive]);
        describe_next_item("max_model_len " + text, on ? "selected" : format_count(value) + " tokens");
        if (ImGui::Button(text.c_str())) *tokens = value;
        if (on) ImGui::PopStyleColor();
        record_hitbox(ui, hitbox);
    };
    for (std::int64_t c : kContextChips) {
        if (c < lo || c > hi) continue;
        const std::string text = std::to_string(c / 1024) + "K";
        chip(text, c, ("ctx_" + text).c_str());
    }
    if (model_max > 0) chip("max " + short_tokens(model_max), model_max, "ctx_max");
    // Exact entry with power-of-two steps.
    const float button = ImGui::GetFrameHeight();
    const float inner = ImGui::GetStyle().ItemInnerSpacing.x;
    ImGui::SetNextItemWidth(em * 7.5f);
    const std::string above = model_max > 0
        ? "max_model_len is limited to " + model_name + "'s derived maximum " + format_count(model_max) +
              (limit_source.empty() ? std::string() : " (" + limit_source + ")") +
              ", so it was set to that. vLLM refuses a longer context unless the config.json adds rope scaling "
              "(a rope_scaling / --hf-overrides entry, e.g. YaRN) or VLLM_ALLOW_LONG_MAX_MODEL_LEN=1 is set, "
              "which risks wrong output"
        : std::string();
    describe_next_item("max_model_len in tokens");
    const bool typed = int_field(ui, "##exact", field, tokens, "max_model_len", model_max, above);
    record_hitbox(ui, "max_model_len");
    ImGui::SameLine(0, inner);
    describe_next_item("halve max_model_len", "to the power of two below");
    if (ImGui::Button("-", ImVec2(button, button))) *tokens = power_of_two_step(*tokens, false, lo, step_hi);
    record_hitbox(ui, "max_model_len-");
    ImGui::SameLine(0, inner);
    describe_next_item("double max_model_len", "to the power of two above");
    if (ImGui::Button("+", ImVec2(button, button))) *tokens = power_of_two_step(*tokens, true, lo, step_hi);
    record_hitbox(ui, "max_model_len+");
    ImGui::SameLine(0, inner);
    ImGui::AlignTextToFramePadding();
    ImGui::TextDisabled("tokens");
    ImGui::PopID();
    if (*tokens != before && !typed) ui.clamp_notes.erase("max_model_len");  // a chip, step or slide is in range
    clamp_note(ui, "max_model_len");
    return *tokens != before;
}

ImU32 verdict_color(Verdict v, bool dark_theme) {
    switch (v) {
        case Verdict::pass: return dark_theme ? IM_COL32(92, 190, 96, 255) : IM_COL32(27, 122, 43, 255);
        case Verdict::tight: return dark_theme ? IM_COL32(255, 179, 0, 255) : IM_COL32(150, 90, 0, 255);
        case Verdict::fail: break;
    }
    return dark_theme ? IM_COL32(250, 120, 115, 255) : IM_COL32(190, 30, 30, 255);
}

double in_unit(std::int64_t bytes, ByteUnit unit) {
    return unit == ByteUnit::gb ? bytes_to_gb(bytes) : bytes_to_gib(bytes);
}

std::string short_gpu_name(const GpuSpec& gpu) {
    std::string name = gpu.display_name;
    for (const char* prefix : {"NVIDIA GeForce ", "NVIDIA ", "AMD Instinct ", "AMD Radeon ", "AMD "})
        if (name.rfind(prefix, 0) == 0) return name.substr(std::char_traits<char>::length(prefix));
    return name;
}

ImU32 term_color(int index) {
    return kTermColors[static_cast<unsigned>(index) % (sizeof kTermColors / sizeof kTermColors[0])];
}

void stacked_bar(const std::vector<BarSegment>& segments, std::int64_t overflow_bytes,
                 const std::vector<BarMarker>& markers, std::int64_t scale_bytes, ByteUnit unit) {
    const float em = ImGui::GetFontSize();
    const float width = ImGui::GetContentRegionAvail().x;
    const float height = em * 1.8f;
    const ImVec2 top_left = ImGui::GetCursorScreenPos();
    ImDrawList* draw = ImGui::GetWindowDrawList();
    const double scale = scale_bytes > 0 ? width / static_cast<double>(scale_bytes) : 0.0;
    const ImU32 frame = ImGui::GetColorU32(ImGuiCol_FrameBg);
    draw->AddRectFilled(top_left, ImVec2(top_left.x + width, top_left.y + height), frame);
    float x = top_left.x;
    for (const BarSegment& s : segments) {
        if (s.bytes <= 0) continue;
        const float w = static_cast<float>(s.bytes * scale);
        draw->AddRectFilled(ImVec2(x, top_left.y), ImVec2(x + w, top_left.y + height), s.color);
        x += w;
    }
    if (overflow_bytes > 0) {  // requested KV that vLLM cannot grant: hatched outline, cut at the bar's end
        const float w = std::min(static_cast<float>(overflow_bytes * scale), top_left.x + width - x);
        const ImU32 hatch = ImGui::GetColorU32(ImGuiCol_Text, 0.55f);
        draw->PushClipRect(ImVec2(x, top_left.y), ImVec2(x + w, top_left.y + height), true);
        for (float hx = x - height; hx < x + w; hx += em * 0.5f)
            draw->AddLine(ImVec2(hx, top_left.y + height), ImVec2(hx + height, top_left.y), hatch);
        draw->PopClipRect();
        draw->AddRect(ImVec2(x, top_left.y), ImVec2(x + w, top_left.y + height), hatch);
    }
    for (const BarMarker& m : markers) {
        const float mx = top_left.x + static_cast<float>(m.bytes * scale);
        draw->AddLine(ImVec2(mx, top_left.y - em * 0.3f), ImVec2(mx, top_left.y + height + em * 0.3f), m.color, 3.0f);
    }
    ImGui::Dummy(ImVec2(width, height + em * 0.4f));
    // Marker captions on one line, then a wrapped legend.
    for (std::size_t i = 0; i < markers.size(); ++i) {
        if (i > 0) ImGui::SameLine(0, em);
        ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(markers[i].color), "| %s %s", markers[i].label,
                           format_bytes(markers[i].bytes, unit).c_str());
    }
    float line_x = 0.0f;
    const float avail = ImGui::GetContentRegionAvail().x;
    bool first = true;
    auto legend_item = [&](const char* label, std::int64_t bytes, ImU32 color, bool hatched) {
        const std::string text = std::string(label) + " " + format_bytes(bytes, unit);
        const float item_w = em * 1.2f + ImGui::CalcTextSize(text.c_str()).x + em;
        if (!first && line_x + item_w < avail) ImGui::SameLine(0, em * 0.6f);
        else line_x = 0.0f;
        first = false;
        line_x += item_w;
        const ImVec2 p = ImGui::GetCursorScreenPos();
        const ImVec2 q(p.x + em * 0.8f, p.y + em * 0.9f);
        if (hatched) draw->AddRect(ImVec2(p.x, p.y + em * 0.1f), q, color, 0.0f, 0, 2.0f);
        else draw->AddRectFilled(ImVec2(p.x, p.y + em * 0.1f), q, color);
        ImGui::Dummy(ImVec2(em * 0.9f, em));
        ImGui::SameLine(0, em * 0.3f);
        ImGui::TextUnformatted(text.c_str());
    };
    for (const BarSegment& s : segments)
        if (s.bytes > 0) legend_item(s.label, s.bytes, s.color, false);
    if (overflow_bytes > 0)
        legend_item("KV not granted", overflow_bytes, ImGui::GetColorU32(ImGuiCol_Text, 0.55f), true);
}

void small_bar(float fraction, ImU32 color) {
    const float em = ImGui::GetFontSize();
    const float width = std::max(em * 3.0f, ImGui::GetContentRegionAvail().x);
    const ImVec2 p = ImGui::GetCursorScreenPos();
    ImDrawList* draw = ImGui::GetWindowDrawList();
    const float h = em * 0.7f, y = p.y + em * 0.2f;
    draw->AddRectFilled(ImVec2(p.x, y), ImVec2(p.x + width, y + h), ImGui::GetColorU32(ImGuiCol_FrameBg));
    draw->AddRectFilled(ImVec2(p.x, y), ImVec2(p.x + width * std::clamp(fraction, 0.0f, 1.0f), y + h), color);
    ImGui::Dummy(ImVec2(width, em));
}

std::string break_at_spaces(const std::string& text, float width) {
    std::string out, line;
    out.reserve(text.size() + 8);
    auto wide = [](const std::string& t) { return ImGui::CalcTextSize(t.c_str(), t.c_str() + t.size()).x; };
    std::size_t i = 0;
    bool open = false;  // the line has begun (leading blanks count: "  limited by" keeps its indent)
    while (i <= text.size()) {
        const std::size_t end = std::min(text.find_first_of(" \n", i), text.size());
        const std::string word = text.substr(i, end - i);
        if (!open) line = word;
        else if (word.empty() || wide(line + " " + word) <= width) line += " " + word;
        else {
            out += line + "\n";
            line = word;
        }
        open = true;
        if (end >= text.size() || text[end] == '\n') {
            out += line;
            if (end < text.size()) out += "\n";
            line.clear();
            open = false;
        }
        i = end + 1;
    }
    return out;
}

void text_wrapped(const std::string& text, ImU32 color) {
    const std::string lines = break_at_spaces(text, std::max(1.0f, ImGui::GetContentRegionAvail().x));
    if (color) ImGui::PushStyleColor(ImGuiCol_Text, color);
    ImGui::TextUnformatted(lines.c_str(), lines.c_str() + lines.size());
    if (color) ImGui::PopStyleColor();
}

void text_dim(const std::string& text) { text_wrapped(text, ImGui::GetColorU32(ImGuiCol_TextDisabled)); }

void bullet_wrapped(const std::string& text) {
    ImGui::Bullet();
    text_wrapped(text);
}

void record_hitbox(UiState& ui, const char* name) {
    const ImVec2 a = ImGui::GetItemRectMin(), b = ImGui::GetItemRectMax();
    ui.hitboxes[name] = {a.x, a.y, b.x - a.x, b.y - a.y, ImGui::GetCurrentWindow()->ID};
}

std::string verdict_banner(UiState& ui, Verdict v, const std::string& title, const std::string& detail) {
    const ImU32 color = verdict_color(v, ui.dark_theme);
    ImVec4 tint = ImGui::ColorConvertU32ToFloat4(color);
    tint.w = 0.10f;  // light enough that the title keeps 4.5:1 contrast
    const float em = ImGui::GetFontSize();
    ImGui::PushStyleColor(ImGuiCol_ChildBg, tint);
    ImGui::PushStyleVar(ImGuiStyleVar_ChildRounding, em * 0.3f);
    const float wrap = ImGui::GetContentRegionAvail().x - em;
    const std::string title_lines = break_at_spaces(title, wrap);
    const std::string lines = break_at_spaces(detail, wrap);
    const float text_h = ImGui::CalcTextSize(title_lines.c_str()).y + ImGui::CalcTextSize(lines.c_str()).y;
    ImGui::BeginChild("##banner", ImVec2(0, em + text_h + ImGui::GetStyle().ItemSpacing.y * 2), false,
                      ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse);
    ImGui::SetCursorPos(ImVec2(em * 0.5f, em * 0.3f));
    ImGui::PushStyleColor(ImGuiCol_Text, color);
    ImGui::TextUnformatted(title_lines.c_str());
    ImGui::PopStyleColor();
    record_hitbox(ui, "verdict_title");  // the text's own extent, which the child window would clip
    ImGui::SetCursorPosX(em * 0.5f);
    ImGui::TextUnformatted(lines.c_str());
    record_hitbox(ui, "verdict_detail");
    ImGui::EndChild();
    ImGui::PopStyleVar();
    ImGui::PopStyleColor();
    return lines;
}

}  // namespace kvcalc::ui

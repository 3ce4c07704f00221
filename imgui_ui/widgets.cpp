// Widget helpers: number entry tuned for taps, banner, bars drawn with ImDrawList (ImPlot is not packaged).
#include "widgets.h"

#include <algorithm>
#include <cinttypes>
#include <cstdio>

#include <imgui_internal.h>  // FindRenderedTextEnd

#include "kvcalc/units.h"

namespace kvcalc::ui {

namespace {
/// Term colours, in budget_terms() order (text_export.h).
constexpr ImU32 kTermColors[] = {
    IM_COL32(66, 133, 244, 255), IM_COL32(0, 172, 193, 255),  IM_COL32(171, 71, 188, 255), IM_COL32(255, 112, 67, 255),
    IM_COL32(141, 110, 99, 255), IM_COL32(236, 64, 122, 255), IM_COL32(124, 179, 66, 255), IM_COL32(120, 144, 156, 255)};
}  // namespace

void help_marker(const char* text) {
    ImGui::SameLine();
    ImGui::TextDisabled("(?)");
    if (ImGui::IsItemHovered()) {
        ImGui::BeginTooltip();
        ImGui::PushTextWrapPos(ImGui::GetFontSize() * 28.0f);
        ImGui::TextUnformatted(text);
        ImGui::PopTextWrapPos();
        ImGui::EndTooltip();
    }
}

namespace {

/// Shared body of the two steppers: an entry box, then "-" and "+" buttons, then the visible part of the label.
template <class T>
bool stepper_impl(const char* label, T* value, T step, T lo, T hi, UiState* ui) {
    const T before = *value;
    const float button = ImGui::GetFrameHeight();
    const float inner = ImGui::GetStyle().ItemInnerSpacing.x;
    const ImGuiDataType type = sizeof(T) == 8 ? ImGuiDataType_S64 : ImGuiDataType_S32;
    ImGui::PushID(label);
    ImGui::BeginGroup();
    ImGui::SetNextItemWidth(std::max(button, ImGui::CalcItemWidth() - 2.0f * (button + inner)));
    ImGui::InputScalar("##value", type, value, nullptr, nullptr, sizeof(T) == 8 ? "%" PRId64 : "%d");
    ImGui::PushButtonRepeat(true);
    ImGui::SameLine(0, inner);
    if (ImGui::Button("-", ImVec2(button, button))) *value = *value - step;
    if (ui) record_hitbox(*ui, (std::string(label) + "-").c_str());
    ImGui::SameLine(0, inner);
    if (ImGui::Button("+", ImVec2(button, button))) *value = *value + step;
    if (ui) record_hitbox(*ui, (std::string(label) + "+").c_str());
    ImGui::PopButtonRepeat();
    const char* end = ImGui::FindRenderedTextEnd(label);
    if (end != label) {
        ImGui::SameLine(0, inner);
        ImGui::TextUnformatted(label, end);
    }
    ImGui::EndGroup();
    ImGui::PopID();
    *value = std::clamp(*value, lo, hi);
    return *value != before;
}

}  // namespace

bool stepper(const char* label, std::int64_t* value, std::int64_t step, std::int64_t lo, std::int64_t hi,
             UiState* ui) {
    return stepper_impl(label, value, step, lo, hi, ui);
}

bool stepper(const char* label, int* value, int step, int lo, int hi, UiState* ui) {
    return stepper_impl(label, value, step, lo, hi, ui);
}

bool tokens_slider(const char* label, std::int64_t* tokens, std::int64_t lo, std::int64_t hi, UiState* ui) {
    const std::int64_t before = *tokens;
    ImGui::PushID(label);
    ImGui::SliderScalar("##log", ImGuiDataType_S64, tokens, &lo, &hi, "%" PRId64 " tokens",
                        ImGuiSliderFlags_Logarithmic | ImGuiSliderFlags_AlwaysClamp);
    ImGui::PopID();
    stepper(label, tokens, 1024, lo, hi, ui);
    *tokens = std::clamp(*tokens, lo, hi);
    return *tokens != before;
}

ImU32 verdict_color(Verdict v, bool dark_theme) {
    switch (v) {
        case Verdict::pass: return dark_theme ? IM_COL32(76, 175, 80, 255) : IM_COL32(27, 122, 43, 255);
        case Verdict::tight: return dark_theme ? IM_COL32(255, 179, 0, 255) : IM_COL32(176, 110, 0, 255);
        case Verdict::fail: break;
    }
    return dark_theme ? IM_COL32(239, 83, 80, 255) : IM_COL32(190, 30, 30, 255);
}

const char* unit_name(ByteUnit unit) { return unit == ByteUnit::gb ? "GB" : "GiB"; }

double in_unit(std::int64_t bytes, ByteUnit unit) {
    return unit == ByteUnit::gb ? bytes_to_gb(bytes) : bytes_to_gib(bytes);
}

std::string format_bytes(std::int64_t bytes, ByteUnit unit) {
    char buf[48];
    std::snprintf(buf, sizeof buf, "%.2f %s", in_unit(bytes, unit), unit_name(unit));
    return buf;
}

std::string format_count(std::int64_t n) {
    std::string digits = std::to_string(n < 0 ? -n : n);
    std::string out;
    for (std::size_t i = 0; i < digits.size(); ++i) {
        if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
        out += digits[i];
    }
    return n < 0 ? "-" + out : out;
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
    if (overflow_bytes > 0) {  // requested KV that vLLM cannot grant: hatched outline
        const float w = static_cast<float>(overflow_bytes * scale);
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

void bullet_wrapped(const std::string& text) {
    ImGui::Bullet();
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextUnformatted(text.c_str());
    ImGui::PopTextWrapPos();
}

void record_hitbox(UiState& ui, const char* name) {
    const ImVec2 a = ImGui::GetItemRectMin(), b = ImGui::GetItemRectMax();
    ui.hitboxes[name] = {a.x, a.y, b.x - a.x, b.y - a.y};
}

void verdict_banner(Verdict v, bool dark_theme, const std::string& title, const std::string& detail) {
    const ImU32 color = verdict_color(v, dark_theme);
    ImVec4 tint = ImGui::ColorConvertU32ToFloat4(color);
    tint.w = 0.18f;
    const float em = ImGui::GetFontSize();
    ImGui::PushStyleColor(ImGuiCol_ChildBg, tint);
    ImGui::PushStyleVar(ImGuiStyleVar_ChildRounding, em * 0.3f);
    const float wrap = ImGui::GetContentRegionAvail().x - em;
    const float detail_h = ImGui::CalcTextSize(detail.c_str(), nullptr, false, wrap).y;
    ImGui::BeginChild("##banner", ImVec2(0, em * 2.0f + detail_h + ImGui::GetStyle().ItemSpacing.y * 2), false,
                      ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse);
    ImGui::SetCursorPos(ImVec2(em * 0.5f, em * 0.3f));
    ImGui::PushStyleColor(ImGuiCol_Text, color);
    ImGui::TextUnformatted(title.c_str());
    ImGui::PopStyleColor();
    ImGui::SetCursorPosX(em * 0.5f);
    ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + wrap);
    ImGui::TextUnformatted(detail.c_str());
    ImGui::PopTextWrapPos();
    ImGui::EndChild();
    ImGui::PopStyleVar();
    ImGui::PopStyleColor();
}

}  // namespace kvcalc::ui

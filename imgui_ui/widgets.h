// Small widget helpers shared by the panels: number entry, help markers, bars, formatting.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include <imgui.h>

#include "app.h"
#include "kvcalc/gpu_catalog.h"
#include "kvcalc/report.h"

namespace kvcalc::ui {

/// A "(?)" after the previous item that shows `text` on hover or tap.
void help_marker(const char* text);

/// Token count with a logarithmic slider plus an exact entry with ±1024 steppers. Clamped to [lo, hi].
bool tokens_slider(const char* label, std::int64_t* tokens, std::int64_t lo, std::int64_t hi, UiState* ui = nullptr);

/// Integer entry with − / + buttons (tap-friendly, repeat while held), clamped to [lo, hi]. With `ui`, the buttons'
/// rectangles are recorded as hitboxes "<label>-" and "<label>+".
bool stepper(const char* label, std::int64_t* value, std::int64_t step, std::int64_t lo, std::int64_t hi,
             UiState* ui = nullptr);
/// Same for an int.
bool stepper(const char* label, int* value, int step, int lo, int hi, UiState* ui = nullptr);

/// PASS green, TIGHT amber, FAIL red (shade depends on the theme).
ImU32 verdict_color(Verdict v, bool dark_theme);

/// "12.34 GiB" / "13.25 GB".
std::string format_bytes(std::int64_t bytes, ByteUnit unit);
/// "GiB" or "GB".
const char* unit_name(ByteUnit unit);
/// Bytes in the unit as a double (for tables).
double in_unit(std::int64_t bytes, ByteUnit unit);
/// 180000 → "180,000".
std::string format_count(std::int64_t n);

/// A GPU's display name without the vendor prefix ("NVIDIA GeForce RTX 3090" → "RTX 3090").
std::string short_gpu_name(const GpuSpec& gpu);

/// One coloured piece of a stacked bar.
struct BarSegment {
    const char* label;
    std::int64_t bytes;
    ImU32 color;
};

/// A vertical line drawn across a bar, labelled (the budget, the card's VRAM).
struct BarMarker {
    const char* label;
    std::int64_t bytes;
    ImU32 color;
};

/// A horizontal stacked bar of `segments` scaled so `scale_bytes` is the full width, with marker lines and a
/// legend underneath. `overflow_bytes` (> 0) is drawn hatched after the segments: demand that did not fit.
void stacked_bar(const std::vector<BarSegment>& segments, std::int64_t overflow_bytes,
                 const std::vector<BarMarker>& markers, std::int64_t scale_bytes, ByteUnit unit);

/// A thin bar filled to `fraction` (0..1) of the available width, for table cells.
void small_bar(float fraction, ImU32 color);

/// Colour of budget term number `index` (stable across panels).
ImU32 term_color(int index);

/// A bullet followed by wrapped text (ImGui's BulletText does not wrap).
void bullet_wrapped(const std::string& text);

/// Stores the last item's rectangle under `name` (for the browser tests).
void record_hitbox(UiState& ui, const char* name);

/// Text in the verdict colour on a tinted full-width box: the banner.
void verdict_banner(Verdict v, bool dark_theme, const std::string& title, const std::string& detail);

}  // namespace kvcalc::ui

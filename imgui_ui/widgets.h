// Small widget helpers shared by the panels: number entry, help markers, bars, formatting.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include <imgui.h>

#include "app.h"
#include "kvcalc/base/gpu_catalog.h"
#include "kvcalc/engines/report.h"
#include "kvcalc/deployment/scenario_fields.h"

namespace kvcalc::ui {

/// SameLine() when an item `width` px wide still fits on the line, else a new line (a phone's narrow column).
void same_line_if_room(float width);

/// A "(?)" button after the previous item (on the next line when the line is full): hovering shows `text` (mouse), a tap or click opens it until the next tap.
void help_marker(UiState& ui, const char* text);
/// Width for the next item that keeps its `label` and a help_marker after it on the same line: `preferred`, or
/// less on a narrow column (never under a quarter of the column, where the label and marker wrap instead).
float width_with_label_and_help(float preferred, const char* label);

/// A button sized for the pointer in use: a small one with a mouse, a full-height one on touch layouts.
bool tap_button(const UiState& ui, const char* label);

/// A text field whose edits can come from the page's HTML input (soft keyboard, IME, clipboard; see TextProxy).
/// `kind` picks the soft keyboard. Returns true when the text changed.
bool text_field(UiState& ui, const char* label, const char* hint, char* buf, std::size_t size, FieldKind kind);

/// Integer entry (numeric keyboard) for the scenario field `field` (the core's table, scenario_fields.h): what is
/// typed is read by the core (set_field_from_text), so the field accepts exactly the table's range (and 0 where the
/// table gives 0 a meaning). Text outside it is refused with the table's error text (field_range_message) as a
/// visible note, and the value from before the edit stays; a value below the minimum may be the start of a longer
/// one, so it is refused when the field is left. `soft_hi` (> 0) is a tighter limit of this model (max_model_len's
/// max_position_embeddings): above it the value is set to `soft_hi` with `above_soft_note`. `note_key` names the
/// note in UiState::clamp_notes. Returns true when *value changed.
bool int_field(UiState& ui, const char* label, const ScenarioField& field, std::int64_t* value, const char* note_key,
               std::int64_t soft_hi = 0, const std::string& above_soft_note = {});

/// Decimal entry (decimal keyboard) for the number field `field`, with the same rules as int_field.
bool decimal_field(UiState& ui, const char* label, const ScenarioField& field, double* value, const char* format,
                   const char* note_key);

/// The clamp note stored under `note_key`, drawn in the warning colour (nothing when there is none).
void clamp_note(const UiState& ui, const char* note_key);

/// Integer entry for `field` (int_field's rules) with − / + buttons (tap-friendly, repeat while held) that step
/// within [lo, hi] (by default the table's range; a caller may narrow it, e.g. GPUs no fewer than
/// tensor_parallel_size). The buttons' rectangles are recorded as "<label>-" and "<label>+".
bool stepper(UiState& ui, const char* label, const ScenarioField& field, std::int64_t* value, std::int64_t step);
bool stepper(UiState& ui, const char* label, const ScenarioField& field, std::int64_t* value, std::int64_t step,
             std::int64_t lo, std::int64_t hi);

/// The row of the scenario field table named `name` (it exists: the names are the table's own).
const ScenarioField& field_row(const char* name);

/// A slider that, on touch, changes only after the finger moved sideways: a vertical swipe that starts on it
/// scrolls the page and leaves the value alone. Float version (gpu_memory_utilization).
bool touch_slider(UiState& ui, const char* label, float* value, float lo, float hi, const char* format);

/// max_model_len: a logarithmic slider over [slider_lo, slider_hi] (touch-guarded), an exact entry with the scenario
/// table's range (int_field) and power-of-two − / +, and chips for the usual contexts (4K … 128K and the model's
/// maximum). `model_max` 0 = no limit: the engine's derived maximum from the core (context_limit.h), whose
/// `limit_source` the note quotes. Typed values above it are set to it with a note naming rope scaling and
/// VLLM_ALLOW_LONG_MAX_MODEL_LEN.
bool context_editor(UiState& ui, std::int64_t* tokens, std::int64_t slider_lo, std::int64_t slider_hi,
                    std::int64_t model_max, const std::string& model_name, const std::string& limit_source = {});

/// The next power of two above `value` (`up`) or below it, within [lo, hi].
std::int64_t power_of_two_step(std::int64_t value, bool up, std::int64_t lo, std::int64_t hi);

/// "32K" for 32,768 (K = 1,024 tokens, as context sizes are named), "3,624" below 10,240.
std::string short_tokens(std::int64_t tokens);

/// PASS green, TIGHT amber, FAIL red (shade depends on the theme).
ImU32 verdict_color(Verdict v, bool dark_theme);

/// "12.34 GiB" / "13.25 GB": the core's format_size, the same figures as result_sentence().
inline std::string format_bytes(std::int64_t bytes, ByteUnit unit) { return format_size(bytes, unit); }
/// "GiB" or "GB".
inline const char* unit_name(ByteUnit unit) { return byte_unit_name(unit); }
/// Bytes in the unit as a double (for tables).
double in_unit(std::int64_t bytes, ByteUnit unit);

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

/// Colour number `index`: a budget term's is its term_rank() (stable across panels and reports).
ImU32 term_color(int index);

/// `text` with line breaks at spaces so that no line is wider than `width` px in the current font (a word wider
/// than that keeps a line of its own). Dear ImGui 1.86's own wrapping also breaks after '.' and ',', which splits
/// "21.79 GiB" into "21." and "79 GiB" and "44,544" into "44," and "544".
std::string break_at_spaces(const std::string& text, float width);

/// Text wrapped at spaces only (break_at_spaces) to the right edge of the content region; `color` 0 = the text
/// colour. text_dim: the disabled colour.
void text_wrapped(const std::string& text, ImU32 color = 0);
void text_dim(const std::string& text);

/// A bullet followed by text wrapped at spaces (ImGui's BulletText does not wrap).
void bullet_wrapped(const std::string& text);

/// Stores the last item's rectangle under `name` (for the browser tests).
void record_hitbox(UiState& ui, const char* name);

/// Text in the verdict colour on a tinted full-width box: the banner. The title and `detail` both wrap at spaces (a
/// 320 px embed is narrower than the title); their text extents are recorded as hitboxes "verdict_title" and
/// "verdict_detail". Returns `detail` as drawn (with its line breaks).
std::string verdict_banner(UiState& ui, Verdict v, const std::string& title, const std::string& detail);

}  // namespace kvcalc::ui

// The app's whole state, owned by main(): what the user set (Scenario), UI-only state, and derived results.
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "kvcalc/deployment/calibration.h"
#include "kvcalc/base/diagnostic.h"
#include "kvcalc/engines/report.h"
#include "kvcalc/deployment/result_sentence.h"  // ByteUnit: the unit every byte figure is shown in
#include "kvcalc/base/scenario.h"
#include "kvcalc/deployment/solver.h"
#include "kvcalc/deployment/sweeps.h"
#include "gguf_page.h"
#include "kvcalc/io/startup_calibration.h"
#include "kvcalc/io/startup_log.h"

namespace kvcalc::ui {

/// Column the GPU-shopping table is sorted by.
enum class ShopSort { gpu, vram, cards, verdict, max_context };

/// A widget's rectangle in CSS px, published for the browser tests (they click by name, not by pixel guess).
struct Hitbox {
    float x = 0, y = 0, w = 0, h = 0;
    unsigned window = 0;  ///< ImGuiID of the window the widget was drawn in (for scroll anchoring)
};

/// Keeps the control under the finger where it was after a change moves the layout (a line that appears or goes
/// above it, a result that grows): the hitboxes at the change are remembered, and for a short while the window
/// that holds the one nearest the finger is scrolled by however far it moved.
struct ScrollAnchor {
    std::map<std::string, Hitbox> at_change;  ///< every hitbox on the frame of the change
    float finger_x = 0, finger_y = 0;         ///< where the press that made the change was
    std::string name;                         ///< the hitbox followed, chosen on the first frame after the change
    double until = 0;                         ///< ImGui time at which it is let go
    float corrected = 0;                      ///< total scroll applied so far, CSS px (published for the tests)
};

/// What a text field expects, so the page's HTML input can open the right soft keyboard (inputmode).
enum class FieldKind { text, search, url, numeric, decimal };

/// An ImGui text field's rectangle and kind, published each frame: a tap inside one focuses the page's HTML input
/// from inside the touch handler (iOS opens the soft keyboard only there).
struct TextFieldBox {
    unsigned id = 0;  ///< ImGuiID
    Hitbox box;
    FieldKind kind = FieldKind::text;
};

/// The bridge between the ImGui text field being edited and the page's real <input> (web/text_proxy.js): the HTML
/// input owns the text while it has focus (soft keyboard, IME, clipboard), and every change is copied into ImGui.
struct TextProxy {
    unsigned session_id = 0;     ///< ImGuiID of the field the HTML input is editing, 0 = none
    bool pending = false;        ///< `text`/selection arrived from the page and is not applied yet
    bool done = false;           ///< the page said Enter / Tab / keyboard closed: deactivate after applying
    std::string text;            ///< latest text from the page
    int sel_start = 0, sel_end = 0;
    std::string imgui_text;      ///< text of the active field as ImGui last showed it
    int imgui_sel_start = 0, imgui_sel_end = 0;
    bool began = false;          ///< the page has been told about this session
    FieldKind kind = FieldKind::text;
    Hitbox box;
};

/// UI-only state (not part of the scenario; theme and unit travel in the URL as reserved keys).
struct UiState {
    bool dark_theme = true;
    bool theme_applied = false;  ///< ImGui style matches dark_theme
    ByteUnit unit = ByteUnit::gib;
    bool embed = false;          ///< embed=1: compact result-only view
    bool narrow_layout = false;  ///< single column (phones), decided from the view width each frame
    bool coarse_pointer = false; ///< a finger has been used: touch-sized targets even on a wide screen
    bool touch_layout = false;   ///< the style in use has touch-sized targets (narrow or coarse)
    float dpr = 1.0f;            ///< devicePixelRatio the fonts were built for
    float view_h = 0.0f;         ///< height of the view in CSS px this frame
    char model_search[64] = "";
    char hf_id[128] = "";
    std::string model_status;    ///< last paste / Hub fetch message
    bool model_status_is_error = false;
    std::string model_note;      ///< which serving settings a model change reset and which it kept
    std::string model_note_settings;  ///< serving_settings_key() when the note was written; the note goes when it differs
    std::map<std::string, std::string> clamp_notes;  ///< field → "value was out of range, set to …" (visible)
    std::map<std::string, std::string> pending_notes;  ///< field → why typed text was refused, shown when it is left
    std::map<std::string, double> edit_start;         ///< field → its value when the current edit began
    bool slider_sideways = false;                    ///< the finger on a slider moved sideways: it may change it
    std::string pasted_config;   ///< compact text of the pasted / fetched config.json the scenario's model came from
    std::string pasted_source;   ///< "paste", "clipboard", "link" or the Hugging Face id
    std::string pasted_index;    ///< the Hub model's model.safetensors.index.json ("" = none)
    std::vector<std::string> pasted_headers;  ///< its shards' safetensors headers (JSON text), all or none
    /// The weights format the pasted / fetched model is priced in ("" = auto: the checkpoint's own); the link
    /// carries it as wd= (the scenario's model is inline, so Scenario::weights_dtype stays empty for predict()).
    std::string pasted_weights_dtype;
    bool hub_link_pending = false;  ///< the Hub fetch in flight was asked for by a link's hf= (its settings stay)
    ShopSort shop_sort = ShopSort::verdict;
    bool shop_sort_descending = true;
    bool shop_all_counts = false;  ///< show every card count, not only the smallest that passes per GPU
    /// Shop at the scenario's tensor_parallel_size only (the CLI's `--shop --tp N`), not at 1, 2, 4 and 8 cards.
    bool shop_pin_tp = false;
    std::string copied_note;     ///< "Link copied" etc., shown next to the share buttons
    std::map<std::string, Hitbox> hitboxes;
    std::map<std::string, std::string> drawn_text;  ///< wrapped text as this frame drew it, line breaks included (tests)
    std::vector<TextFieldBox> text_fields;  ///< this frame's text fields
    TextProxy text;
    unsigned drag_scroll_window = 0;  ///< ImGuiID of the window a press may scroll, 0 = none
    float drag_start_x = 0, drag_start_y = 0;  ///< where that press began
    bool drag_scrolling = false;      ///< the press became a vertical drag: it scrolls, widgets ignore it
    bool touch_input = false;         ///< the pointer is a finger this frame (set by the main loop)
    float result_scroll_y = -1.0f;    ///< phones: scroll offset of the Result section in the page column
    bool scroll_to_result = false;    ///< phones: the sticky verdict was tapped
    std::string announced;            ///< last text handed to the aria-live region
    ScrollAnchor anchor;              ///< see ScrollAnchor; empty at_change = none
    std::string written_url;          ///< query and fragment as last written to the address bar
    double url_changed_ms = -1e9;     ///< when written_url last changed (now_ms)
    bool replace_next_url = true;     ///< the next write replaces the entry (a load, or Back / Forward)
    std::string sticky_line;          ///< phones: the verdict line as the sticky bar shows it this frame
    bool sticky_clipped = false;      ///< even its narrowest wording is wider than the bar
};

/// A GPU-shopping row and a demand-curve point, as the core hands them (kvcalc/sweeps.h).
using ShopRow = kvcalc::ShopRow;
using CurvePoint = kvcalc::CurvePoint;

/// Results derived from the scenario besides the Report: solvers, shopping sweep, curve.
struct Derived {
    SolveResult max_len, max_seqs, min_gpus;  ///< max_len: the longest that boots (one full request)
    SolveResult max_len_all;                  ///< the longest at which all max_len_seqs sequences fit at once
    std::int64_t max_len_seqs = 0;            ///< the resolved max_num_seqs those two answers are for
    std::vector<ShopRow> shop;               ///< the whole sweep, every GPU × count, in buy order
    int shop_pinned_tp = 0;                  ///< the one count the sweep priced (UiState::shop_pin_tp), 0 = 1/2/4/8
    std::vector<CurvePoint> curve;
    std::int64_t budget_bytes = 0;       ///< per card, for the curve's budget line
    double recompute_ms = 0.0;           ///< last recompute, predict + solvers + sweep
};

/// A start-up log the user gave (pasted, or dropped as a file): what the core read from it and how the page was
/// calibrated to it (log_import.cpp, panel_log.cpp). The measured terms themselves live in Scenario::measured, so
/// they travel in the link (key mt); the log's text does not.
struct LogView {
    bool active = false;             ///< a log was read (vLLM: its terms calibrate the scenario)
    bool calibrated = false;         ///< the core set Scenario::measured from it
    std::string source;              ///< "paste", "clipboard" or the dropped file's name
    StartupLog log;                  ///< the facts, each with its line (read_startup_log)
    std::vector<std::string> filled; ///< settings the log filled, each naming its line (StartupCalibration::filled)
    Diagnostics notes;               ///< the core's warnings about the log and the calibration
    Scenario boot;                   ///< the same log with nothing given but the model: the boot's own settings
    std::string model_name;          ///< display name of the model the terms were measured with
    /// Each printed line beside kvcalc alone and calibrated at the current settings (compare_with_log), refreshed
    /// on every recompute.
    std::vector<LogComparisonRow> rows;
    std::string status;              ///< the last paste's outcome; for a bad log the core's errors, naming the line
    bool status_is_error = false;
};

/// Everything the app owns. No globals, no static locals: panels get this by reference.
struct App {
    Scenario scenario;
    Report report;
    Derived derived;
    UiState ui;
    Diagnostics url_warnings;            ///< problems found in the link the page was opened with
    bool calibration_done = false;       ///< run lazily, the first time its panel opens
    CalibrationSummary calibration;
    LogView log;                         ///< the start-up log the user gave, if any
    bool dirty = true;                   ///< scenario changed since the last evaluation
    bool url_dirty = false;              ///< the query string should be rewritten
    GgufPage gguf;                       ///< the llama.cpp (GGUF) path: the picked file and the model read from it
};

/// Reads the page's query string (scenario + reserved keys) into `app`; warnings go to app.url_warnings.
void load_from_url(App& app);

/// Writes the scenario and the reserved keys (embed, theme, unit) to the query string. A change after a quiet
/// moment is a new history entry (Back returns to the settings before it); changes in quick succession (a slider
/// drag, typing) update that entry, and a page opened or returned to through history replaces its own.
void write_url(App& app);

/// The query string describing the app's state (scenario + theme/unit; embed=1 only when `with_embed`).
std::string current_query(const App& app, bool with_embed = false);

/// After each drawn frame: publishes window.kvcalcState; after a change (app.url_dirty) also rewrites the URL
/// and the aria-live text.
void sync_host(App& app);

/// "gb" / "gib": the unit's spelling in the URL and in kvcalcState.
const char* unit_name_key(ByteUnit unit);

/// Re-evaluates the scenario when it changed: report, solvers, shopping sweep, curve. Returns true if it ran.
bool recompute_if_dirty(App& app);

/// Reads a config.json (pasted, from the clipboard, fetched from the Hub, or carried by a link) into the scenario's
/// inline model. A new model resets the serving settings to vLLM's defaults, except from a link (`from_link`), whose
/// settings are the user's. Problems go to app.ui.model_status. Returns true when the scenario changed.
bool apply_config_text(App& app, const std::string& text, const std::string& source, bool from_link = false);

/// Reads a start-up log (pasted, from the clipboard, or a dropped file) through the core: read_startup_log, then
/// calibrate_from_log fills the settings the user left open and sets the measured terms (docs/STARTUP_LOGS.md
/// "Calibration"). A log the core refuses leaves the scenario as it was and puts the core's errors in
/// app.log.status. Returns true when the scenario changed.
bool apply_log_text(App& app, const std::string& text, const std::string& source);

/// Drops the log and its measured terms: the page prices kvcalc's own terms again.
void forget_log(App& app);

/// After a recompute: each printed line of the log beside kvcalc alone and the calibrated report at the current
/// settings (compare_with_log). A log whose measured terms left the scenario (Back, a link) is dropped.
void refresh_log_rows(App& app);

/// A Hub model's files as the page fetched them (web/bridge.js fetchHfModel): config.json, the index ("" = none),
/// the shards' headers (empty = not read) and why some were not read.
struct HubFiles {
    std::string config;
    std::string index;
    std::vector<std::string> headers;
    std::vector<std::string> notes;
};

/// Reads a Hub model (`repo` = ORG/NAME[@REV]) into the scenario's inline model through the core, the same
/// readers the CLI's --model ORG/NAME feeds (read_hf_config, read_safetensors_index, price_checkpoint); sets
/// Scenario::hub_model so the link carries hf=. Returns true when the scenario changed.
bool apply_hub_files(App& app, const HubFiles& files, const std::string& repo, bool from_link = false);

/// The scenario the core sees for the pasted / fetched model: its files as Scenario::config_json and the
/// safetensors fields, priced at app.ui.pasted_weights_dtype. Only meaningful when app.ui.pasted_config is set.
Scenario pasted_scenario(const App& app);

/// Re-prices the pasted / fetched model in weights format `weights_dtype` ("" = auto), keeping every setting.
bool set_pasted_weights_dtype(App& app, const std::string& weights_dtype);

/// Handles text the page delivered (a pasted config.json, a Hub fetch result). Returns true if the app changed.
bool poll_host(App& app);

/// Draws every panel for one frame. `view_w`/`view_h` are in CSS px (points). Returns true when the user
/// changed something (the caller then draws a few more frames and recomputes).
bool draw_app(App& app, float view_w, float view_h);

}  // namespace kvcalc::ui

// What the app needs from its host (browser page or desktop), behind one small interface.
// Only platform_web.cpp touches the DOM, and only through emscripten::val.
#pragma once
#include <string>

namespace kvcalc::ui {

/// Size of the drawing area in CSS pixels (browser) or window points (desktop).
struct ViewSize {
    int width = 1280;
    int height = 800;
};

/// devicePixelRatio in the browser; the window's drawable/points ratio on a desktop.
float device_pixel_ratio();

/// Current size of the canvas (browser) or 0×0 when the host does not impose one (desktop).
ViewSize host_view_size();

/// The page's query string without the leading '?', or "" on a desktop.
std::string read_query_string();

/// The page's address without query or fragment (location.origin + pathname), or "" on a desktop.
std::string page_url();

/// The page's fragment without the leading '#', or "" on a desktop.
std::string read_fragment();

/// Sets the page's query string and fragment: a new history entry (history.pushState) when `push`, else in place
/// (history.replaceState). Back and Forward come back through take_host_message() as kind "location". No-op on a
/// desktop.
void write_location(const std::string& query, const std::string& fragment, bool push);

/// Mirrors the result as plain text for screen readers (the page writes it to its aria-live region once the
/// text has been stable for a moment, so a slider drag is not read out step by step) and sets the page title.
void announce_result(const std::string& text, const std::string& title);

/// Mirrors the keyboard-focused control (its label, role, value and help) as text in the page's focus region, so a
/// screen reader reads it when the focus moves. No-op on a desktop.
void announce_focus(const std::string& text);

/// Tab went past the last control (`direction` 1) or Shift+Tab before the first (-1): the page moves its focus to
/// the next (or previous) focusable element outside the canvas. No-op on a desktop.
void leave_canvas(int direction);

/// Asks the page to focus its HTML text input for the ImGui field `session` (soft keyboard, clipboard), showing
/// `text` with the selection [sel_start, sel_end) and the keyboard for `inputmode` ("numeric", "decimal",
/// "search", "url", "text"). Edits come back through take_host_message() as kind "text". No-op on a desktop.
void text_input_begin(unsigned session, const char* inputmode, const std::string& text, int sel_start, int sel_end);

/// The ImGui field lost focus: the page blurs its HTML input (the soft keyboard closes). No-op on a desktop.
void text_input_end();

/// Reports how many frames have been drawn, for the idle test (window.kvcalcFramesDrawn).
void report_frames_drawn(long frames);

/// The embed view's content height in CSS px: the page posts it to the parent window when it changes
/// ({type: "kvcalc-embed-height", height}), so a host page can size the iframe to it. No-op on a desktop.
void report_content_height(float css_px);

/// Tells the shell page that the app is up (hides the loading bar).
void notify_ready();

/// Records a start-up milestone (window.kvcalcStartup[name] = now_ms()) for the budget script; no-op on a desktop.
void mark_startup(const char* name);

/// Milliseconds from a monotonic clock (emscripten_get_now in the browser).
double now_ms();

/// Publishes the app state as JSON for tests and tools (window.kvcalcState) and the last recompute time
/// (window.kvcalcRecomputeMs).
void publish_state(const std::string& json, double recompute_ms);

/// Puts `text` on the clipboard (navigator.clipboard, with a fallback in web/bridge.js). Returns false when the
/// host has no clipboard (the desktop build prints the text to stdout instead).
bool copy_text(const std::string& text);

/// Opens `url` (relative to the page) in a new tab; no-op on a desktop.
void open_url(const std::string& url);

/// Asks the page to fetch a Hub model's files (ORG/NAME[@REV]: config.json, model.safetensors.index.json and the
/// shards' headers by range requests, web/bridge.js fetchHfModel); the answer arrives through take_host_message()
/// as kind "hub" (JSON {config, index, headers, notes}) or "error". Returns false when the host cannot fetch (desktop).
bool request_hf_model(const std::string& hf_id);

/// Shows the page's HTML textarea for pasting a config.json (it opens the soft keyboard on phones).
/// Returns false when the host has none (desktop).
bool show_paste_overlay();

/// Opens the page's file picker for .gguf files (several may be chosen: the parts of a split file). What was picked
/// comes back through take_host_message() as kind "gguf_files" (text: a JSON array of {name, size}). Returns false
/// when the host has no picker (desktop: the CLI's --gguf reads files).
bool request_gguf_pick();

/// Asks the page to read Hub GGUF files by range requests (web/bridge.js ggufHub): `request` is JSON
/// {"ref", "files": [{"name", "url"}]}. They come back as a "gguf_files" message (source "hub") and are then read
/// with request_gguf_bytes like picked files, or as "gguf_error". False when the host cannot fetch.
bool request_gguf_hub(const std::string& request);

/// Asks the page to read the first `bytes` bytes of picked file `index` (Blob.slice: nothing leaves the browser).
/// The answer is a "gguf_bytes" message (text: the index, source: the bytes read, or kind "gguf_error").
void request_gguf_bytes(int index, double bytes);

/// The bytes the page read for picked file `index`; the page drops its copy. "" when there are none.
std::string take_gguf_bytes(int index);
/// Shows the same overlay for pasting a start-up log (its words and button say so); the text comes back through
/// take_host_message() as kind "log". Returns false when the host has none (desktop).
bool show_log_overlay();

/// Text the page delivered for the app.
struct HostMessage {
    /// "config" (pasted config.json text), "hub" (a Hub model's files as JSON), "error" (fetch failed), "log" (a
    /// pasted or dropped start-up log, source "paste" or the file's name), "log_error" (a dropped file the page could
    /// not read), "text" (the HTML input's text, source
    /// "<session>:<selection start>:<selection end>"), "text_done" (Enter / Tab / keyboard closed); "" = none
    std::string kind;
    std::string text;    ///< the document, the error sentence, or the input's text
    std::string source;  ///< "paste", the Hugging Face id, or the text session and selection
};

/// Takes the oldest pending message from the page (kind "" when there is none). Cheap: called every frame.
HostMessage take_host_message();

}  // namespace kvcalc::ui

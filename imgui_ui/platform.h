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

/// Replaces the page's query string in place (history.replaceState); no-op on a desktop.
void write_query_string(const std::string& query);

/// Mirrors the result as plain text in the page's aria-live region for screen readers.
void announce_result(const std::string& text);

/// Reports how many frames have been drawn, for the idle test (window.kvcalcFramesDrawn).
void report_frames_drawn(long frames);

/// Tells the shell page that the app is up (hides the loading bar).
void notify_ready();

}  // namespace kvcalc::ui

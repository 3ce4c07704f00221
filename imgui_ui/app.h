// The app's whole state, owned by main(): what the user set, UI-only state, and the last report.
#pragma once
#include <string>

namespace kvcalc::ui {

/// UI-only state (not part of the scenario or the URL).
struct UiState {
    bool dark_theme = true;
    bool narrow_layout = false;  ///< single column (phones), decided from the view width each frame
    float dpr = 1.0f;            ///< devicePixelRatio the fonts were built for
};

/// Everything the app owns. No globals, no static locals: panels get this by reference.
struct App {
    std::string request_json;  ///< the scenario, as the core's JSON request (schema 1)
    std::string report_json;   ///< the core's last answer
    long long kv_growing_bytes_per_token = 0;
    UiState ui;
    bool dirty = true;         ///< scenario changed since the last evaluation
};

/// Re-evaluates the scenario when it changed. Returns true if the report changed.
bool recompute_if_dirty(App& app);

/// Draws every panel for one frame. `view_w`/`view_h` are in CSS px (points). Returns true when the user
/// changed something (the caller then draws a few more frames and recomputes).
bool draw_app(App& app, float view_w, float view_h);

}  // namespace kvcalc::ui

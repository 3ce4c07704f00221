// Touch as a mouse for Dear ImGui. SDL's own touch→mouse translation needs a focused window, which a phone's
// canvas never gets (no mouseenter), and ImGui 1.86's SDL backend ignores finger events: so we map them here.
#pragma once
#include <SDL.h>
#include <imgui.h>

namespace kvcalc::ui {

/// The primary finger, in window points (CSS px).
struct TouchInput {
    bool down = false;      ///< a finger is on the screen
    bool pressed = false;   ///< went down since the last frame (kept so a tap shorter than a frame still counts)
    int release_frames = 0; ///< frames left to report the lifted finger's position (the click lands on release)
    float x = 0.0f, y = 0.0f;
};

/// Records an SDL finger event (others are ignored). Returns true when the event was a finger event.
bool touch_event(TouchInput& touch, const SDL_Event& event, int window_w, int window_h);

/// Call after the platform backend's NewFrame: overrides the mouse with the finger while a touch is in play.
void touch_apply(TouchInput& touch, ImGuiIO& io);

/// True while the touch still needs frames drawn (finger down or a release not yet delivered).
inline bool touch_busy(const TouchInput& touch) { return touch.down || touch.pressed || touch.release_frames > 0; }

}  // namespace kvcalc::ui

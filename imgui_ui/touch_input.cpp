// Finger events → ImGui mouse position and left button, one finger at a time.
#include "touch_input.h"

#include <cfloat>

namespace kvcalc::ui {

bool touch_event(TouchInput& touch, const SDL_Event& event, int window_w, int window_h) {
    if (event.type != SDL_FINGERDOWN && event.type != SDL_FINGERMOTION && event.type != SDL_FINGERUP) return false;
    if (event.tfinger.fingerId != 0 && event.type == SDL_FINGERDOWN && touch.down) return true;  // second finger
    touch.x = event.tfinger.x * static_cast<float>(window_w);
    touch.y = event.tfinger.y * static_cast<float>(window_h);
    if (event.type == SDL_FINGERDOWN) {
        touch.down = true;
        touch.pressed = true;
    } else if (event.type == SDL_FINGERUP) {
        touch.down = false;
        touch.release_frames = 2;
    }
    return true;
}

void touch_apply(TouchInput& touch, ImGuiIO& io) {
    if (touch.down || touch.pressed) {
        io.MousePos = ImVec2(touch.x, touch.y);
        io.MouseDown[0] = true;
        touch.pressed = false;
    } else if (touch.release_frames > 0) {
        // First frame after the lift: button up at the finger (a tap clicks). Then the "mouse" leaves, so
        // nothing stays hovered under a finger that is gone.
        io.MousePos = touch.release_frames == 2 ? ImVec2(touch.x, touch.y) : ImVec2(-FLT_MAX, -FLT_MAX);
        io.MouseDown[0] = false;
        --touch.release_frames;
    }
}

}  // namespace kvcalc::ui

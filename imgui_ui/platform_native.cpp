// Desktop host: no page, no URL; sizes come from the SDL window itself, the clipboard is SDL's.
#ifndef __EMSCRIPTEN__
#include "platform.h"

#include <SDL.h>

#include <chrono>

namespace kvcalc::ui {

float device_pixel_ratio() { return 1.0f; }
ViewSize host_view_size() { return {0, 0}; }
std::string read_query_string() { return {}; }
std::string page_url() { return {}; }
std::string read_fragment() { return {}; }
void write_location(const std::string&, const std::string&, bool) {}
void announce_result(const std::string&, const std::string&) {}
void announce_focus(const std::string&) {}
void leave_canvas(int) {}
void text_input_begin(unsigned, const char*, const std::string&, int, int) {}
void text_input_end() {}
void report_frames_drawn(long) {}
void notify_ready() {}
double now_ms() {
    using clock = std::chrono::steady_clock;
    return std::chrono::duration<double, std::milli>(clock::now().time_since_epoch()).count();
}
void mark_startup(const char*) {}
void publish_state(const std::string&, double) {}
bool copy_text(const std::string& text) { return SDL_SetClipboardText(text.c_str()) == 0; }
void open_url(const std::string&) {}
void report_content_height(float) {}
bool request_hf_model(const std::string&) { return false; }
bool show_paste_overlay() { return false; }
bool show_log_overlay() { return false; }
HostMessage take_host_message() { return {}; }
bool request_gguf_pick() { return false; }
bool request_gguf_hub(const std::string&) { return false; }
void request_gguf_bytes(int, double) {}
std::string take_gguf_bytes(int) { return {}; }

}  // namespace kvcalc::ui
#endif

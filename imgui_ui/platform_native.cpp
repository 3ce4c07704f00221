// Desktop host: no page, no URL; sizes come from the SDL window itself.
#ifndef __EMSCRIPTEN__
#include "platform.h"

namespace kvcalc::ui {

float device_pixel_ratio() { return 1.0f; }
ViewSize host_view_size() { return {0, 0}; }
std::string read_query_string() { return {}; }
void write_query_string(const std::string&) {}
void announce_result(const std::string&) {}
void report_frames_drawn(long) {}
void notify_ready() {}

}  // namespace kvcalc::ui
#endif

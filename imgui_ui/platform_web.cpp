// Browser glue: canvas size, devicePixelRatio, URL, aria-live mirror. Everything through emscripten::val.
#ifdef __EMSCRIPTEN__
#include <emscripten/html5.h>
#include <emscripten/val.h>

#include "platform.h"

namespace kvcalc::ui {

using emscripten::val;

float device_pixel_ratio() {
    const double dpr = emscripten_get_device_pixel_ratio();
    return dpr > 0.0 ? static_cast<float>(dpr) : 1.0f;
}

ViewSize host_view_size() {
    double w = 0, h = 0;
    emscripten_get_element_css_size("#canvas", &w, &h);
    return {static_cast<int>(w), static_cast<int>(h)};
}

std::string read_query_string() {
    std::string search = val::global("location")["search"].as<std::string>();
    if (!search.empty() && search[0] == '?') search.erase(0, 1);
    return search;
}

void write_query_string(const std::string& query) {
    val location = val::global("location");
    std::string url = location["pathname"].as<std::string>();
    if (!query.empty()) url += "?" + query;
    url += location["hash"].as<std::string>();
    val::global("history").call<void>("replaceState", val::null(), std::string(""), url);
}

void announce_result(const std::string& text) {
    val el = val::global("document").call<val>("getElementById", std::string("result-text"));
    if (!el.isNull() && !el.isUndefined()) el.set("textContent", text);
}

void report_frames_drawn(long frames) { val::global("window").set("kvcalcFramesDrawn", static_cast<double>(frames)); }

void notify_ready() {
    val hook = val::global("window")["kvcalcReady"];
    if (hook.typeOf().as<std::string>() == "function") hook();
}

}  // namespace kvcalc::ui
#endif

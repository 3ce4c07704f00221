// Browser glue: canvas size, devicePixelRatio, URL, aria-live mirror. Everything through emscripten::val.
#ifdef __EMSCRIPTEN__
#include <emscripten.h>
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

std::string page_url() {
    val location = val::global("location");
    return location["origin"].as<std::string>() + location["pathname"].as<std::string>();
}

std::string read_fragment() {
    std::string hash = val::global("location")["hash"].as<std::string>();
    if (!hash.empty() && hash[0] == '#') hash.erase(0, 1);
    return hash;
}

void write_location(const std::string& query, const std::string& fragment, bool push) {
    val location = val::global("location");
    std::string url = location["pathname"].as<std::string>();
    if (!query.empty()) url += "?" + query;
    if (!fragment.empty()) url += "#" + fragment;
    val::global("history").call<void>(push ? "pushState" : "replaceState", val::null(), std::string(""), url);
}

void report_frames_drawn(long frames) { val::global("window").set("kvcalcFramesDrawn", static_cast<double>(frames)); }

void notify_ready() {
    val hook = val::global("window")["kvcalcReady"];
    if (hook.typeOf().as<std::string>() == "function") hook();
}

double now_ms() { return emscripten_get_now(); }

void mark_startup(const char* name) {
    val window = val::global("window");
    if (window["kvcalcStartup"].isUndefined()) window.set("kvcalcStartup", val::object());
    window["kvcalcStartup"].set(name, val::global("performance").call<double>("now"));
}

void publish_state(const std::string& json, double recompute_ms) {
    val window = val::global("window");
    window.set("kvcalcState", val::global("JSON").call<val>("parse", json));
    window.set("kvcalcRecomputeMs", recompute_ms);
}

namespace {
/// window.kvcalcBridge (web/bridge.js), or undefined when the page has none.
val bridge() { return val::global("window")["kvcalcBridge"]; }
bool has_bridge() { return bridge().typeOf().as<std::string>() == "object"; }
}  // namespace

void announce_result(const std::string& text, const std::string& title) {
    if (has_bridge()) bridge().call<void>("announce", text, title);
}

void announce_focus(const std::string& text) {
    if (has_bridge()) bridge().call<void>("announceFocus", text);
}

void leave_canvas(int direction) {
    if (has_bridge()) bridge().call<void>("leaveCanvas", direction);
}

void text_input_begin(unsigned session, const char* inputmode, const std::string& text, int sel_start, int sel_end) {
    if (has_bridge())
        bridge().call<void>("textBegin", static_cast<double>(session), std::string(inputmode), text, sel_start, sel_end);
}

void text_input_end() {
    if (has_bridge()) bridge().call<void>("textEnd");
}

void report_content_height(float css_px) {
    if (has_bridge()) bridge().call<void>("reportHeight", static_cast<double>(css_px));
}

bool copy_text(const std::string& text) {
    if (!has_bridge()) return false;
    bridge().call<void>("copy", text);
    return true;
}

void open_url(const std::string& url) {
    if (has_bridge()) bridge().call<void>("open", url);
}

bool request_hf_config(const std::string& hf_id) {
    if (!has_bridge()) return false;
    bridge().call<void>("fetchHfConfig", hf_id);
    return true;
}

bool show_paste_overlay() {
    if (!has_bridge()) return false;
    bridge().call<void>("showPaste");
    return true;
}

HostMessage take_host_message() {
    if (!has_bridge()) return {};
    val inbox = bridge()["inbox"];
    if (inbox["length"].as<int>() == 0) return {};
    val m = inbox.call<val>("shift");
    return {m["kind"].as<std::string>(), m["text"].as<std::string>(), m["source"].as<std::string>()};
}

}  // namespace kvcalc::ui
#endif

// Browser glue: canvas size, devicePixelRatio, URL, aria-live mirror, the page's bridge (web/bridge.js). Plain
// EM_JS functions: strings go in as UTF-8 pointers and come back malloc'ed, so the page needs no embind runtime.
#ifdef __EMSCRIPTEN__
#include <emscripten.h>
#include <emscripten/html5.h>

#include <cstdlib>

#include "platform.h"

// JS side. A returned char* is malloc'ed UTF-8 (owned by the caller, see take()); 0 = none.
// clang-format off
EM_JS(char*, kv_js_string, (int which), {
    var s = which == 0 ? location.search : which == 1 ? location.origin + location.pathname
          : which == 2 ? location.hash : location.pathname;
    var n = lengthBytesUTF8(s) + 1, p = _malloc(n);
    stringToUTF8(s, p, n);
    return p;
});
EM_JS(void, kv_js_write_location, (const char* url, int push), {
    history[push ? "pushState" : "replaceState"](null, "", UTF8ToString(url));
});
EM_JS(void, kv_js_set_number, (const char* name, double value), { window[UTF8ToString(name)] = value; });
EM_JS(void, kv_js_ready, (), { if (typeof window.kvcalcReady === "function") window.kvcalcReady(); });
EM_JS(void, kv_js_mark, (const char* name), {
    if (!window.kvcalcStartup) window.kvcalcStartup = {};
    window.kvcalcStartup[UTF8ToString(name)] = performance.now();
});
EM_JS(void, kv_js_publish, (const char* json, double ms), {
    window.kvcalcState = JSON.parse(UTF8ToString(json));
    window.kvcalcRecomputeMs = ms;
});
EM_JS(int, kv_js_has_bridge, (), { return typeof window.kvcalcBridge === "object" ? 1 : 0; });
// Calls kvcalcBridge[method] with up to three string arguments and two numbers, as the method takes them.
EM_JS(void, kv_js_call, (const char* method, int argc, const char* a, const char* b, const char* c, double x, double y), {
    var bridge = window.kvcalcBridge;
    if (typeof bridge !== "object") return;
    var m = UTF8ToString(method);
    if (argc == 0) bridge[m]();
    else if (argc == 1) bridge[m](UTF8ToString(a));
    else if (argc == 2) bridge[m](UTF8ToString(a), UTF8ToString(b));
    else if (argc == -1) bridge[m](x);
    else if (argc == 5) bridge[m](x, UTF8ToString(a), UTF8ToString(b), y, Number(UTF8ToString(c)));
});
// The oldest message of kvcalcBridge.inbox as kind \0 text \0 source in one malloc'ed block, 0 when none.
EM_JS(char*, kv_js_take_message, (int* size), {
    var bridge = window.kvcalcBridge;
    if (typeof bridge !== "object" || bridge.inbox.length == 0) return 0;
    var m = bridge.inbox.shift();
    var parts = [String(m.kind), String(m.text), String(m.source)];
    var n = 0;
    for (var i = 0; i < 3; i++) n += lengthBytesUTF8(parts[i]) + 1;
    var p = _malloc(n), at = p;
    for (var i = 0; i < 3; i++) { stringToUTF8(parts[i], at, n - (at - p)); at += lengthBytesUTF8(parts[i]) + 1; }
    HEAP32[size >> 2] = n;
    return p;
});
// The GGUF file picker's bytes (web/bridge.js, the GGUF block): kvcalcBridge.ggufTake(index) hands over the
// Uint8Array read for that file, copied here into one malloc'ed block (0 when there is none).
EM_JS(char*, kv_js_gguf_take, (int index, int* size), {
    var bridge = window.kvcalcBridge;
    if (typeof bridge !== "object" || typeof bridge.ggufTake !== "function") return 0;
    var bytes = bridge.ggufTake(index);
    if (!bytes || bytes.length == 0) return 0;
    var p = _malloc(bytes.length);
    HEAPU8.set(bytes, p);
    HEAP32[size >> 2] = bytes.length;
    return p;
});
EM_JS(void, kv_js_gguf_read, (int index, double bytes), {
    var bridge = window.kvcalcBridge;
    if (typeof bridge === "object" && typeof bridge.ggufRead === "function") bridge.ggufRead(index, bytes);
});
// clang-format on

namespace kvcalc::ui {

namespace {

/// Takes ownership of a malloc'ed string from the JS side.
std::string take(char* p) {
    if (!p) return {};
    std::string out(p);
    std::free(p);
    return out;
}

bool has_bridge() { return kv_js_has_bridge() != 0; }

void call(const char* method) { kv_js_call(method, 0, "", "", "", 0, 0); }
void call(const char* method, const std::string& a) { kv_js_call(method, 1, a.c_str(), "", "", 0, 0); }
void call(const char* method, const std::string& a, const std::string& b) {
    kv_js_call(method, 2, a.c_str(), b.c_str(), "", 0, 0);
}

}  // namespace

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
    std::string search = take(kv_js_string(0));
    if (!search.empty() && search[0] == '?') search.erase(0, 1);
    return search;
}

std::string page_url() { return take(kv_js_string(1)); }

std::string read_fragment() {
    std::string hash = take(kv_js_string(2));
    if (!hash.empty() && hash[0] == '#') hash.erase(0, 1);
    return hash;
}

void write_location(const std::string& query, const std::string& fragment, bool push) {
    std::string url = take(kv_js_string(3));  // location.pathname
    if (!query.empty()) url += "?" + query;
    if (!fragment.empty()) url += "#" + fragment;
    kv_js_write_location(url.c_str(), push ? 1 : 0);
}

void report_frames_drawn(long frames) { kv_js_set_number("kvcalcFramesDrawn", static_cast<double>(frames)); }

void notify_ready() { kv_js_ready(); }

double now_ms() { return emscripten_get_now(); }

void mark_startup(const char* name) { kv_js_mark(name); }

void publish_state(const std::string& json, double recompute_ms) { kv_js_publish(json.c_str(), recompute_ms); }

void announce_result(const std::string& text, const std::string& title) { call("announce", text, title); }

void announce_focus(const std::string& text) { call("announceFocus", text); }

void leave_canvas(int direction) { kv_js_call("leaveCanvas", -1, "", "", "", direction, 0); }

void text_input_begin(unsigned session, const char* inputmode, const std::string& text, int sel_start, int sel_end) {
    const std::string end = std::to_string(sel_end);
    kv_js_call("textBegin", 5, inputmode, text.c_str(), end.c_str(), static_cast<double>(session), sel_start);
}

void text_input_end() { call("textEnd"); }

void report_content_height(float css_px) { kv_js_call("reportHeight", -1, "", "", "", css_px, 0); }

bool copy_text(const std::string& text) {
    if (!has_bridge()) return false;
    call("copy", text);
    return true;
}

void open_url(const std::string& url) { call("open", url); }

bool request_hf_model(const std::string& hf_id) {
    if (!has_bridge()) return false;
    call("fetchHfModel", hf_id);
    return true;
}

bool show_paste_overlay() {
    if (!has_bridge()) return false;
    call("showPaste");
    return true;
}

bool request_gguf_pick() {
    if (!has_bridge()) return false;
    call("ggufPick");
    return true;
}

bool request_gguf_hub(const std::string& request) {
    if (!has_bridge()) return false;
    call("ggufHubOpen", request);
    return true;
}

void request_gguf_bytes(int index, double bytes) { kv_js_gguf_read(index, bytes); }

std::string take_gguf_bytes(int index) {
    int size = 0;
    char* p = kv_js_gguf_take(index, &size);
    if (!p) return {};
    std::string out(p, static_cast<std::size_t>(size));
    std::free(p);
    return out;
}

bool show_log_overlay() {
    if (!has_bridge()) return false;
    call("showPaste", std::string("log"));
    return true;
}

HostMessage take_host_message() {
    int size = 0;
    char* p = kv_js_take_message(&size);
    if (!p) return {};
    HostMessage m;
    m.kind = p;
    const char* text = p + m.kind.size() + 1;
    m.text = text;
    m.source = text + m.text.size() + 1;
    std::free(p);
    return m;
}

}  // namespace kvcalc::ui
#endif

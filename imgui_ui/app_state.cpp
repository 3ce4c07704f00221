// The app's link to its host: the URL (scenario via the core codec + reserved keys), the aria-live mirror,
// window.kvcalcState, and text the page delivers (pasted or fetched config.json).
#include <algorithm>

#include <nlohmann/json.hpp>

#include "app.h"
#include "kvcalc/json_io.h"
#include "platform.h"
#include "text_export.h"
#include "kvcalc/url_codec.h"

namespace kvcalc::ui {

namespace {

/// Value of `key` in a query string ("" when absent).
std::string query_value(const std::string& query, const std::string& key) {
    std::size_t pos = 0;
    while (pos <= query.size()) {
        const std::size_t end = std::min(query.find('&', pos), query.size());
        const std::string pair = query.substr(pos, end - pos);
        const std::size_t eq = pair.find('=');
        if (pair.substr(0, eq) == key) return eq == std::string::npos ? "" : pair.substr(eq + 1);
        pos = end + 1;
    }
    return {};
}

std::string reserved_keys(const App& app, bool with_embed) {
    std::string out;
    if (with_embed && app.ui.embed) out += "&embed=1";
    if (!app.ui.dark_theme) out += "&theme=light";
    if (app.ui.unit == ByteUnit::gb) out += "&unit=gb";
    return out;
}

std::string state_json(const App& app) {
    nlohmann::json j;
    nlohmann::json scenario;
    to_json(scenario, app.scenario);
    j["scenario"] = scenario;
    j["ok"] = app.report.ok;
    j["verdict"] = app.report.ok ? verdict_name(app.report.verdict) : "INVALID";
    j["reason"] = app.report.reason;
    j["limiting_term"] = app.report.limiting_term;
    j["url_warnings"] = nlohmann::json::array();
    for (const Diagnostic& d : app.url_warnings) j["url_warnings"].push_back(d.message);
    j["theme"] = app.ui.dark_theme ? "dark" : "light";
    j["unit"] = unit_name_key(app.ui.unit);
    j["embed"] = app.ui.embed;
    j["narrow_layout"] = app.ui.narrow_layout;
    j["shop_rows"] = app.derived.shop.size();
    j["model_status"] = app.ui.model_status;

    nlohmann::json boxes = nlohmann::json::object();
    for (const auto& [name, b] : app.ui.hitboxes) boxes[name] = {b.x, b.y, b.w, b.h};
    j["hitboxes"] = boxes;
    return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace

const char* unit_name_key(ByteUnit unit) { return unit == ByteUnit::gb ? "gb" : "gib"; }

void load_from_url(App& app) {
    const std::string query = read_query_string();
    app.ui.embed = query_value(query, "embed") == "1";
    app.ui.dark_theme = query_value(query, "theme") != "light";
    app.ui.unit = query_value(query, "unit") == "gb" ? ByteUnit::gb : ByteUnit::gib;
    if (!query.empty()) app.scenario = decode_query(query, app.url_warnings);
    app.dirty = true;
}

std::string current_query(const App& app, bool with_embed) {
    return encode_query(app.scenario) + reserved_keys(app, with_embed);
}

void write_url(const App& app) { write_query_string(current_query(app, true)); }

void sync_host(App& app) {
    if (app.url_dirty) {
        app.url_dirty = false;
        write_url(app);
        announce_result(summary_text(app));
    }
    publish_state(state_json(app), app.derived.recompute_ms);
}

bool poll_host(App& app) {
    const HostMessage m = take_host_message();
    if (m.kind.empty()) return false;
    if (m.kind == "error") {
        app.ui.model_status = m.text;
        app.ui.model_status_is_error = true;
        app.url_dirty = true;
        return true;
    }
    if (apply_config_text(app, m.text, m.source)) app.dirty = true;
    app.url_dirty = true;
    return true;
}

}  // namespace kvcalc::ui

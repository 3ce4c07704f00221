// The app's link to its host: the URL (scenario via the core codec + reserved keys, a pasted model in the
// fragment), the screen-reader mirror and page title, window.kvcalcState, and messages the page delivers.
#include <algorithm>

#include <imgui.h>
#include <nlohmann/json.hpp>

#include "answer_text.h"
#include "keyboard_nav.h"
#include "app.h"
#include "kvcalc/base/gpu_catalog.h"
#include "kvcalc/io/json_io.h"
#include "kvcalc/io/json_results.h"
#include "kvcalc/io/url_codec.h"
#include "kvcalc/model/layer_cache.h"
#include "model_lookup.h"
#include "platform.h"
#include "share_link.h"
#include "shop_view.h"
#include "text_export.h"
#include "text_proxy.h"
#include "widgets.h"

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

nlohmann::json box_json(const Hitbox& b) { return {b.x, b.y, b.w, b.h}; }

/// The start-up log as the panel shows it (for tests and tools): the rows in numbers, the settings it filled.
nlohmann::json log_state_json(const App& app) {
    const LogView& v = app.log;
    nlohmann::json rows = nlohmann::json::array();
    for (const LogComparisonRow& r : v.rows) {
        const auto opt = [](const std::optional<double>& x) { return x ? nlohmann::json(*x) : nlohmann::json(nullptr); };
        rows.push_back({{"name", r.name}, {"label", r.label}, {"unit", r.unit}, {"printed", r.printed},
                        {"predicted", opt(r.predicted)}, {"calibrated", opt(r.calibrated)}, {"line", r.line}});
    }
    return {{"active", v.active}, {"calibrated", app.scenario.measured.has_value()}, {"source", v.source},
            {"engine", log_engine_name(v.log.engine)}, {"engine_version", v.log.engine_version},
            {"status", v.status}, {"status_is_error", v.status_is_error}, {"filled", v.filled}, {"rows", rows},
            {"what_if", v.active && v.calibrated && !(app.scenario == v.boot)}};
}

nlohmann::json shop_row_json(const ShopRow& r) {
    const GpuSpec& g = gpu_catalog()[static_cast<std::size_t>(r.gpu_index)];
    return {{"gpu", g.id}, {"cards", r.cards}, {"vram_bytes", g.vram_bytes * r.cards},
            {"verdict", r.valid ? verdict_name(r.verdict) : "n/a"}, {"runs", r.runs}, {"max_model_len", r.max_model_len}};
}

std::string state_json(const App& app) {
    nlohmann::json j;
    nlohmann::json scenario;
    to_json(scenario, app.scenario);
    j["scenario"] = scenario;
    j["ok"] = app.report.ok;
    j["verdict"] = app.report.ok ? verdict_name(app.report.verdict) : "INVALID";
    j["verdict_line"] = verdict_line(app);
    j["sticky_line"] = app.ui.sticky_line;
    j["sticky_clipped"] = app.ui.sticky_clipped;
    j["scroll_anchor"] = {{"name", app.ui.anchor.name}, {"corrected_px", app.ui.anchor.corrected}};
    j["reason"] = app.report.reason;
    j["limiting_term"] = app.report.limiting_term;
    nlohmann::json terms = nlohmann::json::object();
    for (const Term& t : app.report.term_list) terms[std::string(t.id)] = t.bytes;
    j["terms"] = terms;  // per card, the Result table's rows (tests compare them with the CLI's --json)
    j["command"] = app.report.command;
    j["url_warnings"] = nlohmann::json::array();
    for (const Diagnostic& d : app.url_warnings) j["url_warnings"].push_back(d.message);
    j["clamp_notes"] = app.ui.clamp_notes;
    j["model_note"] = app.ui.model_note;
    j["theme"] = app.ui.dark_theme ? "dark" : "light";
    j["unit"] = unit_name_key(app.ui.unit);
    j["embed"] = app.ui.embed;
    j["narrow_layout"] = app.ui.narrow_layout;
    j["touch_layout"] = app.ui.touch_layout;
    j["model_status"] = app.ui.model_status;
    j["share_blocker"] = share_blocker(app);
    j["startup_lines"] = startup_lines(app);
    j["log"] = log_state_json(app);
    j["notes"] = app.report.notes;
    const Derived& d = app.derived;
    j["solver"] = {{"max_model_len", d.max_len.ok ? d.max_len.value : 0},
                   {"max_model_len_rounded", d.max_len.ok ? d.max_len.value_rounded : 0},
                   {"max_model_len_all_sequences", d.max_len_all.ok ? d.max_len_all.value : 0},
                   {"context_max_num_seqs", d.max_len_seqs},
                   {"max_num_seqs", d.max_seqs.ok ? d.max_seqs.value : 0},
                   {"min_gpus", d.min_gpus.ok ? d.min_gpus.value : 0}};
    nlohmann::json shop = nlohmann::json::array();
    for (const ShopRow& r : shop_rows_in_order(app)) shop.push_back(shop_row_json(r));
    j["shop_rows"] = shop;
    const ShopHeadlines head = shop_headlines(d.shop);
    nlohmann::json heads = nlohmann::json::object();
    if (head.least_vram_pass) heads["least_vram_pass"] = shop_row_json(*head.least_vram_pass);
    if (head.least_vram_boots) heads["least_vram_boots"] = shop_row_json(*head.least_vram_boots);
    if (head.fewest_cards) heads["fewest_cards"] = shop_row_json(*head.fewest_cards);
    j["shop_headlines"] = heads;
    j["shop_pinned_tp"] = d.shop_pinned_tp;
    nlohmann::json boxes = nlohmann::json::object();
    for (const auto& [name, b] : app.ui.hitboxes) boxes[name] = box_json(b);
    j["hitboxes"] = boxes;
    j["drawn_text"] = app.ui.drawn_text;
    nlohmann::json fields = nlohmann::json::array();
    for (const TextFieldBox& f : app.ui.text_fields)
        fields.push_back({f.box.x, f.box.y, f.box.w, f.box.h, inputmode_name(f.kind), f.id});
    j["text_fields"] = fields;
    const auto rgb = [](ImVec4 v) { return nlohmann::json{v.x, v.y, v.z}; };
    const auto rgb32 = [&](ImU32 c) { return rgb(ImGui::ColorConvertU32ToFloat4(c)); };
    const ImVec4* col = ImGui::GetStyle().Colors;
    const bool dark = app.ui.dark_theme;
    j["theme_colors"] = {{"window_bg", rgb(col[ImGuiCol_WindowBg])}, {"text", rgb(col[ImGuiCol_Text])},
                         {"text_disabled", rgb(col[ImGuiCol_TextDisabled])},
                         {"pass", rgb32(verdict_color(Verdict::pass, dark))},
                         {"tight", rgb32(verdict_color(Verdict::tight, dark))},
                         {"fail", rgb32(verdict_color(Verdict::fail, dark))}};
    const ImVec2 pad = ImGui::GetStyle().TouchExtraPadding;
    j["touch_extra_padding"] = {pad.x, pad.y};
    j["gguf"] = nlohmann::json::parse(gguf_state_json(app));
    return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

/// A link's max_model_len beyond the engine's derived maximum for the model (the core's context_limit, rope scaling
/// included): set to that limit, with a warning that names the way out. A link that asks for a longer context on
/// purpose (allow_long_max_model_len) keeps it. A link without ctx got its value from the codec's default for the
/// link's version (180,000 in version 1, the version of a link without v: url_version_1_defaults), so the warning
/// says that instead of quoting a ctx= the link never had.
void clamp_link_context(App& app, const std::string& query) {
    const ModelSpec* model = current_model(app.scenario);
    if (!model || app.scenario.allow_long_max_model_len) return;
    const EngineContextLimit limit = engine_context_limit(app.scenario, *model);
    if (limit.max_model_len <= 0 || app.scenario.max_model_len <= limit.max_model_len) return;
    const std::string asked =
        !query_value(query, "ctx").empty() ? "ctx=" + std::to_string(app.scenario.max_model_len)
        : query_value(query, "v").empty()
            ? "This link has no ctx (nor v, so it reads as a version 1 link) and version 1's default max_model_len " +
                  format_count(app.scenario.max_model_len)
            : "This link has no ctx, and its version's default max_model_len " + format_count(app.scenario.max_model_len);
    app.url_warnings.push_back(
        {Severity::warning, "max_model_len_too_long", "ctx",
         asked + " is above " + model->display_name + "'s derived maximum " + format_count(limit.max_model_len) +
             " (" + limit.source + "): set to that. The engine refuses a longer context unless "
             "VLLM_ALLOW_LONG_MAX_MODEL_LEN=1 (SGLang: SGLANG_ALLOW_OVERWRITE_LONGER_CONTEXT_LEN=1) is set."});
    app.scenario.max_model_len = limit.max_model_len;
}

/// A link's tensor_parallel_size that the model cannot be split by (the core's tensor_parallel_options, e.g. 32
/// heads over 3 cards): a link problem naming tp and the reason, read as absent (1) as the codec reads any bad value,
/// so the link opens on a result instead of "Cannot evaluate" with no word about tp.
void check_link_parallel(App& app) {
    const ModelSpec* model = current_model(app.scenario);
    const int tp = app.scenario.tensor_parallel_size;
    if (!model || tp == 1) return;
    for (const TpOption& o : tensor_parallel_options(*model)) {
        if (o.tensor_parallel_size != tp || o.valid) continue;
        app.url_warnings.push_back({Severity::warning, "url_tensor_parallel_size", "tp",
                                    "tp=" + std::to_string(tp) + " cannot split " + model->display_name + ": " +
                                        o.reason + "; read as absent (1)"});
        app.scenario.tensor_parallel_size = 1;
    }
}

/// True when nothing in `query` took effect: the decoded scenario is what its version's bare "v=N" decodes to (every
/// key was unknown or bad). Such a link, old or new, opens on the page's landing example rather than on the codec's
/// defaults (a version 1 link's are a FAIL: Qwen 3.6 27B at 180,000 tokens on a 24 GB card).
bool nothing_taken(const std::string& query, const Scenario& decoded) {
    const std::string v = query_value(query, "v");
    Diagnostics ignored;
    const Scenario bare = decode_query(v.empty() ? std::string("v=1") : "v=" + v, ignored);
    return encode_query(decoded) == encode_query(bare);
}

}  // namespace

const char* unit_name_key(ByteUnit unit) { return unit == ByteUnit::gb ? "gb" : "gib"; }

void load_from_url(App& app) {
    const std::string query = read_query_string();
    const std::string fragment = read_fragment();
    app.ui.embed = query_value(query, "embed") == "1";
    app.ui.dark_theme = query_value(query, "theme") != "light";
    app.ui.unit = query_value(query, "unit") == "gb" ? ByteUnit::gb : ByteUnit::gib;
    if (query.empty() && fragment.empty()) app.scenario = landing_scenario();
    else app.scenario = decode_query(query, app.url_warnings);
    if (fragment.empty() && app.scenario.hub_model.empty() && !app.url_warnings.empty() &&
        nothing_taken(query, app.scenario)) {
        app.scenario = landing_scenario();
        app.url_warnings.push_back({Severity::warning, "url_nothing_taken", "url",
                                    "Nothing in this link could be used, so the page opens on its starting example."});
    }
    if (!app.scenario.hub_model.empty()) {
        // hf=ORG/NAME[@REV]: the link names a Hub model; its files are read again (the core does no I/O).
        app.ui.hub_link_pending = true;
        app.ui.model_status = "Reading " + app.scenario.hub_model + ", the model this link names, from the Hub…";
        app.ui.model_status_is_error = false;
        if (!request_hf_model(app.scenario.hub_model)) {
            app.url_warnings.push_back({Severity::warning, "link_hub_model", "hf",
                                        "This build cannot read the link's Hub model " + app.scenario.hub_model +
                                            " (no network access): the catalog model is shown instead."});
            app.ui.hub_link_pending = false;
        }
    } else if (!app.scenario.hub_gguf.empty()) {
        gguf_open_link(app);  // gguf=ORG/NAME/FILE.gguf: its header is read again (gguf_import.cpp)
    } else if (!fragment.empty()) {
        load_fragment(app, fragment);
    }
    check_link_parallel(app);
    if (!app.ui.hub_link_pending) clamp_link_context(app, query);  // else once the Hub model is read (poll_host)
    app.dirty = true;
    app.url_dirty = true;
}

std::string current_query(const App& app, bool with_embed) {
    // A pasted or fetched model is inline, priced already in its format: the link carries that format as wd=.
    if (app.scenario.model && !app.ui.pasted_weights_dtype.empty()) {
        Scenario s = app.scenario;
        s.weights_dtype = app.ui.pasted_weights_dtype;
        return encode_query(s) + reserved_keys(app, with_embed);
    }
    return encode_query(app.scenario) + reserved_keys(app, with_embed);
}

void write_url(App& app) {
    // Changes less than this apart are one step for Back (a drag, a typed number, a burst of taps).
    constexpr double kHistoryStepMs = 1500;
    const std::string query = current_query(app, true);
    const std::string fragment = share_fragment(app);
    const std::string url = query + "#" + fragment;
    const double now = now_ms();
    if (url == app.ui.written_url && !app.ui.replace_next_url) return;
    const bool push = !app.ui.replace_next_url && now - app.ui.url_changed_ms >= kHistoryStepMs;
    write_location(query, fragment, push);
    app.ui.written_url = url;
    app.ui.url_changed_ms = now;
    app.ui.replace_next_url = false;
}

void sync_host(App& app) {
    if (app.url_dirty) {
        app.url_dirty = false;
        write_url(app);
        const std::string text = full_text_answer(app);
        if (text != app.ui.announced) {
            app.ui.announced = text;
            announce_result(text, page_title(app));
        }
    }
    publish_state(state_json(app), app.derived.recompute_ms);
}

bool poll_host(App& app) {
    const HostMessage m = take_host_message();
    if (m.kind.empty()) return false;
    if (take_text_message(app.ui, m)) return true;
    if (take_nav_message(m.kind, m.text)) return true;
    if (gguf_take_message(app, m)) return true;
    if (m.kind == "location") {  // Back or Forward: the entry's settings, written back as they are
        app.url_warnings.clear();
        app.ui.model_note.clear();
        load_from_url(app);
        app.ui.replace_next_url = true;
        return true;
    }
    if (m.kind == "log") {
        apply_log_text(app, m.text, m.source);
        app.url_dirty = true;
        return true;
    }
    if (m.kind == "log_error") {
        app.log.status = m.text;
        app.log.status_is_error = true;
        app.url_dirty = true;
        return true;
    }
    if (m.kind == "error") {
        app.ui.model_status = m.text;
        app.ui.model_status_is_error = true;
        if (app.ui.hub_link_pending) {
            app.url_warnings.push_back({Severity::warning, "link_hub_model", "hf",
                                        "The link's Hub model (hf=" + app.scenario.hub_model + ") was not read: " +
                                            m.text + " The catalog model is shown instead."});
            app.scenario.hub_model.clear();
            app.ui.hub_link_pending = false;
            app.dirty = true;
        }
        app.url_dirty = true;
        return true;
    }
    if (m.kind == "hub") {
        const nlohmann::json j = nlohmann::json::parse(m.text, nullptr, false);
        HubFiles files;
        if (j.is_object()) {
            files.config = j.value("config", "");
            files.index = j.value("index", "");
            for (const auto& h : j.value("headers", nlohmann::json::array()))
                if (h.is_string()) files.headers.push_back(h.get<std::string>());
            for (const auto& n : j.value("notes", nlohmann::json::array()))
                if (n.is_string()) files.notes.push_back(n.get<std::string>());
        }
        const bool from_link = app.ui.hub_link_pending;
        app.ui.hub_link_pending = false;
        if (!apply_hub_files(app, files, m.source, from_link) && from_link) {
            app.url_warnings.push_back({Severity::warning, "link_hub_model", "hf",
                                        "The link's Hub model (hf=" + m.source + ") could not be used: " +
                                            app.ui.model_status});
            app.scenario.hub_model.clear();
        }
        if (from_link) clamp_link_context(app, read_query_string());
        app.dirty = true;
        app.url_dirty = true;
        return true;
    }
    if (apply_config_text(app, m.text, m.source)) app.dirty = true;
    app.url_dirty = true;
    return true;
}

}  // namespace kvcalc::ui

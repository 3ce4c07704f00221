// A start-up log from the page (the paste overlay, the clipboard, a dropped file) through the core: the reader
// (read_startup_log) and the calibration (calibrate_from_log) the CLI's --log and the JSON API's startup_log use.
// The page decides only what the user gave: the landing page's own picks count as not given.
#include <algorithm>

#include "app.h"
#include "kvcalc/deployment/predict.h"
#include "log_text.h"
#include "model_lookup.h"

namespace kvcalc::ui {

namespace {

bool landing_model(const Scenario& s, const Scenario& landing) {
    return s.model_id == landing.model_id && !s.model && s.config_json.empty();
}

/// The settings the log fills (calibrate_from_log's `user`): the page's, except the landing page's own picks — its
/// model, its card (when the log prints the CUDA total, which names the card better) and its context — which the
/// user did not give. Anything else on the page is the user's and stays: the answers are then a what-if on the
/// boot.
Scenario given_settings(const Scenario& page, const StartupLog& log, bool& model_given) {
    const Scenario landing = landing_scenario();
    Scenario s = page;
    s.measured.reset();  // an earlier log's (or link's) terms are not this boot's
    model_given = !landing_model(s, landing);
    if (!model_given) s.weights_variant.clear();  // a variant id of the landing model, not of the log's
    if (s.gpu == landing.gpu && !s.vram_gb && !s.vram_gib && find_fact(log, "total_gpu_memory_gib")) s.gpu.clear();
    if (s.max_model_len == landing.max_model_len) s.max_model_len = 0;
    return s;
}

/// The boot's own settings: nothing given but the model the user gave and, when the log prints no CUDA total,
/// the page's card.
Scenario boot_settings(const Scenario& page, const StartupLog& log, bool model_given) {
    Scenario s;
    if (model_given) {
        copy_model_fields(page, s);
    } else {
        s.model_id = page.model_id;  // kept when the log names no catalog model
    }
    if (!find_fact(log, "total_gpu_memory_gib")) {
        s.gpu = page.gpu;
        s.vram_gb = page.vram_gb;
        s.vram_gib = page.vram_gib;
    }
    s.allow_long_max_model_len = page.allow_long_max_model_len;
    return s;
}

std::string errors_text(const Diagnostics& d) {
    std::string out;
    for (const Diagnostic& x : d)
        if (x.severity == Severity::error) out += "\n• " + x.message;
    return out;
}

std::size_t numbers_read(const StartupLog& log) {
    return static_cast<std::size_t>(
        std::count_if(log.facts.begin(), log.facts.end(), [](const LogFact& f) { return f.has_value; }));
}

}  // namespace

bool apply_log_text(App& app, const std::string& text, const std::string& source) {
    LogView& v = app.log;
    const StartupLog log = read_startup_log(text);
    if (!log.ok) {
        v.status = "This log cannot be read, so nothing is priced from it:" + errors_text(log.diagnostics);
        v.status_is_error = true;
        app.url_dirty = true;
        return false;
    }
    bool model_given = true;
    const Scenario user = given_settings(app.scenario, log, model_given);
    StartupCalibration c = calibrate_from_log(user, log, model_given);
    if (!c.ok) {
        v.status = "This log cannot be priced:" + errors_text(c.diagnostics);
        v.status_is_error = true;
        app.url_dirty = true;
        return false;
    }
    const Scenario before = app.scenario;
    v = LogView{};
    v.active = true;
    v.calibrated = c.scenario.measured.has_value();
    v.source = source;
    v.log = log;
    v.filled = std::move(c.filled);
    for (const Diagnostic& d : log.diagnostics)
        if (d.severity != Severity::error) v.notes.push_back(d);
    for (const Diagnostic& d : c.diagnostics) v.notes.push_back(d);
    v.boot = calibrate_from_log(boot_settings(app.scenario, log, model_given), log, model_given).scenario;
    app.scenario = std::move(c.scenario);
    if (const ModelSpec* m = current_model(app.scenario)) v.model_name = m->display_name;
    if (app.scenario.model_id != before.model_id || app.scenario.model.has_value() != before.model.has_value()) {
        // The log named a catalog model: the pasted config.json (and its #cfg= fragment) is no longer the model.
        app.ui.pasted_config.clear();
        app.ui.pasted_source.clear();
        app.ui.model_note.clear();
    }
    const std::string from = source == "paste" ? "the pasted" : source == "clipboard" ? "the clipboard's" : source + ", a";
    v.status = "Read " + std::to_string(numbers_read(log)) + " numbers from " + from + " " + log_engine_words(log) +
               " log (" + std::to_string(log.read_lines) + " of its " + std::to_string(log.lines) + " lines)" +
               (v.calibrated ? ": every answer is priced from this boot's measured terms." : ".");
    v.status_is_error = false;
    app.dirty = true;
    return true;
}

void forget_log(App& app) {
    app.scenario.measured.reset();
    app.log = LogView{};
    app.log.status = "The log is forgotten: kvcalc's own terms price the page again.";
    app.dirty = true;
}

void refresh_log_rows(App& app) {
    LogView& v = app.log;
    if (!v.active) return;
    if (v.calibrated && !app.scenario.measured) {  // Back to before the paste, or a link without the terms
        app.log = LogView{};
        return;
    }
    Scenario own = app.scenario;  // kvcalc alone: the same settings without the measured terms
    own.measured.reset();
    const Report predicted = predict(own);
    v.rows = compare_with_log(v.log, &predicted, &app.report);
}

}  // namespace kvcalc::ui

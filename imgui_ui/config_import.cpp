// A config.json from the page (paste overlay, clipboard, a shared link) or a Hub model's files (config.json, index,
// shard headers) becomes the scenario's inline model: built by the core from the same fields the CLI and the JSON
// API fill (Scenario::config_json, safetensors_index_json, safetensors_headers, hub_model, weights_dtype). The
// compact config text is kept so a link can carry a pasted model (share_link.h); a Hub model travels as hf=.
#include <nlohmann/json.hpp>

#include "app.h"
#include "kvcalc/engines/deployment.h"
#include "model_lookup.h"

namespace kvcalc::ui {

namespace {

/// The document without insignificant whitespace (what the link carries), or "" when it is not JSON.
std::string compact_json(const std::string& text) {
    const nlohmann::json j = nlohmann::json::parse(text, nullptr, false);
    if (j.is_discarded() || !j.is_object()) return {};
    return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

/// The repo of "ORG/NAME@REV".
std::string repo_part(const std::string& ref) { return ref.substr(0, ref.find('@')); }

/// Builds the model of `probe` through the core; false with app.ui.model_status set when it cannot be used.
bool build(App& app, const Scenario& probe, std::shared_ptr<const ModelSpec>& built, std::string& problems) {
    // The core builds the model the same way it builds the CLI's --config / --model and the JSON API's config_json
    // (scenario_model: read_hf_config, the checkpoint's tensors or the weights estimate), so the page prices a
    // pasted or fetched file exactly as they do. Only the names shown here are the page's own.
    Diagnostics diagnostics;
    built = scenario_model(probe, diagnostics);
    bool weights_missing = false;
    for (const Diagnostic& d : diagnostics) {
        problems += "• " + d.message + "\n";
        weights_missing = weights_missing || d.code == "weights_unknown";
    }
    if (built) return true;
    app.ui.model_status = weights_missing ? "Read the layers, but could not price the weights (missing widths):\n" +
                                                problems + "Pick a catalog model, or set the weights size by hand."
                                          : "This model cannot be used:\n" + problems;
    app.ui.model_status_is_error = true;
    return false;
}

/// Makes the built model the scenario's (keep_settings: a link's or a format change's settings stay).
void install(App& app, ModelSpec spec, const std::string& source, bool from_hub, bool keep_settings) {
    // The Hub repository: the one fetched from, else the file's _name_or_path when it names one (the core's
    // reading, hub_id_from_config; a local folder is none). The served repo of each format is the core's.
    const std::string built_repo = spec.weights.empty() ? std::string() : spec.weights.front().hf_repo;
    const std::string repo = from_hub ? repo_part(source) : built_repo.rfind('<', 0) == 0 ? std::string() : built_repo;
    if (!repo.empty()) spec.id = repo;
    const std::string model_type = spec.model_type.empty() ? std::string("config.json") : spec.model_type;
    spec.display_name = repo.empty() ? "Pasted config.json (" + model_type + ")" : repo;
    spec.source = from_hub ? "huggingface.co/" + source + (app.ui.pasted_index.empty() ? " config.json" :
                             app.ui.pasted_headers.empty() ? " config.json and model.safetensors.index.json"
                                                           : " config.json, index and shard headers")
                           : "pasted config.json";
    const std::string hub = from_hub ? source : std::string();
    app.ui.model_note = switch_model(app.scenario, std::move(spec), true, keep_settings);
    app.scenario.hub_model = hub;
    app.scenario.weights_dtype.clear();  // the inline model is priced already (pasted_weights_dtype)
    app.scenario.weights_variant.clear();
    app.ui.model_note_settings = serving_settings_key(app.scenario);
    app.dirty = true;
}

}  // namespace

Scenario pasted_scenario(const App& app) {
    Scenario probe = app.scenario;
    probe.model.reset();
    probe.config_json = app.ui.pasted_config;
    probe.safetensors_index_json = app.ui.pasted_index;
    probe.safetensors_headers = app.ui.pasted_headers;
    probe.weights_dtype = app.ui.pasted_weights_dtype;
    probe.weights_variant.clear();
    probe.weights_gb.reset();
    return probe;
}

bool apply_config_text(App& app, const std::string& text, const std::string& source, bool from_link) {
    const bool from_hub = source != "paste" && source != "clipboard" && source != "link";
    Scenario probe;
    probe.config_json = text;
    // A link's wd= is the user's format; a new paste starts at auto.
    probe.weights_dtype = from_link ? app.scenario.weights_dtype : std::string();
    std::shared_ptr<const ModelSpec> built;
    std::string problems;
    if (!build(app, probe, built, problems)) return false;
    app.ui.pasted_config = compact_json(text);
    app.ui.pasted_source = source;
    app.ui.pasted_index.clear();
    app.ui.pasted_headers.clear();
    app.ui.pasted_weights_dtype = probe.weights_dtype;
    install(app, *built, source, from_hub, from_link);
    app.ui.model_status = (from_link ? "Read the config.json this link carries." : "Read config.json from " + source +
                                                                                       ". Copy link carries it.") +
                          (problems.empty() ? "" : "\n" + problems);
    app.ui.model_status_is_error = false;
    return true;
}

bool apply_hub_files(App& app, const HubFiles& files, const std::string& repo, bool from_link) {
    Scenario probe;
    probe.config_json = files.config;
    probe.safetensors_index_json = files.index;
    probe.safetensors_headers = files.headers;
    probe.hub_model = repo;
    probe.weights_dtype = from_link ? app.scenario.weights_dtype : std::string();
    std::shared_ptr<const ModelSpec> built;
    std::string problems;
    if (!build(app, probe, built, problems)) return false;
    app.ui.pasted_config = compact_json(files.config);
    app.ui.pasted_source = repo;
    app.ui.pasted_index = files.index;
    app.ui.pasted_headers = files.headers;
    app.ui.pasted_weights_dtype = probe.weights_dtype;
    install(app, *built, repo, true, from_link);
    std::string read = "config.json";
    if (!files.index.empty() && !files.headers.empty())
        read += ", model.safetensors.index.json and " + std::to_string(files.headers.size()) + " shard header" +
                (files.headers.size() == 1 ? "" : "s");
    else if (!files.index.empty()) read += " and model.safetensors.index.json";
    app.ui.model_status = "Read " + read + " of " + repo + ". Copy link carries it (hf=" + repo + ").";
    for (const std::string& n : files.notes) app.ui.model_status += "\n• " + n;
    if (!problems.empty()) app.ui.model_status += "\n" + problems;
    app.ui.model_status_is_error = false;
    return true;
}

bool set_pasted_weights_dtype(App& app, const std::string& weights_dtype) {
    const std::string before = app.ui.pasted_weights_dtype;
    app.ui.pasted_weights_dtype = weights_dtype;
    std::shared_ptr<const ModelSpec> built;
    std::string problems;
    if (!build(app, pasted_scenario(app), built, problems)) {
        app.ui.pasted_weights_dtype = before;
        return false;
    }
    const std::string hub = app.scenario.hub_model;
    install(app, *built, hub.empty() ? app.ui.pasted_source : hub, !hub.empty(), true);
    return true;
}

}  // namespace kvcalc::ui

// A config.json from the page (paste overlay, clipboard, Hugging Face fetch, a shared link) becomes the scenario's
// inline model: layers typed by the core's reader, weights estimated from the parameter count ("auto" = the
// checkpoint's dtype). The compact text is kept so a link can carry the model (share_link.h).
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

}  // namespace

bool apply_config_text(App& app, const std::string& text, const std::string& source, bool from_link) {
    // The core builds the model, the same way it builds the CLI's --config and the JSON API's config_json
    // (scenario_model: read_hf_config, the widths vLLM's profile run uses, the weights estimate), so the page
    // prices a pasted file exactly as they do. Only the names shown here are the page's own.
    Scenario probe;
    probe.config_json = text;
    Diagnostics diagnostics;
    const std::shared_ptr<const ModelSpec> built = scenario_model(probe, diagnostics);
    std::string problems;
    bool weights_missing = false;
    for (const Diagnostic& d : diagnostics) {
        problems += "• " + d.message + "\n";
        weights_missing = weights_missing || d.code == "weights_unknown";
    }
    if (!built) {
        app.ui.model_status = weights_missing ? "Read the layers, but could not price the weights (missing widths):\n" +
                                                    problems + "Pick a catalog model, or set the weights size by hand."
                                              : "This config.json cannot be used:\n" + problems;
        app.ui.model_status_is_error = true;
        return false;
    }
    const bool from_hub = source != "paste" && source != "clipboard" && source != "link";
    const std::string compact = compact_json(text);
    ModelSpec spec = *built;
    // The Hub repository: the one fetched from, else the file's _name_or_path when it names one (the core's
    // reading, hub_id_from_config; a local folder is none). Without one the id stays the core's, so the command
    // gets the same placeholder folder as the CLI's.
    const std::string built_repo = spec.weights.empty() ? std::string() : spec.weights.front().hf_repo;
    const std::string repo = from_hub ? source : built_repo;
    if (!repo.empty()) {
        spec.id = repo;
        for (WeightsVariant& w : spec.weights) w.hf_repo = repo;
    }
    const std::string model_type = spec.model_type.empty() ? std::string("config.json") : spec.model_type;
    spec.display_name = repo.empty() ? "Pasted config.json (" + model_type + ")" : repo;
    spec.source = from_hub ? "huggingface.co/" + source + " config.json" : "pasted config.json";
    app.ui.model_note = switch_model(app.scenario, std::move(spec), true, from_link);
    app.ui.model_note_settings = serving_settings_key(app.scenario);
    app.ui.pasted_config = compact;
    app.ui.pasted_source = source;
    app.ui.model_status = (from_link ? "Read the config.json this link carries." : "Read config.json from " + source +
                                                                                       ". Copy link carries it.") +
                          (problems.empty() ? "" : "\n" + problems);
    app.ui.model_status_is_error = false;
    app.dirty = true;
    return true;
}

}  // namespace kvcalc::ui

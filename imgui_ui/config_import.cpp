// A config.json from the page (paste overlay, clipboard, Hugging Face fetch, a shared link) becomes the scenario's
// inline model: layers typed by the core's reader, weights estimated from the parameter count ("auto" = the
// checkpoint's dtype). The compact text is kept so a link can carry the model (share_link.h).
#include <nlohmann/json.hpp>

#include "app.h"
#include "kvcalc/hf_config.h"
#include "kvcalc/param_count.h"
#include "model_lookup.h"

namespace kvcalc::ui {

namespace {

/// The document without insignificant whitespace (what the link carries), or "" when it is not JSON.
std::string compact_json(const std::string& text) {
    const nlohmann::json j = nlohmann::json::parse(text, nullptr, false);
    if (j.is_discarded() || !j.is_object()) return {};
    return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

/// `_name_or_path` when the file names its repository (the Hub writes it), else "".
std::string name_or_path(const std::string& compact) {
    const nlohmann::json j = nlohmann::json::parse(compact, nullptr, false);
    if (j.is_discarded() || !j.is_object()) return {};
    const auto it = j.find("_name_or_path");
    return it != j.end() && it->is_string() ? it->get<std::string>() : std::string();
}

}  // namespace

bool apply_config_text(App& app, const std::string& text, const std::string& source, bool from_link) {
    HfConfig config = read_hf_config(text);
    std::string problems;
    for (const Diagnostic& d : config.diagnostics) problems += "• " + d.message + "\n";
    if (has_error(config.diagnostics)) {
        app.ui.model_status = "This config.json cannot be used:\n" + problems;
        app.ui.model_status_is_error = true;
        return false;
    }
    const bool from_hub = source != "paste" && source != "clipboard" && source != "link";
    const std::string compact = compact_json(text);
    const std::string repo = from_hub ? source : name_or_path(compact);
    ModelSpec spec = std::move(config.spec);
    spec.id = repo.empty() ? "pasted-config" : repo;
    spec.display_name = repo.empty() ? "Pasted config.json (" + config.arch.model_type + ")" : repo;
    spec.family = "generic";
    spec.calibrated = false;
    const WeightsEstimate w = estimate_weights(count_parameters(spec, config.arch), config.arch, "auto");
    for (const Diagnostic& d : w.diagnostics) problems += "• " + d.message + "\n";
    if (w.bytes <= 0.0) {
        app.ui.model_status = "Read the layers, but could not price the weights (missing widths):\n" + problems +
                              "Pick a catalog model, or set the weights size by hand.";
        app.ui.model_status_is_error = true;
        return false;
    }
    // The serve command names the weights' repository: the file's own, else a placeholder to fill in.
    spec.weights.push_back({w.dtype, w.bytes / 1e9, repo.empty() ? "<your-model>" : repo, {}, w.basis});
    spec.source = from_hub ? "huggingface.co/" + source + " config.json" : "pasted config.json";
    spec.provenance.push_back({"weights", "estimated: parameter count × " + w.dtype + " (" + w.basis + ")"});
    app.ui.model_note = switch_model(app.scenario, std::move(spec), true, from_link);
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

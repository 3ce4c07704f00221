// A config.json from the page (paste overlay, clipboard, Hugging Face fetch) becomes the scenario's inline model:
// layers typed by the core's reader, weights estimated from the parameter count ("auto" = the checkpoint's dtype).
#include "app.h"
#include "kvcalc/hf_config.h"
#include "kvcalc/param_count.h"
#include "model_lookup.h"

namespace kvcalc::ui {

bool apply_config_text(App& app, const std::string& text, const std::string& source) {
    HfConfig config = read_hf_config(text);
    std::string problems;
    for (const Diagnostic& d : config.diagnostics) problems += "• " + d.message + "\n";
    if (has_error(config.diagnostics)) {
        app.ui.model_status = "This config.json cannot be used:\n" + problems;
        app.ui.model_status_is_error = true;
        return false;
    }
    const bool from_hub = source != "paste" && source != "clipboard";
    ModelSpec spec = std::move(config.spec);
    spec.id = from_hub ? source : "pasted-config";
    spec.display_name = from_hub ? source : "Pasted config.json (" + config.arch.model_type + ")";
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
    spec.weights.push_back({w.dtype, w.bytes / 1e9, from_hub ? source : std::string(), {}, w.basis});
    spec.source = from_hub ? "huggingface.co/" + source + " config.json" : "pasted config.json";
    spec.provenance.push_back({"weights", "estimated: parameter count × " + w.dtype + " (" + w.basis + ")"});
    switch_model(app.scenario, std::move(spec), true);
    app.ui.model_status = "Read config.json from " + source + ". Not in the link: a shared link carries only the "
                          "catalog model id." + (problems.empty() ? "" : "\n" + problems);
    app.ui.model_status_is_error = false;
    app.dirty = true;
    return true;
}

}  // namespace kvcalc::ui

// A config.json from the page (paste overlay, clipboard, Hugging Face fetch) becomes the scenario's inline model.
#include "app.h"
#if __has_include("kvcalc/hf_config.h")
#include "kvcalc/hf_config.h"
#define KVCALC_HAVE_HF_CONFIG 1
#endif

namespace kvcalc::ui {

bool apply_config_text(App& app, const std::string& text, const std::string& source) {
#ifdef KVCALC_HAVE_HF_CONFIG
    HfConfig config = read_hf_config(text);
    std::string status;
    for (const Diagnostic& d : config.diagnostics) status += d.message + "\n";
    if (has_error(config.diagnostics)) {
        app.ui.model_status = "This config.json cannot be used:\n" + status;
        app.ui.model_status_is_error = true;
        return false;
    }
    config.spec.id = source == "paste" || source == "clipboard" ? "pasted-config" : source;
    if (config.spec.display_name.empty()) config.spec.display_name = config.spec.id;
    app.scenario.model = std::move(config.spec);
    app.scenario.compose.clear();
    app.scenario.weights_variant.clear();
    app.scenario.drafter.clear();
    app.ui.model_status = "Read config.json from " + source + (status.empty() ? "." : ":\n" + status);
    app.ui.model_status_is_error = false;
    app.dirty = true;
    return true;
#else
    (void)text;
    (void)source;
    app.ui.model_status = "Reading a config.json needs the config reader, which this build does not have yet.";
    app.ui.model_status_is_error = true;
    return false;
#endif
}

}  // namespace kvcalc::ui

// popular_models(): the embedded config.json texts parsed into ModelSpecs with a default weights variant.
#include "kvcalc/catalog/catalog_popular.h"
#include "kvcalc/config/hf_config.h"
#include "kvcalc/config/param_count.h"
#include "kvcalc/engines/vllm/accounting.h"

namespace kvcalc {

std::vector<ModelSpec> popular_models() {
    std::vector<ModelSpec> out;
    for (const PopularModelSource& src : popular_model_sources()) {
        HfConfig cfg = read_hf_config(src.config_json);
        if (has_error(cfg.diagnostics)) continue;
        ModelSpec spec = std::move(cfg.spec);
        copy_profile_widths(cfg.arch, src.config_json, spec);
        spec.id = src.id;
        spec.display_name = src.display_name;
        spec.family = "generic";
        spec.calibrated = false;
        const WeightsEstimate w = estimate_weights(count_parameters(spec, cfg.arch), cfg.arch, src.weights_dtype);
        spec.weights.push_back({src.weights_dtype, w.bytes / 1e9, src.hf_repo, {},
                                "estimated: parameter count × " + src.weights_dtype + " (" + w.basis + ")", {}, {}});
        spec.provenance.push_back({"config.json", "huggingface.co/" + src.hf_repo + " config.json (embedded facts)"});
        spec.provenance.push_back({"weights", "estimated: parameter count × " + src.weights_dtype + " (" + w.basis + ")"});
        out.push_back(std::move(spec));
    }
    return out;
}

std::optional<ModelSpec> popular_model(std::string_view id) {
    for (ModelSpec& m : popular_models()) {
        if (m.id == id) return std::move(m);
    }
    return std::nullopt;
}

}  // namespace kvcalc

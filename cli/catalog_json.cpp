// Catalog listings as JSON for scripts.
#include "catalog_json.h"

#include "kvcalc/catalog/catalog.h"
#include "kvcalc/base/gpu_catalog.h"
#include "kvcalc/io/json_io.h"

namespace kvcli {

nlohmann::json catalog_json(Mode mode) {
    using nlohmann::json;
    json out = {{"schema", kvcalc::kSchemaVersion}};
    if (mode == Mode::list_models) {
        json models = json::array();
        for (const auto& m : kvcalc::model_catalog()) {
            json weights = json::array(), drafters = json::array();
            for (const auto& w : m.weights) weights.push_back({{"id", w.id}, {"size_gb", w.size_gb}});
            for (const auto& d : m.drafters)
                drafters.push_back({{"id", d.id}, {"method", d.method}, {"weights_gb", d.weights_gb},
                                    {"num_speculative_tokens", d.num_speculative_tokens}});
            models.push_back({{"id", m.id}, {"display_name", m.display_name}, {"family", m.family},
                              {"num_hidden_layers", m.num_hidden_layers}, {"calibrated", m.calibrated},
                              {"weights", weights}, {"drafters", drafters}});
        }
        out["models"] = models;
    } else if (mode == Mode::list_gpus) {
        json gpus = json::array();
        for (const auto& g : kvcalc::gpu_catalog())
            gpus.push_back({{"id", g.id}, {"display_name", g.display_name}, {"vram_bytes", g.vram_bytes},
                            {"sm_x10", g.sm_x10}, {"architecture", g.architecture}});
        out["gpus"] = gpus;
    } else {
        json presets = json::array();
        for (const auto& p : kvcalc::compose_presets())
            presets.push_back({{"id", p.id}, {"model_id", p.model_id}, {"name", p.name}, {"scenario", p.scenario},
                               {"source", p.source}});
        out["composes"] = presets;
    }
    return out;
}

}  // namespace kvcli

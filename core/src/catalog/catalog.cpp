#include "kvcalc/catalog/catalog.h"

#include <algorithm>

#include "util/text.h"

namespace kvcalc {

using text::iequal;

namespace {

std::vector<ModelSpec> build_catalog() {
    std::vector<ModelSpec> out = seed_models();
    for (auto& m : popular_models()) {
        const bool taken = std::any_of(out.begin(), out.end(), [&](const ModelSpec& s) { return iequal(s.id, m.id); });
        if (!taken) out.push_back(std::move(m));
    }
    return out;
}

}  // namespace

const std::vector<ModelSpec>& model_catalog() {
    static const std::vector<ModelSpec> models = build_catalog();
    return models;
}

const ModelSpec* find_model(std::string_view id) {
    for (const auto& m : model_catalog())
        if (iequal(m.id, id)) return &m;
    return nullptr;
}

std::shared_ptr<const ModelSpec> shared_catalog_model(std::string_view id) {
    const ModelSpec* m = find_model(id);
    // Aliasing constructor with an empty owner: a non-null pointer to an entry of the static catalog.
    return m ? std::shared_ptr<const ModelSpec>(std::shared_ptr<const void>(), m) : nullptr;
}

const std::vector<LayerGroup>* catalog_layer_groups(const ModelSpec* model) {
    static const std::vector<std::vector<LayerGroup>> groups = [] {
        std::vector<std::vector<LayerGroup>> out;
        for (const auto& m : model_catalog()) out.push_back(group_layers(m));
        return out;
    }();
    const auto& models = model_catalog();
    if (models.empty() || model < models.data() || model >= models.data() + models.size()) return nullptr;
    return &groups[static_cast<std::size_t>(model - models.data())];
}

std::string model_id_list() {
    std::string out;
    for (const auto& m : model_catalog()) out += (out.empty() ? "" : ", ") + m.id;
    return out;
}

const ComposePreset* find_preset(std::string_view name, std::string_view model_id) {
    const ComposePreset* hit = nullptr;
    int hits = 0;
    for (const auto& p : compose_presets()) {
        if (iequal(p.id, name)) return &p;
        if (iequal(p.name, name) && (model_id.empty() || iequal(p.model_id, model_id))) {
            hit = &p;
            ++hits;
        }
    }
    return hits == 1 ? hit : nullptr;
}

}  // namespace kvcalc

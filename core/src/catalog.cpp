#include "kvcalc/catalog.h"

#include <algorithm>
#include <cctype>

namespace kvcalc {

namespace {

bool iequal(std::string_view a, std::string_view b) {
    return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
               return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
           });
}

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

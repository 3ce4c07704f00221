// Model catalog (seed models + popular models) and compose presets.
#pragma once
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "kvcalc/model/layer_cache.h"
#include "kvcalc/base/model_spec.h"
#include "kvcalc/base/scenario.h"

namespace kvcalc {

/// The seed models: the seven of docs/SOURCES.md "Model facts" (four from the original tool, three from its profiles), each fact
/// with its source (catalog_seed_models.cpp).
const std::vector<ModelSpec>& seed_models();

/// Popular Hugging Face models described from their config.json (catalog_popular_configs.cpp).
std::vector<ModelSpec> popular_models();

/// seed_models() followed by popular_models() whose ids are not already taken.
const std::vector<ModelSpec>& model_catalog();

/// Finds a model by id (exact, case-insensitive); nullptr when unknown.
const ModelSpec* find_model(std::string_view id);

/// The catalog entry for `id` as a shared pointer (the entry lives as long as the program, so the pointer owns
/// nothing and may be kept anywhere); nullptr when unknown.
std::shared_ptr<const ModelSpec> shared_catalog_model(std::string_view id);

/// group_layers() of a model_catalog() entry, computed once; nullptr when `model` is not a catalog entry.
const std::vector<LayerGroup>* catalog_layer_groups(const ModelSpec* model);

/// Comma-separated catalog ids (for diagnostics).
std::string model_id_list();

/// A named serving configuration ("compose"; docs/SOURCES.md "Compose presets").
/// `id` is "<model id>:<name>" so names never collide across models (docs/SOURCES.md quirk 19).
struct ComposePreset {
    std::string id;          ///< e.g. "qwen3.6-27b:dual-turbo", "qwen3.6-27b:vllm/dual"
    std::string model_id;
    std::string name;        ///< the part after ':'
    Scenario scenario;       ///< every field the preset sets (vram is left to the user)
    std::string source;
};

/// Every preset: the original's Qwen 27B presets and each model profile's kvcalc_compose_presets (docs/SOURCES.md
/// "Compose presets").
const std::vector<ComposePreset>& compose_presets();

/// Finds a preset by full id, or by bare name when exactly one model has it (or `model_id` picks one).
/// nullptr when unknown or ambiguous.
const ComposePreset* find_preset(std::string_view name, std::string_view model_id = {});

}  // namespace kvcalc

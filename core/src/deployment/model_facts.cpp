// Report::model_facts: what kvcalc read the model as, each fact with its source (for the UI / CLI).
#include <cstdio>
#include <algorithm>
#include <string_view>
#include <map>

#include "kvcalc/model/buckets.h"
#include "kvcalc/catalog/catalog.h"
#include "kvcalc/model/layer_cache.h"
#include "kvcalc/model/layer_kinds.h"
#include "deployment/predict_internal.h"

namespace kvcalc::detail {

namespace {

// First provenance entry for `fact`, else `fallback`.
std::string source_of(const ModelSpec& m, const char* fact, const std::string& fallback) {
    for (const auto& p : m.provenance)
        if (p.fact == fact) return p.source;
    return fallback;
}

// "32 full_attention + 8 sliding_window" in first-appearance order (parallel caches marked).
std::string layer_summary(const ModelSpec& m) {
    std::string out;
    auto add = [&](const std::vector<LayerCache>& caches, const char* suffix) {
        std::vector<std::pair<std::string, int>> counts;
        for (const auto& c : caches) {
            const std::string k = layer_kind_json_name(c);
            auto it = counts.begin();
            while (it != counts.end() && it->first != k) ++it;
            if (it == counts.end()) counts.push_back({k, 1});
            else ++it->second;
        }
        for (const auto& [k, n] : counts) out += (out.empty() ? "" : " + ") + std::to_string(n) + " " + k + suffix;
    };
    add(m.layers, "");
    add(m.parallel_caches, " (parallel)");
    return out;
}

std::string billions(std::int64_t n) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.2f B", static_cast<double>(n) / 1e9);
    return buf;
}

}  // namespace

std::vector<ModelFact> model_facts(const ModelSpec& m) {
    const std::string fallback = m.source.empty() ? "catalog" : m.source;
    std::vector<ModelFact> out;
    auto add = [&](const char* fact, const std::string& value) { out.push_back({fact, value, source_of(m, fact, fallback)}); };
    add("num_hidden_layers", std::to_string(m.num_hidden_layers));
    out.push_back({"layers", layer_summary(m), source_of(m, "layers", "typed from config.json (docs/CONFIG_JSON.md)")});
    add("hidden_size", std::to_string(m.hidden_size));
    add("num_attention_heads", std::to_string(m.num_attention_heads));
    // The first layer of each kind states that kind's config.json facts (layer_kinds.h layer_config_facts).
    std::vector<std::string_view> stated;  // kinds whose facts are listed
    for (const auto& c : m.layers) {
        const std::string_view kind = layer_kind_json_name(c);
        if (std::find(stated.begin(), stated.end(), kind) != stated.end()) continue;
        stated.push_back(kind);
        for (const auto& [fact, value] : layer_config_facts(c)) add(fact, value);
    }
    if (m.num_experts > 0) {
        add("num_experts", std::to_string(m.num_experts));
        add("num_experts_per_tok", std::to_string(m.num_experts_per_tok));
    }
    if (m.max_position_embeddings > 0) add("max_position_embeddings", std::to_string(m.max_position_embeddings));
    if (!m.checkpoint_kv_cache_dtype.empty()) add("kv_cache_quant", m.checkpoint_kv_cache_dtype + " (vLLM's kv_cache_dtype auto)");
    if (m.num_parameters > 0) out.push_back({"num_parameters", billions(m.num_parameters), "param_count.h formula"});
    if (!m.weights.empty()) {
        const WeightsVariant& w = m.weights.front();
        char gb[32];
        std::snprintf(gb, sizeof gb, "%.2f GB", w.size_gb);
        out.push_back({"weights", w.id + ", " + gb, source_of(m, "weights", w.source.empty() ? fallback : w.source)});
    }
    return out;
}

std::shared_ptr<const std::vector<ModelFact>> shared_model_facts(const ModelSpec& model) {
    static const std::vector<std::shared_ptr<const std::vector<ModelFact>>> cached = [] {
        std::vector<std::shared_ptr<const std::vector<ModelFact>>> out;
        for (const auto& m : model_catalog()) out.push_back(std::make_shared<const std::vector<ModelFact>>(model_facts(m)));
        return out;
    }();
    const auto& catalog = model_catalog();
    if (!catalog.empty() && &model >= catalog.data() && &model < catalog.data() + catalog.size())
        return cached[static_cast<std::size_t>(&model - catalog.data())];
    return std::make_shared<const std::vector<ModelFact>>(model_facts(model));
}

std::shared_ptr<const std::vector<TpOption>> shared_tensor_parallel_options(const ModelSpec& model) {
    static const std::vector<std::shared_ptr<const std::vector<TpOption>>> cached = [] {
        std::vector<std::shared_ptr<const std::vector<TpOption>>> out;
        for (const auto& m : model_catalog())
            out.push_back(std::make_shared<const std::vector<TpOption>>(tensor_parallel_options(m)));
        return out;
    }();
    const auto& catalog = model_catalog();
    if (!catalog.empty() && &model >= catalog.data() && &model < catalog.data() + catalog.size())
        return cached[static_cast<std::size_t>(&model - catalog.data())];
    return std::make_shared<const std::vector<TpOption>>(tensor_parallel_options(model));
}

}  // namespace kvcalc::detail

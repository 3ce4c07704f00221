// Scenario::config_json → ModelSpec with weights priced by estimate_weights.
#include <cmath>
#include <cstdio>
#include <optional>

#include "kvcalc/catalog/catalog.h"
#include "kvcalc/catalog/catalog_popular.h"
#include "kvcalc/config/checkpoint_weights.h"
#include "kvcalc/config/hf_config.h"
#include "kvcalc/deployment/input_limits.h"
#include "kvcalc/config/param_count.h"
#include "kvcalc/engines/vllm/accounting.h"
#include "util/text.h"
#include "deployment/predict_internal.h"
#include "config/served_model.h"

namespace kvcalc::detail {

namespace {

// A popular model's embedded config, when `id` names one (weights_dtype re-pricing).
const PopularModelSource* popular_source(const std::string& id) {
    static const std::vector<PopularModelSource> sources = popular_model_sources();
    for (const auto& x : sources)
        if (x.id == id) return &x;
    return nullptr;
}

/// The weights of Scenario::safetensors_index_json (+ headers) as vLLM loads them, or nullopt after an error.
std::optional<WeightsVariant> checkpoint_variant(const Scenario& s, const HfConfig& cfg, const ModelSpec& m,
                                                 const std::string& hub, Diagnostics& d) {
    if (s.safetensors_index_json.size() > kMaxConfigJsonBytes * 4) {
        d.push_back({Severity::error, "out_of_range", "safetensors_index_json",
                     "safetensors_index_json is " + std::to_string(s.safetensors_index_json.size()) +
                         " bytes, above the " + std::to_string(kMaxConfigJsonBytes * 4) + " bytes kvcalc reads"});
        return std::nullopt;
    }
    SafetensorsIndex index = read_safetensors_index(s.safetensors_index_json);
    std::vector<SafetensorsTensor> tensors;
    for (std::size_t i = 0; i < s.safetensors_headers.size(); ++i) {
        SafetensorsHeader h = read_safetensors_header_json(s.safetensors_headers[i]);
        for (auto& x : h.diagnostics) {
            x.field = "safetensors_headers[" + std::to_string(i) + "]" + (x.field.empty() ? "" : "." + x.field);
            d.push_back(std::move(x));
        }
        for (auto& t : h.tensors) tensors.push_back(std::move(t));
    }
    CheckpointLoadOptions options;
    options.load_mtp_layers = s.mtp.value_or(false) && m.drafters.empty();
    CheckpointWeights w = price_checkpoint(index, tensors, cfg.arch, m, options);
    bool failed = false;
    for (auto* list : {&index.diagnostics, &w.diagnostics}) {
        for (auto& x : *list) {
            failed = failed || x.severity == Severity::error;
            x.field = "safetensors_index_json" + (x.field.empty() ? "" : "." + x.field);
            d.push_back(std::move(x));
        }
    }
    if (failed || has_error(d) || w.loaded_bytes <= 0) return std::nullopt;
    WeightsVariant v{"checkpoint", static_cast<double>(w.loaded_bytes) / 1e9, hub, {}, w.basis, {}, {}};
    v.bytes_per_rank_by_tp = std::move(w.bytes_per_rank_by_tp);
    return v;
}

/// What the command serves for weights priced in another format than the checkpoint's own (`own`, its auto
/// dtype): the catalog's repo holding that format (popular_format_repo), else for fp8 from 16-bit weights vLLM's
/// online quantization (--quantization fp8: Fp8Config with is_checkpoint_fp8_serialized false quantizes as it
/// loads, vllm/model_executor/layers/quantization/fp8.py), else a placeholder naming the format, never the
/// original repo, which would load other weights than were priced.
void serve_format(const std::string& popular_id, const std::string& hub, const std::string& own, WeightsVariant& v) {
    if (v.id == own) return;
    const std::string known = popular_id.empty() ? std::string() : popular_format_repo(popular_id, v.id);
    if (!known.empty()) {
        v.hf_repo = known;
        v.source += "; served from " + known + ", a published " + v.id + " checkpoint of " + hub;
    } else if (v.id == "fp8" && (own == "bf16" || own == "fp16" || own == "fp32")) {
        v.vllm_quantization = "fp8";
    } else {
        v.hf_repo = "<" + (hub.empty() ? std::string("model") : hub) + "-" + v.id + "-checkpoint>";
    }
}

/// read_hf_config of `text`, remembered for the last text read on this thread: the solvers and the GPU sweep
/// resolve one config at many TP sizes and cards, and a megabyte config would otherwise be parsed each time.
HfConfig read_config_once(const std::string& text) {
    struct Last {
        std::string text;
        HfConfig config;
        bool valid = false;
    };
    thread_local Last last;
    if (!last.valid || last.text != text) {
        last.config = read_hf_config(text);
        last.text = text;
        last.valid = true;
    }
    return last.config;
}

}  // namespace

std::shared_ptr<const ModelSpec> model_from_config(const Scenario& s, Diagnostics& d) {
    const PopularModelSource* popular = s.config_json.empty() ? popular_source(s.model_id) : nullptr;
    if (s.config_json.empty() && !popular && !find_model(s.model_id)) {
        d.push_back({Severity::error, "model_unknown", "model_id",
                     "unknown model " + text::quoted(s.model_id) + ". Known models: " + model_id_list()});
        return nullptr;
    }
    if (s.config_json.empty() && !popular) {
        d.push_back({Severity::error, "weights_dtype_unsupported", "weights_dtype",
                     "weights_dtype " + text::quoted(s.weights_dtype) + " re-prices config.json and popular models only; \"" +
                         s.model_id + "\" is not one: pick weights_variant or give weights_gb"});
        return nullptr;
    }
    const std::string& text = popular ? popular->config_json : s.config_json;
    HfConfig cfg = read_config_once(text);
    bool failed = false;
    for (auto& x : cfg.diagnostics) {
        failed = failed || x.severity == Severity::error;
        x.field = x.field.empty() ? "config_json" : "config_json." + x.field;
        d.push_back(std::move(x));
    }
    if (failed) return nullptr;
    auto m = std::make_shared<ModelSpec>(std::move(cfg.spec));
    copy_profile_widths(cfg.arch, text, *m);
    if (popular) {
        m->id = popular->id;
        m->display_name = popular->display_name;
        m->provenance.push_back({"config.json", "huggingface.co/" + popular->hf_repo + " config.json (embedded facts)"});
    } else {
        m->id = std::string(kConfigJsonModelId);
        m->display_name = cfg.arch.architectures.empty() ? cfg.arch.model_type : cfg.arch.architectures.front();
        if (m->display_name.empty()) m->display_name = "config.json model";
        m->source = "config.json given in the request";
    }
    m->family = "generic";
    m->calibrated = false;
    // The dtype is checked even when weights_gb overrides the estimate (resolve() applies the override).
    const std::string dtype = s.weights_dtype.empty() ? "auto" : s.weights_dtype;
    const WeightsEstimate w = estimate_weights(count_parameters(*m, cfg.arch), cfg.arch, dtype);
    for (auto x : w.diagnostics) {
        if (x.field.empty()) x.field = "weights_dtype";
        failed = failed || x.severity == Severity::error;
        d.push_back(std::move(x));
    }
    if (failed) return nullptr;
    // The command serves the Hub repo the config names (served_repo()); weights_gb prices it instead of the estimate.
    // A Hub model names the repo it was read from (Scenario::hub_model), which wins over _name_or_path.
    const std::string from_hub = popular ? std::string() : hub_repo_of(s.hub_model);
    const std::string hub = popular ? popular->hf_repo : !from_hub.empty() ? from_hub : hub_id_from_config(text);
    if (s.weights_gb) {
        if (!popular && !hub.empty()) m->weights.push_back({"config", *s.weights_gb, hub, {}, "weights_gb", {}, {}});
        return m;
    }
    if (!s.safetensors_index_json.empty()) {
        if (dtype == "auto") {
            auto v = checkpoint_variant(s, cfg, *m, hub, d);
            if (!v) return nullptr;
            m->provenance.push_back({"weights", v->source});
            m->weights.push_back(std::move(*v));
            return m;
        }
        d.push_back({Severity::warning, "safetensors_index_unused", "weights_dtype",
                     "weights_dtype " + text::quoted(dtype) + " re-prices the model from its parameter count: the "
                     "checkpoint's own index (its real tensors) is not used; leave weights_dtype auto to price it"});
    }
    if (!(w.bytes > 0) || !std::isfinite(w.bytes)) {
        d.push_back({Severity::error, "weights_unknown", "weights_gb",
                     "the weights of this config.json cannot be estimated (vocab_size or the MLP widths "
                     "intermediate_size / moe_intermediate_size are missing): give weights_gb"});
        return nullptr;
    }
    if (w.bytes / 1e9 > kMaxModelGb) {
        // Name the keys the estimate came from, not check_model_limits' internal weights[0].size_gb.
        char gb[32];
        std::snprintf(gb, sizeof gb, "%.3g", w.bytes / 1e9);
        d.push_back({Severity::error, "out_of_range", "config_json",
                     std::string("the weights this config.json describes come to ") + gb + " GB (" + w.dtype +
                         ", " + w.basis + "), above the 1e6 GB limit: num_hidden_layers " +
                         std::to_string(m->num_hidden_layers) + ", hidden_size " + std::to_string(m->hidden_size) +
                         ", intermediate_size " + std::to_string(cfg.arch.intermediate_size) + ", vocab_size " +
                         std::to_string(cfg.arch.vocab_size) + " — check these keys, or give weights_gb"});
        return nullptr;
    }
    m->weights.push_back({w.dtype, w.bytes / 1e9, hub, {},
                          "estimated: parameter count × " + w.dtype + " (" + w.basis + ")", {}, {}});
    if (dtype != "auto") serve_format(popular ? popular->id : std::string(), hub,
                                      estimate_weights(count_parameters(*m, cfg.arch), cfg.arch, "auto").dtype,
                                      m->weights.back());
    m->provenance.push_back({"weights", "estimated: parameter count × " + w.dtype + " (" + w.basis + ")"});
    return m;
}

}  // namespace kvcalc::detail

// Vision-tower parameters from config.json's vision_config (vllm/accounting.h encoder_parameters).
#include <algorithm>
#include <string>

#include <nlohmann/json.hpp>

#include "kvcalc/engines/vllm/accounting.h"

namespace kvcalc {

namespace {

using nlohmann::json;

std::int64_t int_of(const json& o, std::initializer_list<const char*> keys, std::int64_t fallback = 0) {
    for (const char* k : keys) {
        auto it = o.find(k);
        if (it != o.end() && it->is_number()) {
            const double v = it->get<double>();
            if (v >= 0 && v < 1e7) return static_cast<std::int64_t>(v);
        }
    }
    return fallback;
}

std::string str_of(const json& o, const char* key) {
    auto it = o.find(key);
    return it != o.end() && it->is_string() ? it->get<std::string>() : std::string();
}

}  // namespace

std::int64_t encoder_parameters(std::string_view text) {
    const json cfg = json::parse(text.begin(), text.end(), nullptr, false, true);
    if (cfg.is_discarded() || !cfg.is_object()) return 0;
    auto v = cfg.find("vision_config");
    if (v == cfg.end() || !v->is_object()) return 0;
    const json& vc = *v;
    const std::int64_t layers = int_of(vc, {"num_hidden_layers", "depth"});
    const std::int64_t h = int_of(vc, {"hidden_size", "embed_dim"});
    if (layers <= 0 || h <= 0) return 0;
    std::int64_t i = int_of(vc, {"intermediate_size"});
    if (i == 0) {
        auto r = vc.find("mlp_ratio");
        i = r != vc.end() && r->is_number() ? static_cast<std::int64_t>(r->get<double>() * static_cast<double>(h)) : 4 * h;
    }
    const std::string type = str_of(vc, "model_type"), act = str_of(vc, "hidden_act");
    const bool gated = act == "silu" || act == "swiglu" || type == "pixtral" || type == "qwen2_5_vl";
    const std::int64_t patch = std::max<std::int64_t>(int_of(vc, {"patch_size"}, 14), 1);
    const std::int64_t channels = int_of(vc, {"num_channels", "in_channels", "in_chans"}, 3);
    const std::int64_t image = int_of(vc, {"image_size"});
    const std::int64_t positions = image > 0 ? (image / patch) * (image / patch) : 0;
    // The text model's width: top level, or text_config for wrappers.
    std::int64_t text_h = int_of(cfg, {"hidden_size"});
    auto t = cfg.find("text_config");
    if (t != cfg.end() && t->is_object()) text_h = std::max(text_h, int_of(*t, {"hidden_size"}));
    // Widths are capped at 1e7 by int_of, so the sum stays below 2^63 only in double: saturate like the rest.
    const double hd = static_cast<double>(h), th = static_cast<double>(text_h);
    const double tower = static_cast<double>(layers) * (4 * hd * hd + (gated ? 3 : 2) * hd * static_cast<double>(i)) +
                         static_cast<double>(channels) * static_cast<double>(patch) * static_cast<double>(patch) * hd +
                         static_cast<double>(positions) * hd;
    const double projector = text_h > 0 ? hd * th + th * th : 0.0;
    return static_cast<std::int64_t>(std::min(tower + projector, 1e15));
}

}  // namespace kvcalc

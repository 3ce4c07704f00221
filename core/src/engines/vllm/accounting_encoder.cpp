// Vision-tower parameters from config.json's vision_config (vllm/accounting.h encoder_parameters).
#include <algorithm>
#include <cmath>
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

/// The text model's width: top level, or the wrapper's text_config / language_config / llm_config.
std::int64_t text_hidden(const json& cfg) {
    std::int64_t text_h = int_of(cfg, {"hidden_size"});
    for (const char* wrapper : {"text_config", "language_config", "llm_config"}) {
        auto t = cfg.find(wrapper);
        if (t != cfg.end() && t->is_object()) text_h = std::max(text_h, int_of(*t, {"hidden_size"}));
    }
    return text_h;
}

/// A ViT-style tower from `vc` plus a two-layer projector into `text_h` (one matrix and a norm when
/// `single_projection`: Gemma 3).
double vision_tower(const json& vc, std::int64_t text_h, bool single_projection = false) {
    const std::int64_t layers = int_of(vc, {"num_hidden_layers", "depth", "layers"});
    const std::int64_t h = int_of(vc, {"hidden_size", "embed_dim", "width"});
    if (layers <= 0 || h <= 0) return 0.0;
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
    // Widths are capped at 1e7 by int_of, so the sum stays below 2^63 only in double: saturate like the rest.
    const double hd = static_cast<double>(h), th = static_cast<double>(text_h);
    const double tower = static_cast<double>(layers) * (4 * hd * hd + (gated ? 3 : 2) * hd * static_cast<double>(i)) +
                         static_cast<double>(channels) * static_cast<double>(patch) * static_cast<double>(patch) * hd +
                         static_cast<double>(positions) * hd;
    const double projector = text_h <= 0 ? 0.0 : single_projection ? hd * th + hd : hd * th + th * th;
    return tower + projector;
}

/// Phi-3-vision names its tower instead of describing it (`img_processor.model_name`): vLLM phi3v.py builds
/// CLIP_VIT_LARGE_PATCH14_336_CONFIG (hidden 1024, intermediate 4096, 24 layers, patch 14, image 336) and keeps
/// 24 + layer_idx (-2) + 1 = 23 of its layers.
json named_vision_config(const json& cfg) {
    auto p = cfg.find("img_processor");
    if (p == cfg.end() || !p->is_object()) return json();
    if (str_of(*p, "model_name").find("clip-vit-large-patch14-336") == std::string::npos) return json();
    return json{{"num_hidden_layers", 23}, {"hidden_size", 1024}, {"intermediate_size", 4096},
                {"patch_size", 14},        {"image_size", 336},   {"hidden_act", "quick_gelu"}};
}

/// Voxtral's Whisper encoder (audio_config model_type voxtral_encoder / whisper): two conv1d stems (mel bins → h,
/// h → h, kernel 3), max_source_positions learned positions, layers × (4 h² + 2 h × i), and vLLM voxtral.py's
/// AudioLanguageAdapter (h × 4 → text hidden, then text hidden → text hidden; 4 frames are stacked).
double audio_tower(const json& cfg, std::int64_t text_h) {
    auto a = cfg.find("audio_config");
    if (a == cfg.end() || !a->is_object()) return 0.0;
    const std::string type = str_of(*a, "model_type");
    if (type != "voxtral_encoder" && type != "whisper") return 0.0;
    const std::int64_t layers = int_of(*a, {"num_hidden_layers", "encoder_layers"});
    const std::int64_t h = int_of(*a, {"hidden_size", "d_model"});
    if (layers <= 0 || h <= 0) return 0.0;
    const double hd = static_cast<double>(h), th = static_cast<double>(text_h);
    const double i = static_cast<double>(int_of(*a, {"intermediate_size", "encoder_ffn_dim"}, 4 * h));
    const double mels = static_cast<double>(int_of(*a, {"num_mel_bins"}, 128));
    const double positions = static_cast<double>(int_of(*a, {"max_source_positions"}, 1500));
    const double tower = static_cast<double>(layers) * (4 * hd * hd + 2 * hd * i) + 3 * mels * hd + 3 * hd * hd +
                         positions * hd;
    const double adapter = type == "voxtral_encoder" && text_h > 0 ? 4 * hd * th + th * th : 0.0;
    return tower + adapter;
}

/// The config's rope_scaling (or rope_parameters) dict: the text model's first, then the top level's.
const json* rope_dict(const json& cfg) {
    for (const char* wrapper : {"text_config", "language_config", "llm_config"}) {
        auto t = cfg.find(wrapper);
        if (t == cfg.end() || !t->is_object()) continue;
        for (const char* key : {"rope_scaling", "rope_parameters"}) {
            auto r = t->find(key);
            if (r != t->end() && r->is_object()) return &*r;
        }
    }
    for (const char* key : {"rope_scaling", "rope_parameters"}) {
        auto r = cfg.find(key);
        if (r != cfg.end() && r->is_object()) return &*r;
    }
    return nullptr;
}

double number_of(const json& o, const char* key, double fallback) {
    auto it = o.find(key);
    return it != o.end() && it->is_number() && std::isfinite(it->get<double>()) ? it->get<double>() : fallback;
}

}  // namespace

std::int64_t vllm_rope_cache_positions(std::string_view text, std::int64_t max_position_embeddings) {
    const json cfg = json::parse(text.begin(), text.end(), nullptr, false, true);
    if (cfg.is_discarded() || !cfg.is_object() || max_position_embeddings <= 0) return 0;
    const double max_pos = static_cast<double>(max_position_embeddings);
    double rows = max_pos;
    if (const json* r = rope_dict(cfg)) {
        std::string type = str_of(*r, "rope_type");
        if (type.empty()) type = str_of(*r, "type");
        const double factor = number_of(*r, "factor", 1.0);
        if (factor >= 1.0 && factor <= 1e4) {
            if (type == "linear" || type == "dynamic") rows = max_pos * factor;
            if (type == "yarn" || type == "deepseek_yarn")
                rows = number_of(*r, "original_max_position_embeddings", max_pos) * factor;
        }
    }
    // Gemma 3's sliding layers turn an unscaled rope of their own (rope_local_base_freq): a second cache.
    std::string type = str_of(cfg, "model_type");
    auto t = cfg.find("text_config");
    if (t != cfg.end() && t->is_object() && !str_of(*t, "model_type").empty()) type = str_of(*t, "model_type");
    if (type == "gemma3" || type == "gemma3_text") rows += max_pos;
    return static_cast<std::int64_t>(std::min(rows, 1e12));
}

std::int64_t encoder_parameters(std::string_view text) {
    const json cfg = json::parse(text.begin(), text.end(), nullptr, false, true);
    if (cfg.is_discarded() || !cfg.is_object()) return 0;
    const std::int64_t text_h = text_hidden(cfg);
    double total = audio_tower(cfg, text_h);
    auto v = cfg.find("vision_config");
    if (v != cfg.end() && v->is_object()) {
        total += vision_tower(*v, text_h, str_of(cfg, "model_type") == "gemma3");
    } else if (const json named = named_vision_config(cfg); named.is_object()) {
        total += vision_tower(named, text_h);
    }
    return static_cast<std::int64_t>(std::min(total, 1e15));
}

}  // namespace kvcalc

#include "hf_config_layers.h"
#include "kvcalc/json_safety.h"

#include <string>

namespace kvcalc::hf {

namespace {

bool parse_layer_type(const std::string& t, MixerKind& out) {
    if (t == "full_attention" || t == "attention" || t == "global" || t == "global_attention") {
        out = MixerKind::full;
    } else if (t == "sliding_attention" || t == "sliding" || t == "local" || t == "local_attention" ||
               t == "chunked_attention") {
        out = MixerKind::sliding;
    } else if (t == "linear_attention") {
        out = MixerKind::linear;
    } else if (t == "mamba" || t == "mamba2") {
        out = MixerKind::mamba;
    } else {
        return false;
    }
    return true;
}

bool from_layer_types(KeyReader& keys, int n, LayerPattern& p) {
    std::string path;
    const nlohmann::json* v = keys.raw({"layer_types"}, path);
    if (!v) return false;
    if (!v->is_array()) {
        keys.error("wrong_type", path, path + " must be an array of strings such as \"full_attention\"");
        return true;
    }
    if (static_cast<int>(v->size()) != n) {
        keys.error("layer_count_mismatch", path,
                   path + " lists " + std::to_string(v->size()) + " layers but num_hidden_layers is " +
                       std::to_string(n) + "; they must be equal");
        return true;
    }
    p.kinds.assign(n, MixerKind::full);
    for (int i = 0; i < n; ++i) {
        const auto& e = (*v)[static_cast<std::size_t>(i)];
        const std::string where = path + "[" + std::to_string(i) + "]";
        if (!e.is_string() || !parse_layer_type(e.get<std::string>(), p.kinds[i])) {
            // An error, not a guess: assuming "no cache" priced such models at 0 KV with a PASS.
            keys.error("unknown_layer_type", where,
                       where + " = " + shown_value(e) +
                           " is not a known layer type; valid: full_attention, sliding_attention, linear_attention, "
                           "mamba (and the aliases attention, global, sliding, local, chunked_attention, mamba2)");
            p.kinds[i] = MixerKind::none;
        }
    }
    keys.note_source("layer pattern", "config.json: " + path);
    return true;
}

bool from_hybrid_override_pattern(KeyReader& keys, int n, LayerPattern& p) {
    auto pat = keys.string({"hybrid_override_pattern"}, "layer pattern");
    if (!pat) return false;
    const std::string field = keys.prefix() + "hybrid_override_pattern";
    if (static_cast<int>(pat->size()) != n) {
        keys.error("layer_count_mismatch", field,
                   field + " has " + std::to_string(pat->size()) + " characters but num_hidden_layers is " +
                       std::to_string(n) + "; they must be equal");
        return true;
    }
    p.kinds.assign(n, MixerKind::none);
    for (int i = 0; i < n; ++i) {
        const char c = (*pat)[static_cast<std::size_t>(i)];
        if (c == 'M') {
            p.kinds[i] = MixerKind::mamba;
        } else if (c == '*') {
            p.kinds[i] = MixerKind::full;
        } else if (c != '-' && c != 'E') {
            keys.warning("unknown_layer_type", field,
                         field + " character '" + std::string(1, c) + "' at " + std::to_string(i) +
                             " is not M (Mamba), * (attention), - (MLP) or E (experts); assumed no cache");
        }
    }
    return true;
}

bool from_jamba_period(KeyReader& keys, int n, LayerPattern& p) {
    auto period = keys.integer({"attn_layer_period"}, "attention layer period", 1, 100000);
    if (!period) return false;
    const auto offset = keys.integer({"attn_layer_offset"}, "attention layer offset", 0, 100000).value_or(0);
    p.kinds.assign(n, MixerKind::mamba);
    for (int i = 0; i < n; ++i) {
        if (i % *period == offset) p.kinds[i] = MixerKind::full;
    }
    return true;
}

bool from_interval(KeyReader& keys, int n, LayerPattern& p) {
    auto interval = keys.integer({"full_attention_interval"}, "full attention interval", 1, 100000);
    if (!interval) return false;
    p.kinds.assign(n, MixerKind::linear);
    for (int i = 0; i < n; ++i) {
        if ((i + 1) % *interval == 0) p.kinds[i] = MixerKind::full;
    }
    return true;
}

bool from_sliding_keys(KeyReader& keys, int n, const std::string& model_type, bool has_window, LayerPattern& p) {
    p.kinds.assign(n, MixerKind::full);
    const bool qwen_style = model_type.rfind("qwen", 0) == 0;
    auto use = keys.boolean({"use_sliding_window"}, "use_sliding_window");
    if (use.has_value() || qwen_style) {
        if (!use.value_or(false) || !has_window) return true;  // Qwen2/3 default: no sliding window
        const auto first = keys.integer({"max_window_layers"}, "max_window_layers", 0, 100000).value_or(0);
        for (int i = static_cast<int>(first); i < n; ++i) p.kinds[i] = MixerKind::sliding;
        return true;
    }
    if (!has_window) return true;
    auto every = keys.integer({"sliding_window_pattern"}, "sliding_window_pattern", 1, 100000);
    if (every) {  // Gemma 3 / Cohere 2: every Nth layer is global, the others slide
        for (int i = 0; i < n; ++i) p.kinds[i] = ((i + 1) % *every == 0) ? MixerKind::full : MixerKind::sliding;
        return true;
    }
    if (model_type == "gemma2") {  // Gemma 2 alternates, starting with a sliding layer
        for (int i = 0; i < n; ++i) p.kinds[i] = (i % 2 == 0) ? MixerKind::sliding : MixerKind::full;
        keys.note_source("layer pattern", "model_type gemma2: alternating sliding/full");
        return true;
    }
    for (int i = 0; i < n; ++i) p.kinds[i] = MixerKind::sliding;  // Mistral v0.1 style: every layer slides
    keys.note_source("layer pattern", "sliding_window without a pattern key: every layer slides");
    return true;
}

}  // namespace

LayerPattern resolve_layer_pattern(KeyReader& keys, int n, const std::string& model_type, bool has_window) {
    LayerPattern p;
    if (from_layer_types(keys, n, p) || from_hybrid_override_pattern(keys, n, p) ||
        from_jamba_period(keys, n, p)) {
        return p;
    }
    if (model_type == "falcon_h1") {
        p.kinds.assign(n, MixerKind::full);
        p.parallel_mamba = true;
        keys.note_source("layer pattern", "model_type falcon_h1: attention and Mamba-2 side by side in every layer");
        return p;
    }
    if (from_interval(keys, n, p)) return p;
    from_sliding_keys(keys, n, model_type, has_window, p);
    return p;
}

}  // namespace kvcalc::hf

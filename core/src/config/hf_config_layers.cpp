#include "config/hf_config_layers.h"
#include "kvcalc/base/json_safety.h"

#include <algorithm>
#include <string>

namespace kvcalc::hf {

namespace {

int heads_of(KeyReader& keys) {
    std::string path;
    const nlohmann::json* v = keys.raw({"num_attention_heads"}, path);
    return v && v->is_number_integer() ? v->get<int>() : 0;
}
int hidden_of(KeyReader& keys) {
    std::string path;
    const nlohmann::json* v = keys.raw({"hidden_size"}, path);
    return v && v->is_number_integer() ? v->get<int>() : 0;
}

bool parse_layer_type(const std::string& t, MixerKind& out) {
    if (t == "full_attention" || t == "attention" || t == "global" || t == "global_attention") {
        out = MixerKind::full;
    } else if (t == "sliding_attention" || t == "sliding" || t == "local" || t == "local_attention") {
        out = MixerKind::sliding;
    } else if (t == "chunked_attention") {
        out = MixerKind::chunked;
    } else if (t == "linear_attention") {
        out = MixerKind::linear;
    } else if (t == "mamba" || t == "mamba2") {
        out = MixerKind::mamba;
    } else if (t == "conv" || t == "short_conv") {
        out = MixerKind::conv;
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
                           " is not a known layer type; valid: full_attention, sliding_attention, chunked_attention, "
                           "linear_attention, mamba, conv (and the aliases attention, global, sliding, local, mamba2, "
                           "short_conv)");
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
    p.blocks = *pat;
    // One warning for the whole string, however many layers are unknown: each distinct character once, with
    // the layer indices it stands at.
    std::vector<std::pair<char, std::string>> unknown;
    int unknown_layers = 0;
    for (int i = 0; i < n; ++i) {
        const char c = (*pat)[static_cast<std::size_t>(i)];
        if (c == 'M') {
            p.kinds[i] = MixerKind::mamba;
        } else if (c == '*') {
            p.kinds[i] = MixerKind::full;
        } else if (c != '-' && c != 'E') {
            ++unknown_layers;
            auto it = std::find_if(unknown.begin(), unknown.end(), [c](const auto& u) { return u.first == c; });
            if (it == unknown.end()) {
                unknown.emplace_back(c, std::to_string(i));
            } else {
                it->second += ", " + std::to_string(i);
            }
        }
    }
    if (!unknown.empty()) {
        std::string list;
        for (const auto& [c, at] : unknown) {
            list += (list.empty() ? "" : "; ") + shown_value(nlohmann::json(std::string(1, c)), 8) + " at layer " + at;
        }
        // vLLM's nemotron_h.py looks each character up in ALL_DECODER_LAYER_TYPES and fails on any other.
        keys.warning("unknown_layer_type", field,
                     field + " has " + std::to_string(unknown_layers) + " layer" + (unknown_layers == 1 ? "" : "s") +
                         " with a character that is not M (Mamba), * (attention), - (MLP) or E (experts): " + list +
                         "; those layers are priced as keeping no cache (vLLM's NemotronH refuses such a pattern)");
    }
    return true;
}

/// DeciLM `block_configs` (Llama-3.1/3.3-Nemotron Super/Ultra): per layer, attention.n_heads_in_group sets the
/// KV heads (num_attention_heads / n_heads_in_group), attention.no_op or replace_with_linear leaves no cache,
/// attention.window_length makes it a sliding layer; ffn.ffn_mult sets the MLP width. Source: vLLM
/// model_executor/models/nemotron_nas.py DeciLMDecoderLayer and _ffn_mult_to_intermediate_size.
bool from_block_configs(KeyReader& keys, int n, int heads, int hidden, LayerPattern& p) {
    std::string path;
    const nlohmann::json* v = keys.raw({"block_configs"}, path);
    if (!v) return false;
    if (!v->is_array() || static_cast<int>(v->size()) != n) {
        keys.error("layer_count_mismatch", path,
                   path + " must be an array with one entry per layer (num_hidden_layers " + std::to_string(n) +
                       ")");
        return true;
    }
    p.kinds.assign(n, MixerKind::full);
    p.kv_heads.assign(n, 0);
    p.windows.assign(n, 0);
    p.mlp_widths.assign(n, 0);
    p.linear_attention.assign(n, false);
    auto flag = [](const nlohmann::json& o, const char* k) {
        auto it = o.find(k);
        return it != o.end() && it->is_boolean() && it->get<bool>();
    };
    for (int i = 0; i < n; ++i) {
        const auto& b = (*v)[static_cast<std::size_t>(i)];
        const std::string where = path + "[" + std::to_string(i) + "]";
        const nlohmann::json empty = nlohmann::json::object();
        const auto& att = b.is_object() && b.contains("attention") && b["attention"].is_object() ? b["attention"] : empty;
        const auto& ffn = b.is_object() && b.contains("ffn") && b["ffn"].is_object() ? b["ffn"] : empty;
        if (flag(att, "no_op") || flag(att, "replace_with_linear")) {
            p.kinds[i] = MixerKind::none;
            p.linear_attention[i] = flag(att, "replace_with_linear");
        } else {
            auto g = att.find("n_heads_in_group");
            if (g == att.end() || !g->is_number_integer() || g->get<std::int64_t>() < 1 ||
                heads % g->get<std::int64_t>() != 0) {
                keys.error("bad_layer", where + ".attention.n_heads_in_group",
                           where + ".attention.n_heads_in_group must be a whole number ≥ 1 that divides "
                                   "num_attention_heads " + std::to_string(heads));
                continue;
            }
            p.kv_heads[i] = heads / static_cast<int>(g->get<std::int64_t>());
            auto w = att.find("window_length");
            if (w != att.end() && w->is_number_integer() && w->get<std::int64_t>() > 0) {
                p.kinds[i] = MixerKind::sliding;
                p.windows[i] = w->get<std::int64_t>();
            }
        }
        if (flag(ffn, "no_op")) {
            p.mlp_widths[i] = 0;
        } else if (flag(ffn, "replace_with_linear")) {
            p.mlp_widths[i] = -1;
        } else if (auto m = ffn.find("ffn_mult"); m != ffn.end() && m->is_number() && m->get<double>() > 0 &&
                                                  m->get<double>() < 1000) {
            // int(2 * ffn_mult * hidden / 3) rounded up to a multiple of 256.
            const auto raw = static_cast<std::int64_t>(2.0 * m->get<double>() * hidden / 3.0);
            p.mlp_widths[i] = static_cast<int>((raw + 255) / 256 * 256);
        }
    }
    keys.note_source("layer pattern", "config.json: " + path);
    return true;
}

/// Llama4TextConfig: layer_types defaults to chunked_attention where no_rope_layers[i] is 1 (the RoPE layers)
/// and full_attention on the NoPE layers; no_rope_layers defaults (also when empty) to
/// int((i + 1) % no_rope_layer_interval != 0), so every 4th layer is global. Without attention_chunk_size the
/// model runs plain full attention (vLLM llama4.py builds ChunkedLocalAttention only when it is set).
bool from_llama4(KeyReader& keys, int n, LayerPattern& p) {
    p.kinds.assign(n, MixerKind::full);
    const auto chunk = keys.integer({"attention_chunk_size"}, "attention_chunk_size", 1, 1000000000);
    if (!chunk) return true;
    std::string path;
    const nlohmann::json* list = keys.raw({"no_rope_layers"}, path);
    if (list && list->is_array() && !list->empty()) {
        if (static_cast<int>(list->size()) < n) {
            keys.error("layer_count_mismatch", path,
                       path + " lists " + std::to_string(list->size()) + " layers but num_hidden_layers is " +
                           std::to_string(n));
            return true;
        }
        for (int i = 0; i < n; ++i) {
            const auto& e = (*list)[static_cast<std::size_t>(i)];
            if (e.is_number_integer() && e.get<std::int64_t>() != 0) p.kinds[i] = MixerKind::chunked;
        }
        keys.note_source("layer pattern", "config.json: " + path + " (1 = RoPE layer = chunked)");
        return true;
    }
    const auto interval = keys.integer({"no_rope_layer_interval"}, "no_rope_layer_interval", 1, 100000).value_or(4);
    for (int i = 0; i < n; ++i)
        if ((i + 1) % interval != 0) p.kinds[i] = MixerKind::chunked;
    keys.note_source("layer pattern", "Llama4TextConfig default: every " + std::to_string(interval) +
                                          "th layer global, the others chunked (no_rope_layer_interval)");
    return true;
}

/// MiMo-V2 `hybrid_layer_pattern`: one 0/1 per layer, 1 = sliding-window attention (with the swa_* head
/// sizes), 0 = global (vLLM / transformers MiMoV2 attention: is_swa = hybrid_layer_pattern[i] == 1).
bool from_hybrid_layer_pattern(KeyReader& keys, int n, LayerPattern& p) {
    std::string path;
    const nlohmann::json* v = keys.raw({"hybrid_layer_pattern"}, path);
    if (!v) return false;
    if (!v->is_array() || static_cast<int>(v->size()) != n) {
        keys.error("layer_count_mismatch", path,
                   path + " must list one 0/1 per layer (num_hidden_layers " + std::to_string(n) + ")");
        return true;
    }
    p.kinds.assign(n, MixerKind::full);
    for (int i = 0; i < n; ++i) {
        const auto& e = (*v)[static_cast<std::size_t>(i)];
        if (e.is_number_integer() && e.get<std::int64_t>() == 1) p.kinds[i] = MixerKind::sliding;
    }
    keys.note_source("layer pattern", "config.json: " + path + " (1 = sliding window)");
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
    keys.note_source("layer pattern", "config.json: attn_layer_period " + std::to_string(*period) +
                                          ", attn_layer_offset " + std::to_string(offset) +
                                          " (Jamba: attention where i % period == offset, Mamba elsewhere)");
    return true;
}

/// Bamba / granite hybrids list their attention layers by index; every other layer is Mamba-2 (transformers
/// BambaConfig.layers_block_type: "attention" if i in attn_layer_indices else "mamba"; vLLM bamba.py BambaModel
/// builds each layer from that list).
bool from_attn_layer_indices(KeyReader& keys, int n, LayerPattern& p) {
    std::string path;
    const nlohmann::json* v = keys.raw({"attn_layer_indices"}, path);
    if (!v) return false;
    if (!v->is_array()) {
        keys.error("bad_type", path, path + " must be a list of attention layer indices (0.." + std::to_string(n - 1) + ")");
        return true;
    }
    p.kinds.assign(n, MixerKind::mamba);
    for (const auto& e : *v) {
        if (!e.is_number_integer() || e.get<std::int64_t>() < 0 || e.get<std::int64_t>() >= n) {
            keys.error("out_of_range", path,
                       path + " lists " + e.dump() + ": each entry must be a layer index from 0 to " + std::to_string(n - 1));
            return true;
        }
        p.kinds[static_cast<std::size_t>(e.get<std::int64_t>())] = MixerKind::full;
    }
    keys.note_source("layer pattern", "config.json: " + path + " (attention layers; the others Mamba-2)");
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
    if (!every && model_type.rfind("gemma4", 0) == 0) {
        // Gemma4TextConfig.__post_init__ without layer_types: every 6th layer full ("5:1"), and the last layer is
        // forced to full_attention (transformers gemma4/configuration_gemma4.py); vLLM gemma4.py reads layer_types.
        for (int i = 0; i < n; ++i) p.kinds[i] = ((i + 1) % 6 == 0 || i == n - 1) ? MixerKind::full : MixerKind::sliding;
        keys.note_source("layer pattern", "Gemma4TextConfig layer_types default: every 6th layer and the last full");
        return true;
    }
    if (every) {  // Gemma 3 / Cohere 2: every Nth layer is global, the others slide
        for (int i = 0; i < n; ++i) p.kinds[i] = ((i + 1) % *every == 0) ? MixerKind::full : MixerKind::sliding;
        return true;
    }
    if (keys.traits() && keys.traits()->layer_rule == LayerRule::alternating_sliding) {
        // Gemma2Config / GptOssConfig layer_types default: "sliding_attention" if (i + 1) % 2 else "full_attention".
        for (int i = 0; i < n; ++i) p.kinds[i] = (i % 2 == 0) ? MixerKind::sliding : MixerKind::full;
        keys.note_source("layer pattern", "model_type " + model_type + ": alternating sliding/full (" +
                                              std::string(keys.traits()->config_class) + " layer_types default)");
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
        from_block_configs(keys, n, heads_of(keys), hidden_of(keys), p) || from_hybrid_layer_pattern(keys, n, p) ||
        from_jamba_period(keys, n, p) || from_attn_layer_indices(keys, n, p)) {
        return p;
    }
    const LayerRule rule = keys.traits() ? keys.traits()->layer_rule : LayerRule::from_keys;
    if (rule == LayerRule::llama4_chunked || (rule == LayerRule::from_keys && keys.present("attention_chunk_size") &&
                                              model_type.rfind("llama4", 0) == 0)) {
        from_llama4(keys, n, p);
        return p;
    }
    if (rule == LayerRule::falcon_h1_parallel || model_type == "falcon_h1") {
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

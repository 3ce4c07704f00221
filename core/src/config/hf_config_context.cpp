// How long a context each engine derives from a config.json (context_limit.h names each engine's function).
#include "config/hf_config_context.h"
#include "util/text.h"

#include <cmath>
#include <cstdio>
#include <limits>
#include <vector>

#include "kvcalc/base/json_safety.h"

namespace kvcalc::hf {

namespace {

constexpr std::int64_t kMaxTokens = 1000000000;  // the reader's limit for any token count

/// Every length key any of the three engines reads, each read (and type-checked) once.
class LengthKeys {
public:
    explicit LengthKeys(KeyReader& keys) {
        for (const char* k : {"max_position_embeddings", "n_positions", "max_seq_len", "seq_length",
                              "model_max_length", "max_target_positions", "max_sequence_length", "max_seq_length",
                              "seq_len", "n_ctx", "max_length"}) {
            std::string path;
            keys.raw({k}, path);
            rows_.push_back({k, keys.integer({k}, k, 1, kMaxTokens), path});
        }
        // transformers' attribute_map makes config.max_position_embeddings read n_positions for these classes
        // (GPT2Config, GPTBigCodeConfig, GPTJConfig, CodeGenConfig), so every engine's getattr sees it there.
        const std::string& mt = keys.text_model_type();
        if (!rows_[0].value && rows_[1].value &&
            (mt == "gpt2" || mt == "gpt_bigcode" || mt == "gptj" || mt == "codegen")) {
            rows_[0].value = rows_[1].value;
            rows_[0].path = rows_[1].path;
        }
    }
    std::optional<std::int64_t> value(std::string_view key) const {
        for (const auto& r : rows_)
            if (r.key == key) return r.value;
        return std::nullopt;
    }
    const std::string& path(std::string_view key) const {
        for (const auto& r : rows_)
            if (r.key == key) return r.path;
        static const std::string none;
        return none;
    }

private:
    struct Row {
        std::string key;
        std::optional<std::int64_t> value;
        std::string path;
    };
    std::vector<Row> rows_;
};

/// `x` as a stream prints it (six significant digits, %g), without pulling iostreams into the page's wasm.
std::string num(double x) {
    char text[32];
    std::snprintf(text, sizeof text, "%g", x);
    return text;
}

/// One rope-parameter dict as vLLM sees it after patch_rope_parameters_dict (vllm/transformers_utils/config.py):
/// the legacy `type` read as `rope_type`, `su` as `longrope`, `mrope` as `default`; no type = "default"
/// (transformers v5 standardize_rope_params).
struct RopeDict {
    const nlohmann::json* j = nullptr;
    std::string path;
    std::string type;
};

std::string rope_type_of(KeyReader& keys, const nlohmann::json& rp, const std::string& path) {
    auto text = [&](const char* k) -> std::string {
        auto it = rp.find(k);
        return it != rp.end() && it->is_string() ? it->get<std::string>() : std::string();
    };
    const std::string modern = text("rope_type"), legacy = text("type");
    if (!modern.empty() && !legacy.empty() && modern != legacy && !(legacy == "su" && modern == "longrope") &&
        !(legacy == "mrope" && modern == "default")) {
        keys.error("inconsistent", path + ".rope_type",
                   path + " has rope_type " + text::quoted(modern) + " and type " + text::quoted(legacy) +
                       ": vLLM refuses two different rope types; keep one of them");
    }
    std::string t = modern.empty() ? legacy : modern;
    if (t.empty()) t = "default";
    if (t == "su") t = "longrope";
    if (t == "mrope") t = "default";
    return t;
}

/// The rope dict(s) vLLM reads: rope_scaling (transformers v4 copies it to rope_parameters), else
/// rope_parameters; a dict of dicts is one per layer type (Gemma 3 / 4 style).
std::vector<RopeDict> rope_dicts(KeyReader& keys) {
    std::string path;
    const nlohmann::json* r = keys.raw({"rope_scaling"}, path);
    if (!r || !r->is_object() || r->empty()) r = keys.raw({"rope_parameters"}, path);
    if (!r || !r->is_object() || r->empty()) return {};
    bool nested = true;
    for (const auto& [k, v] : r->items()) nested = nested && v.is_object();
    std::vector<RopeDict> out;
    if (nested) {
        for (const auto& [k, v] : r->items()) out.push_back({&v, path + "." + k, ""});
    } else {
        out.push_back({r, path, ""});
    }
    for (auto& d : out) d.type = rope_type_of(keys, *d.j, d.path);
    return out;
}

/// rope `factor` when present: a finite number > 0, else an error naming the key.
std::optional<double> rope_factor(KeyReader& keys, const RopeDict& d) {
    auto it = d.j->find("factor");
    if (it == d.j->end() || it->is_null()) return std::nullopt;
    if (!it->is_number() || !std::isfinite(it->get<double>()) || it->get<double>() <= 0) {
        keys.error("wrong_type", d.path + ".factor",
                   d.path + ".factor is " + shown_value(*it, 40) + "; expected a number > 0 (the rope scaling "
                   "factor, e.g. 4.0 for YaRN from 32K to 128K)");
        return std::nullopt;
    }
    return it->get<double>();
}

std::optional<std::int64_t> inner_int(const nlohmann::json& j, const char* key) {
    auto it = j.find(key);
    if (it == j.end() || !it->is_number() || !std::isfinite(it->get<double>())) return std::nullopt;
    const double v = it->get<double>();
    if (v < 1 || v > static_cast<double>(kMaxTokens) || v != std::floor(v)) return std::nullopt;
    return static_cast<std::int64_t>(v);
}

/// vLLM: vllm/config/model.py _get_and_verify_max_len with ModelArchConfigConvertorBase
/// .derive_max_model_len_and_key (vllm-project/vllm 18ec6629).
void vllm_rule(KeyReader& keys, const LengthKeys& len, const std::vector<RopeDict>& rope,
               std::optional<std::int64_t> top_ompe, HfConfig& out) {
    EngineContextLimit& c = out.spec.engine_context[engine_index(EngineId::vllm)];
    // The smallest of these keys; model_max_length (Command-R, Cohere) wins whenever it is set.
    double derived = std::numeric_limits<double>::infinity();
    std::string key;
    for (const char* k : {"max_position_embeddings", "n_positions", "max_seq_len", "seq_length", "model_max_length",
                          "max_target_positions", "max_sequence_length", "max_seq_length", "seq_len"}) {
        if (auto v = len.value(k); v && static_cast<double>(*v) < derived) {
            derived = static_cast<double>(*v);
            key = len.path(k);
        }
    }
    if (auto m = len.value("model_max_length")) {
        derived = static_cast<double>(*m);
        key = len.path("model_max_length");
    }
    const bool none = std::isinf(derived);
    std::string source = none ? std::string("none of vLLM's length keys: 2048 assumed") : key + " " + num(derived);
    if (none) derived = 2048;
    // Gemma 3's max_position_embeddings already includes its rope scaling (vLLM skips it by model_type).
    const bool gemma3 = out.arch.model_type.find("gemma3") != std::string::npos ||
                        out.spec.model_type.find("gemma3") != std::string::npos;
    bool longrope = false;
    if (!rope.empty() && !gemma3) {
        double scaling = 1.0;
        for (const RopeDict& d : rope) {
            longrope = longrope || d.type == "longrope";
            if (d.type == "longrope" || d.type == "llama3") continue;  // already in max_position_embeddings
            if (auto f = rope_factor(keys, d)) scaling = *f;
            if (d.type == "yarn") {
                // The pre-YaRN length: the top-level key wins (transformers standardize_rope_params, vLLM
                // patch_rope_parameters); transformers v5 falls back to max_position_embeddings.
                std::optional<std::int64_t> ompe = top_ompe ? top_ompe : inner_int(*d.j, "original_max_position_embeddings");
                std::string from = top_ompe ? std::string("original_max_position_embeddings")
                                            : d.path + ".original_max_position_embeddings";
                if (!ompe) {
                    ompe = len.value("max_position_embeddings");
                    from = "max_position_embeddings (YaRN without original_max_position_embeddings)";
                    keys.warning("assumed", d.path + ".original_max_position_embeddings",
                                 d.path + " is YaRN without original_max_position_embeddings: read as "
                                 "max_position_embeddings, as transformers v5 does (vLLM on transformers v4 "
                                 "refuses the config)");
                }
                if (ompe) {
                    derived = static_cast<double>(*ompe);
                    source = "YaRN " + from + " " + std::to_string(*ompe);
                }
            }
        }
        if (scaling != 1.0) {
            source += " × " + rope.front().path + ".factor " + num(scaling);
            derived *= scaling;
        }
    }
    if (derived > static_cast<double>(kMaxTokens)) {
        keys.error("out_of_range", rope.empty() ? key : rope.front().path + ".factor",
                   "the scaled context " + source + " = " + num(derived) + " tokens is past the valid range "
                   "1..1000000000");
        return;
    }
    const auto len_tokens = static_cast<std::int64_t>(derived);
    if (!none) c.max_model_len = len_tokens;
    c.default_max_model_len = len_tokens;
    if (longrope && top_ompe) {
        // LongRoPE serves the pre-extension length unless max_model_len asks for more (short-context quality).
        c.default_max_model_len = *top_ompe;
        source += "; LongRoPE: vLLM's default max_model_len is original_max_position_embeddings " +
                  std::to_string(*top_ompe);
    }
    c.source = source;
}

/// SGLang: python/sglang/srt/utils/hf_transformers/common.py get_context_length (sgl-project/sglang
/// 00828e56): the first key of its list, times rope_scaling.factor unless the dict names
/// original_max_position_embeddings or rope_type llama3; 2048 when no key is set.
void sglang_rule(const LengthKeys& len, KeyReader& keys, HfConfig& out) {
    EngineContextLimit& c = out.spec.engine_context[engine_index(EngineId::sglang)];
    std::string path;
    const nlohmann::json* r = keys.raw({"rope_scaling"}, path);
    if (!r || !r->is_object() || r->empty()) r = keys.raw({"rope_parameters"}, path);
    double factor = 1.0;
    if (r && r->is_object() && !r->empty()) {
        auto f = r->find("factor");
        if (f != r->end() && f->is_number() && std::isfinite(f->get<double>()) && f->get<double>() > 0)
            factor = f->get<double>();
        auto t = r->find("rope_type");
        if (t == r->end()) t = r->find("type");
        if (r->contains("original_max_position_embeddings") || (t != r->end() && *t == "llama3")) factor = 1.0;
    }
    for (const char* k : {"max_sequence_length", "seq_length", "max_seq_len", "model_max_length",
                          "max_position_embeddings"}) {
        if (auto v = len.value(k)) {
            const double scaled = factor * static_cast<double>(*v);
            if (scaled > static_cast<double>(kMaxTokens)) return;  // vLLM's rule reported it
            c.max_model_len = static_cast<std::int64_t>(scaled);
            c.source = len.path(k) + " " + std::to_string(*v) + (factor != 1.0 ? " × " + path + ".factor " + num(factor) : "");
            c.default_max_model_len = c.max_model_len;
            return;
        }
    }
    c.max_model_len = c.default_max_model_len = 2048;
    c.source = "none of SGLang's length keys: 2048 assumed";
}

/// llama.cpp: n_ctx_train is the GGUF context_length that convert_hf_to_gguf.py (TextModel
/// .set_gguf_parameters) writes from the first of these keys; rope scaling is stored apart and leaves it.
void llama_cpp_rule(const LengthKeys& len, HfConfig& out) {
    EngineContextLimit& c = out.spec.engine_context[engine_index(EngineId::llama_cpp)];
    for (const char* k : {"max_position_embeddings", "n_ctx", "n_positions", "max_length", "max_sequence_length",
                          "model_max_length"}) {
        if (auto v = len.value(k)) {
            c.max_model_len = c.default_max_model_len = *v;
            c.source = "n_ctx_train = " + len.path(k) + " " + std::to_string(*v);
            return;
        }
    }
}

}  // namespace

void read_context_limits(KeyReader& keys, HfConfig& out) {
    const LengthKeys len(keys);
    ModelSpec& s = out.spec;
    for (const char* k : {"max_position_embeddings", "n_positions", "seq_length", "max_sequence_length"}) {
        if (auto v = len.value(k)) {
            s.max_position_embeddings = *v;
            if (std::string_view(k) != "max_position_embeddings")
                keys.note_source("max_position_embeddings", "config.json: " + len.path(k));
            break;
        }
    }
    if (s.max_position_embeddings == 0) {
        keys.warning("assumed", keys.prefix() + "max_position_embeddings",
                     "max_position_embeddings missing: the largest supported max_model_len is unknown; set "
                     "max_model_len explicitly");
    }
    const auto top_ompe =
        keys.integer({"original_max_position_embeddings"}, "original_max_position_embeddings", 1, kMaxTokens);
    const std::vector<RopeDict> rope = rope_dicts(keys);
    vllm_rule(keys, len, rope, top_ompe, out);
    sglang_rule(len, keys, out);
    llama_cpp_rule(len, out);
}

}  // namespace kvcalc::hf

#include "config/hf_config_keys.h"

#include <algorithm>
#include <cstdio>
#include <cstring>

#include "kvcalc/base/json_safety.h"

#include <algorithm>
#include <cmath>

namespace kvcalc::hf {

namespace {
std::string shown(const nlohmann::json& v) { return shown_value(v, 40); }
/// `x` as a stream prints it (six significant digits, %g), without pulling iostreams into the page's wasm.
std::string num_text(double x) {
    char text[32];
    std::snprintf(text, sizeof text, "%g", x);
    return text;
}
}  // namespace

KeyReader::KeyReader(const nlohmann::json& root, Diagnostics& diags, std::vector<Provenance>& provenance)
    : root_(root), text_(&root), diags_(diags), provenance_(provenance) {
    // Multimodal wrappers (Gemma 3/4, Mistral 3, Qwen 3.5 VL, Llama 4) nest the language model here.
    for (const char* wrapper : {"text_config", "llm_config", "language_config"}) {
        auto it = root.find(wrapper);
        if (it != root.end() && it->is_object()) {
            text_ = &*it;
            prefix_ = std::string(wrapper) + ".";
            break;
        }
    }
    auto model_type_of = [](const nlohmann::json& j) {
        auto it = j.find("model_type");
        return it != j.end() && it->is_string() ? it->get<std::string>() : std::string();
    };
    text_model_type_ = model_type_of(*text_);
    const std::string top = model_type_of(root_);
    if (text_model_type_.empty()) {
        const ModelTypeTraits* wrapper = find_model_traits(top);
        text_model_type_ = (text_ != &root_ && wrapper && !wrapper->inner_model_type.empty())
                               ? std::string(wrapper->inner_model_type)
                               : top;
    }
    traits_ = find_model_traits(text_model_type_);
    if (traits_ && !traits_->inner_model_type.empty()) {
        // A wrapper read flat (no text_config object): its text keys are at the top level; use the inner defaults.
        if (const ModelTypeTraits* inner = find_model_traits(traits_->inner_model_type)) traits_ = inner;
    }
    if (traits_) defaults_ = nlohmann::json::parse(traits_->defaults_json, nullptr, false);
    if (!defaults_.is_object()) defaults_ = nlohmann::json::object();  // the table is ours: never happens
}

bool KeyReader::present(const char* key) const {
    return text_->contains(key) || root_.contains(key);
}

std::string KeyReader::source_of(const std::string& path) const {
    if (traits_ && path.rfind(traits_->config_class, 0) == 0) {
        return "transformers default: " + path + " (" + std::string(traits_->source) + ")";
    }
    return "config.json: " + path;
}

const nlohmann::json* KeyReader::find(const char* key, std::string& path) const {
    // "attn_config.kv_n_heads": a key of a nested object (DBRX / MPT keep attention and FFN widths there).
    if (const char* dot = std::strchr(key, '.')) {
        const std::string outer(key, dot);
        for (const nlohmann::json* scope : {text_, &root_}) {
            auto o = scope->find(outer);
            if (o == scope->end() || !o->is_object()) continue;
            auto in = o->find(dot + 1);
            if (in == o->end() || in->is_null()) continue;
            path = (scope == text_ ? prefix_ : std::string()) + key;
            return &*in;
        }
        return nullptr;
    }
    auto it = text_->find(key);
    if (it != text_->end() && !it->is_null()) {
        path = prefix_ + key;
        return &*it;
    }
    if (text_ != &root_) {
        auto top = root_.find(key);
        if (top != root_.end() && !top->is_null()) {
            path = key;
            return &*top;
        }
    }
    if (!present(key)) {
        auto d = defaults_.find(key);
        if (d != defaults_.end()) {
            path = std::string(traits_->config_class) + "." + key;
            if (std::find(defaults_used_.begin(), defaults_used_.end(), key) == defaults_used_.end())
                defaults_used_.emplace_back(key);
            return &*d;
        }
    }
    return nullptr;
}

const nlohmann::json* KeyReader::raw(std::initializer_list<const char*> aliases, std::string& path) const {
    for (const char* key : aliases) {
        if (const nlohmann::json* v = find(key, path)) return v;
    }
    return nullptr;
}

bool KeyReader::report_non_finite(std::initializer_list<const char*> aliases, const std::string& expected) {
    for (const char* key : aliases) {
        for (const std::string& path : {prefix_ + key, std::string(key)}) {
            const auto hit = non_finite_.find(path);
            if (hit == non_finite_.end()) continue;
            error("wrong_type", path,
                  path + " is " + hit->second + " (not a number; Python's json writes it for inf / nan); expected " +
                      expected);
            return true;
        }
    }
    return false;
}

namespace {
/// Facts a config may list per layer, read as one number.
bool per_layer_fact(const char* fact) {
    for (const char* f : {"moe_intermediate_size", "num_experts_per_tok", "n_shared_experts"})
        if (std::strcmp(f, fact) == 0) return true;
    return false;
}
}  // namespace

std::optional<std::int64_t> KeyReader::integer(std::initializer_list<const char*> aliases, const char* fact,
                                               std::int64_t lo, std::int64_t hi) {
    std::string path;
    const nlohmann::json* v = raw(aliases, path);
    if (!v) {
        report_non_finite(aliases, "a whole number in " + std::to_string(lo) + ".." + std::to_string(hi));
        return std::nullopt;
    }
    double x = 0.0;
    const bool whole = v->is_number_integer() || v->is_number_unsigned();
    if (whole) {
        x = v->get<double>();
    } else if (per_layer_fact(fact) && v->is_array() && !v->empty() &&
               std::all_of(v->begin(), v->end(), [](const nlohmann::json& e) { return e.is_number_integer(); })) {
        // Hunyuan lists moe_topk / moe_intermediate_size / num_shared_expert per layer (vLLM hunyuan_v1.py reads
        // element layer_id); one number stands for all: the largest, which bounds every layer.
        for (const auto& e : *v) x = std::max(x, e.get<double>());
        const bool same = std::all_of(v->begin(), v->end(), [&](const nlohmann::json& e) { return e.get<double>() == x; });
        info("per_layer_list", path,
             path + " lists one value per layer: " + (same ? "all are " : "the largest, ") + num_text(x) +
                 (same ? "" : ", stands for every layer (an upper bound)"));
    } else if (v->is_number_float() && std::isfinite(v->get<double>()) &&
               v->get<double>() == std::floor(v->get<double>())) {
        x = v->get<double>();  // 128.0 is accepted as 128
    } else {
        error("wrong_type", path, path + " is " + shown(*v) + "; expected a whole number");
        return std::nullopt;
    }
    if (x < static_cast<double>(lo) || x > static_cast<double>(hi)) {
        error("out_of_range", path,
              path + " = " + shown(*v) + " is outside the valid range " + num_text(static_cast<double>(lo)) + ".." +
                  num_text(static_cast<double>(hi)));
        return std::nullopt;
    }
    note_source(fact, source_of(path));
    return static_cast<std::int64_t>(x);
}

std::optional<double> KeyReader::number(std::initializer_list<const char*> aliases, const char* fact, double lo,
                                        double hi) {
    std::string path;
    const nlohmann::json* v = raw(aliases, path);
    if (!v) {
        report_non_finite(aliases, "a number in " + num_text(lo) + ".." + num_text(hi));
        return std::nullopt;
    }
    if (!v->is_number() || !std::isfinite(v->get<double>())) {
        error("wrong_type", path, path + " is " + shown(*v) + "; expected a number");
        return std::nullopt;
    }
    const double x = v->get<double>();
    if (x < lo || x > hi) {
        error("out_of_range", path,
              path + " = " + shown(*v) + " is outside the valid range " + num_text(lo) + ".." + num_text(hi));
        return std::nullopt;
    }
    note_source(fact, source_of(path));
    return x;
}

std::optional<bool> KeyReader::boolean(std::initializer_list<const char*> aliases, const char* fact) {
    std::string path;
    const nlohmann::json* v = raw(aliases, path);
    if (!v) return std::nullopt;
    if (!v->is_boolean()) {
        error("wrong_type", path, path + " is " + shown(*v) + "; expected true or false");
        return std::nullopt;
    }
    note_source(fact, source_of(path));
    return v->get<bool>();
}

std::optional<std::string> KeyReader::string(std::initializer_list<const char*> aliases, const char* fact) {
    std::string path;
    const nlohmann::json* v = raw(aliases, path);
    if (!v) return std::nullopt;
    if (!v->is_string()) {
        error("wrong_type", path, path + " is " + shown(*v) + "; expected a string");
        return std::nullopt;
    }
    note_source(fact, source_of(path));
    return v->get<std::string>();
}

void KeyReader::error(const std::string& code, const std::string& field, const std::string& message) {
    diags_.push_back({Severity::error, code, field, message});
}
void KeyReader::warning(const std::string& code, const std::string& field, const std::string& message) {
    diags_.push_back({Severity::warning, code, field, message});
}
void KeyReader::info(const std::string& code, const std::string& field, const std::string& message) {
    diags_.push_back({Severity::info, code, field, message});
}
void KeyReader::note_source(const std::string& fact, const std::string& source) {
    provenance_.push_back({fact, source});
}

std::string KeyReader::noted_source(const std::string& fact) const {
    for (auto it = provenance_.rbegin(); it != provenance_.rend(); ++it)
        if (it->fact == fact) return it->source;
    return {};
}

}  // namespace kvcalc::hf

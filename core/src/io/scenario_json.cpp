// Scenario (and inline ModelSpec) ⇄ JSON. Reading never throws: every problem is a diagnostic naming the field.
#include <cmath>
#include "util/text.h"
#include "kvcalc/base/json_safety.h"
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>

#include "kvcalc/catalog/catalog.h"
#include "kvcalc/engines/deployment.h"
#include "kvcalc/deployment/input_limits.h"
#include "kvcalc/io/startup_calibration_json.h"
#include "kvcalc/io/json_io.h"
#include "kvcalc/deployment/scenario_fields.h"
#include "kvcalc/model/layer_kinds.h"

#include <cstdint>
#include <limits>
#include <type_traits>

namespace kvcalc {

using nlohmann::json;

namespace {

template <class T> struct FieldPlain { using type = T; };
template <class T> struct FieldPlain<std::optional<T>> { using type = T; };

void type_error(Diagnostics& d, const std::string& field, const char* want, const json& v) {
    d.push_back({Severity::error, "bad_type", field, field + " must be " + want + ", got " + shown_value(v)});
}

bool get_int(const json& v, std::int64_t& out, Diagnostics& d, const std::string& field) {
    if (v.is_number_integer()) {
        out = v.get<std::int64_t>();
        return true;
    }
    if (v.is_number_float()) {
        const double x = v.get<double>();
        if (std::isfinite(x) && std::floor(x) == x && std::fabs(x) < 9e15) {
            out = static_cast<std::int64_t>(x);
            return true;
        }
    }
    type_error(d, field, "an integer", v);
    return false;
}

bool get_int(const json& v, int& out, Diagnostics& d, const std::string& field) {
    std::int64_t x = 0;
    if (!get_int(v, x, d, field)) return false;
    if (x < -2147483647 || x > 2147483647) {
        type_error(d, field, "a 32-bit integer", v);
        return false;
    }
    out = static_cast<int>(x);
    return true;
}

bool get_num(const json& v, double& out, Diagnostics& d, const std::string& field) {
    if (v.is_number()) {
        out = v.get<double>();
        return true;
    }
    type_error(d, field, "a number", v);
    return false;
}

bool get_str(const json& v, std::string& out, Diagnostics& d, const std::string& field) {
    if (v.is_string()) {
        out = v.get<std::string>();
        return true;
    }
    type_error(d, field, "a string", v);
    return false;
}

bool get_bool(const json& v, bool& out, Diagnostics& d, const std::string& field) {
    if (v.is_boolean()) {
        out = v.get<bool>();
        return true;
    }
    type_error(d, field, "true or false", v);
    return false;
}

template <class T>
void get_opt(const json& v, std::optional<T>& out, Diagnostics& d, const std::string& field) {
    if (v.is_null()) {
        out.reset();
        return;
    }
    T x{};
    bool ok = false;
    if constexpr (std::is_same_v<T, double>) ok = get_num(v, x, d, field);
    else if constexpr (std::is_same_v<T, bool>) ok = get_bool(v, x, d, field);
    else ok = get_int(v, x, d, field);
    if (ok) out = x;
}

/// A table field from JSON (scenario_fields.h). Types are checked here; ranges in resolve()
/// (check_scenario_fields), except values no member can hold, which are out of range here with the same words.
void read_field(const ScenarioField& f, const json& v, Scenario& s, Diagnostics& d) {
    const std::string want = field_valid_text(f);
    std::visit(
        [&](auto m) {
            using M = std::remove_reference_t<decltype(s.*m)>;
            using T = typename FieldPlain<M>::type;
            if (v.is_null()) {  // null = the field's default (an optional: unset)
                static const Scenario defaults{};
                s.*m = defaults.*m;
                return;
            }
            if constexpr (std::is_same_v<T, std::string>) {
                // A choice in any accepted spelling is kept in kvcalc's (vLLM's "bfloat16" reads as bf16).
                if (v.is_string()) s.*m = canonical_choice(f, v.get<std::string>());
                else type_error(d, f.name, ("a string (" + std::string(f.unit) + ")").c_str(), v);
            } else if constexpr (std::is_same_v<T, bool>) {
                if (v.is_boolean()) s.*m = v.get<bool>();
                else type_error(d, f.name, "true or false", v);
            } else if constexpr (std::is_integral_v<T>) {
                if (!v.is_number()) return type_error(d, f.name, want.c_str(), v);
                std::int64_t i = 0;
                bool fits = true;  // a value beyond the member is out of range, never wrapped
                if (v.is_number_unsigned()) {
                    const auto u = v.get<std::uint64_t>();
                    fits = u <= static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max());
                    i = fits ? static_cast<std::int64_t>(u) : 0;
                } else if (v.is_number_integer()) {
                    i = v.get<std::int64_t>();
                } else {
                    const double x = v.get<double>();
                    if (!std::isfinite(x) || std::floor(x) != x) return type_error(d, f.name, want.c_str(), v);
                    fits = std::fabs(x) < 9.2e18;
                    i = fits ? static_cast<std::int64_t>(x) : 0;
                }
                if (!fits || i < std::numeric_limits<T>::min() || i > std::numeric_limits<T>::max()) {
                    d.push_back({Severity::error, "out_of_range", f.name, field_range_message(f, shown_value(v))});
                    return;
                }
                s.*m = static_cast<T>(i);
            } else if constexpr (std::is_floating_point_v<T>) {
                if (v.is_number()) s.*m = v.get<double>();
                else type_error(d, f.name, want.c_str(), v);
            } else {
                type_error(d, f.name, want.c_str(), v);  // object rows are read by the caller
            }
        },
        f.member);
}

/// A table field as JSON: optionals unset → null.
json field_json(const ScenarioField& f, const Scenario& s) {
    return std::visit(
        [&](auto m) -> json {
            using M = std::remove_cvref_t<decltype(s.*m)>;
            using T = typename FieldPlain<M>::type;
            if constexpr (std::is_same_v<T, ModelSpec>) return nullptr;
            else if constexpr (std::is_same_v<M, T>) return json(s.*m);
            else return (s.*m) ? json(*(s.*m)) : json(nullptr);
        },
        f.member);
}

// Keys of an evaluate_json request that are not Scenario fields.
bool is_request_key(const std::string& k) {
    return k == "action" || k == "solve" || k == "criterion" || k == "startup_log";
}

// Reads one run of layers; false when the model's layer cap was hit (the caller stops reading runs).
bool read_layer(const json& j, std::vector<LayerCache>& layers, Diagnostics& d, const std::string& path) {
    if (!j.is_object()) {
        type_error(d, path, "an object", j);
        return true;
    }
    std::string kind;
    if (!j.contains("kind") || !get_str(j["kind"], kind, d, path + ".kind")) return true;
    int count = 1;
    if (j.contains("count") && (!get_int(j["count"], count, d, path + ".count") || count < 1 || count > kMaxModelLayers)) {
        d.push_back({Severity::error, "out_of_range", path + ".count",
                     "count = " + shown_value(j["count"]) + " must be 1..10000 (layers in this run)"});
        return true;
    }
    // Layers are stored one per entry: cap the total, not just each run (2,000 runs of 4,096 layers each would be 8.2 M).
    if (static_cast<std::int64_t>(layers.size()) + count > kMaxModelLayers) {
        d.push_back({Severity::error, "out_of_range", path + ".count",
                     path + " brings the model to " + std::to_string(layers.size() + static_cast<std::size_t>(count)) +
                         " layers; a model has at most 10000"});
        return false;
    }
    std::optional<LayerCache> kind_layer = layer_of_json_name(kind);
    if (!kind_layer) {
        d.push_back({Severity::error, "bad_layer", path + ".kind",
                     "unknown layer kind " + text::quoted(kind) + ". Valid: " + layer_kind_json_names()});
        return true;
    }
    // The kind's fields from the fact sheet's table (layer_json writes the same keys); their ranges are checked
    // with the rest of the model (check_model_limits).
    LayerCache c = *kind_layer;
    for (const LayerField& f : layer_fields(c)) {
        const char* key = f.name;
        std::int64_t v = f.get(c);
        if (!j.contains(key) && f.fallback) {
            bool earlier = false;  // the fallback is an earlier field of the kind: its value
            for (const LayerField& g : layer_fields(c)) {
                if (&g == &f) break;
                if (std::string_view(g.name) == f.fallback) v = g.get(c), earlier = true;
            }
            if (!earlier) key = f.fallback;
        }
        if (j.contains(key)) {
            if (f.int32) {
                int x = 0;
                if (get_int(j[key], x, d, path + "." + key)) v = x;
            } else {
                get_int(j[key], v, d, path + "." + key);
            }
        }
        f.set(c, v);
    }
    layers.insert(layers.end(), static_cast<std::size_t>(count), c);
    return true;
}

/// An engine's derived context (model_spec.h EngineContextLimit): {max_model_len, default_max_model_len, source}.
void read_context(const json& v, EngineContextLimit& c, Diagnostics& d, const std::string& path) {
    if (!v.is_object()) return type_error(d, path, "an object", v);
    for (const auto& [key, x] : v.items()) {
        const std::string f = path + "." + key;
        if (key == "max_model_len") get_int(x, c.max_model_len, d, f);
        else if (key == "default_max_model_len") get_int(x, c.default_max_model_len, d, f);
        else if (key == "source") get_str(x, c.source, d, f);
        else d.push_back({Severity::warning, "unknown_key", f, "unknown key " + text::quoted(key) + " ignored"});
    }
}

}  // namespace

void read_model(const json& j, ModelSpec& m, Diagnostics& d, const std::string& path) {
    if (!j.is_object()) return type_error(d, path, "an object", j);
    std::map<std::string, std::function<void(const json&, const std::string&)>> fields{
        {"id", [&](const json& v, const std::string& f) { get_str(v, m.id, d, f); }},
        {"display_name", [&](const json& v, const std::string& f) { get_str(v, m.display_name, d, f); }},
        {"family", [&](const json& v, const std::string& f) { get_str(v, m.family, d, f); }},
        {"model_type", [&](const json& v, const std::string& f) { get_str(v, m.model_type, d, f); }},
        {"hidden_size", [&](const json& v, const std::string& f) { get_int(v, m.hidden_size, d, f); }},
        {"num_hidden_layers", [&](const json& v, const std::string& f) { get_int(v, m.num_hidden_layers, d, f); }},
        {"num_attention_heads", [&](const json& v, const std::string& f) { get_int(v, m.num_attention_heads, d, f); }},
        {"linear_num_key_heads", [&](const json& v, const std::string& f) { get_int(v, m.linear_num_key_heads, d, f); }},
        {"linear_num_value_heads", [&](const json& v, const std::string& f) { get_int(v, m.linear_num_value_heads, d, f); }},
        {"linear_key_head_dim", [&](const json& v, const std::string& f) { get_int(v, m.linear_key_head_dim, d, f); }},
        {"linear_value_head_dim", [&](const json& v, const std::string& f) { get_int(v, m.linear_value_head_dim, d, f); }},
        {"linear_conv_kernel_dim", [&](const json& v, const std::string& f) { get_int(v, m.linear_conv_kernel_dim, d, f); }},
        {"num_experts", [&](const json& v, const std::string& f) { get_int(v, m.num_experts, d, f); }},
        {"num_experts_per_tok", [&](const json& v, const std::string& f) { get_int(v, m.num_experts_per_tok, d, f); }},
        {"max_position_embeddings", [&](const json& v, const std::string& f) { get_int(v, m.max_position_embeddings, d, f); }},
        {"calibrated", [&](const json& v, const std::string& f) { get_bool(v, m.calibrated, d, f); }},
        {"layers", [&](const json& v, const std::string& f) {
             if (!v.is_array()) return type_error(d, f, "an array", v);
             m.layers.clear();
             for (std::size_t i = 0; i < v.size(); ++i)
                 if (!read_layer(v[i], m.layers, d, f + "[" + std::to_string(i) + "]")) break;
         }},
        {"weights", [&](const json& v, const std::string& f) {
             if (!v.is_array()) return type_error(d, f, "an array", v);
             m.weights.clear();
             for (std::size_t i = 0; i < v.size(); ++i) {
                 const std::string p = f + "[" + std::to_string(i) + "]";
                 WeightsVariant w;
                 if (!v[i].is_object()) { type_error(d, p, "an object", v[i]); continue; }
                 if (v[i].contains("id")) get_str(v[i]["id"], w.id, d, p + ".id");
                 if (v[i].contains("size_gb")) get_num(v[i]["size_gb"], w.size_gb, d, p + ".size_gb");
                 if (v[i].contains("hf_repo")) get_str(v[i]["hf_repo"], w.hf_repo, d, p + ".hf_repo");
                 if (v[i].contains("source")) get_str(v[i]["source"], w.source, d, p + ".source");
                 if (v[i].contains("vllm_quantization"))
                     get_str(v[i]["vllm_quantization"], w.vllm_quantization, d, p + ".vllm_quantization");
                 if (v[i].contains("aliases")) {
                     const json& a = v[i]["aliases"];
                     if (!a.is_array()) type_error(d, p + ".aliases", "an array", a);
                     else
                         for (std::size_t k = 0; k < a.size(); ++k) {
                             std::string x;
                             if (get_str(a[k], x, d, p + ".aliases[" + std::to_string(k) + "]")) w.aliases.push_back(x);
                         }
                 }
                 m.weights.push_back(std::move(w));
             }
         }},
        {"drafters", [&](const json& v, const std::string& f) {
             if (!v.is_array()) return type_error(d, f, "an array", v);
             m.drafters.clear();
             for (std::size_t i = 0; i < v.size(); ++i) {
                 const std::string p = f + "[" + std::to_string(i) + "]";
                 Drafter x;
                 if (!v[i].is_object()) { type_error(d, p, "an object", v[i]); continue; }
                 if (v[i].contains("id")) get_str(v[i]["id"], x.id, d, p + ".id");
                 if (v[i].contains("method")) get_str(v[i]["method"], x.method, d, p + ".method");
                 if (v[i].contains("weights_gb")) get_num(v[i]["weights_gb"], x.weights_gb, d, p + ".weights_gb");
                 if (v[i].contains("num_speculative_tokens"))
                     get_int(v[i]["num_speculative_tokens"], x.num_speculative_tokens, d, p + ".num_speculative_tokens");
                 if (v[i].contains("source")) get_str(v[i]["source"], x.source, d, p + ".source");
                 if (v[i].contains("kv_extra_tokens_per_speculative_token"))
                     get_int(v[i]["kv_extra_tokens_per_speculative_token"], x.kv_extra_tokens_per_speculative_token, d,
                             p + ".kv_extra_tokens_per_speculative_token");
                 m.drafters.push_back(std::move(x));
             }
         }},
        {"measured_kv_growing_bytes_per_token_tp1_bf16", [&](const json& v, const std::string& f) {
             get_opt(v, m.measured_kv_growing_bytes_per_token_tp1_bf16, d, f);
         }},
        {"parallel_caches", [&](const json& v, const std::string& f) {
             if (!v.is_array()) return type_error(d, f, "an array", v);
             m.parallel_caches.clear();
             for (std::size_t i = 0; i < v.size(); ++i)
                 if (!read_layer(v[i], m.parallel_caches, d, f + "[" + std::to_string(i) + "]")) break;
         }},
        {"model_type", [&](const json& v, const std::string& f) { get_str(v, m.model_type, d, f); }},
        {"num_kv_shared_layers", [&](const json& v, const std::string& f) { get_int(v, m.num_kv_shared_layers, d, f); }},
        {"num_parameters", [&](const json& v, const std::string& f) { get_int(v, m.num_parameters, d, f); }},
        {"vocab_size", [&](const json& v, const std::string& f) { get_int(v, m.vocab_size, d, f); }},
        {"torch_dtype", [&](const json& v, const std::string& f) { get_str(v, m.torch_dtype, d, f); }},
        {"checkpoint_kv_cache_dtype",
         [&](const json& v, const std::string& f) { get_str(v, m.checkpoint_kv_cache_dtype, d, f); }},
        {"intermediate_size", [&](const json& v, const std::string& f) { get_int(v, m.intermediate_size, d, f); }},
        {"moe_intermediate_size", [&](const json& v, const std::string& f) { get_int(v, m.moe_intermediate_size, d, f); }},
        {"rotary_dim", [&](const json& v, const std::string& f) { get_int(v, m.rotary_dim, d, f); }},
        {"multimodal", [&](const json& v, const std::string& f) { get_bool(v, m.multimodal, d, f); }},
        {"encoder_parameters", [&](const json& v, const std::string& f) { get_int(v, m.encoder_parameters, d, f); }},
        {"mxfp4_experts", [&](const json& v, const std::string& f) { get_bool(v, m.mxfp4_experts, d, f); }},
        {"tie_word_embeddings", [&](const json& v, const std::string& f) { get_bool(v, m.tie_word_embeddings, d, f); }},
        {"gated_mlp", [&](const json& v, const std::string& f) { get_bool(v, m.gated_mlp, d, f); }},
        {"linear_weight_bytes", [&](const json& v, const std::string& f) { get_int(v, m.linear_weight_bytes, d, f); }},
        {"rope_cache_positions", [&](const json& v, const std::string& f) { get_int(v, m.rope_cache_positions, d, f); }},
        {"source", [&](const json& v, const std::string& f) { get_str(v, m.source, d, f); }},
        {"provenance", [&](const json& v, const std::string& f) {
             if (!v.is_array()) return type_error(d, f, "an array", v);
             m.provenance.clear();
             for (std::size_t i = 0; i < v.size(); ++i) {
                 const std::string p = f + "[" + std::to_string(i) + "]";
                 if (!v[i].is_object()) { type_error(d, p, "an object", v[i]); continue; }
                 Provenance x;
                 if (v[i].contains("fact")) get_str(v[i]["fact"], x.fact, d, p + ".fact");
                 if (v[i].contains("source")) get_str(v[i]["source"], x.source, d, p + ".source");
                 m.provenance.push_back(std::move(x));
             }
         }},
    };
    for (const EngineInfo& e : engines())  // each engine's derived context under its row's key
        fields[e.context_key] = [&m, &d, &e](const json& v, const std::string& f) {
            read_context(v, m.engine_context[engine_index(e.id)], d, f);
        };
    for (const auto& [k, v] : j.items()) {
        auto it = fields.find(k);
        if (it == fields.end()) {
            if (k != "valid_tensor_parallel_sizes")
                d.push_back({Severity::warning, "unknown_key", path + "." + k, "unknown key " + path + "." + k + " ignored"});
            continue;
        }
        it->second(v, path + "." + k);
    }
    if (m.num_hidden_layers == 0) m.num_hidden_layers = static_cast<int>(m.layers.size());
}

void read_scenario(const json& j, Scenario& s, Diagnostics& d) {
    if (!j.is_object()) return type_error(d, "", "a JSON object", j);
    if (j.contains("schema")) {
        const json& v = j["schema"];
        if (!v.is_number_integer() || v.get<std::int64_t>() != kSchemaVersion)
            d.push_back({Severity::error, "schema_unsupported", "schema",
                         "schema " + shown_value(v) + " is not supported; this build reads schema 1"});
    }
    if (j.contains("compose") && !j["compose"].is_null()) {
        std::string name;
        if (get_str(j["compose"], name, d, "compose")) {
            std::string model_hint;
            if (j.contains("model_id") && j["model_id"].is_string()) model_hint = j["model_id"].get<std::string>();
            else if (j.contains("model") && j["model"].is_string()) model_hint = j["model"].get<std::string>();
            const ComposePreset* p = find_preset(name, model_hint);
            if (!p) {
                std::string ids;
                for (const auto& x : compose_presets()) ids += (ids.empty() ? "" : ", ") + x.id;
                d.push_back({Severity::error, "compose_unknown", "compose",
                             "unknown or ambiguous compose " + text::quoted(name) + " (give \"<model>:<name>\"). Known: " + ids});
            } else {
                s = p->scenario;
            }
        }
    }
    for (const auto& [k, v] : j.items()) {
        if (k == "schema" || k == "compose" || is_request_key(k)) continue;  // read above / not Scenario fields
        if (k == "compose_source") {
            get_str(v, s.compose, d, k);
        } else if (k == "model") {
            if (v.is_string()) s.model_id = v.get<std::string>();
            else if (v.is_null()) s.model.reset();
            else {
                ModelSpec m;
                read_model(v, m, d, "model");
                s.model = std::move(m);
            }
        } else if (k == "config") {
            if (v.is_null()) s.config_json.clear();
            else if (v.is_object()) s.config_json = dump_safe(v);
            else type_error(d, "config", "a config.json object", v);
        } else if (k == "measured") {  // a calibrated scenario's terms (startup_calibration_json.h)
            MeasuredTerms m;
            if (v.is_null()) s.measured.reset();
            else if (read_measured_terms(v, m, d)) s.measured = m;
        } else if (const ScenarioField* f = find_scenario_field(k)) {
            read_field(*f, v, s, d);
        } else {
            d.push_back({Severity::warning, "unknown_key", k, "unknown key " + text::quoted(k) + " ignored"});
        }
    }
    // "model" as an id is the same key as "model_id": two different ids are a conflict, not a silent pick. (An
    // inline model object wins over model_id, which a Scenario document carries beside it.)
    if (j.contains("model_id") && j.contains("model") && j["model"].is_string() && j["model"] != j["model_id"])
        d.push_back({Severity::error, "model_conflict", "model",
                     "both model_id " + shown_value(j["model_id"]) + " and model " + shown_value(j["model"]) +
                         " name the model; give one of them"});
}

void from_json(const json& j, Scenario& s) {
    Diagnostics d;
    read_scenario(j, s, d);
    for (const auto& x : d)
        if (x.severity == Severity::error) throw std::invalid_argument(x.message);
}

namespace {

/// One layer cache → JSON: its "kind" tag and the kind's fields (the fact sheet's table, which read_layer reads).
json layer_json(const LayerCache& c) {
    json o{{"kind", layer_kind_json_name(c)}};
    for (const LayerField& f : layer_fields(c)) o[f.name] = f.get(c);
    return o;
}

/// Layers as runs: consecutive identical entries become one object with "count".
json layer_runs(const std::vector<LayerCache>& layers) {
    json out = json::array();
    for (std::size_t i = 0; i < layers.size();) {
        std::size_t n = 1;
        while (i + n < layers.size() && layers[i + n] == layers[i]) ++n;
        json l = layer_json(layers[i]);
        l["count"] = n;
        out.push_back(std::move(l));
        i += n;
    }
    return out;
}

}  // namespace

json layer_cache_json(const LayerCache& c) { return layer_json(c); }

void to_json(json& j, const ModelSpec& m) {
    json weights = json::array();
    for (const auto& w : m.weights) {
        weights.push_back({{"id", w.id}, {"size_gb", w.size_gb}, {"hf_repo", w.hf_repo}, {"aliases", w.aliases}, {"source", w.source}});
        if (!w.vllm_quantization.empty()) weights.back()["vllm_quantization"] = w.vllm_quantization;
    }
    json drafters = json::array();
    for (const auto& x : m.drafters)
        drafters.push_back({{"id", x.id}, {"method", x.method}, {"weights_gb", x.weights_gb},
                            {"num_speculative_tokens", x.num_speculative_tokens},
                            {"kv_extra_tokens_per_speculative_token", x.kv_extra_tokens_per_speculative_token},
                            {"source", x.source}});
    json prov = json::array();
    for (const auto& p : m.provenance) prov.push_back({{"fact", p.fact}, {"source", p.source}});
    j = json{{"id", m.id}, {"display_name", m.display_name}, {"family", m.family}, {"hidden_size", m.hidden_size},
             {"num_hidden_layers", m.num_hidden_layers}, {"num_attention_heads", m.num_attention_heads},
             {"linear_num_key_heads", m.linear_num_key_heads}, {"linear_num_value_heads", m.linear_num_value_heads},
             {"linear_key_head_dim", m.linear_key_head_dim}, {"linear_value_head_dim", m.linear_value_head_dim},
             {"linear_conv_kernel_dim", m.linear_conv_kernel_dim}, {"num_experts", m.num_experts},
             {"num_experts_per_tok", m.num_experts_per_tok}, {"max_position_embeddings", m.max_position_embeddings},
             {"calibrated", m.calibrated}, {"layers", layer_runs(m.layers)}, {"weights", weights},
             {"drafters", drafters}, {"source", m.source}, {"provenance", prov}, {"model_type", m.model_type},
             {"parallel_caches", layer_runs(m.parallel_caches)}, {"num_kv_shared_layers", m.num_kv_shared_layers},
             {"num_parameters", m.num_parameters}, {"vocab_size", m.vocab_size},
             {"intermediate_size", m.intermediate_size}, {"moe_intermediate_size", m.moe_intermediate_size},
             {"rotary_dim", m.rotary_dim}, {"multimodal", m.multimodal},
             {"encoder_parameters", m.encoder_parameters}, {"mxfp4_experts", m.mxfp4_experts},
             {"tie_word_embeddings", m.tie_word_embeddings}, {"gated_mlp", m.gated_mlp},
             {"linear_weight_bytes", m.linear_weight_bytes}, {"rope_cache_positions", m.rope_cache_positions}};
    if (m.measured_kv_growing_bytes_per_token_tp1_bf16)
        j["measured_kv_growing_bytes_per_token_tp1_bf16"] = *m.measured_kv_growing_bytes_per_token_tp1_bf16;
    // Engine rules key on it (llama.cpp's SWA cache, the traits table): a catalog entry posted back keeps it.
    if (!m.model_type.empty()) j["model_type"] = m.model_type;
    // kv_cache_dtype auto resolves from these, max_model_len 0 from the contexts: written when the model has them.
    if (!m.torch_dtype.empty()) j["torch_dtype"] = m.torch_dtype;
    if (!m.checkpoint_kv_cache_dtype.empty()) j["checkpoint_kv_cache_dtype"] = m.checkpoint_kv_cache_dtype;
    for (const EngineInfo& e : engines()) {
        const EngineContextLimit& c = m.engine_context[engine_index(e.id)];
        if (c != EngineContextLimit{})
            j[e.context_key] = json{{"max_model_len", c.max_model_len},
                                    {"default_max_model_len", c.default_max_model_len}, {"source", c.source}};
    }
}

void to_json(json& j, const Scenario& s) {
    j = json{{"schema", kSchemaVersion}};
    for (const ScenarioField& f : scenario_fields()) {
        if (f.type == FieldType::object) continue;  // the inline model, below
        if (std::string_view(f.name) == "compose") continue;  // written as the label "compose_source", below
        // A pasted config.json is large: only written when there is one.
        if (std::string_view(f.name) == "config_json" && s.config_json.empty()) continue;
        j[f.name] = field_json(f, s);
    }
    if (s.model) j["model"] = *s.model;
    if (s.measured) j["measured"] = *s.measured;
    // The scenario is already expanded: "compose" is informational only (reading it would re-apply the preset).
    if (!s.compose.empty()) j["compose_source"] = s.compose;
}

}  // namespace kvcalc

// Internal: a non-throwing reader of config.json keys that tries aliases, checks ranges and records provenance.
#pragma once
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include <nlohmann/json.hpp>

#include "kvcalc/base/diagnostic.h"
#include "kvcalc/base/model_spec.h"
#include "kvcalc/config/model_traits.h"

namespace kvcalc::hf {

/// Looks keys up first in the text sub-config (`text_config`, when present), then at the top level, and last in
/// the transformers defaults of the text model's config class (model_traits.h) — only when the key is absent
/// from both: an explicit null means None in transformers too, so it never takes the default.
/// Every accessor returns nullopt when no alias is present (JSON null counts as absent) and appends an error
/// diagnostic when a present value has the wrong type or lies outside [lo, hi].
class KeyReader {
public:
    KeyReader(const nlohmann::json& root, Diagnostics& diags, std::vector<Provenance>& provenance);

    std::optional<std::int64_t> integer(std::initializer_list<const char*> aliases, const char* fact,
                                        std::int64_t lo, std::int64_t hi);
    std::optional<double> number(std::initializer_list<const char*> aliases, const char* fact, double lo, double hi);
    std::optional<bool> boolean(std::initializer_list<const char*> aliases, const char* fact);
    std::optional<std::string> string(std::initializer_list<const char*> aliases, const char* fact);
    /// The raw value of the first alias present (for arrays / objects), with its key path in `path`.
    const nlohmann::json* raw(std::initializer_list<const char*> aliases, std::string& path) const;
    /// Key path prefix of the text sub-config ("text_config." or "").
    const std::string& prefix() const { return prefix_; }
    /// model_type of the text model: the sub-config's own, else the wrapper's inner default (LLaVA → llama),
    /// else the top-level one. Empty when the file names none.
    const std::string& text_model_type() const { return text_model_type_; }
    /// Traits of text_model_type(), nullptr when kvcalc has no row for it.
    const ModelTypeTraits* traits() const { return traits_; }
    /// Keys whose value came from the config class's defaults, in the order they were first read.
    const std::vector<std::string>& defaults_used() const { return defaults_used_; }
    /// True when `key` is spelled in the file (even as null).
    bool present(const char* key) const;

    void error(const std::string& code, const std::string& field, const std::string& message);
    void warning(const std::string& code, const std::string& field, const std::string& message);
    void info(const std::string& code, const std::string& field, const std::string& message);
    void note_source(const std::string& fact, const std::string& source);
    /// The source last noted for `fact`, empty when none (an error can then name the key that decided it).
    std::string noted_source(const std::string& fact) const;
    /// Key paths whose value was Infinity / -Infinity / NaN in the text (hf_config_json.h reads them as null).
    /// integer() and number() report such a key as invalid, naming the token, instead of as absent.
    void set_non_finite(std::unordered_map<std::string, std::string> path_and_token) {
        non_finite_ = std::move(path_and_token);
    }

private:
    /// The error for the first alias whose value was a non-finite token; false when there is none.
    bool report_non_finite(std::initializer_list<const char*> aliases, const std::string& expected);
    std::unordered_map<std::string, std::string> non_finite_;  ///< path → token, looked up per read key
    const nlohmann::json* find(const char* key, std::string& path) const;
    std::string source_of(const std::string& path) const;
    const nlohmann::json& root_;
    std::string text_model_type_;
    const ModelTypeTraits* traits_ = nullptr;
    nlohmann::json defaults_ = nlohmann::json::object();
    mutable std::vector<std::string> defaults_used_;
    const nlohmann::json* text_;  // text_config object or &root_
    std::string prefix_;
    Diagnostics& diags_;
    std::vector<Provenance>& provenance_;
};

}  // namespace kvcalc::hf

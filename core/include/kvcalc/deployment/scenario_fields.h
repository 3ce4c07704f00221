// The scenario fields: one row per Scenario member with its JSON name, type, valid range or choices, default, URL
// key, CLI flag and help. The JSON reader and writer, the URL codec, the CLI flags, resolve()'s range checks and
// the generated docs (docs/SCHEMA.md, docs/URL.md, docs/CLI.md) all iterate this one table, so a range or a
// spelling cannot differ between them.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "kvcalc/base/diagnostic.h"
#include "kvcalc/base/scenario.h"

namespace kvcalc {

/// How a field's value is written. `choice` is a string from a list (catalog ids, KV formats, engines);
/// `text` is free text checked later against the model (weights variant, drafter id); `object` is JSON only.
enum class FieldType { integer, number, boolean, text, choice, object };

/// Pointer to the Scenario member a row reads and writes.
using FieldMember =
    std::variant<std::string Scenario::*, int Scenario::*, std::int64_t Scenario::*, double Scenario::*,
                 bool Scenario::*, std::optional<double> Scenario::*, std::optional<std::int64_t> Scenario::*,
                 std::optional<int> Scenario::*, std::optional<bool> Scenario::*, std::optional<ModelSpec> Scenario::*>;

/// A choice field's list. `canonical` is the field's normaliser: the value in kvcalc's spelling when it names a
/// valid choice in any spelling kvcalc accepts (any case; the engines' own names, e.g. vLLM's "bfloat16"), nullopt
/// when it names none. The same look-up resolve() uses. `list` names the valid values.
struct FieldChoices {
    std::optional<std::string> (*canonical)(std::string_view value) = nullptr;
    std::string (*list)() = nullptr;
};

/// One scenario field. Ranges are inclusive (`min_open`: min itself is excluded) and hold for every engine;
/// where 0 is a sentinel (`zero_means`), 0 is valid besides [min, max] — resolve() adds the engine rule on top
/// (0 = vLLM's default is vLLM only).
struct ScenarioField {
    const char* name;          ///< JSON key and Scenario member ("max_model_len")
    const char* group;         ///< heading in --help and the docs ("Serving")
    FieldType type;
    FieldMember member;
    double min = 0, max = 0;   ///< integer / number fields
    bool min_open = false;     ///< number fields: min is excluded ("> 0")
    const char* zero_means = "";  ///< e.g. "vLLM's default for the card"; "" = 0 is only valid inside the range
    const char* unit = "";     ///< "tokens", "decimal GB per card"; text fields: what the text names
    const char* default_text;  ///< the default as docs show it ("180000", "unset")
    const char* url_key;       ///< short link key ("ctx"); "" = not carried by links
    const char* cli_flag;      ///< vLLM's spelling where it has one ("--max-model-len"); "" = no flag
    /// Other spellings that work too: kvcalc's older names ("--max-ctx") and the same setting in SGLang
    /// (--context-length, --tp-size, --mem-fraction-static, --max-running-requests) or llama.cpp (-np, --parallel;
    /// not -c, which is the total of all sequences).
    std::vector<const char*> cli_aliases = {};
    const char* metavar;       ///< "TOKENS"; "" = the flag takes no value (boolean: sets true)
    const char* help;          ///< one line: meaning and source
    FieldChoices choices = {};  ///< choice fields only
};

/// Every Scenario field, in link order (keys are written in this order; never reorder, append new rows).
const std::vector<ScenarioField>& scenario_fields();
/// The row named `name` (JSON key), nullptr when none.
const ScenarioField* find_scenario_field(std::string_view name);

/// kv_cache_dtype's normaliser: kvcalc's format name (or "auto") for any case of kvcalc's names and of the engines'
/// own spellings — vLLM's --kv-cache-dtype (vllm/config/cache.py CacheDType: float16, bfloat16, fp8 = fp8_e4m3,
/// turboquant_k8v4), SGLang's (server_args.py: bf16, bfloat16, fp8_e5m2, fp8_e4m3) and llama.cpp's -ctk/-ctv
/// (common/arg.cpp: f16, bf16, q8_0, q4_0, q4_1, q5_0, q5_1, iq4_nl); nullopt for anything else. Every engine's
/// spellings are accepted whatever the engine (no two engines use one name for different formats).
std::optional<std::string> canonical_kv_cache_dtype(std::string_view value);

/// A choice field's value in kvcalc's spelling (FieldChoices::canonical); the text unchanged when the field is not a
/// choice or the value names no choice (resolve() then reports it with the valid list).
std::string canonical_choice(const ScenarioField& field, std::string_view value);

/// What is valid for a field, the same words in every front end: "an integer 1..134217728 (tokens)",
/// "a number in (0, 1], or 0 = the vLLM version's default", "one of vllm, llama.cpp, sglang".
std::string field_valid_text(const ScenarioField& field);

/// True when `value` is valid for an integer or number field (finite; in range, or 0 when zero_means is set).
bool field_number_ok(const ScenarioField& field, double value);

/// Outcome of setting a field from text (a link value, a flag value).
enum class FieldTextStatus { ok, not_a_value, out_of_range, not_a_choice };

/// Parses `text` as the field's type and sets the member when it is valid; otherwise leaves `s` untouched.
/// Integers: optional '-', digits (beyond int64 is out_of_range, not "not an integer"). Numbers: plain decimal
/// with an optional exponent, finite. Booleans: "1"/"0" (`words`: also "true"/"false"). Choices: the row's list in
/// any accepted spelling, stored in kvcalc's (canonical_choice); an empty choice is accepted (= the default
/// meaning, e.g. the newest vLLM era).
FieldTextStatus set_field_from_text(const ScenarioField& field, std::string_view text, Scenario& s, bool words = false);

/// "is not an integer", "is out of range", "is not one of the valid values".
const char* field_status_text(const ScenarioField& field, FieldTextStatus status);

/// The value of a field as link / flag text ("0.82", "1" for true); nullopt when an optional is unset.
std::optional<std::string> field_text(const ScenarioField& field, const Scenario& s);
/// True when the field equals a default Scenario's (an optional: unset).
bool field_is_default(const ScenarioField& field, const Scenario& s);

/// Range checks of every integer and number field of `s` (errors "out_of_range" naming the field, the value and
/// field_valid_text). Engine-independent: resolve() adds the vLLM-only sentinels and the cross-field rules.
void check_scenario_fields(const Scenario& s, Diagnostics& diagnostics);

/// "max_model_len = 0 is out of range; expected an integer 1..134217728 (tokens)".
std::string field_range_message(const ScenarioField& field, const std::string& value_text);

/// A number as the shortest plain decimal that reads back as exactly `x` (no exponent: links never need '+').
std::string format_field_number(double x);

}  // namespace kvcalc

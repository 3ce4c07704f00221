// The weights formats a model can be priced in, and what the start command then serves: the page's weights-format
// control renders this list (one rule, here; the CLI's --weights-dtype / --weights-variant take the same values).
#pragma once
#include <array>
#include <string>
#include <string_view>
#include <vector>

#include "kvcalc/base/scenario.h"

namespace kvcalc {

/// The formats offered for every model, "auto" (the checkpoint's own) first.
inline constexpr std::array<std::string_view, 7> kWeightsFormats = {"auto", "bf16", "fp8", "int8",
                                                                    "int4", "nvfp4", "mxfp4"};

/// One weights format for the scenario's model.
struct WeightsFormatOption {
    std::string format;           ///< one of kWeightsFormats
    bool available = false;
    std::string weights_dtype;    ///< what Scenario::weights_dtype becomes (config.json and popular models)
    std::string weights_variant;  ///< what Scenario::weights_variant becomes (calibrated catalog models)
    std::string priced_as;        ///< the dtype or variant id priced ("bf16" for auto on a bf16 checkpoint)
    double size_gb = 0.0;         ///< checkpoint weights priced, decimal GB (all cards)
    /// What `vllm serve` names: a repo holding the format ("Qwen/Qwen3-32B-AWQ"), the original repo with the flag
    /// that makes it ("Qwen/Qwen3-32B --quantization fp8"), or a placeholder ("<Qwen/Qwen3-32B-int8-checkpoint>")
    /// when kvcalc knows no repo holding it.
    std::string serves;
    std::string reason;           ///< why it is not available (the core's own error)
};

/// kWeightsFormats for the scenario's model: a config.json or popular catalog model re-prices each format from its
/// parameter count (Scenario::weights_dtype, estimate_weights; auto = the checkpoint's own tensors when a
/// safetensors index is given) and serves the catalog's repo for it (popular_format_repo); a calibrated catalog
/// model offers the variants it lists (Scenario::weights_variant), matched by the format in the variant's id or
/// aliases (awq / gptq / w4a16 → int4, w8a8 → int8). mxfp4 is priced on routed experts only (gpt-oss's layout),
/// so a model without experts does not offer it. `only` (a format) returns that one row alone (a search row prices
/// one format of many models).
std::vector<WeightsFormatOption> weights_format_options(const Scenario& s, std::string_view only = {});

/// The format the scenario prices now: weights_dtype when set (not "auto"), else the format of the chosen
/// variant for a calibrated model ("auto" when none is chosen or its id names no format), else "auto".
std::string current_weights_format(const Scenario& s);

/// The format a word of a search names, any case: "4-bit", "4bit", "int4", "awq", "gptq", "w4a16" → "int4";
/// "8-bit", "int8", "w8a8" → "int8"; "fp8"; "fp4", "nvfp4" → "nvfp4"; "mxfp4"; "bf16", "16-bit" → "bf16";
/// "" for any other word.
std::string weights_format_word(std::string_view word);

/// Sets weights_dtype and weights_variant to what `option` says (clears weights_gb, which would override it).
void apply_weights_format(Scenario& s, const WeightsFormatOption& option);

}  // namespace kvcalc

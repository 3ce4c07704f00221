// Diagnostics: how the core reports problems without throwing across its API.
#pragma once
#include <string>
#include <vector>

namespace kvcalc {

/// How bad a problem is. `error` means the result it accompanies must not be used.
enum class Severity { info, warning, error };

/// One problem found while reading input or computing a result.
/// `code` is a stable machine-readable slug (e.g. "tp_not_divisor"), `field` the path of the offending
/// input ("tensor_parallel_size", "text_config.num_key_value_heads"), `message` a sentence for people that
/// names the value and what would be valid.
struct Diagnostic {
    Severity severity = Severity::error;
    std::string code;
    std::string field;
    std::string message;
};

using Diagnostics = std::vector<Diagnostic>;

/// True when any diagnostic in `d` is an error. Inline: predict() asks it of an empty list at every step.
inline bool has_error(const Diagnostics& d) {
    for (const Diagnostic& x : d)
        if (x.severity == Severity::error) return true;
    return false;
}

}  // namespace kvcalc

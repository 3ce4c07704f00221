// The kvcalc flag table: one row per flag drives both parsing and --help, so they cannot drift.
#pragma once
#include <string>
#include <string_view>
#include <vector>

#include "options.h"

namespace kvcli {

/// Parses argv (without argv[0]). Accepts "--flag value" and "--flag=value". Never throws.
/// Errors name the flag, the value and what is valid; an unknown flag suggests the closest known one.
ParseResult parse_args(const std::vector<std::string>& args);

/// The --help text: usage, every flag with its units and default, exit codes.
std::string help_text();

/// The command-line flag that sets a Scenario field ("max_model_len" → "--max-ctx"); empty when none.
std::string flag_for_field(std::string_view field);

}  // namespace kvcli

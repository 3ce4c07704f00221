// "Did you mean": the one rule that picks a known name for a mistyped one (flags, catalog ids, presets), so the CLI,
// the JSON reader and the page suggest the same thing for the same typo.
#pragma once
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace kvcalc {

/// Edits between `a` and `b`, ignoring ASCII case: insert, delete, replace one character, or swap two adjacent
/// characters (optimal string alignment distance: "--modle" is one edit from "--model", not two).
std::size_t typo_distance(std::string_view a, std::string_view b);

/// The candidate nearest to `typed`, or "" when none is near enough to be a typo: at most one edit, or one edit
/// per three letters for longer names (letters = characters after the leading dashes; one-letter names get no
/// suggestion: every other one-letter flag is one edit away), so "--modle" → "--model",
/// "rtx-3009" → "rtx-3090", "--max-ctxx" → "--max-ctx", and "--frob" suggests nothing. Ties go to the earlier
/// candidate; an exact (case-insensitive) match is returned as is.
std::string closest_name(std::string_view typed, const std::vector<std::string>& candidates);

/// The items of a ", "-separated list ("a, b, c" → {"a", "b", "c"}), as field_valid_text's choice lists read.
std::vector<std::string> split_list(std::string_view list);

}  // namespace kvcalc

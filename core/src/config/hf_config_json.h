// Internal: reading config.json text the way the Hub writes it (Python's json module), not only strict JSON.
#pragma once
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace kvcalc::hf {

/// One non-standard number token replaced before parsing.
struct ReplacedToken {
    std::string path;   ///< key path of the value, e.g. "time_step_limit[1]" or "text_config.x"
    std::string token;  ///< "Infinity", "-Infinity" or "NaN"
};

/// Python's json.dumps writes float('inf') and float('nan') as the bare words Infinity, -Infinity and NaN
/// (json module docs, allow_nan=True is the default), so Hub files such as nvidia/Nemotron-H-56B-Base-8K carry
/// them; RFC 8259 JSON has no such tokens and nlohmann/json rejects them. Returns `text` with each such token
/// outside a string replaced by `null` (so the key reads as absent), and lists where each one was.
/// Everything else is left for the strict parser to judge.
std::string replace_non_finite_tokens(std::string_view text, std::vector<ReplacedToken>& replaced);

/// Keys spelled twice in one object of `text` (JSON that parses): how many, and the key path of the first. RFC 8259
/// leaves duplicates undefined; Python's json and nlohmann/json keep the last, so the file's reader may see a
/// different value than its author. One pass, one set of keys per open object.
struct DuplicateKeys {
    std::size_t count = 0;
    std::string first_path;
};
DuplicateKeys find_duplicate_keys(std::string_view text);

}  // namespace kvcalc::hf

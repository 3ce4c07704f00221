// Internal: reading config.json text the way the Hub writes it (Python's json module), not only strict JSON.
#pragma once
#include <cstddef>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include <nlohmann/json.hpp>

namespace kvcalc::hf {

/// One non-standard number token replaced before parsing.
struct ReplacedToken {
    std::string path;   ///< key path of the value, e.g. "time_step_limit[1]" or "text_config.x"
    std::string token;  ///< "Infinity", "-Infinity" or "NaN"
};

/// What replace_non_finite_tokens found, kept bounded: a file of a million NaN array elements costs a count,
/// not a million path strings.
struct NonFiniteTokens {
    /// How many non-finite tokens the text held.
    std::size_t count = 0;
    /// The first kKeptInOrder of them, in file order (the warnings name these).
    static constexpr std::size_t kKeptInOrder = 5;
    std::vector<ReplacedToken> first;
    /// Object members whose value was such a token: path → token, the first per path. Array elements are left
    /// out: the config reader looks up keys, never array positions, so only members can explain a missing key.
    std::unordered_map<std::string, std::string> members;
};

/// Python's json.dumps writes float('inf') and float('nan') as the bare words Infinity, -Infinity and NaN
/// (json module docs, allow_nan=True is the default), so Hub files such as nvidia/Nemotron-H-56B-Base-8K carry
/// them; RFC 8259 JSON has no such tokens and nlohmann/json rejects them. Returns `text` with each such token
/// outside a string replaced by `null` (so the key reads as absent), and records where they were in `found`.
/// Everything else is left for the strict parser to judge. One pass; work and memory linear in the text.
std::string replace_non_finite_tokens(std::string_view text, NonFiniteTokens& found);

/// Keys spelled twice in one object: how many, and the key path of the first. RFC 8259 leaves duplicates
/// undefined; Python's json and nlohmann/json keep the last, so the file's reader may see a different value than
/// its author.
struct DuplicateKeys {
    std::size_t count = 0;
    std::string first_path;
};

/// Most object keys a config.json may hold. The largest real one kvcalc has seen holds 1,154
/// (nvidia/Llama-3_3-Nemotron-Super-49B-v1, one block_configs entry per layer); the DOM of 300,000 keys costs
/// about 1.5 s, so past this the file is refused before it is built (docs/CONFIG_JSON.md "Limits").
inline constexpr std::size_t kMaxConfigKeys = 50000;

/// A parsed document and the duplicate keys seen while parsing it.
struct ParsedJson {
    nlohmann::json root;  ///< discarded (is_discarded()) when the text is not JSON or holds too many keys
    DuplicateKeys duplicates;
    bool too_many_keys = false;  ///< parsing stopped at key kMaxConfigKeys + 1
};

/// Parses strict JSON text into a DOM and finds duplicate keys in the same pass (one key set per open object),
/// so a large file is read once; stops at more than kMaxConfigKeys keys. Never throws.
ParsedJson parse_counting_duplicates(std::string_view text);

}  // namespace kvcalc::hf

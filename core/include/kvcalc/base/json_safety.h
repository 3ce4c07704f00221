// Guards for JSON that crosses a boundary (requests, config.json files, reports leaving the core).
#pragma once
#include <nlohmann/json.hpp>

#include <string>
#include <string_view>

#include "kvcalc/base/echo.h"

namespace kvcalc {

/// Deepest array/object nesting kvcalc accepts in a document. Real config.json files nest 3–4 levels; the
/// limit keeps recursive printing and destruction far from the stack's end (native and wasm).
inline constexpr int kMaxJsonDepth = 64;

/// True when `text` nests arrays/objects deeper than `max_depth` (brackets inside strings do not count).
/// O(n), no allocation; run it before json::parse on anything a user supplied.
bool json_too_deep(std::string_view text, int max_depth = kMaxJsonDepth);

/// Why `text` is not JSON, for a diagnostic: where (line, column or byte) and what the parser met, e.g. a number
/// beyond a double's range (1e400, with the key it is the value of) or a missing comma; UTF-16 / UTF-32 text is
/// named as such (JSON must be UTF-8, RFC 8259 section 8.1). Empty when `text` parses. No exceptions are thrown.
std::string json_error_detail(std::string_view text);

/// Serialises `j`; invalid UTF-8 in strings (e.g. a model id typed as raw bytes) becomes U+FFFD instead of
/// throwing, and Unicode bidi controls (U+061C, U+200E/F, U+202A–E, U+2066–9) are written as \uXXXX escapes.
/// `indent` as in nlohmann::json::dump (-1 = compact).
std::string dump_safe(const nlohmann::json& j, int indent = -1);

/// A value as short text for a diagnostic: at most `max_chars` bytes of its JSON (dump_safe, cut at a UTF-8
/// boundary), then "…".
std::string shown_value(const nlohmann::json& v, std::size_t max_chars = kMaxEchoBytes);

}  // namespace kvcalc

// How much of a user's value a message repeats: one limit and one cut for the core's diagnostics and the front
// ends' own errors, so a 4 MB value costs a short message.
#pragma once
#include <cstddef>
#include <string>
#include <string_view>

namespace kvcalc {

/// Longest piece of a user's value a message repeats, in bytes.
inline constexpr std::size_t kMaxEchoBytes = 64;

/// `value` for a message: its first kMaxEchoBytes bytes (cut at a UTF-8 boundary) then "…" when longer, with each
/// Unicode bidi control (U+061C, U+200E/F, U+202A–E, U+2066–9) replaced by '?'. No quotes are added.
std::string echo_cut(std::string_view value);

}  // namespace kvcalc

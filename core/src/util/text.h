// Small private text helpers shared by the core's .cpp files (not part of the public API).
#pragma once
#include <string>
#include <string_view>

namespace kvcalc::text {

/// ASCII lower case (locale-free and inlined: look-ups run on every prediction).
constexpr char lower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }

/// Case-insensitive ASCII equality.
constexpr bool iequal(std::string_view a, std::string_view b) {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i)
        if (lower(a[i]) != lower(b[i])) return false;
    return true;
}

/// Longest piece of a user's value an error message repeats.
inline constexpr std::size_t kMaxEchoBytes = 64;

/// `s` in double quotes for an error message; past kMaxEchoBytes its first 64 bytes (cut at a UTF-8 boundary)
/// + "…" and the full size, e.g. "\"llama-…\" (7340032 bytes)", so a 7 MiB value costs a 100-byte message.
inline std::string quoted(std::string_view s) {
    std::size_t cut = s.size();
    if (cut > kMaxEchoBytes) {
        cut = kMaxEchoBytes;
        while (cut > 0 && (static_cast<unsigned char>(s[cut]) & 0xC0) == 0x80) --cut;  // not inside a character
    }
    std::string out;
    out.reserve(cut + 32);
    out.push_back('"');
    out.append(s.data(), cut);
    if (cut == s.size()) {
        out.push_back('"');
    } else {
        out.append("…\" (");
        out.append(std::to_string(s.size()));
        out.append(" bytes)");
    }
    return out;
}

/// The parts joined in one allocation (an operator+ chain allocates a growing temporary at each step).
template <class... Parts>
std::string cat(const Parts&... parts) {
    std::string out;
    out.reserve((std::string_view(parts).size() + ...));
    (out.append(std::string_view(parts)), ...);
    return out;
}

}  // namespace kvcalc::text

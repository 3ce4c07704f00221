// Small private text helpers shared by the core's .cpp files (not part of the public API).
#pragma once
#include <cstddef>
#include <string>
#include <string_view>

#include "kvcalc/base/echo.h"

namespace kvcalc::text {

/// The fewest decimals that read back as `x` exactly ("7.5", "12", "0.1"), %.17g past 17 of them. Written by hand
/// because Emscripten's libc++ has no floating-point std::to_chars. text.cpp.
std::string shortest_decimal(double x);

/// ASCII lower case (locale-free and inlined: look-ups run on every prediction).
constexpr char lower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }

/// Case-insensitive ASCII equality.
constexpr bool iequal(std::string_view a, std::string_view b) {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i)
        if (lower(a[i]) != lower(b[i])) return false;
    return true;
}

/// Byte length of the Unicode bidirectional formatting control starting at s[i] (U+061C, U+200E, U+200F,
/// U+202A–U+202E, U+2066–U+2069, Unicode UAX #9 "explicit formatting"), or 0. Echoed into a terminal, an SVG or
/// a page they reorder the text around them (CVE-2021-42574, "Trojan Source").
constexpr std::size_t bidi_control_at(std::string_view s, std::size_t i) {
    const auto b = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
    if (i + 1 < s.size() && b(i) == 0xD8 && b(i + 1) == 0x9C) return 2;
    if (i + 2 >= s.size() || b(i) != 0xE2) return 0;
    const unsigned char b1 = b(i + 1), b2 = b(i + 2);
    if (b1 == 0x80 && (b2 == 0x8E || b2 == 0x8F || (b2 >= 0xAA && b2 <= 0xAE))) return 3;
    if (b1 == 0x81 && b2 >= 0xA6 && b2 <= 0xA9) return 3;
    return 0;
}

/// `s` with each bidi control (bidi_control_at) replaced by '?', as the CLI replaces C0 and C1 controls.
inline std::string without_bidi(std::string_view s) {
    std::string out;
    out.reserve(s.size());
    for (std::size_t i = 0; i < s.size();) {
        if (const std::size_t n = bidi_control_at(s, i)) {
            out.push_back('?');
            i += n;
        } else {
            out.push_back(s[i++]);
        }
    }
    return out;
}


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
    out.append(without_bidi(s.substr(0, cut)));
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

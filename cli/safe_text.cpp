#include "safe_text.h"

namespace kvcli {

namespace {

// Length of the valid UTF-8 sequence starting at s[i] (RFC 3629: no overlongs, no surrogates, ≤ U+10FFFF), or 0.
std::size_t utf8_length(std::string_view s, std::size_t i) {
    const auto b = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
    const unsigned char c = b(i);
    std::size_t n = 0;
    unsigned char lo = 0x80, hi = 0xBF;  // allowed range of the second byte
    if (c >= 0xC2 && c <= 0xDF) n = 2;
    else if (c == 0xE0) n = 3, lo = 0xA0;
    else if (c >= 0xE1 && c <= 0xEC) n = 3;
    else if (c == 0xED) n = 3, hi = 0x9F;
    else if (c >= 0xEE && c <= 0xEF) n = 3;
    else if (c == 0xF0) n = 4, lo = 0x90;
    else if (c >= 0xF1 && c <= 0xF3) n = 4;
    else if (c == 0xF4) n = 4, hi = 0x8F;
    else return 0;
    if (i + n > s.size()) return 0;
    if (b(i + 1) < lo || b(i + 1) > hi) return 0;
    for (std::size_t k = 2; k < n; ++k)
        if (b(i + k) < 0x80 || b(i + k) > 0xBF) return 0;
    return n;
}

/// The valid n-byte sequence at s[i] is a Unicode bidi formatting control (UAX #9: U+061C, U+200E, U+200F,
/// U+202A–U+202E, U+2066–U+2069), which reorders the text shown around it ("Trojan Source", CVE-2021-42574).
bool is_bidi_control(std::string_view s, std::size_t i, std::size_t n) {
    const auto b = [&](std::size_t k) { return static_cast<unsigned char>(s[i + k]); };
    if (n == 2) return b(0) == 0xD8 && b(1) == 0x9C;
    if (n != 3 || b(0) != 0xE2) return false;
    if (b(1) == 0x80) return b(2) == 0x8E || b(2) == 0x8F || (b(2) >= 0xAA && b(2) <= 0xAE);
    return b(1) == 0x81 && b(2) >= 0xA6 && b(2) <= 0xA9;
}

}  // namespace

std::string safe_text(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    for (std::size_t i = 0; i < text.size();) {
        const auto c = static_cast<unsigned char>(text[i]);
        if (c < 0x80) {
            out += (c < 0x20 && c != '\n') || c == 0x7f ? '?' : static_cast<char>(c);
            ++i;
            continue;
        }
        const std::size_t n = utf8_length(text, i);
        if (n == 0) {
            out += '?';
            ++i;
        } else if (n == 2 && c == 0xC2 && static_cast<unsigned char>(text[i + 1]) < 0xA0) {
            out += '?';  // C1 control U+0080–U+009F
            i += 2;
        } else if (is_bidi_control(text, i, n)) {
            out += '?';
            i += n;
        } else {
            out.append(text.substr(i, n));
            i += n;
        }
    }
    return out;
}

}  // namespace kvcli

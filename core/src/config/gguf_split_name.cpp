// Split GGUF file names (gguf.h): NAME-0000K-of-0000N.gguf, read by hand (no <regex>: it would add a regex engine
// to the page's wasm for one fixed pattern).
#include <cctype>
#include <cstdio>

#include "kvcalc/config/gguf.h"

namespace kvcalc {

namespace {

/// The five decimal digits at `at`, or -1.
int five_digits(std::string_view s, std::size_t at) {
    if (at + 5 > s.size()) return -1;
    int v = 0;
    for (std::size_t i = at; i < at + 5; ++i) {
        if (!std::isdigit(static_cast<unsigned char>(s[i]))) return -1;
        v = v * 10 + (s[i] - '0');
    }
    return v;
}

bool ends_with_gguf(std::string_view s) {
    constexpr std::string_view ext = ".gguf";
    if (s.size() < ext.size()) return false;
    for (std::size_t i = 0; i < ext.size(); ++i)
        if (std::tolower(static_cast<unsigned char>(s[s.size() - ext.size() + i])) != ext[i]) return false;
    return true;
}

}  // namespace

GgufSplitName parse_gguf_split_name(std::string_view name) {
    // "-KKKKK-of-NNNNN.gguf" is 20 characters at the end of the name.
    constexpr std::size_t kTail = 20;
    if (name.size() < kTail || !ends_with_gguf(name)) return {};
    const std::size_t at = name.size() - kTail;
    if (name[at] != '-' || name.substr(at + 6, 4) != "-of-") return {};
    const int part = five_digits(name, at + 1), count = five_digits(name, at + 10);
    if (part < 1 || count < 1 || part > count) return {};
    return {std::string(name.substr(0, at)), part, count};
}

std::string gguf_split_part_name(const std::string& stem, int part, int count) {
    char tail[40];
    std::snprintf(tail, sizeof tail, "-%05d-of-%05d.gguf", part, count);
    return stem + tail;
}

}  // namespace kvcalc

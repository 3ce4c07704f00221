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

/// The parts joined in one allocation (an operator+ chain allocates a growing temporary at each step).
template <class... Parts>
std::string cat(const Parts&... parts) {
    std::string out;
    out.reserve((std::string_view(parts).size() + ...));
    (out.append(std::string_view(parts)), ...);
    return out;
}

}  // namespace kvcalc::text

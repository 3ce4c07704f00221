// Typo distance and the "did you mean" rule (suggest.h).
#include "kvcalc/deployment/suggest.h"

#include <algorithm>
#include <limits>

namespace kvcalc {

namespace {

char lower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }

}  // namespace

std::size_t typo_distance(std::string_view a, std::string_view b) {
    // Three rows of the optimal-string-alignment table: two back for the swap of adjacent characters.
    const std::size_t n = b.size();
    std::vector<std::size_t> before(n + 1), prev(n + 1), cur(n + 1);
    for (std::size_t j = 0; j <= n; ++j) prev[j] = j;
    for (std::size_t i = 1; i <= a.size(); ++i) {
        cur[0] = i;
        for (std::size_t j = 1; j <= n; ++j) {
            const bool same = lower(a[i - 1]) == lower(b[j - 1]);
            cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (same ? 0 : 1)});
            if (i > 1 && j > 1 && lower(a[i - 1]) == lower(b[j - 2]) && lower(a[i - 2]) == lower(b[j - 1]))
                cur[j] = std::min(cur[j], before[j - 2] + 1);
        }
        std::swap(before, prev);
        std::swap(prev, cur);
    }
    return prev[n];
}

std::string closest_name(std::string_view typed, const std::vector<std::string>& candidates) {
    std::string best;
    std::size_t best_d = std::numeric_limits<std::size_t>::max();
    for (const auto& c : candidates) {
        const std::size_t d = typo_distance(typed, c);
        if (d < best_d) best_d = d, best = c;
    }
    const std::size_t dashes = std::min(typed.find_first_not_of('-'), typed.size());
    const std::size_t letters = typed.size() - dashes;
    const std::size_t allowed = std::max<std::size_t>(1, letters / 3);
    return letters >= 2 && best_d <= allowed ? best : std::string();
}

std::vector<std::string> split_list(std::string_view list) {
    std::vector<std::string> out;
    while (!list.empty()) {
        const std::size_t comma = list.find(',');
        std::string_view item = list.substr(0, comma);
        while (!item.empty() && item.front() == ' ') item.remove_prefix(1);
        while (!item.empty() && item.back() == ' ') item.remove_suffix(1);
        if (!item.empty()) out.emplace_back(item);
        if (comma == std::string_view::npos) break;
        list.remove_prefix(comma + 1);
    }
    return out;
}

}  // namespace kvcalc

#include "kvcalc/json_safety.h"

namespace kvcalc {

bool json_too_deep(std::string_view text, int max_depth) {
    int depth = 0;
    bool in_string = false;
    bool escaped = false;
    for (const char c : text) {
        if (in_string) {
            if (escaped) escaped = false;
            else if (c == '\\') escaped = true;
            else if (c == '"') in_string = false;
            continue;
        }
        if (c == '"') {
            in_string = true;
        } else if (c == '[' || c == '{') {
            if (++depth > max_depth) return true;
        } else if (c == ']' || c == '}') {
            --depth;
        }
    }
    return false;
}

std::string dump_safe(const nlohmann::json& j, int indent) {
    return j.dump(indent, ' ', false, nlohmann::json::error_handler_t::replace);
}

std::string shown_value(const nlohmann::json& v, std::size_t max_chars) {
    std::string s = dump_safe(v);
    if (s.size() > max_chars) s = s.substr(0, max_chars) + "…";
    return s;
}

}  // namespace kvcalc

// The start-up log reader's line cleaner and number scanner, shared by the three engine grammars.
#include <cstdlib>
#include <string>

#include "io/startup_log_internal.h"

namespace kvcalc::startup_log {
namespace {

bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_alpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
bool is_name_char(char c) { return is_alpha(c) || is_digit(c) || c == '_' || c == '-' || c == '.'; }

/// Drops CR, ANSI escape sequences (ESC '[' ... final byte, or ESC + one byte) and other control bytes; a tab
/// becomes a space.
std::string strip_controls(std::string_view raw) {
    std::string out;
    out.reserve(raw.size());
    for (std::size_t i = 0; i < raw.size(); ++i) {
        const unsigned char c = static_cast<unsigned char>(raw[i]);
        if (c == 0x1B) {
            if (i + 1 < raw.size() && raw[i + 1] == '[') {
                i += 2;
                while (i < raw.size() && !(raw[i] >= 0x40 && raw[i] <= 0x7E)) ++i;
            } else {
                ++i;
            }
            continue;
        }
        if (c == '\t') {
            out.push_back(' ');
        } else if (c >= 0x20 && c != 0x7F) {
            out.push_back(static_cast<char>(c));
        }
    }
    return out;
}

/// "(EngineCore_DP0 pid=123)" anywhere in the line: its process name.
std::string vllm_process(std::string_view s) {
    for (std::size_t at = s.find(" pid="); at != std::string_view::npos; at = s.find(" pid=", at + 1)) {
        std::size_t open = at;
        while (open > 0 && is_name_char(s[open - 1])) --open;
        if (open == 0 || s[open - 1] != '(' || open == at) continue;
        std::size_t close = at + 5;
        while (close < s.size() && is_digit(s[close])) ++close;
        // the pid stays: V0's workers are all "VllmWorkerProcess"
        if (close < s.size() && s[close] == ')') return std::string(s.substr(open, close - open));
    }
    return {};
}

/// SGLang's "[2025-10-16 09:06:09 TP7]" or "[... DP1 TP3 EP3]" prefix: the words after the time.
std::string sglang_process(std::string_view s) {
    const std::size_t open = s.find('[');
    if (open == std::string_view::npos || open > 40) return {};
    const std::size_t close = s.find(']', open);
    if (close == std::string_view::npos) return {};
    const std::string_view inside = s.substr(open + 1, close - open - 1);
    if (inside.size() < 20 || !is_digit(inside[0]) || inside[4] != '-') return {};
    const std::size_t space = inside.find(' ', 11);
    if (space == std::string_view::npos) return {};
    std::string_view rest = inside.substr(space + 1);
    if (rest.empty() || !is_alpha(rest[0])) return {};
    return std::string(rest);
}

/// torchrun's "[rank0]:" prefix.
std::string torch_rank(std::string_view s) {
    if (s.rfind("[rank", 0) != 0) return {};
    std::size_t i = 5;
    while (i < s.size() && is_digit(s[i])) ++i;
    if (i == 5 || i + 1 >= s.size() || s[i] != ']' || s[i + 1] != ':') return {};
    return std::string(s.substr(1, i - 1));
}

}  // namespace

CleanLine clean_line(std::string_view raw) {
    CleanLine out;
    out.text = strip_controls(raw);
    std::size_t start = 0;
    while (start < out.text.size() && (out.text[start] == ' ' || out.text[start] == '#' || out.text[start] == '>'))
        ++start;
    // a leading '#' is a comment mark, except for vLLM's own "# GPU blocks" whose grammar reads "GPU blocks:"
    if (start > 0) out.text.erase(0, start);
    out.rank = vllm_process(out.text);
    if (out.rank.empty()) out.rank = sglang_process(out.text);
    if (out.rank.empty()) out.rank = torch_rank(out.text);
    return out;
}

bool scan_number(std::string_view s, std::size_t& pos, double& out) {
    std::size_t i = pos;
    while (i < s.size() && s[i] == ' ') ++i;
    std::string digits;
    if (i < s.size() && s[i] == '-') {
        digits.push_back('-');
        ++i;
    }
    const std::size_t first = i;
    while (i < s.size()) {
        if (is_digit(s[i])) {
            digits.push_back(s[i++]);
        } else if (s[i] == ',' && i > first && i + 3 < s.size() && is_digit(s[i + 1]) && is_digit(s[i + 2]) &&
                   is_digit(s[i + 3]) && (i + 4 >= s.size() || !is_digit(s[i + 4]))) {
            ++i;  // thousands separator: "349,584"
        } else {
            break;
        }
    }
    if (i == first) return false;
    if (i + 1 < s.size() && s[i] == '.' && is_digit(s[i + 1])) {
        digits.push_back('.');
        ++i;
        while (i < s.size() && is_digit(s[i])) digits.push_back(s[i++]);
    }
    if (digits.size() > 40) return false;  // not a printed quantity
    char* end = nullptr;
    out = std::strtod(digits.c_str(), &end);
    pos = i;
    return true;
}

std::string scan_unit(std::string_view s, std::size_t& pos) {
    std::size_t i = pos;
    while (i < s.size() && s[i] == ' ') ++i;
    const std::size_t first = i;
    while (i < s.size() && is_alpha(s[i])) ++i;
    if (i == first) return {};
    // only unit words: "GiB" in "3.81 GiB", not "key" in "24 key-value pairs"
    static constexpr std::string_view kUnits[] = {"GiB", "MiB", "KiB", "GB",  "MB",     "KB",    "B",       "M",
                                                  "K",   "tokens", "x", "BPW", "bytes", "secs", "seconds", "s"};
    const std::string_view word = s.substr(first, i - first);
    for (std::string_view u : kUnits) {
        if (word == u) {
            pos = i;
            return std::string(word);
        }
    }
    return {};
}

bool number_after(std::string_view s, std::string_view key, double& value, std::string* unit, std::size_t* end) {
    const std::size_t at = s.find(key);
    if (at == std::string_view::npos) return false;
    std::size_t pos = at + key.size();
    while (pos < s.size() && (s[pos] == ' ' || s[pos] == '=' || s[pos] == ':' || s[pos] == '(')) ++pos;
    if (!scan_number(s, pos, value)) return false;
    std::string u = scan_unit(s, pos);
    if (unit) *unit = u;
    if (end) *end = pos;
    return true;
}

void Sink::number(std::string name, double value, std::string unit, std::string detail) {
    LogFact f;
    f.name = std::move(name);
    f.value = value;
    f.unit = std::move(unit);
    f.detail = std::move(detail);
    f.rank = rank_;
    f.line = line_;
    facts_.push_back(std::move(f));
    ++numbers_;
}

void Sink::word(std::string name, std::string value) {
    LogFact f;
    f.name = std::move(name);
    f.has_value = false;
    f.detail = std::move(value);
    f.rank = rank_;
    f.line = line_;
    facts_.push_back(std::move(f));
}

}  // namespace kvcalc::startup_log

#include "config/hf_config_json.h"

#include <cstddef>

namespace kvcalc::hf {

namespace {

/// Where the scanner is: one frame per open object or array.
struct Frame {
    bool array = false;
    std::string key;       ///< object: the last key read
    std::size_t index = 0; ///< array: position of the current element
};

std::string path_of(const std::vector<Frame>& stack) {
    std::string out;
    for (const auto& f : stack) {
        if (f.array) {
            out += "[" + std::to_string(f.index) + "]";
        } else if (!f.key.empty()) {
            if (!out.empty()) out += ".";
            out += f.key;
        }
    }
    return out;
}

bool word_at(std::string_view text, std::size_t i, std::string_view word) {
    if (text.substr(i, word.size()) != word) return false;
    const std::size_t end = i + word.size();
    if (end >= text.size()) return true;
    const char c = text[end];
    return !(c == '_' || (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'));
}

/// The non-finite token starting at `i`, or empty.
std::string_view non_finite_word(std::string_view text, std::size_t i) {
    for (std::string_view word : {std::string_view("-Infinity"), std::string_view("Infinity"), std::string_view("NaN")})
        if (word_at(text, i, word)) return word;
    return {};
}

}  // namespace

std::string replace_non_finite_tokens(std::string_view text, std::vector<ReplacedToken>& replaced) {
    std::string out;
    out.reserve(text.size());
    std::vector<Frame> stack;
    bool expect_key = false;  // inside an object, before the ':' of the current member
    std::size_t i = 0;
    while (i < text.size()) {
        const char c = text[i];
        if (c == '"') {  // copy the whole string; in key position remember it
            std::size_t j = i + 1;
            std::string s;
            while (j < text.size() && text[j] != '"') {
                if (text[j] == '\\' && j + 1 < text.size()) {
                    s += text[j + 1];
                    j += 2;
                    continue;
                }
                s += text[j++];
            }
            const std::size_t end = j < text.size() ? j + 1 : j;
            if (expect_key && !stack.empty() && !stack.back().array) stack.back().key = s;
            out.append(text.substr(i, end - i));
            i = end;
            continue;
        }
        if (c == '{' || c == '[') {
            stack.push_back({c == '[', "", 0});
            expect_key = c == '{';
        } else if (c == '}' || c == ']') {
            if (!stack.empty()) stack.pop_back();
            expect_key = false;
        } else if (c == ':') {
            expect_key = false;
        } else if (c == ',') {
            if (!stack.empty() && stack.back().array) ++stack.back().index;
            else expect_key = true;
        } else if (const std::string_view word = non_finite_word(text, i); !word.empty()) {
            replaced.push_back({path_of(stack), std::string(word)});
            out += "null";
            i += word.size();
            continue;
        }
        out += c;
        ++i;
    }
    return out;
}

}  // namespace kvcalc::hf

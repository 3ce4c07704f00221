#include "config/hf_config_json.h"

#include <cstddef>
#include <unordered_set>

#include <nlohmann/json.hpp>

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

/// SAX handler for find_duplicate_keys: one key set per open object, the array index per open array.
struct DuplicateFinder : nlohmann::json_sax<nlohmann::json> {
    struct Level {
        bool array = false;
        std::unordered_set<std::string> keys;
        std::string key;
        std::size_t index = 0;
    };
    std::vector<Level> stack;
    DuplicateKeys found;

    std::string path_here() const {
        std::string out;
        for (const auto& l : stack) {
            if (l.array) out += "[" + std::to_string(l.index) + "]";
            else if (!l.key.empty()) out += (out.empty() ? "" : ".") + l.key;
        }
        return out;
    }
    void value_done() {
        if (!stack.empty() && stack.back().array) ++stack.back().index;
    }
    bool null() override { return value_done(), true; }
    bool boolean(bool) override { return value_done(), true; }
    bool number_integer(number_integer_t) override { return value_done(), true; }
    bool number_unsigned(number_unsigned_t) override { return value_done(), true; }
    bool number_float(number_float_t, const string_t&) override { return value_done(), true; }
    bool string(string_t&) override { return value_done(), true; }
    bool binary(binary_t&) override { return value_done(), true; }
    bool start_object(std::size_t) override { return stack.push_back({false, {}, {}, 0}), true; }
    bool key(string_t& k) override {
        Level& l = stack.back();
        l.key = k;
        if (!l.keys.insert(k).second && found.count++ == 0) found.first_path = path_here();
        return true;
    }
    bool end_object() override { return stack.pop_back(), value_done(), true; }
    bool start_array(std::size_t) override { return stack.push_back({true, {}, {}, 0}), true; }
    bool end_array() override { return stack.pop_back(), value_done(), true; }
    bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception&) override { return false; }
};

}  // namespace

DuplicateKeys find_duplicate_keys(std::string_view text) {
    DuplicateFinder finder;
    nlohmann::json::sax_parse(text.begin(), text.end(), &finder);
    return finder.found;
}

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

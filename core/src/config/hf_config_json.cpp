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

/// SAX handler for parse_counting_duplicates: builds the DOM with nlohmann's own DOM builder and keeps one key
/// set per open object (and the index per open array) to name the first repeated key's path.
struct DomWithDuplicates {
    using json = nlohmann::json;
    using number_integer_t = json::number_integer_t;
    using number_unsigned_t = json::number_unsigned_t;
    using number_float_t = json::number_float_t;
    using string_t = json::string_t;
    using binary_t = json::binary_t;

    struct Level {
        bool array = false;
        std::unordered_set<std::string> keys;
        std::string key;
        std::size_t index = 0;
    };
    explicit DomWithDuplicates(json& root) : dom(root, false) {}
    nlohmann::detail::json_sax_dom_parser<json> dom;
    std::vector<Level> stack;
    DuplicateKeys found;
    std::size_t keys_seen = 0;
    bool too_many_keys = false;

    std::string path_here() const {
        std::string out;
        for (const auto& l : stack) {
            if (l.array) out += "[" + std::to_string(l.index) + "]";
            else if (!l.key.empty()) out += (out.empty() ? "" : ".") + l.key;
        }
        return out;
    }
    bool value_done(bool ok) {
        if (!stack.empty() && stack.back().array) ++stack.back().index;
        return ok;
    }
    bool null() { return value_done(dom.null()); }
    bool boolean(bool b) { return value_done(dom.boolean(b)); }
    bool number_integer(number_integer_t v) { return value_done(dom.number_integer(v)); }
    bool number_unsigned(number_unsigned_t v) { return value_done(dom.number_unsigned(v)); }
    bool number_float(number_float_t v, const string_t& s) { return value_done(dom.number_float(v, s)); }
    bool string(string_t& v) { return value_done(dom.string(v)); }
    bool binary(binary_t& v) { return value_done(dom.binary(v)); }
    bool start_object(std::size_t n) {
        stack.push_back({false, {}, {}, 0});
        return dom.start_object(n);
    }
    bool key(string_t& k) {
        if (++keys_seen > kMaxConfigKeys) return too_many_keys = true, false;
        Level& l = stack.back();
        l.key = k;
        if (!l.keys.insert(k).second && found.count++ == 0) found.first_path = path_here();
        return dom.key(k);
    }
    bool end_object() {
        stack.pop_back();
        return value_done(dom.end_object());
    }
    bool start_array(std::size_t n) {
        stack.push_back({true, {}, {}, 0});
        return dom.start_array(n);
    }
    bool end_array() {
        stack.pop_back();
        return value_done(dom.end_array());
    }
    template <class Exception>
    bool parse_error(std::size_t position, const std::string& token, const Exception& ex) {
        return dom.parse_error(position, token, ex);
    }
};

}  // namespace

ParsedJson parse_counting_duplicates(std::string_view text) {
    ParsedJson out;
    DomWithDuplicates sax(out.root);
    const bool ok = nlohmann::json::sax_parse(text.begin(), text.end(), &sax);
    if (!ok || sax.dom.is_errored() || sax.too_many_keys) {
        out.root = nlohmann::json(nlohmann::json::value_t::discarded);
        out.too_many_keys = sax.too_many_keys;
        return out;
    }
    out.duplicates = std::move(sax.found);
    return out;
}

std::string replace_non_finite_tokens(std::string_view text, NonFiniteTokens& found) {
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
            // Paths cost a string each, so only the ones a warning or a key lookup can use are built.
            // Past kMaxConfigKeys members the parse refuses the file, so no more paths are worth keeping.
            const bool member = !stack.empty() && !stack.back().array && found.members.size() <= kMaxConfigKeys;
            if (found.first.size() < NonFiniteTokens::kKeptInOrder || member) {
                std::string path = path_of(stack);
                if (found.first.size() < NonFiniteTokens::kKeptInOrder) found.first.push_back({path, std::string(word)});
                if (member) found.members.emplace(std::move(path), std::string(word));
            }
            ++found.count;
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

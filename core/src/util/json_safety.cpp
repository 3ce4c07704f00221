#include "kvcalc/base/json_safety.h"
#include "util/text.h"

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

namespace {

/// SAX handler that accepts every event and keeps the parser's first error, naming the last object key read so
/// an error inside a value (a number past a double's range) says which key it belongs to.
struct ErrorCatcher : nlohmann::json_sax<nlohmann::json> {
    std::string detail;
    std::string last_key;
    bool null() override { return true; }
    bool boolean(bool) override { return true; }
    bool number_integer(number_integer_t) override { return true; }
    bool number_unsigned(number_unsigned_t) override { return true; }
    bool number_float(number_float_t, const string_t&) override { return true; }
    bool string(string_t&) override { return true; }
    bool binary(binary_t&) override { return true; }
    bool start_object(std::size_t) override { return true; }
    bool key(string_t& k) override {
        last_key = k.size() > 64 ? k.substr(0, 64) + "…" : k;
        return true;
    }
    bool end_object() override { return true; }
    bool start_array(std::size_t) override { return true; }
    bool end_array() override { return true; }
    bool parse_error(std::size_t position, const std::string& last_token,
                     const nlohmann::detail::exception& ex) override {
        // nlohmann's text starts with its own "[json.exception.<kind>.<id>] " tag: keep only the description.
        std::string what = ex.what();
        const auto tag_end = what.find("] ");
        if (what.rfind("[json.exception.", 0) == 0 && tag_end != std::string::npos) what.erase(0, tag_end + 2);
        if (what.find("line ") == std::string::npos) what = "at byte " + std::to_string(position) + ": " + what;
        // The parser repeats the token it stopped at ("last read: '…'"), which can be megabytes of the input.
        if (what.size() > 2 * kMaxEchoBytes) what = text::without_bidi(what.substr(0, 2 * kMaxEchoBytes)) + "…";
        if (ex.id == 406) {
            if (!last_key.empty()) what += ", the value of key " + text::quoted(text::without_bidi(last_key));
            what += " (a JSON number must fit a double, at most about 1.8e308)";
        }
        detail = what;
        (void)last_token;
        return false;
    }
};

}  // namespace

std::string json_error_detail(std::string_view text) {
    // JSON text exchanged between systems must be UTF-8 (RFC 8259 section 8.1); Windows editors and PowerShell's
    // redirection often save UTF-16, which the parser sees as an invalid literal at column 1.
    const auto byte = [&](std::size_t i) { return i < text.size() ? static_cast<unsigned char>(text[i]) : 0x100u; };
    const bool bom16 = (byte(0) == 0xFF && byte(1) == 0xFE) || (byte(0) == 0xFE && byte(1) == 0xFF);
    const bool nul_between = text.size() >= 2 && (byte(0) == 0 || byte(1) == 0);
    if (bom16 || nul_between)
        return std::string("the text is UTF-16 or UTF-32 encoded (") +
               (bom16 ? "it starts with a UTF-16 byte order mark" : "NUL bytes sit between its characters") +
               "), and JSON must be UTF-8: save the file as UTF-8";
    ErrorCatcher catcher;
    nlohmann::json::sax_parse(text.begin(), text.end(), &catcher);
    return catcher.detail;
}

std::string dump_safe(const nlohmann::json& j, int indent) {
    std::string out = j.dump(indent, ' ', false, nlohmann::json::error_handler_t::replace);
    // Bidi controls (text::bidi_control_at) can only sit inside strings here: written as \uXXXX escapes they
    // keep their meaning for a JSON reader but cannot reorder a terminal or a log that shows the raw text.
    std::size_t i = 0;
    while (i < out.size() && text::bidi_control_at(out, i) == 0) ++i;
    if (i == out.size()) return out;
    std::string escaped;
    escaped.reserve(out.size() + 16);
    for (i = 0; i < out.size();) {
        const std::size_t n = text::bidi_control_at(out, i);
        if (n == 0) {
            escaped.push_back(out[i++]);
            continue;
        }
        const auto b = [&](std::size_t k) { return static_cast<unsigned>(static_cast<unsigned char>(out[i + k])); };
        const unsigned cp = n == 2 ? ((b(0) & 0x1F) << 6) | (b(1) & 0x3F)
                                   : ((b(0) & 0x0F) << 12) | ((b(1) & 0x3F) << 6) | (b(2) & 0x3F);
        static constexpr char kHex[] = "0123456789abcdef";
        escaped += "\\u";
        for (int shift = 12; shift >= 0; shift -= 4) escaped.push_back(kHex[(cp >> shift) & 0xF]);
        i += n;
    }
    return escaped;
}

std::string shown_value(const nlohmann::json& v, std::size_t max_chars) {
    std::string s = dump_safe(v);
    if (s.size() <= max_chars) return s;
    std::size_t cut = max_chars;
    while (cut > 0 && (static_cast<unsigned char>(s[cut]) & 0xC0) == 0x80) --cut;  // not inside a character
    return s.substr(0, cut) + "…";
}

}  // namespace kvcalc

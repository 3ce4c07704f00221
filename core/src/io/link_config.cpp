// config.json in a link's fragment (link_config.h).
#include "kvcalc/io/link_config.h"

#include "kvcalc/io/url_codec.h"

namespace kvcalc {

namespace {

constexpr char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
constexpr std::string_view kConfigKey = "cfg=";

int sextet(char c) {
    if (c >= 'A' && c <= 'Z') return c - 'A';
    if (c >= 'a' && c <= 'z') return c - 'a' + 26;
    if (c >= '0' && c <= '9') return c - '0' + 52;
    if (c == '-' || c == '+') return 62;
    if (c == '_' || c == '/') return 63;
    return -1;
}

/// The value of "cfg=" among the fragment's '&'-separated parts.
std::optional<std::string_view> config_part(std::string_view fragment) {
    std::size_t pos = 0;
    while (pos <= fragment.size()) {
        const std::size_t end = std::min(fragment.find('&', pos), fragment.size());
        const std::string_view part = fragment.substr(pos, end - pos);
        if (part.substr(0, kConfigKey.size()) == kConfigKey) return part.substr(kConfigKey.size());
        pos = end + 1;
    }
    return std::nullopt;
}

/// A Hub model's link names its repo (hf=) and each front end reads the files again, so only a config.json with no
/// Hub repo behind it goes into the fragment.
bool carries_config(const Scenario& s) {
    return !s.model && !s.config_json.empty() && s.hub_model.empty() && s.config_json.size() <= kMaxLinkConfigJsonBytes;
}

}  // namespace

std::string base64url_encode(std::string_view bytes) {
    std::string out;
    out.reserve((bytes.size() + 2) / 3 * 4);
    unsigned acc = 0;
    int bits = 0;
    for (const char c : bytes) {
        acc = (acc << 8) | static_cast<unsigned char>(c);
        bits += 8;
        while (bits >= 6) {
            bits -= 6;
            out += kAlphabet[(acc >> bits) & 63];
        }
    }
    if (bits > 0) out += kAlphabet[(acc << (6 - bits)) & 63];
    return out;
}

std::optional<std::string> base64url_decode(std::string_view text) {
    while (!text.empty() && text.back() == '=') text.remove_suffix(1);
    if (text.size() % 4 == 1) return std::nullopt;
    std::string out;
    out.reserve(text.size() * 3 / 4);
    unsigned acc = 0;
    int bits = 0;
    for (const char c : text) {
        const int v = sextet(c);
        if (v < 0) return std::nullopt;
        acc = (acc << 6) | static_cast<unsigned>(v);
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            out += static_cast<char>((acc >> bits) & 0xFF);
        }
    }
    return out;
}

std::string encode_link(const Scenario& s) {
    if (!carries_config(s)) return encode_query(s);
    Scenario query = s;
    query.model_id = Scenario{}.model_id;  // the config replaces it: no stale m=
    query.config_json.clear();
    return encode_query(query) + "#" + std::string(kConfigKey) + base64url_encode(s.config_json);
}

Scenario decode_link(std::string_view url, Diagnostics& diagnostics) {
    Scenario s = decode_query(url, diagnostics);
    const std::size_t hash = url.find('#');
    if (hash == std::string_view::npos) return s;
    const auto encoded = config_part(url.substr(hash + 1));
    if (!encoded) return s;
    auto warn = [&](const std::string& message) {
        diagnostics.push_back({Severity::warning, "url_config", "config_json", message});
    };
    if (encoded->size() > kMaxLinkConfigJsonBytes * 4 / 3 + 4) {
        warn("the link's config.json (#cfg=) is longer than " + std::to_string(kMaxLinkConfigJsonBytes / 1024) +
             " KB and was not read; the model is the one the query names");
        return s;
    }
    std::optional<std::string> text = base64url_decode(*encoded);
    if (!text || text->empty()) {
        warn("the link's config.json (#cfg=) is not valid base64url (was the link cut short?); the model is the one "
             "the query names");
        return s;
    }
    s.config_json = std::move(*text);
    return s;
}

Diagnostics link_unrepresentable(const Scenario& s) {
    Scenario rest = s;
    Diagnostics d;
    if (!s.model && !s.config_json.empty() && s.hub_model.empty()) {
        if (!carries_config(s))
            d.push_back({Severity::warning, "url_config_too_long", "config_json",
                         "the config.json is " + std::to_string(s.config_json.size() / 1024) +
                             " KB, more than a link carries (" + std::to_string(kMaxLinkConfigJsonBytes / 1024) +
                             " KB), so the link carries no model and opens the default one: share the file itself"});
        rest.config_json.clear();  // carried (or reported above)
    }
    for (auto& x : url_unrepresentable(rest)) d.push_back(std::move(x));
    return d;
}

}  // namespace kvcalc

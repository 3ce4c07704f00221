// Fragment codec for a pasted model; see share_link.h.
#include "share_link.h"

#include <array>

#include "kvcalc/io/url_codec.h"

namespace kvcalc::ui {

namespace {

constexpr char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
constexpr const char* kConfigKey = "cfg=";

int sextet(char c) {
    if (c >= 'A' && c <= 'Z') return c - 'A';
    if (c >= 'a' && c <= 'z') return c - 'a' + 26;
    if (c >= '0' && c <= '9') return c - '0' + 52;
    if (c == '-' || c == '+') return 62;  // '+' and '/' too: a link pasted through a base64 (not url) tool
    if (c == '_' || c == '/') return 63;
    return -1;
}

/// Value of `key` ("cfg=") among '&'-separated fragment parts, or nullopt.
std::optional<std::string> fragment_value(const std::string& fragment, const std::string& key) {
    std::size_t pos = 0;
    while (pos <= fragment.size()) {
        const std::size_t end = std::min(fragment.find('&', pos), fragment.size());
        if (fragment.compare(pos, key.size(), key) == 0) return fragment.substr(pos + key.size(), end - pos - key.size());
        pos = end + 1;
    }
    return std::nullopt;
}

}  // namespace

std::string base64url_encode(const std::string& bytes) {
    std::string out;
    out.reserve((bytes.size() + 2) / 3 * 4);
    std::size_t i = 0;
    for (; i + 2 < bytes.size(); i += 3) {
        const unsigned v = (static_cast<unsigned char>(bytes[i]) << 16) | (static_cast<unsigned char>(bytes[i + 1]) << 8) |
                           static_cast<unsigned char>(bytes[i + 2]);
        for (int s = 18; s >= 0; s -= 6) out += kAlphabet[(v >> s) & 63];
    }
    if (i + 1 == bytes.size()) {
        const unsigned v = static_cast<unsigned char>(bytes[i]) << 16;
        out += kAlphabet[(v >> 18) & 63];
        out += kAlphabet[(v >> 12) & 63];
    } else if (i + 2 == bytes.size()) {
        const unsigned v = (static_cast<unsigned char>(bytes[i]) << 16) | (static_cast<unsigned char>(bytes[i + 1]) << 8);
        out += kAlphabet[(v >> 18) & 63];
        out += kAlphabet[(v >> 12) & 63];
        out += kAlphabet[(v >> 6) & 63];
    }
    return out;
}

std::optional<std::string> base64url_decode(const std::string& text) {
    std::string in = text;
    while (!in.empty() && in.back() == '=') in.pop_back();
    if (in.size() % 4 == 1) return std::nullopt;
    std::string out;
    out.reserve(in.size() * 3 / 4);
    unsigned acc = 0;
    int bits = 0;
    for (char c : in) {
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

std::string share_fragment(const App& app) {
    // A Hub model travels as hf= in the query and is read again on open; only a pasted file rides in the fragment.
    if (!app.scenario.hub_model.empty()) return {};
    if (!app.scenario.model || app.ui.pasted_config.empty() || app.ui.pasted_config.size() > kMaxLinkConfigBytes)
        return {};
    return kConfigKey + base64url_encode(app.ui.pasted_config);
}

std::string share_blocker(const App& app) {
    if (!app.scenario.hub_model.empty()) return {};
    if (!app.scenario.model) {
        const Diagnostics d = url_unrepresentable(app.scenario);
        return d.empty() ? std::string() : d.front().message;
    }
    if (app.ui.pasted_config.empty())
        return "This model was not read from a config.json, so a link cannot carry it.";
    if (app.ui.pasted_config.size() > kMaxLinkConfigBytes)
        return "This config.json is " + std::to_string(app.ui.pasted_config.size() / 1024) +
               " KB, too long for a link (the limit is " + std::to_string(kMaxLinkConfigBytes / 1024) +
               " KB): share the file itself.";
    return {};
}

bool load_fragment(App& app, const std::string& fragment) {
    const std::optional<std::string> encoded = fragment_value(fragment, kConfigKey);
    if (!encoded) return false;
    const auto warn = [&](const std::string& message) {
        app.url_warnings.push_back({Severity::warning, "link_config", "cfg", message});
    };
    if (encoded->size() > kMaxLinkConfigBytes * 4 / 3 + 4) {
        warn("The link's model (#cfg=) is longer than " + std::to_string(kMaxLinkConfigBytes / 1024) +
             " KB and was not read; the catalog model is shown instead.");
        return false;
    }
    const std::optional<std::string> text = base64url_decode(*encoded);
    if (!text) {
        warn("The link's model (#cfg=) is not valid base64url (was the link cut short?); the catalog model is shown "
             "instead.");
        return false;
    }
    if (!apply_config_text(app, *text, "link", true)) {
        warn("The link's config.json could not be used: " + app.ui.model_status);
        app.ui.model_status.clear();
        return false;
    }
    return true;
}

}  // namespace kvcalc::ui

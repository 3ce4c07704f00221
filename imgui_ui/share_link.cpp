// Fragment codec for a pasted model; see share_link.h.
#include "share_link.h"

#include <algorithm>

#include "kvcalc/io/link_config.h"
#include "kvcalc/io/url_codec.h"

namespace kvcalc::ui {

namespace {

constexpr const char* kConfigKey = "cfg=";

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

// A pasted model in the link: the compact config.json travels base64url-encoded in the fragment (#cfg=…), which
// browsers never send to a server, so the query string stays the core's short scenario codec (docs/URL.md).
#pragma once
#include <optional>
#include <string>

#include "app.h"

namespace kvcalc::ui {

/// Longest compact config.json a link carries (bytes before encoding); longer ones disable Copy link with a reason.
inline constexpr std::size_t kMaxLinkConfigBytes = 24 * 1024;

/// RFC 4648 §5 base64url without padding.
std::string base64url_encode(const std::string& bytes);
/// Reverses base64url_encode (padding optional); nullopt on a character outside the alphabet or a bad length.
std::optional<std::string> base64url_decode(const std::string& text);

/// The fragment describing the app's model ("cfg=…" for a pasted / fetched config.json, "" for a catalog model).
std::string share_fragment(const App& app);

/// Why Copy link / embed cannot reproduce the screen, or "" when they can.
std::string share_blocker(const App& app);

/// Reads a fragment written by share_fragment into the app (the model only: the query carries the settings).
/// Problems become link warnings. Returns true when a model was read.
bool load_fragment(App& app, const std::string& fragment);

}  // namespace kvcalc::ui

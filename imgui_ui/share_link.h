// A pasted model in the link: the compact config.json travels base64url-encoded in the fragment (#cfg=…), which
// browsers never send to a server, so the query string stays the core's short scenario codec (docs/URL.md). The
// base64url codec is the core's (kvcalc/io/link_config.h), the one the CLI's --config --url writes.
#pragma once
#include <optional>
#include <string>

#include "app.h"
#include "kvcalc/io/link_config.h"

namespace kvcalc::ui {

/// Longest compact config.json a link carries (bytes before encoding); longer ones disable Copy link with a reason.
inline constexpr std::size_t kMaxLinkConfigBytes = kMaxLinkConfigJsonBytes;  // the CLI's bound too

/// The fragment describing the app's model ("cfg=…" for a pasted / fetched config.json, "" for a catalog model).
std::string share_fragment(const App& app);

/// Why Copy link / embed cannot reproduce the screen, or "" when they can.
std::string share_blocker(const App& app);

/// Reads a fragment written by share_fragment into the app (the model only: the query carries the settings).
/// Problems become link warnings. Returns true when a model was read.
bool load_fragment(App& app, const std::string& fragment);

}  // namespace kvcalc::ui

// A shareable link for a scenario whose model is a config.json: the query (url_codec.h) plus the config's text in
// the fragment, "#cfg=<base64url>", the form the page writes (docs/URL.md "A pasted config.json"). Pure, never throws.
#pragma once
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include "kvcalc/base/diagnostic.h"
#include "kvcalc/base/scenario.h"

namespace kvcalc {

/// The longest config.json a link carries (bytes of the text before encoding); the page's share button uses the
/// same bound. Longer files are left out with a warning (url_config_too_long).
inline constexpr std::size_t kMaxLinkConfigJsonBytes = 24 * 1024;

/// RFC 4648 §5 base64url without padding.
std::string base64url_encode(std::string_view bytes);

/// Reverses base64url_encode; also accepts '+', '/' and '=' padding (a link passed through a plain base64 tool).
/// nullopt when a character is not base64 or the length cannot be a whole number of bytes.
std::optional<std::string> base64url_decode(std::string_view text);

/// The query and, when `s.config_json` is set and at most kMaxLinkConfigJsonBytes, "#cfg=" + its text in
/// base64url. A carried config leaves out `m=` (the catalog model it replaces), so the link without its
/// fragment opens the default model, not a stale one. Without a config.json it is encode_query(s).
std::string encode_link(const Scenario& s);

/// Reads a link made by encode_link (or the page): decode_query on the query, and a "cfg=" part of the fragment
/// into `config_json`. A fragment that is not valid base64url or is longer than the bound is a warning
/// (`url_config`) and leaves the model as the query says.
Scenario decode_link(std::string_view url, Diagnostics& diagnostics);

/// Warnings for what encode_link cannot carry: an inline ModelSpec (`url_inline_model`), a config.json over the
/// bound (`url_config_too_long`), a compose label that is not a preset id. Empty when the link reproduces `s`.
Diagnostics link_unrepresentable(const Scenario& s);

}  // namespace kvcalc

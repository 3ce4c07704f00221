// URL-state codec: a Scenario as a short, versioned query string (docs/URL.md). Pure: no I/O, never throws.
#pragma once
#include <string>
#include <string_view>
#include <vector>

#include "kvcalc/base/diagnostic.h"
#include "kvcalc/base/scenario.h"

namespace kvcalc {

/// Version written as "v=2". Version 2 links leave out vLLM's defaults (scenario.h); version 1 links were written
/// when the defaults were the seed CLI's (kv_cache_dtype fp8_e5m2, max_model_len 180000, max_num_seqs 1,
/// gpu_memory_utilization 0.95) and are read from those, so an old link keeps its meaning. A query with a higher
/// version is still read, with a warning.
inline constexpr int kUrlVersion = 2;

/// The scenario a version 1 link's absent keys meant: the seed CLI's defaults.
Scenario url_version_1_defaults();

/// Encodes only the fields that differ from a default Scenario, as "v=2&k=v&..." with short stable keys
/// (table order, values percent-encoded). An inline `model` (e.g. from a config.json) cannot be carried:
/// it is left out and only `model_id` travels; use url_unrepresentable() to warn the user.
std::string encode_query(const Scenario& s);

/// Decodes a query string: "v=2&m=…" or "?v=2&m=…" as it is; a URL (with a scheme, a leading '/' or '#') from
/// its '?' to its '#' — a URL without '?' carries no scenario (a warning says so) and a '#fragment' is never read.
/// Unknown keys, malformed %-escapes and bad values become warnings naming the key, the value and what is valid;
/// that field is read as if it were absent (its default). A link without 'v', or with v=1, starts from
/// url_version_1_defaults(); v=2 (or a bad or newer 'v', with a warning) from a default Scenario. Never throws. Keys reserved for front ends (embed,
/// theme, unit, panel) are skipped silently.
Scenario decode_query(std::string_view query, Diagnostics& diagnostics);

/// Warnings for the parts of `s` that encode_query cannot carry (today: an inline ModelSpec).
/// Empty when the link reproduces `s` exactly.
Diagnostics url_unrepresentable(const Scenario& s);

/// One row of the key table, for documentation and UIs: short key, Scenario field name, value description.
struct UrlKeyInfo {
    std::string key;
    std::string field;
    std::string values;
};

/// Every Scenario key the codec knows, in encoding order (docs/URL.md is checked against this).
std::vector<UrlKeyInfo> url_keys();

/// Percent-encodes everything except RFC 3986 unreserved characters (A-Z a-z 0-9 - . _ ~).
std::string percent_encode(std::string_view text);

/// Reverses percent_encode; '+' becomes a space (form encoding). Returns false on a malformed escape.
bool percent_decode(std::string_view text, std::string& out);

}  // namespace kvcalc

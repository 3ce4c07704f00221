// The one JSON boundary every front end speaks (CLI --json, embind module, page).
#pragma once
#include <string>
#include <string_view>

namespace kvcalc {

/// Evaluates one request document (a Scenario in JSON, "schema": 1) and returns the report document
/// ("schema": 1). Never throws: malformed input comes back as {"ok": false, "diagnostics": [...]}.
std::string evaluate_json(std::string_view request_json);

}  // namespace kvcalc

// JSON encoding of a read start-up log (the "log" object of `kvcalc --log FILE --json`, docs/STARTUP_LOGS.md).
#pragma once
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "kvcalc/io/startup_log.h"

namespace kvcalc {

/// {"ok", "engine", "engine_version", "lines", "known_lines", "read_lines", "runs", "run_first_line",
///  "facts": [{"name", "value" | "text", "unit", "detail", "rank", "line"}], "diagnostics"}.
/// Empty "unit", "detail" and "rank" are left out.
void to_json(nlohmann::json& j, const StartupLog& log);

/// The whole answer to "read this log" as one JSON document, {"schema": 1, "ok", "log": {...}}: what
/// `kvcalc --log FILE --json` prints, and what a JSON API action or the page's embind call can return as is.
/// Never throws (invalid UTF-8 in the log's words becomes U+FFFD).
std::string startup_log_document(std::string_view log_text, int indent = -1);
/// The same document for a log already read.
nlohmann::json startup_log_document(const StartupLog& log);

}  // namespace kvcalc

// JSON encoding of a read start-up log (the "log" object of `kvcalc --log FILE --json`, docs/STARTUP_LOGS.md).
#pragma once
#include <nlohmann/json.hpp>

#include "kvcalc/io/startup_log.h"

namespace kvcalc {

/// {"ok", "engine", "engine_version", "lines", "known_lines", "read_lines", "runs", "run_first_line",
///  "facts": [{"name", "value" | "text", "unit", "detail", "rank", "line"}], "diagnostics"}.
/// Empty "unit", "detail" and "rank" are left out.
void to_json(nlohmann::json& j, const StartupLog& log);

}  // namespace kvcalc

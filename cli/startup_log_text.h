// --log FILE: reading the file (or stdin) and printing what the core read from it.
#pragma once
#include <ostream>
#include <string>

#include "kvcalc/io/startup_calibration.h"
#include "kvcalc/io/startup_log.h"

namespace kvcli {

/// Reads `path` ("-" for stdin) into `text`, at most kvcalc::kMaxStartupLogBytes + 1 bytes (so the core can say
/// the log is too large without the CLI holding a huge file). "" on success, else why not.
std::string read_log_text(const std::string& path, std::string& text);

/// The facts, one a line: "line 42  available_kv_cache_gib = 21.35 GiB  (EngineCore_DP0)", after a header with
/// the engine, version and the share of known lines read; diagnostics are printed by the caller.
void print_startup_log(std::ostream& os, const kvcalc::StartupLog& log, const std::string& path);

/// The settings taken from the log, then each printed line beside kvcalc's prediction without the log, the
/// calibrated one, and the calibrated one's difference from the printed value.
void print_log_comparison(std::ostream& os, const kvcalc::StartupCalibration& c,
                          const std::vector<kvcalc::LogComparisonRow>& rows);

}  // namespace kvcli

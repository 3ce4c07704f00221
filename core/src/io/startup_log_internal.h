// Private pieces of the start-up log reader: the line cleaner, the number scanner and one grammar per engine.
#pragma once
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "kvcalc/io/startup_log.h"

namespace kvcalc::startup_log {

/// One log line with its wrappers taken off: `text` without CR, ANSI escapes, a leading "#" comment mark, and
/// `rank` the process prefix it carried ("(Worker_TP1 pid=42)" gives "Worker_TP1 pid=42", "[2025-10-16 09:06:09 TP7]"
/// gives "TP7", "[rank0]:" gives "rank0").
struct CleanLine {
    std::string text;
    std::string rank;
};

/// Cleans one raw line (without its '\n').
CleanLine clean_line(std::string_view raw);

/// Reads a number at `s[pos]` after optional spaces: digits with optional "," thousands separators between
/// groups of three, an optional fraction, an optional leading '-'. On success moves `pos` past it.
bool scan_number(std::string_view s, std::size_t& pos, double& out);

/// The number right after the first `key` in `s` (skipping spaces, '=', ':' and '('), with the unit word that
/// follows it ("GiB", "MiB", "GB", "tokens", "x"; "" when none). False when `key` is absent or no number follows.
bool number_after(std::string_view s, std::string_view key, double& value, std::string* unit = nullptr,
                  std::size_t* end = nullptr);

/// The unit word at `s[pos]` after optional spaces (letters only, e.g. "GiB"); moves `pos` past it.
std::string scan_unit(std::string_view s, std::size_t& pos);

/// Collects the facts of one line; the grammars call it.
class Sink {
public:
    Sink(std::vector<LogFact>& facts, std::size_t line, const std::string& rank)
        : facts_(facts), line_(line), rank_(rank) {}
    void number(std::string name, double value, std::string unit, std::string detail = {});
    void word(std::string name, std::string value);
    /// The line starts a boot (a version banner, a model load's first line).
    void run_start() { run_start_ = true; }
    void version(std::string v) { version_ = std::move(v); }
    std::size_t numbers() const { return numbers_; }
    bool starts_run() const { return run_start_; }
    const std::string& version_text() const { return version_; }

private:
    std::vector<LogFact>& facts_;
    std::size_t line_;
    const std::string& rank_;
    std::size_t numbers_ = 0;
    bool run_start_ = false;
    std::string version_;
};

/// What one grammar made of a line: `known` when its wording is one the grammar reads and it carries numbers
/// (counted in StartupLog::known_lines whether or not they could be read).
struct LineResult {
    bool matched = false;  ///< the grammar recognised the line (numbers or words)
    bool known = false;    ///< the recognised line should carry at least one number
};

LineResult read_vllm_line(std::string_view line, Sink& sink);
LineResult read_llama_cpp_line(std::string_view line, Sink& sink);
LineResult read_sglang_line(std::string_view line, Sink& sink);

/// Checks between facts of one run (V0's product and four-term sum, llama.cpp's K + V = KV self size, ...);
/// adds an error naming both lines when printed numbers contradict each other beyond their rounding.
void check_consistency(const std::vector<LogFact>& facts, Diagnostics& diagnostics);

}  // namespace kvcalc::startup_log

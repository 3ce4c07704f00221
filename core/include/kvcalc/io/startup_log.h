// Start-up log reader: the text an engine printed while booting in, the numbers it printed out, each with its line.
// vLLM (V0 and V1), llama.cpp and SGLang; docs/STARTUP_LOGS.md lists the lines read per engine and release.
#pragma once
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "kvcalc/base/diagnostic.h"

namespace kvcalc {

/// Which engine printed the log (decided by the lines it printed, not by a flag).
enum class LogEngine { unknown, vllm, llama_cpp, sglang };

/// "vllm", "llama.cpp", "sglang" or "unknown".
const char* log_engine_name(LogEngine e);

/// One number (or word) the log printed. `name` is the engine's own term with the unit in it
/// ("available_kv_cache_gib", "num_gpu_blocks", "kv_buffer_size_mib"); `unit` is the unit as printed ("GiB", "GB",
/// "MiB", "tokens", "x", ""): vLLM's and SGLang's "GB" are GiB (both divide by 2^30), so their names end in _gib.
/// `line` is 1-based in the text given; `rank` the process that printed it ("Worker_TP1 pid=42", "TP0", "" when the
/// line has no prefix); `detail` a word the line attaches to the number (llama.cpp's buffer device "CUDA0",
/// a tensor type "q4_K", the K/V cache type), or the whole value for a word fact such as "attention_backend".
struct LogFact {
    std::string name;
    double value = 0;
    bool has_value = true;  ///< false for a word fact (version, attention backend, sampler fallback)
    std::string unit;
    std::string detail;
    std::string rank;
    std::size_t line = 0;
};

/// What read_startup_log found.
/// `known_lines`: lines whose wording the reader knows and that carry a number; `read_lines`: those it took at
/// least one number from. The two differ only when a known line is cut or garbled (each such line gets a warning).
/// `runs`: boots seen (a second version banner or model-load start opens a new one); only the last run's facts
/// are kept, and a warning names the line where it starts.
/// `ok` is false when the log is empty, binary, too large, has no line the reader knows, or two facts of one
/// process contradict each other: then `facts` must not be priced from.
struct StartupLog {
    bool ok = false;
    LogEngine engine = LogEngine::unknown;
    std::string engine_version;  ///< as printed ("0.11.0", "b4893"), "" when the log has no banner
    std::vector<LogFact> facts;
    std::size_t lines = 0;
    std::size_t known_lines = 0;
    std::size_t read_lines = 0;
    std::size_t runs = 0;
    std::size_t run_first_line = 1;  ///< first line of the run the facts come from
    Diagnostics diagnostics;
};

/// Largest log accepted (bytes). A boot log is well under 1 MiB; 32 MiB leaves room for debug-level logs while
/// keeping the work bounded.
inline constexpr std::size_t kMaxStartupLogBytes = 32u << 20;
/// Longest line read; longer lines (a pasted config dump, a progress bar) are skipped with one warning.
inline constexpr std::size_t kMaxStartupLogLineBytes = 64u << 10;

/// Reads a start-up log. Never throws; CRLF, ANSI colours, "#" comment prefixes, container and process
/// prefixes, timestamps and thousands separators are accepted. Problems come back as diagnostics naming the
/// line ("field": "log:LINE").
StartupLog read_startup_log(std::string_view text);

/// The first fact called `name` (of the lowest rank when ranks differ), or nullptr.
const LogFact* find_fact(const StartupLog& log, std::string_view name);

}  // namespace kvcalc

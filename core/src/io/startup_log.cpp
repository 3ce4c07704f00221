// The start-up log reader's driver: splits the text into lines, cleans each, hands it to the engine's grammar,
// separates boots, and checks the log as a whole (empty, binary, too large, cut short, contradicting itself).
#include "kvcalc/io/startup_log.h"

#include <cmath>
#include <string>

#include "io/startup_log_internal.h"
#include "util/text.h"

namespace kvcalc {
namespace {

using startup_log::LineResult;
using startup_log::Sink;

std::string at_line(std::size_t line) { return "log:" + std::to_string(line); }

void add(Diagnostics& d, Severity s, const char* code, std::size_t line, std::string message) {
    d.push_back(Diagnostic{s, code, line ? at_line(line) : std::string("log"), std::move(message)});
}

LineResult read_with(LogEngine e, std::string_view line, Sink& sink) {
    switch (e) {
        case LogEngine::vllm: return startup_log::read_vllm_line(line, sink);
        case LogEngine::llama_cpp: return startup_log::read_llama_cpp_line(line, sink);
        case LogEngine::sglang: return startup_log::read_sglang_line(line, sink);
        case LogEngine::unknown: break;
    }
    return {};
}

/// The first line holding a NUL or a byte that is not text; 0 when there is none.
std::size_t first_binary_line(std::string_view text) {
    std::size_t line = 1, odd = 0;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const unsigned char c = static_cast<unsigned char>(text[i]);
        if (c == '\n') ++line;
        if (c == 0) return line;
        if (c < 0x20 && c != '\n' && c != '\r' && c != '\t' && c != 0x1B && c != '\f' && c != '\b') {
            if (++odd > 8) return line;
        }
    }
    return 0;
}

/// Names printed once per process in one boot: two different values of one of these contradict each other.
bool single_valued(const std::string& name) {
    static constexpr const char* kNames[] = {
        "available_kv_cache_gib", "gpu_kv_cache_tokens", "num_gpu_blocks", "model_loading_gib",
        "total_gpu_memory_gib", "gpu_memory_utilization", "max_concurrency", "requested_memory_gib",
        "max_model_len", "n_ctx", "n_seq_max", "n_ubatch", "max_total_num_tokens", "mem_fraction_static",
        "kv_tokens", "file_size_mib", "file_size_gib"};
    for (const char* n : kNames)
        if (name == n) return true;
    return false;
}

void check_duplicates(const std::vector<LogFact>& facts, Diagnostics& d) {
    std::size_t reported = 0;
    for (std::size_t i = 0; i < facts.size() && reported < 20; ++i) {
        const LogFact& a = facts[i];
        if (!a.has_value || !single_valued(a.name)) continue;
        for (std::size_t j = i + 1; j < facts.size(); ++j) {
            const LogFact& b = facts[j];
            if (b.name != a.name || b.rank != a.rank || b.detail != a.detail || !b.has_value) continue;
            if (std::fabs(a.value - b.value) <= 0.006 + 1e-9 * std::fabs(a.value)) break;
            const bool named = !a.rank.empty();
            add(d, named ? Severity::error : Severity::warning, "log_contradiction", b.line,
                text::cat(a.name, ": line ", std::to_string(a.line), " printed ", text::quoted(std::to_string(a.value)),
                          " and line ", std::to_string(b.line), " printed ", text::quoted(std::to_string(b.value)),
                          named ? text::cat(" for the same process (", a.rank, "); the log contradicts itself")
                                : std::string("; if these lines come from different ranks, keep their process "
                                              "prefixes; the first value is used")));
            ++reported;
            break;
        }
    }
}

/// True when the run printed the line that sizes its KV cache (or the refusal to).
bool has_kv_line(LogEngine e, const std::vector<LogFact>& facts) {
    for (const LogFact& f : facts) {
        switch (e) {
            case LogEngine::vllm:
                if (f.name == "available_kv_cache_gib" || f.name == "num_gpu_blocks" ||
                    f.name == "gpu_kv_cache_tokens" || f.name == "max_kv_cache_tokens")
                    return true;
                break;
            case LogEngine::llama_cpp:
                if (f.name.rfind("kv_buffer_size", 0) == 0 || f.name.rfind("kv_self_size", 0) == 0) return true;
                break;
            case LogEngine::sglang:
                if (f.name == "kv_tokens" || f.name == "k_size_gib" || f.name == "max_total_num_tokens") return true;
                break;
            case LogEngine::unknown: break;
        }
    }
    return false;
}

/// True when facts [begin, end) show a boot under way: for vLLM a weights or memory line (its banners and
/// config lines come in several orders before loading), for the others any fact.
bool run_has_progress(LogEngine e, const std::vector<LogFact>& facts, std::size_t begin, std::size_t end) {
    if (e != LogEngine::vllm) return begin < end;
    for (std::size_t i = begin; i < end; ++i) {
        const std::string& n = facts[i].name;
        if (n == "model_loading_gib" || n == "model_weights_gib" || n == "available_kv_cache_gib" ||
            n == "num_gpu_blocks" || n == "gpu_kv_cache_tokens" || n == "total_gpu_memory_gib")
            return true;
    }
    return false;
}

}  // namespace

const char* log_engine_name(LogEngine e) {
    switch (e) {
        case LogEngine::vllm: return "vllm";
        case LogEngine::llama_cpp: return "llama.cpp";
        case LogEngine::sglang: return "sglang";
        case LogEngine::unknown: break;
    }
    return "unknown";
}

const LogFact* find_fact(const StartupLog& log, std::string_view name) {
    for (const LogFact& f : log.facts)
        if (f.name == name) return &f;
    return nullptr;
}

StartupLog read_startup_log(std::string_view text) {
    StartupLog out;
    Diagnostics& d = out.diagnostics;
    if (text.size() > kMaxStartupLogBytes) {
        add(d, Severity::error, "log_too_large", 0,
            text::cat("the log has ", std::to_string(text.size()), " bytes; at most ",
                      std::to_string(kMaxStartupLogBytes), " are read (paste the start-up part, up to the line with "
                      "the KV cache size)"));
        return out;
    }
    if (text.find_first_not_of(" \t\r\n") == std::string_view::npos) {
        add(d, Severity::error, "log_empty", 0, "the log is empty; paste the engine's start-up output");
        return out;
    }
    if (const std::size_t bin = first_binary_line(text)) {
        add(d, Severity::error, "log_binary", bin,
            text::cat("line ", std::to_string(bin), " holds bytes that are not text; a start-up log is the text the "
                      "engine printed, not a binary file"));
        return out;
    }

    static constexpr std::size_t kMaxFacts = 100000;
    static constexpr std::size_t kMaxUnreadWarnings = 20;
    std::size_t run_fact_begin = 0, unread_warned = 0, long_lines = 0, first_long = 0;
    std::size_t second_run_line = 0;
    bool foreign_warned = false;
    std::size_t line_no = 0, pos = 0;
    while (pos < text.size()) {
        std::size_t nl = text.find('\n', pos);
        if (nl == std::string_view::npos) nl = text.size();
        const std::string_view raw = text.substr(pos, nl - pos);
        pos = nl + 1;
        ++line_no;
        if (raw.size() > kMaxStartupLogLineBytes) {
            if (long_lines++ == 0) first_long = line_no;
            continue;
        }
        const startup_log::CleanLine clean = startup_log::clean_line(raw);
        if (clean.text.empty()) continue;
        const std::size_t before = out.facts.size();
        Sink sink(out.facts, line_no, clean.rank);
        LineResult r;
        if (out.engine != LogEngine::unknown) r = read_with(out.engine, clean.text, sink);
        if (!r.matched) {
            for (LogEngine e : {LogEngine::vllm, LogEngine::llama_cpp, LogEngine::sglang}) {
                if (e == out.engine) continue;
                r = read_with(e, clean.text, sink);
                if (!r.matched) continue;
                if (out.engine == LogEngine::unknown) {
                    // a word line ("Using X backend") does not decide the engine; a number line or a banner does
                    if (r.known || sink.starts_run() || !sink.version_text().empty()) out.engine = e;
                } else {
                    // a line of another engine in this log: not this boot's, so not read
                    out.facts.resize(before);
                    if (!foreign_warned) {
                        foreign_warned = true;
                        add(d, Severity::warning, "log_other_engine", line_no,
                            text::cat("line ", std::to_string(line_no), " is a ", log_engine_name(e), " line in a ",
                                      log_engine_name(out.engine), " log; lines of another engine are not read"));
                    }
                    r = {};
                }
                break;
            }
        }
        if (!r.matched) continue;
        if (!sink.version_text().empty() && out.engine_version.empty()) out.engine_version = sink.version_text();
        if (sink.starts_run()) {
            if (out.runs == 0) {
                out.runs = 1;
                out.run_first_line = 1;
            } else if (run_has_progress(out.engine, out.facts, run_fact_begin, before)) {
                // a second boot: keep the newest one only
                if (++out.runs == 2) second_run_line = line_no;
                out.facts.erase(out.facts.begin() + static_cast<std::ptrdiff_t>(run_fact_begin),
                                out.facts.begin() + static_cast<std::ptrdiff_t>(before));
                out.run_first_line = line_no;
                if (!sink.version_text().empty()) out.engine_version = sink.version_text();
            }
        }
        if (r.known) {
            ++out.known_lines;
            if (sink.numbers() > 0) {
                ++out.read_lines;
            } else if (unread_warned++ < kMaxUnreadWarnings) {
                add(d, Severity::warning, "log_line_unread", line_no,
                    text::cat("line ", std::to_string(line_no), " ", text::quoted(clean.text),
                              " has a known start-up wording but its number could not be read (cut or garbled?)"));
            }
        }
        if (out.facts.size() > kMaxFacts) {
            add(d, Severity::warning, "log_too_many_facts", line_no,
                text::cat("more than ", std::to_string(kMaxFacts), " numbers; reading stops at line ",
                          std::to_string(line_no)));
            break;
        }
    }
    out.lines = line_no;
    if (long_lines > 0) {
        add(d, Severity::warning, "log_long_lines", first_long,
            text::cat(std::to_string(long_lines), " line(s) longer than ", std::to_string(kMaxStartupLogLineBytes),
                      " bytes were skipped, the first at line ", std::to_string(first_long)));
    }
    if (out.runs > 1) {
        add(d, Severity::warning, "log_two_runs", out.run_first_line,
            out.runs == 2
                ? text::cat("the log holds 2 start-ups; the second begins at line ", std::to_string(second_run_line),
                            " and only it is read")
                : text::cat("the log holds ", std::to_string(out.runs), " start-ups (the second begins at line ",
                            std::to_string(second_run_line), ", the last at line ",
                            std::to_string(out.run_first_line), "); only the last one is read"));
    }
    if (out.facts.empty()) {
        add(d, Severity::error, "log_unrecognised", 0,
            text::cat("none of the ", std::to_string(line_no), " lines is a vLLM, llama.cpp or SGLang start-up line "
                      "that kvcalc reads (docs/STARTUP_LOGS.md lists them)"));
        return out;
    }
    if (out.runs == 0) out.runs = 1;
    if (!has_kv_line(out.engine, out.facts)) {
        add(d, Severity::warning, "log_truncated", line_no,
            text::cat("the log ends at line ", std::to_string(line_no), " before ", log_engine_name(out.engine),
                      " printed its KV cache size; it may be cut short"));
    }
    check_duplicates(out.facts, d);
    startup_log::check_consistency(out.facts, d);
    out.ok = !has_error(d);
    return out;
}

}  // namespace kvcalc

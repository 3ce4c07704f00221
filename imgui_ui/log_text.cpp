// A start-up log in words (log_text.h).
#include "log_text.h"

#include <cmath>
#include <cstdio>

#include "kvcalc/base/units.h"
#include "kvcalc/engines/deployment.h"

namespace kvcalc::ui {

namespace {

std::string decimals(double x, int places) {
    char buf[48];
    std::snprintf(buf, sizeof buf, "%.*f", places, x);
    return buf;
}

double gib(std::int64_t bytes) { return static_cast<double>(bytes) / static_cast<double>(kBytesPerGib); }

}  // namespace

std::string log_value_text(double value, const std::string& unit, bool as_printed) {
    if (unit == "tokens") return format_count(std::llround(value)) + " tokens";
    if (unit == "x") return decimals(value, 2) + "x";
    std::string text = decimals(value, as_printed ? 4 : 2);
    // As printed: vLLM writes 2 decimals for most terms and 4 for "Model loading took"; trailing zeros past the
    // second are ours, not the log's.
    while (as_printed && text.size() > 3 && text.back() == '0' && text[text.size() - 3] != '.') text.pop_back();
    return unit.empty() ? text : text + " " + unit;
}

std::string log_difference_text(double predicted, double printed, const std::string& unit) {
    const double d = predicted - printed;
    if (unit == "tokens") {
        const long long n = std::llround(d);
        return (n < 0 ? "−" : "+") + format_count(n < 0 ? -n : n) + " tokens";
    }
    const std::string magnitude = decimals(std::fabs(d), 2);
    const bool zero = magnitude == "0.00";
    return std::string(zero ? "±" : d < 0 ? "−" : "+") + magnitude + (unit == "x" ? "x" : unit.empty() ? "" : " " + unit);
}

std::string log_row_text(const LogComparisonRow& row) {
    std::string out = row.label + " (line " + std::to_string(row.line) + "): printed " +
                      log_value_text(row.printed, row.unit, true);
    if (row.predicted)
        out += "; kvcalc " + log_value_text(*row.predicted, row.unit, false) + " (" +
               log_difference_text(*row.predicted, row.printed, row.unit) + ")";
    if (row.calibrated)
        out += "; calibrated " + log_value_text(*row.calibrated, row.unit, false) + " (" +
               log_difference_text(*row.calibrated, row.printed, row.unit) + ")";
    return out;
}

std::string measured_terms_words(const MeasuredTerms& m) {
    std::string out;
    const auto term = [&](const char* name, const std::optional<std::int64_t>& bytes) {
        if (!bytes) return;
        out += (out.empty() ? "" : ", ") + std::string(name) + " " + decimals(gib(*bytes), 2) + " GiB";
    };
    term("weights", m.weights_bytes);
    term("activation peak", m.torch_peak_bytes);
    term("non-torch", m.non_torch_bytes);
    term("CUDA graphs", m.cudagraph_bytes);
    term(m.kv_cache_memory_fixed ? "KV cache (--kv-cache-memory-bytes)" : "KV cache", m.available_kv_bytes);
    if (m.cuda_total_bytes) out += ", of a " + decimals(gib(*m.cuda_total_bytes), 2) + " GiB card";
    std::string at;
    if (m.max_model_len > 0) at += "max_model_len " + format_count(m.max_model_len);
    if (m.max_num_seqs > 0) at += (at.empty() ? "" : ", ") + std::string("max_num_seqs ") + format_count(m.max_num_seqs);
    if (m.max_num_batched_tokens > 0)
        at += (at.empty() ? "" : ", ") + std::string("max_num_batched_tokens ") + format_count(m.max_num_batched_tokens);
    if (m.gpu_memory_utilization > 0)
        at += (at.empty() ? "" : " and ") + std::string("utilization ") + decimals(m.gpu_memory_utilization, 2);
    if (!at.empty()) out += " at " + at;
    return out;
}

std::string log_fact_text(const LogFact& f) {
    std::string out = f.name + " = ";
    if (!f.has_value) out += f.detail;
    else out += log_value_text(f.value, f.unit, true);
    std::string where;
    if (f.has_value && !f.detail.empty()) where = f.detail + ", ";
    if (!f.rank.empty()) where += f.rank + ", ";
    return out + " (" + where + "line " + std::to_string(f.line) + ")";
}

std::string log_engine_words(const StartupLog& log) {
    const EngineInfo* engine = find_engine(log_engine_name(log.engine));
    const std::string name = engine ? engine->display_name : log_engine_name(log.engine);
    return log.engine_version.empty() ? name : name + " " + log.engine_version;
}

std::string log_mirror_text(const App& app) {
    const LogView& v = app.log;
    if (!v.active) {
        if (!app.scenario.measured) return v.status.empty() ? std::string() : " Start-up log: " + v.status;
        return " Calibrated by the link: a boot's measured terms price every answer (per card: " +
               measured_terms_words(*app.scenario.measured) + ").";
    }
    std::string out = " Start-up log (" + log_engine_words(v.log) + "):";
    for (const LogComparisonRow& r : v.rows) out += " " + log_row_text(r) + ".";
    if (v.calibrated) out += " Every answer is priced from this boot's measured terms.";
    if (!v.calibrated || v.status_is_error) out += " " + v.status;
    return out;
}

}  // namespace kvcalc::ui

// Text exports of the result. Plain string building; no UI calls, so it is easy to read and to test.
#include "text_export.h"

#include "answer_text.h"

#include <algorithm>
#include <cstdio>

#include "kvcalc/catalog/catalog.h"
#include "kvcalc/base/gpu_catalog.h"
#include "kvcalc/deployment/result_sentence.h"
#include "kvcalc/base/units.h"
#include "model_lookup.h"
#include "widgets.h"

namespace kvcalc::ui {

namespace {

std::string fixed2(double x) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.2f", x);
    return buf;
}




}  // namespace

std::string gpu_name(const ResolvedSettings& s) {
    const GpuSpec* g = s.gpu.empty() ? nullptr : find_gpu(s.gpu);
    return g ? short_gpu_name(*g) : "custom " + format_bytes(s.vram_bytes, ByteUnit::gib) + " card";
}

std::string verdict_sentence(const App& app) { return result_sentence(app.report, app.ui.unit); }

std::string verdict_line(const App& app, int width) {
    const Report& r = app.report;
    if (!r.ok) return "Cannot evaluate: fix the settings";
    const BudgetTerms& t = r.terms;
    const char* v = verdict_name(r.verdict);
    const std::string largest = context_answer(app, width);  // both answers, labelled, when max_num_seqs > 1
    if (t.kv_one_sequence_bytes <= 0)  // encoder-only models keep no KV cache
        return std::string(v) + " · no KV cache · " + largest;
    const KvFigures kv = kv_figures(r);  // the pair the Result panel's sentence quotes
    const double free_kv = in_unit(kv.pool_bytes, app.ui.unit);
    const double needs = in_unit(kv.needs_bytes, app.ui.unit);
    const char* u = unit_name(app.ui.unit);
    char buf[160];
    // The two FAILs that are not about KV room say what they are about (the core's result_sentence cases), not
    // "needs 2.9 of 0.0 GiB KV" or a KV figure that would fit.
    if (!t.kv_dtype_runs) {
        const std::string dtype(r.settings.kv_cache_dtype);
        if (width <= 0) return std::string(v) + " · kv_cache_dtype " + dtype + " does not run on " + gpu_name(r.settings);
        if (width <= 2) return std::string(v) + " · " + dtype + " does not run on " + gpu_name(r.settings);
        return std::string(v) + " · " + dtype + " does not run on this card";
    }
    if (t.available_for_kv_bytes <= 0) {
        const double fixed = in_unit(t.fixed_bytes, app.ui.unit), budget = in_unit(t.budget_bytes, app.ui.unit);
        if (width <= 0)
            std::snprintf(buf, sizeof buf, "%s · fixed terms need %.1f of %.1f %s · %s", v, fixed,
                          budget, u, largest.c_str());
        else if (width == 1)
            std::snprintf(buf, sizeof buf, "%s · fixed terms %.1f of %.1f %s · %s", v, fixed, budget, u,
                          largest.c_str());
        else
            std::snprintf(buf, sizeof buf, "%s · fixed %.1f of %.1f %s · %s", v, fixed, budget, u, largest.c_str());
        return buf;
    }
    if (width <= 0)
        std::snprintf(buf, sizeof buf, "%s · needs %.1f %s KV, %.1f %s free · %s", v, needs, u, free_kv,
                      u, largest.c_str());
    else if (width == 1)
        std::snprintf(buf, sizeof buf, "%s · needs %.1f of %.1f %s KV · %s", v, needs, free_kv, u,
                      largest.c_str());
    else if (width == 2)
        std::snprintf(buf, sizeof buf, "%s · needs %.1f of %.1f %s KV · %s", v, needs, free_kv, u, largest.c_str());
    else if (width == 3)
        std::snprintf(buf, sizeof buf, "%s · KV %.1f of %.1f %s · %s", v, needs, free_kv, u, largest.c_str());
    else  // a phone's narrowest bar: the KV pair and the all-sequences answer (the Solver panel has both)
        std::snprintf(buf, sizeof buf, "%s · needs %.1f of %.1f %s · %s", v, needs, free_kv, u, largest.c_str());
    return buf;
}

std::string page_title(const App& app) {
    const Report& r = app.report;
    if (!r.ok) return "Cannot evaluate — kvcalc";
    return std::string(verdict_name(r.verdict)) + " · " + std::string(r.settings.display_name) + " on " +
           std::to_string(r.settings.tensor_parallel_size) + "× " + gpu_name(r.settings) + " — kvcalc";
}

std::string summary_text(const App& app) {
    const Report& r = app.report;
    if (!r.ok) {
        std::string out = "Cannot evaluate this scenario: ";
        for (const Diagnostic& d : r.diagnostics)
            if (d.severity == Severity::error) out += d.message + " ";
        return out;
    }
    const ResolvedSettings& s = r.settings;
    const ByteUnit u = app.ui.unit;
    return std::string(verdict_name(r.verdict)) + ": " + std::string(s.display_name) + " on " + std::to_string(s.gpus) + " × " +
           gpu_name(s) + " (" + format_bytes(s.vram_bytes, u) + " each), tensor_parallel_size " +
           std::to_string(s.tensor_parallel_size) + ", max_model_len " + format_count(s.max_model_len) +
           ", max_num_seqs " + std::to_string(s.max_num_seqs) + ", kv_cache_dtype " + std::string(s.kv_cache_dtype) + ". " +
           verdict_sentence(app) + " Per card " + format_bytes(r.terms.total_bytes, u) + " of a " +
           format_bytes(r.terms.budget_bytes, u) + " budget; largest term: " + std::string(term_label(r.limiting_term)) + ".";
}

std::string announcement(const App& app) {
    std::string out = summary_text(app);
    const Derived& d = app.derived;
    if (app.report.ok) {
        out += d.max_len.ok ? " Largest max_model_len that boots: " + format_count(d.max_len.value) + " tokens."
                            : " No max_model_len boots.";
        if (d.max_seqs.ok) out += " Largest max_num_seqs at full length: " + format_count(d.max_seqs.value) + ".";
        if (d.min_gpus.ok) out += " Fewest GPUs: " + std::to_string(d.min_gpus.value) + ".";
    }
    const std::size_t shown = std::min(app.url_warnings.size(), kUrlWarningsShown);
    for (std::size_t i = 0; i < shown; ++i) out += " Link problem: " + app.url_warnings[i].message;
    if (app.url_warnings.size() > shown)
        out += " And " + std::to_string(app.url_warnings.size() - shown) + " more link problems.";
    for (const auto& [field, note] : app.ui.clamp_notes) out += " " + field + ": " + note;
    return out;
}

std::vector<std::string> startup_lines(const App& app) {
    std::vector<std::string> out;
    const StartupPrediction& st = app.report.startup;
    if (!app.report.ok) return out;
    if (!st.available) {  // it stops before any KV line (no kernel for the cache dtype, weights too large)
        if (st.refuses_to_start) out.push_back(st.refusal);
        return out;
    }
    // The engine's own lines as the core words them, then its refusal (the order the CLI prints).
    for (const StartupLine& line : st.lines) out.push_back(startup_line_text(line));
    if (st.refuses_to_start) out.push_back(st.refusal);  // the core's words for why it stops (startup_stop.cpp)
    return out;
}

std::string markdown_table(const App& app) {
    const Report& r = app.report;
    if (!r.ok) return "kvcalc: " + summary_text(app) + "\n";
    const ResolvedSettings& s = r.settings;
    std::string out = "**kvcalc: " + std::string(verdict_name(r.verdict)) + "** — " + std::string(s.display_name) + ", " +
                      std::to_string(s.tensor_parallel_size) + " × " + gpu_name(s) + ", " +
                      "max_model_len " + std::to_string(s.max_model_len) + ", max_num_seqs " +
                      std::to_string(s.max_num_seqs) + ", kv_cache_dtype " + std::string(s.kv_cache_dtype) +
                      ", gpu_memory_utilization " + fixed2(s.gpu_memory_utilization) + "\n\n" + verdict_sentence(app) +
                      "\n\n| Per-card term | GB | GiB |\n|---|---:|---:|\n";
    auto row = [&](const std::string& label, std::int64_t bytes) {
        out += "| " + label + " | " + fixed2(bytes_to_gb(bytes)) + " | " + fixed2(bytes_to_gib(bytes)) + " |\n";
    };
    for (const Term& t : r.term_list) row(std::string(t.label), t.bytes);
    row("**Total reserved**", r.terms.total_bytes);
    row("Budget (gpu_memory_utilization × VRAM)", r.terms.budget_bytes);
    row("VRAM per card", s.vram_bytes);
    return out;
}

std::string serve_command_text(const App& app) {
    if (!app.report.ok) return "# kvcalc: the scenario is invalid, fix it first";
    return app.report.command;  // the core's serve_command(): the engine's own flag and dtype spelling
}

std::string page_folder(const std::string& page_url) {
    const std::size_t cut = page_url.find_first_of("?#");
    std::string base = page_url.substr(0, cut);
    const std::size_t slash = base.rfind('/');
    return slash == std::string::npos ? std::string() : base.substr(0, slash + 1);
}

std::string embed_snippet(const std::string& folder_url, const std::string& query) {
    return "<iframe src=\"" + folder_url + "embed.html?" + query +
           "\" style=\"width:100%;max-width:520px;height:420px;border:0\" title=\"kvcalc: will it fit?\" "
           "loading=\"lazy\"></iframe>";
}

}  // namespace kvcalc::ui

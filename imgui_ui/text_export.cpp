// Text exports of the result. Plain string building; no UI calls, so it is easy to read and to test.
#include "text_export.h"

#include <cstdio>

#include "kvcalc/catalog.h"
#include "kvcalc/units.h"
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

std::vector<NamedTerm> budget_terms(const Report& r) {
    const BudgetTerms& t = r.terms;
    return {{"weights", "Weights", t.weights_bytes},
            {"kv_growing", "KV cache (growing, granted)", t.kv_growing_granted_bytes},
            {"kv_sliding", "KV cache (sliding window)", t.kv_sliding_bytes},
            {"recurrent_state", "Recurrent state", t.recurrent_state_bytes},
            {"activation", "Activation peak", t.activation_bytes},
            {"cudagraph_workspace", "CUDA graphs + workspace", t.cudagraph_workspace_bytes},
            {"drafter", "Drafter weights", t.drafter_bytes}};
}

const char* term_label(const std::string& name) {
    if (name == "weights") return "weights";
    if (name == "kv_growing") return "growing KV cache";
    if (name == "kv_sliding") return "sliding-window KV cache";
    if (name == "recurrent_state") return "recurrent state";
    if (name == "activation") return "activation peak";
    if (name == "cudagraph_workspace") return "CUDA graphs + workspace";
    if (name == "drafter") return "drafter weights";
    return name.c_str();
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
    std::string out = std::string(verdict_name(r.verdict)) + ": " + s.display_name + " on " +
                      std::to_string(s.gpus) + " × " + (s.gpu.empty() ? "custom GPU" : s.gpu) + " (" +
                      format_bytes(s.vram_bytes, u) + " each), tensor_parallel_size " +
                      std::to_string(s.tensor_parallel_size) + ", max_model_len " + format_count(s.max_model_len) +
                      ", max_num_seqs " + std::to_string(s.max_num_seqs) + ", kv_cache_dtype " + s.kv_cache_dtype +
                      ". " + r.reason + " Per card " + format_bytes(r.terms.total_bytes, u) + " of a " +
                      format_bytes(r.terms.budget_bytes, u) + " budget; largest term: " + term_label(r.limiting_term) +
                      ".";
    return out;
}

std::string markdown_table(const App& app) {
    const Report& r = app.report;
    if (!r.ok) return "kvcalc: " + summary_text(app) + "\n";
    const ResolvedSettings& s = r.settings;
    std::string out = "**kvcalc: " + std::string(verdict_name(r.verdict)) + "** — " + s.display_name + ", " +
                      std::to_string(s.tensor_parallel_size) + " × " + (s.gpu.empty() ? "custom GPU" : s.gpu) + ", " +
                      "max_model_len " + std::to_string(s.max_model_len) + ", max_num_seqs " +
                      std::to_string(s.max_num_seqs) + ", kv_cache_dtype " + s.kv_cache_dtype +
                      ", gpu_memory_utilization " + fixed2(s.gpu_memory_utilization) + "\n\n" + r.reason +
                      "\n\n| Per-card term | GB | GiB |\n|---|---:|---:|\n";
    auto row = [&](const std::string& label, std::int64_t bytes) {
        out += "| " + label + " | " + fixed2(bytes_to_gb(bytes)) + " | " + fixed2(bytes_to_gib(bytes)) + " |\n";
    };
    for (const NamedTerm& t : budget_terms(r))
        if (t.bytes != 0) row(t.label, t.bytes);
    row("**Total reserved**", r.terms.total_bytes);
    row("Budget (gpu_memory_utilization × VRAM)", r.terms.budget_bytes);
    row("VRAM per card", s.vram_bytes);
    return out;
}

std::string vllm_serve_command(const App& app) {
    // The core builds it in the engine's own spelling (vLLM CacheDType names, llama-server / sglang flags).
    if (!app.report.ok) return "# kvcalc: the scenario is invalid, fix it first";
    return app.report.command;
}

std::string page_folder(const std::string& page_url) {
    const std::size_t cut = page_url.find_first_of("?#");
    std::string base = page_url.substr(0, cut);
    const std::size_t slash = base.rfind('/');
    return slash == std::string::npos ? std::string() : base.substr(0, slash + 1);
}

std::string embed_snippet(const std::string& folder_url, const std::string& query) {
    return "<iframe src=\"" + folder_url + "embed.html?" + query +
           "\" width=\"520\" height=\"420\" style=\"border:0\" title=\"kvcalc: will it fit?\" loading=\"lazy\"></iframe>";
}

}  // namespace kvcalc::ui

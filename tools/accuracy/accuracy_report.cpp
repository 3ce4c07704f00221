// kvcalc_accuracy FIXTURE_DIR: prints docs/ACCURACY.md — the calibration table (every measured boot against
// predict()), the end-to-end table (predict() on the H100 start-up logs: available KV memory, tokens,
// concurrency), and the real-log table (the engine rules against every fixture), with error statistics.
// Deterministic output (fixtures sorted by name) so a ctest can diff it against the committed file.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "kvcalc/deployment/calibration.h"
#include "accuracy/engine_real_cases.h"
#include "kvcalc/deployment/predict.h"
#include "kvcalc/base/units.h"
#include "band_table.h"
#include "reserve_section.h"

namespace {

constexpr double kGiB = 1073741824.0;

std::string f2(double x, const char* spec = "%.2f") {
    char buf[64];
    std::snprintf(buf, sizeof buf, spec, x);
    return buf;
}

std::string num(double x) {
    return x == std::floor(x) && std::fabs(x) < 1e15 ? f2(x, "%.0f") : f2(x, "%.4g");
}

// Absolute percentage errors and their summary "mean / max" over n values.
struct Errors {
    std::vector<double> pct;
    void add(double predicted, double measured) {
        if (measured != 0.0) pct.push_back(100.0 * std::fabs(predicted - measured) / std::fabs(measured));
    }
    std::string summary() const {
        if (pct.empty()) return "| 0 | – | – |";
        double sum = 0.0;
        for (double x : pct) sum += x;
        return "| " + std::to_string(pct.size()) + " | " + f2(sum / static_cast<double>(pct.size()), "%.2f%%") + " | " +
               f2(*std::max_element(pct.begin(), pct.end()), "%.2f%%") + " |";
    }
};

std::vector<std::filesystem::path> fixtures(const char* dir) {
    std::vector<std::filesystem::path> files;
    std::error_code ec;
    for (const auto& e : std::filesystem::directory_iterator(dir, ec))
        if (e.path().extension() == ".json") files.push_back(e.path());
    std::sort(files.begin(), files.end());
    return files;
}

std::string read(const std::filesystem::path& p) {
    std::ifstream in(p);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

void calibration_section(std::ostream& out) {
    const kvcalc::CalibrationSummary c = kvcalc::run_calibration();
    out << "## Calibration: measured boots vs predict()\n\n"
        << "Every row booted and ran; `measured peak` is nvidia-smi per card. A row is correct when kvcalc's verdict is\n"
        << "not FAIL (it did boot) and the measured peak lies inside the predicted band (the band rule is below, \"The\n"
        << "band\"). `demand` = fixed terms + requested KV; `fixed + pool` = fixed terms + the whole KV pool, what vLLM\n"
        << "allocates on each card; `budget` = gpu_memory_utilization × VRAM. GB = 1e9 B, GiB = 2^30 B. Rows marked\n"
        << "circular measured the budget itself (docs/SOURCES.md, \"Calibration rows\").\n\n"
        << "| row | model | kv dtype | max_model_len | seqs | TP | mem util | demand GB | fixed + pool GB | budget GB | "
           "measured GiB | measured GB | predicted − measured | verdict | correct |\n"
        << "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n";
    const auto& rows = kvcalc::calibration_rows();
    Errors reserve_err;
    for (std::size_t i = 0; i < c.results.size(); ++i) {
        const auto& r = c.results[i];
        const auto& s = r.report.settings;
        const auto& t = r.report.terms;
        const double measured_gb = static_cast<double>(r.measured_peak_bytes) / 1e9;
        if (!r.circular)
            reserve_err.add(static_cast<double>(r.predicted_reserve_bytes), static_cast<double>(r.measured_peak_bytes));
        out << "| " << r.row_id << (r.circular ? " (circular)" : "") << " | " << r.model_id << " | " << s.kv_cache_dtype
            << " | " << s.max_model_len << " | " << s.max_num_seqs << " | " << s.tensor_parallel_size << " | "
            << f2(s.gpu_memory_utilization) << " | " << f2(static_cast<double>(t.demand_bytes) / 1e9) << " | "
            << f2(static_cast<double>(r.predicted_reserve_bytes) / 1e9) << " | "
            << f2(static_cast<double>(t.budget_bytes) / 1e9)
            << " | " << f2(rows[i].measured_peak_gib) << " | " << f2(measured_gb) << " | "
            << f2(static_cast<double>(r.predicted_reserve_bytes) / 1e9 - measured_gb, "%+.2f") << " GB | "
            << (r.report.ok ? kvcalc::verdict_name(r.report.verdict) : "ERROR") << " | " << (r.correct ? "yes" : "**no**")
            << " |\n";
    }
    out << "\n### Scores\n\n| model | correct | rows |\n|---|---|---|\n";
    for (const auto& m : c.per_model) out << "| " << m.model_id << " | " << m.correct << " | " << m.total << " |\n";
    out << "| **all** | **" << c.correct << "** | **" << c.total << "** |\n\n"
        << "Fixed + pool vs the measured peak (non-circular rows):\n\n"
        << "| rows | mean abs error | max abs error |\n|---|---|---|\n" << reserve_err.summary() << "\n\n";
    kvtools::reserve_section(out, c);  // the band check, which fails both ways (reserve_section.cpp)
}

// predict() end to end on every vLLM log whose fixture names its GPU and release: only what the user typed goes in
// (config.json, gpu, vllm_version, the flags the run set; vLLM's defaults for the rest).
void end_to_end_section(std::ostream& out, const std::vector<std::filesystem::path>& files) {
    out << "## End to end: predict() on the vLLM start-up logs\n\n"
        << "Every vLLM fixture that names its GPU and vLLM release. Nothing is taken from the log but what the user\n"
        << "typed: the fixture's config.json goes in as `config_json`, with the GPU, `vllm_version` and the flags the\n"
        << "run set (vLLM's defaults for the others), and kvcalc predicts weights, torch peak, non-torch memory, the\n"
        << "CUDA-graph estimate and the available KV memory (vllm/accounting.h). `band` is the ± the Report states.\n\n"
        << "| case | vLLM | max_model_len | TP | weights GiB (log / kvcalc) | available KV GiB (log / kvcalc) | error | "
           "band | refuses (log / kvcalc) |\n|---|---|---|---|---|---|---|---|---|\n";
    Errors weights_err;
    std::vector<double> abs_gib, dense_gib;
    int refusals_right = 0, refusals = 0;
    std::string outside_band;
    for (const auto& path : files) {
        const std::string name = path.stem().string();
        const nlohmann::json fx = nlohmann::json::parse(read(path), nullptr, false);
        if (fx.is_discarded() || fx.value("engine", "") != "vllm" || !fx.contains("runs")) continue;
        for (const auto& run : fx["runs"]) {
            if (!run.contains("settings") || !run["settings"].contains("gpu") || !run.contains("available_kv_gib")) continue;
            const auto& set = run["settings"];
            kvcalc::Scenario s;
            s.config_json = fx["config"].dump();
            s.gpu = set.value("gpu", std::string());
            s.vllm_version = set.value("vllm_version", std::string());
            s.vllm_sampler = set.value("vllm_sampler", std::string());
            s.vllm_usage_context = set.value("vllm_usage_context", std::string());
            s.gpu_memory_utilization = set.value("gpu_memory_utilization", 0.0);
            s.max_num_seqs = set.value("max_num_seqs", std::int64_t{0});
            if (set.contains("max_num_batched_tokens")) s.max_num_batched_tokens = set["max_num_batched_tokens"].get<std::int64_t>();
            s.tensor_parallel_size = set.value("tensor_parallel_size", 1);
            s.max_model_len = set.value("max_model_len", std::int64_t{16000});
            s.kv_cache_dtype = "bf16";
            const kvcalc::Report r = kvcalc::predict(s);
            const double log_avail = run.value("available_kv_gib", 0.0);
            const auto& m = run["measured"];
            const double log_weights = m.value("weights_gib", 0.0);
            if (!r.ok) {
                out << "| " << name << " | " << s.vllm_version << " | " << s.max_model_len << " | " << s.tensor_parallel_size
                    << " | error: " << r.diagnostics.front().message << " | | | | |\n";
                continue;
            }
            const double w = static_cast<double>(r.terms.weights_bytes) / kGiB;
            // vLLM prints a negative "available" when the non-KV terms exceed the budget; kvcalc's pool stops at 0.
            const double non_kv = static_cast<double>(r.terms.weights_bytes + r.terms.activation_bytes +
                                                      r.terms.cudagraph_workspace_bytes + r.terms.drafter_bytes);
            const double avail = (static_cast<double>(r.terms.budget_bytes) - non_kv) / kGiB;
            if (log_weights > 0) weights_err.add(w, log_weights);
            abs_gib.push_back(std::fabs(avail - log_avail));
            if (fx.value("architecture_class", "").rfind("dense", 0) == 0 &&
                fx["config"].value("architectures", nlohmann::json::array()).dump().find("Conditional") == std::string::npos)
                dense_gib.push_back(std::fabs(avail - log_avail));
            std::string log_refuses = "–";
            if (m.contains("refuses_to_start")) {
                const bool lr = m["refuses_to_start"].get<bool>();
                log_refuses = lr ? "yes" : "no";
                ++refusals;
                refusals_right += lr == r.startup.refuses_to_start ? 1 : 0;
            }
            const double band = static_cast<double>(r.error_band_bytes) / kGiB;
            if (std::fabs(avail - log_avail) > band + 1e-9)
                outside_band += (outside_band.empty() ? "" : ", ") + name + " (" + f2(avail - log_avail, "%+.2f") + " GiB)";
            out << "| " << name << " | " << r.settings.vllm_version << " | " << s.max_model_len << " | "
                << s.tensor_parallel_size << " | " << (log_weights > 0 ? f2(log_weights) : std::string("–")) << " / "
                << f2(w) << " | " << f2(log_avail) << " / " << f2(avail) << " | " << f2(avail - log_avail, "%+.2f")
                << " GiB | ±" << f2(band) << " | " << log_refuses << " / " << (r.startup.refuses_to_start ? "yes" : "no")
                << " |\n";
        }
    }
    auto median = [](std::vector<double> v) {
        if (v.empty()) return 0.0;
        std::sort(v.begin(), v.end());
        const std::size_t n = v.size();
        return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2.0;
    };
    auto max_of = [](const std::vector<double>& v) { return v.empty() ? 0.0 : *std::max_element(v.begin(), v.end()); };
    out << "\n| |available KV: n | median abs error | max abs error |\n|---|---|---|---|\n"
        << "| all runs | " << abs_gib.size() << " | " << f2(median(abs_gib)) << " GiB | " << f2(max_of(abs_gib)) << " GiB |\n"
        << "| dense text models | " << dense_gib.size() << " | " << f2(median(dense_gib)) << " GiB | "
        << f2(max_of(dense_gib)) << " GiB |\n\n"
        << "| quantity | n | mean abs error | max abs error |\n|---|---|---|---|\n"
        << "| weights | " << weights_err.summary().substr(2) << "\n\n"
        << "Refusal predicted correctly in " << refusals_right << " of " << refusals << " runs. Runs outside the band the\n"
        << "Report states: " << (outside_band.empty() ? std::string("none") : outside_band)
        << (outside_band.empty() ? "." : " (REAL_CASES.md gives the reasons).") << "\n\n";
}

void real_log_section(std::ostream& out, const std::vector<std::filesystem::path>& files, bool& ok) {
    std::ostringstream rows;
    std::map<std::string, Errors> by_group, by_quantity;
    Errors all;
    for (const auto& path : files) {
        const kvcalc::RealCaseResult r = kvcalc::evaluate_real_case(read(path));
        if (kvcalc::has_error(r.diagnostics)) {
            std::cerr << path.filename().string() << ": " << r.diagnostics.front().message << "\n";
            ok = false;
            continue;
        }
        for (const auto& c : r.checks) {
            if (c.quantity == "refuses_to_start") continue;
            const double err = c.measured != 0.0 ? 100.0 * (c.predicted - c.measured) / std::fabs(c.measured) : 0.0;
            rows << "| " << r.id << " | " << r.engine << " | " << r.architecture_class << " | "
                 << (c.run.empty() ? "" : c.run + ": ") << c.quantity << " | " << num(c.measured) << " | "
                 << num(c.predicted) << " | " << (c.measured != 0.0 ? f2(err, "%+.2f%%") : "") << " | "
                 << (c.expect_differ ? "differs (expected)" : c.within ? "match" : "**MISMATCH**") << " |\n";
            if (c.expect_differ) continue;
            for (Errors* e : {&by_group[r.engine + " / " + r.architecture_class], &by_quantity[c.quantity], &all})
                e->add(c.predicted, c.measured);
        }
    }
    out << "## Real logs: engine rules vs measured start-up numbers\n\n"
        << "Every numeric check of every fixture in `tests/data/real_cases/` (per-token KV bytes, KV memory needed,\n"
        << "token capacity, concurrency, buffer sizes, weights), with the available KV memory taken from the log (the\n"
        << "engine's input). Refusal flags and the details of each tolerance are in [REAL_CASES.md](REAL_CASES.md).\n"
        << "Statistics leave out the checks marked expected-to-differ.\n\n"
        << "| quantity | n | mean abs error | max abs error |\n|---|---|---|---|\n";
    for (const auto& [q, e] : by_quantity) out << "| " << q << " " << e.summary() << "\n";
    out << "| **all** " << all.summary() << "\n\n| engine / architecture | n | mean abs error | max abs error |\n"
        << "|---|---|---|---|\n";
    for (const auto& [g, e] : by_group) out << "| " << g << " " << e.summary() << "\n";
    out << "\n| case | engine | architecture | quantity | measured | predicted | error | status |\n"
        << "|---|---|---|---|---|---|---|---|\n"
        << rows.str();
}

}  // namespace

int main(int argc, char** argv) {
    if (argc != 2) {
        std::cerr << "usage: kvcalc_accuracy FIXTURE_DIR > docs/ACCURACY.md\n";
        return 2;
    }
    const auto files = fixtures(argv[1]);
    if (files.empty()) {
        std::cerr << "no fixtures in " << argv[1] << "\n";
        return 2;
    }
    bool ok = true;
    std::cout << "# Accuracy\n\n"
              << "Generated by `build/native-release/tools/kvcalc_accuracy tests/data/real_cases > docs/ACCURACY.md`\n"
              << "(tools/accuracy/accuracy_report.cpp). The ctest `accuracy_table_fresh` regenerates it and fails when\n"
              << "this file differs, so the test command keeps it current.\n\n";
    calibration_section(std::cout);
    end_to_end_section(std::cout, files);
    kvtools::band_table_section(std::cout, files);
    real_log_section(std::cout, files, ok);
    return ok ? 0 : 1;
}

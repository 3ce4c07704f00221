// docs/ACCURACY.md's band table (band_table.h).
#include "band_table.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <tuple>

#include <nlohmann/json.hpp>

#include "kvcalc/deployment/predict.h"

namespace kvtools {

namespace {

constexpr double kGiB = 1073741824.0;
/// |error| at or below this counts as neither optimistic nor pessimistic (the log prints two decimals).
constexpr double kEvenGib = 0.005;

std::string fixed(double x, const char* spec) {
    char buf[32];
    std::snprintf(buf, sizeof buf, spec, x);
    return buf;
}

struct Group {
    std::vector<double> errors;  // predicted − logged, GiB
    std::vector<double> bands;   // the ± the Report states for each run, GiB
};

// The Report's band over a group's runs: one value, or the range when the runs differ (e.g. an estimated total).
std::string band_text(std::vector<double> bands) {
    std::sort(bands.begin(), bands.end());
    const std::string lo = fixed(bands.front(), "%.2f"), hi = fixed(bands.back(), "%.2f");
    return lo == hi ? "±" + lo + " GiB" : "±" + lo + "–" + hi + " GiB";
}

std::string model_class(const nlohmann::json& fx) {
    const nlohmann::json& cfg = fx["config"];
    const std::string archs = cfg.value("architectures", nlohmann::json::array()).dump();
    if (archs.find("Conditional") != std::string::npos || cfg.contains("vision_config")) return "multimodal";
    const std::string cls = fx.value("architecture_class", "");
    const nlohmann::json& text = cfg.contains("text_config") ? cfg["text_config"] : cfg;
    for (const char* k : {"num_experts", "n_routed_experts", "num_local_experts"})
        if (text.value(k, 0) > 0) return "MoE";
    if (cls.find("MoE") != std::string::npos || cls.find("moe") != std::string::npos) return "MoE";
    return "dense";
}

}  // namespace

void band_table_section(std::ostream& out, const std::vector<std::filesystem::path>& files) {
    std::map<std::tuple<std::string, std::string, std::string>, Group> groups;
    for (const auto& path : files) {
        std::ifstream f(path);
        std::stringstream text;
        text << f.rdbuf();
        const nlohmann::json fx = nlohmann::json::parse(text.str(), nullptr, false);
        if (fx.is_discarded() || fx.value("engine", "") != "vllm" || !fx.contains("runs") || !fx.contains("config"))
            continue;
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
            if (!r.ok) continue;
            const double non_kv = static_cast<double>(r.terms.weights_bytes + r.terms.activation_bytes +
                                                      r.terms.cudagraph_workspace_bytes + r.terms.drafter_bytes);
            const double avail = (static_cast<double>(r.terms.budget_bytes) - non_kv) / kGiB;
            const std::string tp = s.tensor_parallel_size > 1 ? "≥ 2" : "1";
            Group& g = groups[{std::string(r.settings.vllm_version), tp, model_class(fx)}];
            g.errors.push_back(avail - run.value("available_kv_gib", 0.0));
            g.bands.push_back(static_cast<double>(r.error_band_bytes) / kGiB);
        }
    }
    out << "## Error bands by era and set-up\n\n"
        << "Generated from the real start-up logs above (tools/accuracy/band_table.cpp): per vLLM era, tensor\n"
        << "parallel size and model class, the logged boots, the median and largest |kvcalc − log| of \"Available KV\n"
        << "cache memory\", and the sign: optimistic runs are priced above the log (kvcalc promises KV vLLM does not\n"
        << "give), pessimistic below. `Report band` is the ± kvcalc's Report states for those runs\n"
        << "(vllm/accounting.cpp), and `optimistic past band` counts the runs priced above the log by more than\n"
        << "that band: the misses a user who trusts the band's low end would still boot into. A group of one or two\n"
        << "logs is no band; it shows how little is known there.\n\n"
        << "| vLLM era | TP | model | n logs | median abs error | max abs error | optimistic / pessimistic / even | "
           "Report band | optimistic past band |\n"
        << "|---|---|---|---|---|---|---|---|---|\n";
    for (auto& [key, g] : groups) {
        std::vector<double> a;
        int over = 0, under = 0, even = 0, past = 0;
        for (std::size_t i = 0; i < g.errors.size(); ++i) {
            const double e = g.errors[i];
            a.push_back(std::fabs(e));
            if (e > kEvenGib) ++over;
            else if (e < -kEvenGib) ++under;
            else ++even;
            if (e > g.bands[i] + 1e-9) ++past;
        }
        std::sort(a.begin(), a.end());
        const std::size_t n = a.size();
        const double median = n % 2 ? a[n / 2] : (a[n / 2 - 1] + a[n / 2]) / 2.0;
        out << "| " << std::get<0>(key) << " | " << std::get<1>(key) << " | " << std::get<2>(key) << " | " << n << " | "
            << fixed(median, "%.2f") << " GiB | " << fixed(a.back(), "%.2f") << " GiB | " << over << " / " << under
            << " / " << even << " | " << band_text(g.bands) << " | " << past << " |\n";
    }
    out << "\n";
}

}  // namespace kvtools

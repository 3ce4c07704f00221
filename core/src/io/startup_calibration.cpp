// A scenario calibrated to a start-up log (startup_calibration.h): settings the user left open come from the log,
// and the log's memory terms become Scenario::measured.
#include "kvcalc/io/startup_calibration.h"

#include <algorithm>
#include <cctype>
#include <cmath>

#include "kvcalc/base/units.h"
#include "kvcalc/catalog/catalog.h"
#include "kvcalc/catalog/catalog_popular.h"
#include "kvcalc/engines/vllm/accounting.h"

namespace kvcalc {

namespace {

const LogFact* fact(const StartupLog& log, std::string_view name) {
    const LogFact* f = find_fact(log, name);
    return f && f->has_value && std::isfinite(f->value) ? f : nullptr;
}

std::optional<std::int64_t> gib_bytes(const LogFact* f) {
    if (!f || f->value < 0 || f->value > 1e6) return std::nullopt;
    return static_cast<std::int64_t>(std::llround(f->value * static_cast<double>(kBytesPerGib)));
}

std::string at_line(const LogFact& f) { return " (log line " + std::to_string(f.line) + ")"; }

std::string lower(std::string_view s) {
    std::string out(s);
    for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

/// The catalog model whose Hugging Face repo (a weights variant's, or the config a popular model was read from)
/// the log names ("meta-llama/Llama-3.1-8B-Instruct"); a local path matches by its last components.
const ModelSpec* catalog_model_for(std::string_view served) {
    std::string name = lower(served);
    while (!name.empty() && name.back() == '/') name.pop_back();
    const auto matches = [&](const std::string& hf_repo) {
        if (hf_repo.empty()) return false;
        const std::string repo = lower(hf_repo);
        return name == repo ||
               (name.size() > repo.size() && name.ends_with(repo) && name[name.size() - repo.size() - 1] == '/');
    };
    static const std::vector<PopularModelSource> popular = popular_model_sources();
    for (const PopularModelSource& p : popular)
        if (matches(p.hf_repo)) return find_model(p.id);
    for (const ModelSpec& m : model_catalog())
        for (const WeightsVariant& w : m.weights)
            if (matches(w.hf_repo)) return &m;
    return nullptr;
}

/// Tensor-parallel ranks from the process prefixes ("Worker_TP1 pid=515"): the highest TP index + 1, 0 if none.
int ranks_in_prefixes(const StartupLog& log) {
    int tp = 0;
    for (const LogFact& f : log.facts) {
        const std::size_t at = f.rank.find("_TP");
        if (at == std::string::npos) continue;
        int n = 0;
        std::size_t i = at + 3;
        while (i < f.rank.size() && std::isdigit(static_cast<unsigned char>(f.rank[i])) && n < 1000) n = n * 10 + (f.rank[i++] - '0');
        if (i > at + 3) tp = std::max(tp, n + 1);
    }
    return tp;
}

/// V0's profile lines (no V1 log prints them): the release is V0 when the log has no banner.
bool v0_lines(const StartupLog& log) {
    for (const char* name : {"requested_memory_gib", "model_weights_gib", "peak_torch_memory_gib", "num_cpu_blocks"})
        if (find_fact(log, name)) return !find_fact(log, "free_memory_on_startup_gib");
    return false;
}

MeasuredTerms measured_terms(const StartupLog& log, bool graphs_subtracted) {
    MeasuredTerms m;
    if (const LogFact* f = fact(log, "max_model_len")) m.max_model_len = std::llround(f->value);
    else if (const LogFact* g = fact(log, "max_concurrency_tokens_per_request")) m.max_model_len = std::llround(g->value);
    if (const LogFact* f = fact(log, "max_num_batched_tokens")) m.max_num_batched_tokens = std::llround(f->value);
    if (const LogFact* f = fact(log, "gpu_memory_utilization"); f && f->value > 0 && f->value <= 1)
        m.gpu_memory_utilization = f->value;
    m.cuda_total_bytes = gib_bytes(fact(log, "total_gpu_memory_gib"));
    // Weights: V0 and 0.10.2+ name them in the profile split; else "Model loading took" (V1) / "Loading model
    // weights took" (V0 0.6.4).
    const std::optional<std::int64_t> loading = gib_bytes(fact(log, "model_loading_gib"));
    m.weights_bytes = gib_bytes(fact(log, "model_weights_gib"));
    if (!m.weights_bytes) m.weights_bytes = loading;
    m.non_torch_bytes = gib_bytes(fact(log, "non_torch_memory_gib"));
    // Later releases print weights and non-torch as one "consumed memory".
    if (const std::optional<std::int64_t> consumed = gib_bytes(fact(log, "consumed_memory_gib"))) {
        if (loading && *loading <= *consumed) {
            m.weights_bytes = loading;
            m.non_torch_bytes = *consumed - *loading;
        } else {
            m.weights_bytes = consumed;
            m.non_torch_bytes = 0;
        }
    }
    m.torch_peak_bytes = gib_bytes(fact(log, "torch_peak_memory_gib"));
    // V0 0.6.4 prints the absolute peak (weights included): kv = total × util − peak − non-torch.
    if (!m.torch_peak_bytes && m.weights_bytes)
        if (const std::optional<std::int64_t> peak = gib_bytes(fact(log, "peak_torch_memory_gib")); peak && *peak >= *m.weights_bytes)
            m.torch_peak_bytes = *peak - *m.weights_bytes;
    if (graphs_subtracted) m.cudagraph_bytes = gib_bytes(fact(log, "cudagraph_estimated_gib"));
    m.available_kv_bytes = gib_bytes(fact(log, "available_kv_cache_gib"));
    m.kv_cache_memory_fixed = find_fact(log, "kv_cache_memory_bytes_given") != nullptr;
    return m;
}

}  // namespace

StartupCalibration calibrate_from_log(const Scenario& user, const StartupLog& log, bool model_given) {
    StartupCalibration out;
    out.scenario = user;
    if (!log.ok) {
        out.diagnostics.push_back({Severity::error, "log_not_priced", "log",
                                   "the start-up log has errors (see its diagnostics): nothing is priced from it"});
        return out;
    }
    out.ok = true;
    Scenario& s = out.scenario;
    const auto filled = [&](const std::string& what, const LogFact* f) {
        out.filled.push_back(what + (f ? at_line(*f) : std::string()));
    };
    if (log.engine == LogEngine::llama_cpp || log.engine == LogEngine::sglang) {
        if (s.engine == "vllm") {
            s.engine = log_engine_name(log.engine);
            filled("engine " + s.engine, nullptr);
        }
        out.diagnostics.push_back({Severity::info, "log_terms_vllm_only", "log",
                                   std::string("kvcalc calibrates vLLM's terms only: this ") +
                                       log_engine_name(log.engine) + " log's numbers are shown beside the prediction"});
        return out;
    }
    if (!model_given) {
        if (const LogFact* f = find_fact(log, "model"); f && !f->detail.empty()) {
            if (const ModelSpec* m = catalog_model_for(f->detail)) {
                use_catalog_model(s, m->id);
                filled("model " + m->id + " (" + f->detail + ")", f);
            } else {
                out.diagnostics.push_back({Severity::warning, "log_model_unknown", "log",
                                           "the log serves '" + f->detail.substr(0, 64) +
                                               "', which is not in kvcalc's catalog: give the model itself (its catalog id, or its config.json)"});
            }
        }
    }
    if (s.tensor_parallel_size == 1) {
        const LogFact* f = fact(log, "tensor_parallel_size");
        const int tp = f ? static_cast<int>(std::llround(f->value)) : ranks_in_prefixes(log);
        if (tp > 1 && tp <= 64) {
            s.tensor_parallel_size = tp;
            filled("tensor_parallel_size " + std::to_string(tp) + (f ? "" : " (the workers' prefixes)"), f);
        }
    }
    if (s.vllm_version.empty()) {
        if (!log.engine_version.empty()) {
            s.vllm_version = log.engine_version;
            filled("vllm_version " + s.vllm_version + " (the banner)", nullptr);
        } else if (v0_lines(log)) {
            s.vllm_version = "V0";
            filled("vllm_version V0 (V0's profile lines)", nullptr);
        } else if (find_fact(log, "gpu_memory_utilization_without_cudagraph")) {
            s.vllm_version = "0.21";
            filled("vllm_version 0.21 (the CUDA-graph profiling line)", nullptr);
        }
    }
    const std::optional<VllmEra> era = parse_vllm_version(s.vllm_version);
    const bool graphs_subtracted = era && vllm_era_rules(*era).cudagraph_estimate_subtracted;
    MeasuredTerms m = measured_terms(log, graphs_subtracted);

    if (s.max_model_len == 0 && m.max_model_len > 0) {
        s.max_model_len = m.max_model_len;
        filled("max_model_len " + std::to_string(m.max_model_len), fact(log, "max_model_len") ? fact(log, "max_model_len")
                                                                                               : fact(log, "max_concurrency_tokens_per_request"));
    }
    if (s.gpu_memory_utilization == 0 && m.gpu_memory_utilization > 0) {
        s.gpu_memory_utilization = m.gpu_memory_utilization;
        filled("gpu_memory_utilization " + std::to_string(m.gpu_memory_utilization).substr(0, 4), fact(log, "gpu_memory_utilization"));
    }
    if (!s.max_num_batched_tokens && m.max_num_batched_tokens > 0) {
        s.max_num_batched_tokens = m.max_num_batched_tokens;
        filled("max_num_batched_tokens " + std::to_string(m.max_num_batched_tokens), fact(log, "max_num_batched_tokens"));
    }
    if (s.kv_cache_dtype == "auto")
        if (const LogFact* f = find_fact(log, "kv_cache_dtype"); f && !f->detail.empty() && f->detail != "auto") {
            s.kv_cache_dtype = f->detail;
            filled("kv_cache_dtype " + f->detail, f);
        }
    if (s.gpu.empty() && !s.vram_gb && !s.vram_gib && m.cuda_total_bytes) {
        s.vram_gib = fact(log, "total_gpu_memory_gib")->value;  // as printed (23.58), not its byte count over 2^30
        filled("VRAM " + std::to_string(*s.vram_gib).substr(0, 5) + " GiB (the CUDA total)", fact(log, "total_gpu_memory_gib"));
    }
    // A what-if on the boot's length keeps the boot's own as the anchor.
    if (m.max_model_len == 0) m.max_model_len = s.max_model_len;
    if (!m.weights_bytes && !m.available_kv_bytes && !m.torch_peak_bytes) {
        out.diagnostics.push_back({Severity::warning, "log_no_terms", "log",
                                   "the log prints none of vLLM's memory terms (weights, torch peak, KV cache memory): "
                                   "kvcalc's own terms are priced"});
        return out;
    }
    s.measured = m;
    return out;
}

std::vector<LogComparisonRow> compare_with_log(const StartupLog& log, const Report* predicted, const Report* calibrated) {
    std::vector<LogComparisonRow> rows;
    const auto gib = [](std::int64_t b) { return static_cast<double>(b) / static_cast<double>(kBytesPerGib); };
    const auto ok = [](const Report* r) { return r && r->ok; };
    const auto add = [&](const char* name, const char* label, const char* unit, auto value_of) {
        const LogFact* f = fact(log, name);
        if (!f) return;
        LogComparisonRow r{name, label, unit, f->value, std::nullopt, std::nullopt, f->line};
        if (ok(predicted)) r.predicted = value_of(*predicted);
        if (ok(calibrated)) r.calibrated = value_of(*calibrated);
        rows.push_back(std::move(r));
    };
    if (log.engine != LogEngine::vllm) return rows;
    add("model_loading_gib", "Model loading took", "GiB", [&](const Report& r) { return gib(r.terms.weights_bytes + r.terms.drafter_bytes); });
    add("model_weights_gib", "model weights take", "GiB", [&](const Report& r) { return gib(r.terms.weights_bytes + r.terms.drafter_bytes); });
    add("peak_torch_memory_gib", "peak_torch_memory (weights + activation)", "GiB",
        [&](const Report& r) { return gib(r.terms.weights_bytes + r.terms.drafter_bytes + r.terms.activation_bytes); });
    add("torch_peak_memory_gib", "PyTorch activation peak memory", "GiB", [&](const Report& r) { return gib(r.terms.activation_bytes); });
    add("non_torch_memory_gib", "non_torch_memory (kvcalc: with the subtracted CUDA graphs)", "GiB",
        [&](const Report& r) { return gib(r.terms.cudagraph_workspace_bytes); });
    add("requested_memory_gib", "the current vLLM instance can use", "GiB", [&](const Report& r) { return gib(r.terms.budget_bytes); });
    add("available_kv_cache_gib", "Available KV cache memory", "GiB", [&](const Report& r) { return r.startup.available_kv_gib; });
    add("gpu_kv_cache_tokens", "GPU KV cache size", "tokens", [&](const Report& r) { return static_cast<double>(r.startup.gpu_kv_cache_tokens); });
    add("max_concurrency", "Maximum concurrency", "x", [&](const Report& r) { return r.startup.max_concurrency; });
    add("estimated_max_model_len", "the estimated maximum model length", "tokens",
        [&](const Report& r) { return static_cast<double>(r.startup.estimated_max_model_len); });
    return rows;
}

}  // namespace kvcalc

// evaluate_real_case: one measured start-up log (fixture) against the engine rules.
#include "accuracy/engine_real_cases.h"

#include <cmath>

#include <nlohmann/json.hpp>

#include "kvcalc/engines/deployment.h"
#include "kvcalc/engines/engine_rules.h"
#include "kvcalc/base/gpu_catalog.h"
#include "kvcalc/config/hf_config.h"
#include "kvcalc/config/param_count.h"
#include "kvcalc/engines/vllm/accounting.h"
#include "kvcalc/engines/vllm/sampler.h"

namespace kvcalc {

namespace {

using nlohmann::json;
constexpr double kGiB = 1073741824.0;
constexpr double kMiB = 1048576.0;

double num(const json& o, const char* key, double fallback = 0.0) {
    auto it = o.find(key);
    return it != o.end() && it->is_number() ? it->get<double>() : fallback;
}
std::string str(const json& o, const char* key, const std::string& fallback = "") {
    auto it = o.find(key);
    return it != o.end() && it->is_string() ? it->get<std::string>() : fallback;
}
bool flag(const json& o, const char* key, bool fallback = false) {
    auto it = o.find(key);
    return it != o.end() && it->is_boolean() ? it->get<bool>() : fallback;
}

/// Collects the checks of one run; `differ` is the run's expect_differ object.
struct RunChecks {
    RealCaseResult& out;
    std::string run;
    const json& measured;
    const json& differ;

    void add(const char* quantity, double predicted, double tolerance) {
        auto it = measured.find(quantity);
        if (it == measured.end()) return;
        add_value(quantity,
                  it->is_boolean() ? (it->get<bool>() ? 1.0 : 0.0) : (it->is_number() ? it->get<double>() : 0.0),
                  predicted, tolerance);
    }

    void add_value(const char* quantity, double measured_value, double predicted, double tolerance) {
        RealCaseCheck c;
        c.run = run;
        c.quantity = quantity;
        c.measured = measured_value;
        c.predicted = predicted;
        c.tolerance = tolerance;
        c.within = std::fabs(predicted - c.measured) <= tolerance + 1e-9;
        auto d = differ.find(quantity);
        if (d != differ.end() && d->is_object()) {
            c.expect_differ = true;
            c.differ_reason = str(*d, "reason");
            auto r = d->find("ratio");
            if (r != d->end() && r->is_array() && r->size() == 2 && (*r)[0].is_number() && (*r)[1].is_number()) {
                c.ratio_lo = (*r)[0].get<double>();
                c.ratio_hi = (*r)[1].get<double>();
            }
        }
        out.checks.push_back(c);
    }
};

void check_weights(RunChecks& rc, const HfConfig& cfg, const json& settings) {
    if (rc.measured.find("weights_gib") == rc.measured.end()) return;
    const ParamBreakdown params = count_parameters(cfg.spec, cfg.arch);
    const auto w = estimate_weights(params, cfg.arch, str(settings, "weights_dtype", "auto"));
    const double tp = num(settings, "tensor_parallel_size", 1.0);
    const double predicted = w.bytes / tp / kGiB;
    rc.add("weights_gib", predicted, rc.measured["weights_gib"].get<double>() * num(settings, "weights_tolerance", 0.02));
}

// The start-up split predicted from what the user typed (gpu, vllm_version and the flags in `settings`), against
// the log's weights (vLLM's "weights memory": the checkpoint plus what vLLM builds or pads at load), torch peak,
// non-torch, CUDA-graph estimate and available KV memory. Only for runs naming a catalog GPU (false otherwise).
// Torch peak within 0.1 GiB; available KV within the error band vllm_account states for the path.
bool check_accounting(RunChecks& rc, const HfConfig& cfg, const std::string& config_text, const json& st,
                      const json& run) {
    const GpuSpec* gpu = find_gpu(str(st, "gpu"));
    if (!gpu) return false;
    const auto era = parse_vllm_version(str(st, "vllm_version"));
    if (!era) {
        rc.out.diagnostics.push_back({Severity::error, "fixture", "settings.vllm_version",
                                      "unknown vllm_version \"" + str(st, "vllm_version") + "\". Valid: " + vllm_era_ids()});
        return true;
    }
    ModelSpec spec = cfg.spec;
    copy_profile_widths(cfg.arch, config_text, spec);
    VllmServeFlags f;
    f.max_model_len = static_cast<std::int64_t>(num(st, "max_model_len", 0));
    f.tensor_parallel_size = static_cast<int>(num(st, "tensor_parallel_size", 1));
    if (st.contains("max_num_batched_tokens")) f.max_num_batched_tokens = static_cast<std::int64_t>(num(st, "max_num_batched_tokens"));
    if (st.contains("max_num_seqs")) f.max_num_seqs = static_cast<std::int64_t>(num(st, "max_num_seqs"));
    if (st.contains("gpu_memory_utilization")) f.gpu_memory_utilization = num(st, "gpu_memory_utilization");
    if (st.contains("block_size")) f.block_size = static_cast<int>(num(st, "block_size"));
    const auto sampler = parse_vllm_sampler(str(st, "vllm_sampler"));
    if (!sampler) {
        rc.out.diagnostics.push_back({Severity::error, "fixture", "settings.vllm_sampler",
                                      "unknown vllm_sampler \"" + str(st, "vllm_sampler") + "\". Valid: " + vllm_sampler_ids()});
        return true;
    }
    f.sampler = *sampler;
    const auto usage = parse_vllm_usage_context(str(st, "vllm_usage_context"));
    if (!usage) {
        rc.out.diagnostics.push_back({Severity::error, "fixture", "settings.vllm_usage_context",
                                      "unknown vllm_usage_context \"" + str(st, "vllm_usage_context") +
                                          "\". Valid: " + vllm_usage_context_ids()});
        return true;
    }
    f.entry_point = *usage;
    const WeightsEstimate w = estimate_weights(count_parameters(cfg.spec, cfg.arch), cfg.arch, str(st, "weights_dtype", "auto"));
    const auto weights = static_cast<std::int64_t>(w.bytes / f.tensor_parallel_size);
    const VllmAccounting a = vllm_account(vllm_profile_dims(spec), vllm_device(*gpu), f, *era, weights, false);
    // 0.1 GiB is what the dense text models of the v0.19 and v0.11 logs support; MoE / multimodal paths and V0's
    // max_model_len-long profile fit within 0.2 / 0.15 (docs/SOURCES.md "vLLM start-up accounting").
    const VllmProfileDims dims = vllm_profile_dims(spec);
    const double peak_tol = dims.num_experts > 0 || dims.multimodal ? 0.2 : (*era == VllmEra::v0 ? 0.15 : 0.1);
    if (rc.measured.contains("weights_gib"))
        rc.add("weights_gib", static_cast<double>(a.weights_bytes) / kGiB,
               rc.measured["weights_gib"].get<double>() * num(st, "weights_tolerance", 0.02));
    rc.add("torch_peak_gib", static_cast<double>(a.torch_peak_bytes) / kGiB, peak_tol);
    rc.add("non_torch_gib", static_cast<double>(a.non_torch_bytes) / kGiB, 0.25);
    rc.add("cudagraph_estimate_gib", static_cast<double>(a.cudagraph_bytes) / kGiB, 0.15);
    const double avail = num(run, "available_kv_gib", NAN);
    if (std::isfinite(avail))
        rc.add_value("available_kv_e2e_gib", avail, static_cast<double>(a.available_kv_bytes) / kGiB,
                     static_cast<double>(a.error_band_bytes) / kGiB);
    return true;
}

void run_vllm(RunChecks& rc, const HfConfig& cfg, const std::string& config_text, const json& run) {
    const json& st = run.contains("settings") ? run["settings"] : json::object();
    VllmSettings s;
    s.tensor_parallel_size = static_cast<int>(num(st, "tensor_parallel_size", 1));
    s.max_model_len = static_cast<std::int64_t>(num(st, "max_model_len", 0));
    s.max_num_batched_tokens = static_cast<std::int64_t>(num(st, "max_num_batched_tokens", 8192));
    s.block_size = static_cast<int>(num(st, "block_size", 16));
    s.kv_cache_dtype = str(st, "kv_cache_dtype", "auto");
    // Page size first (any pool), then the pool the log implies.
    VllmKvPrediction probe = predict_vllm_kv(cfg.spec, s, {1});
    if (has_error(probe.diagnostics)) {
        rc.out.diagnostics.insert(rc.out.diagnostics.end(), probe.diagnostics.begin(), probe.diagnostics.end());
        return;
    }
    const double rounding = num(run, "print_rounding_gib", 0.005);
    double avail_gib = num(run, "available_kv_gib", NAN);
    double rel = 0.0;  // relative uncertainty of the pool
    std::int64_t avail = 0;
    if (run.contains("available_kv_from_blocks")) {  // pool not printed: exactly that many blocks
        const double blocks = num(run, "available_kv_from_blocks");
        avail = static_cast<std::int64_t>(blocks) * probe.page_size_bytes *
                static_cast<std::int64_t>(cfg.spec.layers.size());  // uniform models: one group of all layers
    } else if (std::isfinite(avail_gib)) {
        avail = static_cast<std::int64_t>(std::llround(avail_gib * kGiB));
        rel = avail_gib > 0 ? rounding / avail_gib : 0.0;
    } else {
        rc.out.diagnostics.push_back({Severity::error, "fixture", "available_kv_gib",
                                      "run has neither available_kv_gib nor available_kv_from_blocks"});
        return;
    }
    const VllmKvPrediction p = predict_vllm_kv(cfg.spec, s, {avail});
    const double block = s.block_size;
    rc.add("kv_bytes_per_token", static_cast<double>(p.kv_bytes_per_token),
           num(rc.measured, "kv_bytes_per_token") * 0.01);
    if (rc.measured.contains("cpu_swap_blocks")) {  // V0 swap space: floor(swap / block bytes)
        const double swap = num(run, "swap_space_gib", 4.0) * kGiB;
        rc.add("cpu_swap_blocks", std::floor(swap / (block * static_cast<double>(p.kv_bytes_per_token))), 0.0);
    }
    const double tokens = num(rc.measured, "gpu_kv_cache_tokens");
    rc.add("gpu_kv_cache_tokens", static_cast<double>(p.gpu_kv_cache_tokens), tokens * rel + block);
    rc.add("max_concurrency", p.max_concurrency, num(rc.measured, "max_concurrency") * rel + 0.005);
    rc.add("kv_needed_gib", static_cast<double>(p.kv_needed_bytes) / kGiB, 0.005);
    rc.add("refuses_to_start", p.refuses_to_start ? 1.0 : 0.0, 0.0);
    const double est = num(rc.measured, "estimated_max_model_len");
    rc.add("estimated_max_model_len", static_cast<double>(p.estimated_max_model_len), est * rel + block);
    if (!check_accounting(rc, cfg, config_text, st, run)) check_weights(rc, cfg, st);
}

void run_llama_cpp(RunChecks& rc, const HfConfig& cfg, const json& run) {
    const json& st = run.contains("settings") ? run["settings"] : json::object();
    LlamaCppSettings s;
    s.n_ctx = static_cast<std::int64_t>(num(st, "n_ctx", 4096));
    s.n_seq_max = static_cast<int>(num(st, "n_seq_max", 1));
    s.n_ubatch = static_cast<int>(num(st, "n_ubatch", 512));
    s.kv_unified = flag(st, "kv_unified");
    s.swa_full = flag(st, "swa_full");
    s.flash_attn = flag(st, "flash_attn", true);
    s.build = static_cast<int>(num(st, "build", 0));  // "build: 6182 (1fe00296f)" in the log; 0 = newest rules
    s.cache_type_k = str(st, "cache_type_k", "f16");
    s.cache_type_v = str(st, "cache_type_v", "f16");
    const LlamaCppKvPrediction p = predict_llama_cpp_kv(cfg.spec, s);
    if (has_error(p.diagnostics)) {
        rc.out.diagnostics.insert(rc.out.diagnostics.end(), p.diagnostics.begin(), p.diagnostics.end());
        return;
    }
    rc.add("kv_bytes_per_token", static_cast<double>(p.kv_bytes_per_token), num(rc.measured, "kv_bytes_per_token") * 0.01);
    rc.add("full_cells", static_cast<double>(p.full_cells), 0.0);
    rc.add("swa_cells", static_cast<double>(p.swa_cells), 0.0);
    rc.add("full_mib", static_cast<double>(p.full_bytes) / kMiB, 0.005);
    rc.add("swa_mib", static_cast<double>(p.swa_bytes) / kMiB, 0.005);
    rc.add("kv_mib", static_cast<double>(p.full_bytes + p.swa_bytes) / kMiB, 0.005);
    rc.add("k_mib", static_cast<double>(p.k_bytes) / kMiB, 0.005);
}

void run_sglang(RunChecks& rc, const HfConfig& cfg, const json& run) {
    const json& st = run.contains("settings") ? run["settings"] : json::object();
    SglangSettings s;
    s.tp_size = static_cast<int>(num(st, "tp_size", 1));
    s.kv_cache_dtype = str(st, "kv_cache_dtype", "auto");
    const json& pool = run.contains("sglang_pool") ? run["sglang_pool"] : json::object();
    const double total = num(pool, "total_gib"), after = num(pool, "avail_after_load_gib");
    const double frac = num(pool, "mem_fraction_static", 0.9);
    const std::int64_t avail = sglang_kv_pool_bytes(static_cast<std::int64_t>(total * kGiB),
                                                    static_cast<std::int64_t>(after * kGiB), frac);
    const SglangKvPrediction p = predict_sglang_kv(cfg.spec, s, avail);
    if (has_error(p.diagnostics)) {
        rc.out.diagnostics.insert(rc.out.diagnostics.end(), p.diagnostics.begin(), p.diagnostics.end());
        return;
    }
    const double rounding = num(run, "print_rounding_gib", 0.005);
    const double pool_err = rounding * (1.0 + (1.0 - frac)) * kGiB;  // both printed inputs rounded
    rc.add("kv_bytes_per_token", static_cast<double>(p.cell_size_bytes), num(rc.measured, "kv_bytes_per_token") * 0.01);
    rc.add("max_total_num_tokens", static_cast<double>(p.max_total_num_tokens),
           pool_err / static_cast<double>(p.cell_size_bytes) + 1.0);
    rc.add("k_size_gib", static_cast<double>(p.k_bytes) / kGiB, 0.005 + pool_err / 2.0 / kGiB);
    check_weights(rc, cfg, st);
}

}  // namespace

bool RealCaseCheck::as_expected() const {
    if (!expect_differ) return within;
    if (within || measured == 0.0) return false;
    const double r = predicted / measured;
    return r >= ratio_lo && r <= ratio_hi;
}

bool RealCaseResult::expected_to_differ() const {
    for (const auto& c : checks) {
        if (c.expect_differ) return true;
    }
    return false;
}

bool RealCaseResult::as_expected() const {
    if (has_error(diagnostics) || checks.empty()) return false;
    for (const auto& c : checks) {
        if (!c.as_expected()) return false;
    }
    return true;
}

RealCaseResult evaluate_real_case(std::string_view fixture_json) {
    RealCaseResult out;
    const json f = json::parse(fixture_json.begin(), fixture_json.end(), nullptr, false);
    if (f.is_discarded() || !f.is_object() || !f.contains("config") || !f.contains("runs") || !f["runs"].is_array()) {
        out.diagnostics.push_back({Severity::error, "fixture", "",
                                   "fixture must be a JSON object with \"config\" and a \"runs\" array"});
        return out;
    }
    out.id = str(f, "id");
    out.engine = str(f, "engine");
    out.architecture_class = str(f, "architecture_class");
    out.model = str(f, "model");
    out.source = str(f, "source");
    const std::string config_text = f["config"].dump();
    HfConfig cfg = read_hf_config(config_text);
    for (const auto& d : cfg.diagnostics) {
        if (d.severity == Severity::error) out.diagnostics.push_back(d);
    }
    if (has_error(out.diagnostics)) return out;
    const json empty = json::object();
    for (const auto& run : f["runs"]) {
        if (!run.is_object()) continue;
        const json& measured = run.contains("measured") ? run["measured"] : empty;
        const json& differ = run.contains("expect_differ") ? run["expect_differ"] : empty;
        RunChecks rc{out, str(run, "label"), measured, differ};
        const EngineInfo* engine = find_engine(out.engine);
        if (!engine || out.engine.empty()) {
            out.diagnostics.push_back({Severity::error, "fixture", "engine",
                                       "engine \"" + out.engine + "\" is not one of vllm, llama.cpp, sglang"});
            return out;
        }
        switch (engine->id) {  // exhaustive: a new engine needs its real-case runner here
            case EngineId::vllm: run_vllm(rc, cfg, config_text, run); break;
            case EngineId::llama_cpp: run_llama_cpp(rc, cfg, run); break;
            case EngineId::sglang: run_sglang(rc, cfg, run); break;
        }
    }
    return out;
}

}  // namespace kvcalc

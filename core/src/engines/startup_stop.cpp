// Why an engine stops at start-up instead of serving (startup_stop.h), and its error in its own terms.
#include "engines/startup_stop.h"

#include "kvcalc/base/gpu_catalog.h"
#include "kvcalc/base/kv_format.h"
#include "kvcalc/base/units.h"

namespace kvcalc::detail {

StartupStop startup_stop(const Deployment& d, const Load& load, const BudgetTerms& t, bool engine_refuses) {
    if (!t.kv_dtype_runs) return StartupStop::kv_dtype_no_kernel;
    // Loading puts every weight byte on the card before any budget is applied: more than the card holds is an
    // out-of-memory error while loading, whatever gpu_memory_utilization says.
    if (load.vram_bytes > 0 && t.weights_bytes + t.drafter_bytes > load.vram_bytes) return StartupStop::weights_exceed_card;
    // llama.cpp has no memory fraction: it allocates what it is asked for (the budget is kvcalc's, not its own).
    if (d.engine != EngineId::llama_cpp && (t.budget_bytes <= 0 || t.available_for_kv_bytes <= 0))
        return StartupStop::no_cache_memory;
    return engine_refuses ? StartupStop::kv_below_one_request : StartupStop::none;
}

namespace {

std::string gib(std::int64_t bytes) { return format_size(bytes, ByteUnit::gib); }

std::string refusal_text(const Deployment& d, const Load& load, const BudgetTerms& t, StartupStop stop) {
    const std::string engine = engine_info(d.engine).display_name;
    const GpuSpec* card = load.gpu ? load.gpu : d.gpu;
    switch (stop) {
        case StartupStop::none: return {};
        case StartupStop::kv_dtype_no_kernel: {
            const KvFormat& run = d.run_format ? *d.run_format : *d.format;
            // vLLM's Triton attention path stores fp8 as Triton's fp8e4nv, which Triton builds for sm_89 and newer
            // only: the profiling forward pass fails to compile (vllm-project/vllm issue #26431, RTX 3090).
            if (d.engine == EngineId::vllm && run.id == KvFormatId::fp8_e4m3 && card && card->vendor == GpuVendor::nvidia)
                return "vLLM stops in its memory-profiling forward pass, before it sizes the KV cache: Triton has no "
                       "fp8 e4m3 type below sm_89 (\"type fp8e4nv not supported in this architecture\")";
            return engine + " stops before it sizes the KV cache: " + kv_hardware_sentence(d, card);
        }
        case StartupStop::weights_exceed_card:
            return engine + " runs out of memory while loading the weights (CUDA out of memory): " +
                   gib(t.weights_bytes + t.drafter_bytes) + " per card on a " + gib(load.vram_bytes) + " card";
        case StartupStop::no_cache_memory:
            if (d.engine == EngineId::sglang)  // model_runner / pool_configurator: max_total_num_tokens <= 0
                return "SGLang stops after loading the weights: \"Not enough memory\" for the KV pool (the weights, " +
                       gib(t.fixed_bytes) + " per card, fill mem_fraction_static × VRAM, " + gib(t.budget_bytes) + ")";
            // vllm/v1/core/kv_cache_utils.py _check_enough_kv_cache_memory: available memory <= 0.
            return engine + " loads the weights, then stops: \"No available memory for the cache blocks\" (the fixed "
                   "terms, " + gib(t.fixed_bytes) + " per card, fill gpu_memory_utilization × VRAM, " +
                   gib(t.budget_bytes) + ")";
        case StartupStop::kv_below_one_request:
            return engine + " refuses to start: one " + format_count(load.max_model_len) + "-token request needs " +
                   gib(t.kv_one_sequence_bytes) + " of KV cache, more than the " + gib(t.available_for_kv_bytes) +
                   " available";
    }
    return {};
}

}  // namespace

void apply_startup_stop(const Deployment& d, const Load& load, const BudgetTerms& t, StartupPrediction& out) {
    out.stop = startup_stop(d, load, t, out.refuses_to_start);
    out.refuses_to_start = out.stop != StartupStop::none;
    if (out.stop == StartupStop::kv_dtype_no_kernel || out.stop == StartupStop::weights_exceed_card) {
        // It stops before any KV line: what the engine rules predicted for the pool is never printed.
        StartupPrediction stopped;
        stopped.engine_rules = std::move(out.engine_rules);
        stopped.stop = out.stop;
        stopped.refuses_to_start = true;
        out = std::move(stopped);
    }
    if (out.stop != StartupStop::none) out.refusal = refusal_text(d, load, t, out.stop);  // runs per predict()
}

}  // namespace kvcalc::detail

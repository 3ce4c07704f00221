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
    // An engine without a memory fraction (llama.cpp) allocates what it is asked for (the budget is kvcalc's).
    if (engine_info(d.engine).stop_text.no_cache_memory && (t.budget_bytes <= 0 || t.available_for_kv_bytes <= 0))
        return StartupStop::no_cache_memory;
    return engine_refuses ? StartupStop::kv_below_one_request : StartupStop::none;
}

namespace {

std::string gib(std::int64_t bytes) { return format_size(bytes, ByteUnit::gib); }

std::string refusal_text(const Deployment& d, const Load& load, const BudgetTerms& t, StartupStop stop) {
    const EngineInfo& row = engine_info(d.engine);
    const std::string engine = row.display_name;
    const GpuSpec* card = load.gpu ? load.gpu : d.gpu;
    switch (stop) {
        case StartupStop::none: return {};
        case StartupStop::kv_dtype_no_kernel: {
            const KvFormat& run = d.run_format ? *d.run_format : *d.format;
            if (row.stop_text.fp8_e4m3_no_kernel && run.id == KvFormatId::fp8_e4m3 && card &&
                card->vendor == GpuVendor::nvidia)
                return row.stop_text.fp8_e4m3_no_kernel;
            return engine + " stops before it sizes the KV cache: " + kv_hardware_sentence(d, card);
        }
        case StartupStop::weights_exceed_card:
            return engine + " runs out of memory while loading the weights (CUDA out of memory): " +
                   gib(t.weights_bytes + t.drafter_bytes) + " per card on a " + gib(load.vram_bytes) + " card";
        case StartupStop::no_cache_memory: {  // only for a row with the sentence (startup_stop above)
            const StartupStopText& x = row.stop_text;
            return std::string(x.no_cache_memory) + " (" + x.fixed_terms + ", " + gib(t.fixed_bytes) +
                   " per card, fill " + row.memory_fraction + " × VRAM, " + gib(t.budget_bytes) + ")";
        }
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

// result_sentence(): the verdict explained for people (result_sentence.h).
#include "kvcalc/result_sentence.h"

#include <cstdio>

#include "kvcalc/deployment.h"
#include "kvcalc/units.h"

namespace kvcalc {

const char* byte_unit_name(ByteUnit unit) { return unit == ByteUnit::gb ? "GB" : "GiB"; }

std::string format_size(std::int64_t bytes, ByteUnit unit) {
    char buf[48];
    const double v = unit == ByteUnit::gb ? bytes_to_gb(bytes) : bytes_to_gib(bytes);
    std::snprintf(buf, sizeof buf, v >= 100.0 ? "%.0f %s" : "%.2f %s", v, byte_unit_name(unit));
    return buf;
}

std::string format_count(std::int64_t n) {
    const auto magnitude = n < 0 ? 0ull - static_cast<unsigned long long>(n) : static_cast<unsigned long long>(n);
    const std::string digits = std::to_string(magnitude);
    std::string out;
    for (std::size_t i = 0; i < digits.size(); ++i) {
        if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
        out += digits[i];
    }
    return n < 0 ? "-" + out : out;
}

namespace {

std::string decimals(double x, int places) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.*f", places, x);
    return buf;
}

}  // namespace

std::string result_sentence(const Report& r, ByteUnit unit) {
    if (!r.ok) return {};
    const BudgetTerms& t = r.terms;
    const ResolvedSettings& s = r.settings;
    const auto b = [unit](std::int64_t bytes) { return format_size(bytes, unit); };
    const EngineInfo* engine = find_engine(r.engine);
    const std::string engine_name = engine ? engine->display_name : "the engine";
    if (!t.kv_dtype_runs) return r.reason + ".";  // no kernel for the cache dtype on this card: FAIL, not bytes
    if (r.verdict == Verdict::fail) {
        // Why the engine stops is the start-up rule's (startup_stop.cpp): the sentence names the same cause.
        if (r.startup.stop == StartupStop::weights_exceed_card)
            return "The weights alone (" + b(t.weights_bytes + t.drafter_bytes) + " per card) are more than the card's " +
                   b(s.vram_bytes) + ": " + engine_name + " runs out of memory while loading them.";
        if (r.startup.stop == StartupStop::no_cache_memory) {
            const std::string what = t.weights_bytes + t.drafter_bytes >= t.budget_bytes
                                         ? "The weights alone (" + b(t.weights_bytes + t.drafter_bytes) + " per card) exceed"
                                         : "The weights, activation peak and CUDA graphs (" + b(t.fixed_bytes) + " per card) fill";
            const std::string stop = r.engine == "sglang" ? "SGLang loads the weights, then stops: not enough memory for its KV pool."
                                                          : engine_name + " loads the model, then stops: no available memory for the cache blocks.";
            return what + " the budget (" + b(t.budget_bytes) + ", gpu_memory_utilization × VRAM): " + stop;
        }
        if (t.available_for_kv_bytes <= 0)
            return "The fixed terms (" + b(t.fixed_bytes) + ") do not fit the budget (" + b(t.budget_bytes) + "): " +
                   engine_name + " cannot load the model.";
        return "After the fixed terms only " + b(t.available_for_kv_bytes) + " is left for the KV cache, but one " +
               format_count(s.max_model_len) + "-token sequence needs " + b(t.kv_one_sequence_bytes) + ": " +
               engine_name + " refuses to start.";
    }
    if (t.kv_growing_requested_bytes > t.kv_growing_granted_bytes)
        return "Boots, but the KV pool holds " + b(t.kv_growing_granted_bytes) + " of the " +
               b(t.kv_growing_requested_bytes) + " that " + format_count(s.max_num_seqs) +
               " full-length sequences would need: about " + decimals(r.effective_max_num_seqs, 1) +
               " run at full length at once.";
    if (r.verdict == Verdict::tight)
        return "Fits, but the demand (" + b(t.demand_bytes) + ") is within the ±" + b(t.tight_band_bytes) +
               " error band of the budget (" + b(t.budget_bytes) + ").";
    if (s.max_num_seqs_is_default)  // vLLM's default max_num_seqs caps the batch; start-up needs one request
        return "Fits: a " + format_count(s.max_model_len) + "-token request needs " + b(t.kv_growing_requested_bytes) +
               " of KV, with " + b(t.budget_bytes - t.demand_bytes) + " to spare; about " +
               decimals(t.max_concurrency, 2) + " such requests run at once (max_num_seqs " +
               format_count(s.max_num_seqs) + " is " + engine_name + "'s default cap).";
    return "Fits: every sequence gets its full " + format_count(s.max_model_len) + " tokens (" +
           b(t.kv_growing_requested_bytes) + " of KV), with " + b(t.budget_bytes - t.demand_bytes) + " to spare.";
}

}  // namespace kvcalc

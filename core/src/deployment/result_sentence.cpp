// result_sentence(): the verdict explained for people (result_sentence.h).
#include "kvcalc/deployment/result_sentence.h"

#include <algorithm>
#include <cstdio>

#include "kvcalc/base/checked_math.h"
#include "kvcalc/deployment/concurrency_text.h"
#include "kvcalc/engines/deployment.h"
#include "kvcalc/base/units.h"

namespace kvcalc {

KvFigures kv_figures(const Report& r) {
    KvFigures f;
    if (!r.ok) return f;
    const BudgetTerms& t = r.terms;
    f.pool_bytes = std::max<std::int64_t>(0, t.available_for_kv_bytes);
    if (f.pool_bytes > 0 && f.pool_bytes < t.kv_one_sequence_bytes) {  // one request alone is refused
        f.needs_bytes = t.kv_one_sequence_bytes;
        f.sequences = 1;
        return f;
    }
    f.needs_bytes = t.kv_requested_bytes;
    f.sequences = r.settings.max_num_seqs_is_default ? 1 : r.settings.max_num_seqs;
    return f;
}

std::string result_sentence(const Report& r, ByteUnit unit) {
    if (!r.ok) return {};
    const BudgetTerms& t = r.terms;
    const ResolvedSettings& s = r.settings;
    const auto b = [unit](std::int64_t bytes) { return format_size(bytes, unit); };
    const EngineInfo* engine = find_engine(r.engine);
    const std::string engine_name = engine ? engine->display_name : "the engine";
    const KvFigures kv = kv_figures(r);
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
            // Only an engine whose row has the sentence stops so (startup_stop.cpp).
            const char* stop = engine ? engine->stop_text.no_cache_memory_sentence : nullptr;
            if (!stop) return r.reason + ".";
            return what + " the budget (" + b(t.budget_bytes) + ", " + engine->memory_fraction + " × VRAM): " + stop;
        }
        if (t.available_for_kv_bytes <= 0)
            return "The fixed terms (" + b(t.fixed_bytes) + ") do not fit the budget (" + b(t.budget_bytes) + "): " +
                   engine_name + " cannot load the model.";
        // llama.cpp allocates every -np slot's cache at start-up (-c = max_num_seqs × max_model_len cells): the
        // figure is all slots', so the sentence says so (llama-context.cpp llama_context: n_ctx cells).
        if (r.engine == "llama.cpp" && s.max_num_seqs > 1)
            return "After the fixed terms only " + b(kv.pool_bytes) + " is left for the KV cache, but the cache for " +
                   format_count(s.max_num_seqs) + " slots of " + format_count(s.max_model_len) + " tokens (-np " +
                   std::to_string(s.max_num_seqs) + ", -c " + format_count(sat_mul(s.max_num_seqs, s.max_model_len)) +
                   ") needs " + b(kv.needs_bytes) + ": llama.cpp cannot allocate it at start-up.";
        return "After the fixed terms only " + b(kv.pool_bytes) + " is left for the KV cache, but one " +
               format_count(s.max_model_len) + "-token sequence needs " + b(kv.needs_bytes) + ": " +
               engine_name + " refuses to start.";
    }
    if (kv.needs_bytes > kv.pool_bytes)
        return "Boots, but the KV pool holds " + b(kv.pool_bytes) + " of the " + b(kv.needs_bytes) + " that " +
               format_count(kv.sequences) + " full-length sequences would need: about " +
               concurrency_text(r.effective_max_num_seqs) + " run at full length at once.";
    if (r.verdict == Verdict::tight)
        return "Fits, but the demand (" + b(t.demand_bytes) + ") is within the ±" + b(t.tight_band_bytes) +
               " error band of the budget (" + b(t.budget_bytes) + ").";
    const std::string room = " of the " + b(kv.pool_bytes) + " KV pool, with " + b(kv.pool_bytes - kv.needs_bytes) +
                             " to spare";
    if (s.max_num_seqs_is_default)  // vLLM's default max_num_seqs caps the batch; start-up needs one request
        return "Fits: a " + format_count(s.max_model_len) + "-token request needs " + b(kv.needs_bytes) + room +
               "; about " + concurrency_text(t.max_concurrency) + " such requests run at once (max_num_seqs " +
               format_count(s.max_num_seqs) + " is " + engine_name + "'s default cap).";
    return "Fits: every sequence gets its full " + format_count(s.max_model_len) + " tokens; " +
           format_count(kv.sequences) + (kv.sequences == 1 ? " sequence needs " : " sequences need ") +
           b(kv.needs_bytes) + room + ".";
}

}  // namespace kvcalc

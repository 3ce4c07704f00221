// Solvers: the largest or smallest setting that still fits, with the term that limits it.
#pragma once
#include <cstdint>
#include <string>

#include "kvcalc/engines/deployment.h"
#include "kvcalc/base/diagnostic.h"
#include "kvcalc/base/scenario.h"

namespace kvcalc {

/// What "fits" means for a solver.
/// boots: verdict is not FAIL — one max_model_len sequence fits next to the fixed terms (vLLM's start-up check).
/// uncapped: every max_num_seqs sequence fits at full length, so vLLM does not cap the KV pool.
enum class FitCriterion { boots, uncapped };

/// Answer of one solver. `value` is exact; `value_rounded` is rounded the way people configure it
/// (max_model_len down to a multiple of 1024, or the exact value when no multiple of 1024 boots; VRAM up to a
/// whole GiB). ok = false with diagnostics when the
/// scenario is invalid or nothing fits (then value = 0).
struct SolveResult {
    bool ok = false;
    std::int64_t value = 0;
    std::int64_t value_rounded = 0;
    std::string limiting_term;   ///< largest per-card term at the answer
    /// What stops it: "budget", "max_position_embeddings" (the engine's derived maximum, context_limit.h),
    /// "max_model_len_limit" (2^27, predict's own limit),
    /// "max_num_seqs_limit", "tp_limit", "kv_cache_dtype" (no kernel for it on the card: nothing boots).
    std::string bound;
    /// The safe answer: the largest length / count (smallest VRAM) that still fits when the non-KV terms are the
    /// whole error band (BudgetTerms::tight_band_bytes, from the era's real logs) larger than the point estimate,
    /// i.e. when kvcalc errs at its optimistic end. 0 when even the smallest does not; equal to value when the band
    /// does not bind. safe_value_rounded is rounded as value_rounded (and safe as well).
    std::int64_t safe_value = 0;
    std::int64_t safe_value_rounded = 0;
    std::int64_t safe_band_bytes = 0;  ///< the band the safe answer allows for, per card, at the answer
    /// max_model_len only: lengths below `value` that do not fit, [refused_from, refused_to] (0, 0 = none), and the
    /// longest length under them that does (`fits_below`, 0 = none). vLLM V0 turns chunked prefill on only above
    /// 32,768 tokens (vllm/engine/arg_utils.py create_engine_config), and without it the profile run's batch is the
    /// whole length, so 32,769 tokens can boot where 29,000 does not. A warning "solve_gap" says it in words.
    std::int64_t refused_from = 0;
    std::int64_t refused_to = 0;
    std::int64_t fits_below = 0;
    Diagnostics diagnostics;
};

/// Largest max_model_len (tokens) that fits; closed form on the linear terms, verified by the predicate. The
/// scenario's own max_model_len is not checked (it is what is searched).
SolveResult solve_max_model_len(const Scenario& scenario, FitCriterion criterion = FitCriterion::boots);
/// The two answers to "how long can a request be" (they differ when max_num_seqs > 1):
/// all_sequences: the largest max_model_len at which all max_num_seqs full-length sequences fit in the KV pool at
/// once (FitCriterion::uncapped); boots: the largest at which the engine starts, i.e. one full-length sequence fits
/// (FitCriterion::boots; vLLM's check_enough_kv_cache_memory, vllm/v1/core/kv_cache_utils.py).
struct ContextLimits {
    std::int64_t max_num_seqs = 0;  ///< the sequences all_sequences holds at once (the resolved value; 0 = invalid)
    SolveResult all_sequences;
    SolveResult boots;
};
/// Both context answers for the scenario; each carries its own diagnostics (see solve_max_model_len).
ContextLimits solve_context_limits(const Scenario& scenario);
/// Largest max_num_seqs whose full-length requests all fit at the scenario's max_model_len (limit 65536).
SolveResult solve_max_num_seqs(const Scenario& scenario);
/// Smallest VRAM per card in bytes (value) and whole GiB (value_rounded, bytes) for the scenario.
SolveResult solve_min_vram(const Scenario& scenario, FitCriterion criterion = FitCriterion::boots);
/// Smallest GPU count (= tensor_parallel_size, among the valid values of the scenario's own model, config_json
/// included) that fits on the scenario's cards.
SolveResult solve_min_gpus(const Scenario& scenario, FitCriterion criterion = FitCriterion::boots);

/// The same solvers on a resolved deployment: `load` fixes everything but the searched quantity. They evaluate
/// exactly what predict() evaluates, so the answer is accepted by the verdict and the next step is not.
/// `limit` > 0 searches only up to that length (predict(): the longest below the one that does not boot, as vLLM's
/// estimated maximum model length). The verdict need not be monotone in the length (vLLM's default
/// max_num_batched_tokens follows max_num_seqs × max_model_len on short requests): the answer is the longest length
/// it accepts.
SolveResult solve_max_model_len(const Deployment& deployment, const Load& load,
                                FitCriterion criterion = FitCriterion::boots, std::int64_t limit = 0);
SolveResult solve_max_num_seqs(const Deployment& deployment, const Load& load);
SolveResult solve_min_vram(const Deployment& deployment, const Load& load,
                           FitCriterion criterion = FitCriterion::boots);

}  // namespace kvcalc

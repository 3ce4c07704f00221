// Solvers: closed-form guesses on the linear terms, confirmed by the fit predicate with a short search.
#include "kvcalc/deployment/solver.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <optional>
#include <vector>

#include "engines/deploy_internal.h"
#include "kvcalc/base/checked_math.h"
#include "kvcalc/engines/context_limit.h"
#include "kvcalc/deployment/predict.h"
#include "kvcalc/deployment/scenario_fields.h"
#include "kvcalc/base/units.h"

namespace kvcalc {

namespace {

constexpr std::int64_t kSeqsLimit = 65536;
constexpr std::int64_t kLenLimit = std::int64_t{1} << 27;

bool fits(const BudgetTerms& t, FitCriterion c) {
    if (classify(t) == Verdict::fail) return false;
    return c == FitCriterion::boots || t.kv_requested_bytes <= t.available_for_kv_bytes;
}

// fits() at the optimistic end of the band: the non-KV terms tight_band_bytes larger than priced. The pool then
// shrinks by the band (or, with a fixed pool, the card must hold the band besides it).
bool fits_safe(const BudgetTerms& t, FitCriterion c) {
    if (!fits(t, c)) return false;
    const std::int64_t need = c == FitCriterion::boots ? t.kv_one_sequence_bytes : t.kv_requested_bytes;
    if (t.kv_pool_fixed)
        return t.available_for_kv_bytes >= need &&
               sat_sub(t.budget_bytes, sat_add(t.fixed_bytes, t.available_for_kv_bytes)) >= t.tight_band_bytes;
    return sat_sub(sat_sub(t.budget_bytes, t.fixed_bytes), need) >= t.tight_band_bytes;
}

// Largest x in [lo, hi] with pred(x), given pred(lo) and a monotone pred (true then false). Starts at `guess`,
// gallops to bracket the boundary, then bisects.
template <class Pred>
std::int64_t largest_true(std::int64_t lo, std::int64_t hi, std::int64_t guess, Pred pred) {
    guess = std::clamp(guess, lo, hi);
    if (pred(guess)) {
        lo = guess;
        for (std::int64_t step = 1; lo < hi; step *= 2) {
            const std::int64_t x = std::min(hi, guess + step);
            if (pred(x)) lo = x;
            else {
                hi = x - 1;
                break;
            }
        }
    } else {
        hi = guess - 1;
        for (std::int64_t step = 1; lo < hi; step *= 2) {
            const std::int64_t x = std::max(lo, guess - step);
            if (!pred(x)) hi = x - 1;
            else {
                lo = x;
                break;
            }
        }
    }
    while (lo < hi) {
        const std::int64_t mid = lo + (hi - lo + 1) / 2;
        if (pred(mid)) lo = mid;
        else hi = mid - 1;
    }
    return lo;
}

// A term's label inside a sentence: "Weights" → "weights"; acronyms ("KV cache (growing)", "CUDA graphs …") stay.
std::string term_in_sentence(std::string_view id) {
    std::string out(term_label(id));
    if (out.size() > 1 && std::islower(static_cast<unsigned char>(out[1])))
        out[0] = static_cast<char>(std::tolower(static_cast<unsigned char>(out[0])));
    return out;
}

std::int64_t to_guess(double x, std::int64_t lo, std::int64_t hi) {
    if (!std::isfinite(x)) return hi;
    return std::clamp(static_cast<std::int64_t>(x), lo, hi);
}

// `card`: the card the terms were priced on. A cache dtype without a kernel there is the whole answer: no byte count
// changes it, so the sizes are not named.
SolveResult nothing_fits(const char* what, const Deployment& d, const GpuSpec* card, const BudgetTerms& t) {
    SolveResult out;
    if (!t.kv_dtype_runs) {
        out.bound = "kv_cache_dtype";
        std::string text = std::string("no ") + what + " works with this KV cache dtype on this card: " +
                           kv_hardware_sentence(d, card);
        const KvFormat& run = d.run_format ? *d.run_format : *d.format;
        if (const KvFormat* other = engine_kv_format_that_runs(d.engine, run, card))
            text += std::string("; ") + other->name + " (" + other->bpe_exact + " B per element) runs there";
        out.diagnostics.push_back({Severity::error, "nothing_fits", "kv_cache_dtype", std::move(text)});
        return out;
    }
    out.limiting_term = largest_term(t);
    out.bound = "budget";
    out.diagnostics.push_back({Severity::error, "nothing_fits", what,
                               std::string("no ") + what + " fits: the largest term is " +
                                   term_in_sentence(out.limiting_term)});
    return out;
}

const GpuSpec* card_of(const Deployment& d, const Load& load) { return load.gpu ? load.gpu : d.gpu; }

// Largest x in [lo, hi] with pred(x), checking every x from hi down (pred need not be monotone); lo - 1 if none.
template <class Pred>
std::int64_t scan_down(std::int64_t lo, std::int64_t hi, Pred pred) {
    for (std::int64_t x = hi; x >= lo; --x)
        if (pred(x)) return x;
    return lo - 1;
}

/// A range of lengths and whether the verdict is monotone in it (boots up to some length, then not).
struct LenPiece {
    std::int64_t lo, hi;
    bool monotone;
};

/// The lengths 1..hi in pieces, longest first, where the fixed terms cannot fall as the length grows, and the one
/// piece where they can. vLLM's default max_num_batched_tokens is max_num_seqs × max_model_len while that is under
/// the card's default (vllm_resolve_defaults: get_batch_defaults); the CUDA-graph capture list adds it only while it
/// is not a listed size under the capture cap (config/vllm.py _set_cudagraph_sizes) and the dummy run follows it, so
/// below that length a longer request can cost less (qwen2.5-7b, 18 seqs: len 2 captures 13 graphs, len 17
/// captures 12). Above it the default is constant, or grows with the length (chunked prefill off). V0 (0.8 and
/// older) turns chunked prefill on above 32K tokens, which drops its default back to 2048 there.
std::vector<LenPiece> len_pieces(const Deployment& d, const Load& load, std::int64_t hi) {
    if (d.non_kv.kind != NonKvModel::Kind::vllm_accounting || d.non_kv.flags.max_num_batched_tokens)
        return {{1, hi, true}};
    VllmServeFlags f = d.non_kv.flags;
    f.max_model_len = hi;
    f.max_num_seqs = std::max<std::int64_t>(load.max_num_seqs, 1);
    f.enable_chunked_prefill = true;  // the default before any cap by the length
    const std::int64_t full = vllm_resolve_defaults(detail::vllm_device_for(d, load), f, d.non_kv.era, false).max_num_batched_tokens;
    const std::int64_t settled = std::min(hi + 1, ceil_div(full, *f.max_num_seqs));
    std::vector<LenPiece> out;
    std::int64_t top = hi;
    constexpr std::int64_t kV0ChunkedAbove = 32768;
    if (!vllm_era_rules(d.non_kv.era).v1_engine && d.non_kv.flags.enable_chunked_prefill && top > kV0ChunkedAbove &&
        settled <= kV0ChunkedAbove) {
        out.push_back({kV0ChunkedAbove + 1, top, true});
        top = kV0ChunkedAbove;
    }
    if (settled <= top) out.push_back({settled, top, true});
    if (settled > 1) out.push_back({1, std::min(settled - 1, top), false});
    return out;
}

}  // namespace

SolveResult solve_max_model_len(const Deployment& d, const Load& load, FitCriterion criterion, std::int64_t limit) {
    SolveResult out;
    // predict() accepts max_model_len up to 2^27 whatever the model says (the reader allows 1e9). The engine's
    // derived maximum (context_limit.h) caps it unless allow_long_max_model_len lifts it.
    const std::int64_t model_max = d.allow_long_max_model_len ? 0 : context_limit(*d.model, d.engine).max_model_len;
    std::int64_t hi = model_max > 0 ? std::min(model_max, kLenLimit) : kLenLimit;
    if (limit > 0) hi = std::min(hi, limit);
    // llama.cpp takes -c = (max_model_len + extra) × max_num_seqs up to kLlamaCppMaxCtx (check_load's rule).
    if (d.engine == EngineId::llama_cpp && load.max_num_seqs > 0)
        hi = std::min(hi, kLlamaCppMaxCtx / load.max_num_seqs - d.kv_extra_tokens);
    auto terms = [&](std::int64_t len) {
        Load at = load;
        at.max_model_len = len;
        return evaluate(d, at);
    };
    auto pred = [&](std::int64_t len) { return fits(terms(len), criterion); };
    const BudgetTerms t1 = terms(1);
    // Weights and drafter do not depend on the length: when they fill the budget no length boots.
    if (hi < 1 || !t1.kv_dtype_runs || sat_add(t1.weights_bytes, t1.drafter_bytes) >= t1.budget_bytes)
        return nothing_fits("max_model_len", d, card_of(d, load), t1);
    // Room left minus what the KV needs is close to linear in the length: start at its root.
    auto slack = [&](std::int64_t len) {
        const BudgetTerms t = terms(len);
        const std::int64_t kv = criterion == FitCriterion::boots ? t.kv_one_sequence_bytes : t.kv_requested_bytes;
        return static_cast<double>(t.budget_bytes - t.fixed_bytes - kv);
    };
    // The answer is the longest length the verdict accepts: the pieces are tried longest first, each monotone one
    // by a search from its lower end, the one where the fixed terms can fall by checking each length.
    auto best_in = [&](const LenPiece& piece) -> std::int64_t {
        if (!piece.monotone) return std::max<std::int64_t>(0, scan_down(piece.lo, piece.hi, pred));
        if (!pred(piece.lo)) return 0;
        const std::int64_t x1 = std::clamp<std::int64_t>(16384, piece.lo, piece.hi), x2 = piece.hi;
        const double s1 = slack(x1), s2 = slack(x2);
        const double guess = s1 == s2 ? static_cast<double>(x2)
                                      : static_cast<double>(x1) + s1 * static_cast<double>(x2 - x1) / (s1 - s2);
        return largest_true(piece.lo, piece.hi, to_guess(guess, piece.lo, piece.hi), pred);
    };
    const std::vector<LenPiece> pieces = len_pieces(d, load, hi);
    std::int64_t best = 0;
    std::size_t at_piece = 0;
    for (; at_piece < pieces.size() && best == 0; ++at_piece) best = best_in(pieces[at_piece]);
    if (best == 0) return nothing_fits("max_model_len", d, card_of(d, load), t1);
    // The answer's piece may start above lengths that do not fit (V0 above 32K): find the longest that fits below
    // them, so the answer does not read as "everything up to it".
    if (at_piece < pieces.size() && !pred(pieces[at_piece - 1].lo - 1)) {
        std::int64_t below = 0;
        for (std::size_t i = at_piece; i < pieces.size() && below == 0; ++i) below = best_in(pieces[i]);
        out.fits_below = below;
        out.refused_from = below + 1;
        out.refused_to = pieces[at_piece - 1].lo - 1;
        const bool v0_chunked = !vllm_era_rules(d.non_kv.era).v1_engine && out.refused_to == 32768;
        out.diagnostics.push_back(
            {Severity::warning, "solve_gap", "max_model_len",
             "max_model_len " + std::to_string(out.refused_from) + " to " + std::to_string(out.refused_to) +
                 " does not boot although " + std::to_string(best) + " does" +
                 (v0_chunked ? ": vLLM V0 turns chunked prefill on only above 32,768 tokens, and below that the "
                               "profile run's batch is the whole length"
                             : ": the profile run's batch grows with the length below that") +
                 (below > 0 ? "; at " + std::to_string(out.refused_to) + " or less the longest that boots is " +
                                  std::to_string(below)
                            : "; nothing shorter boots")});
    }
    out.value = best;
    // Rounded down to whole 1024-token blocks that boot too (below the settled length a shorter one may not).
    out.value_rounded = out.value / 1024 * 1024;
    while (out.value_rounded > 0 && !pred(out.value_rounded)) out.value_rounded -= 1024;
    if (out.value_rounded == 0) out.value_rounded = out.value;  // below 1024 tokens: the exact length is the answer
    out.ok = true;
    // The safe length: the same search with the band taken off the pool, below the point answer.
    auto safe = [&](std::int64_t len) { return fits_safe(terms(len), criterion); };
    out.safe_band_bytes = terms(out.value).tight_band_bytes;
    if (safe(out.value)) {
        out.safe_value = out.value;
    } else if (safe(1)) {
        const double per_token = std::max(terms(out.value).kv_bytes_per_token, 1.0);
        const double guess = static_cast<double>(out.value) - static_cast<double>(out.safe_band_bytes) / per_token;
        out.safe_value = largest_true(1, out.value, to_guess(guess, 1, out.value), safe);
    }
    out.safe_value_rounded = out.safe_value / 1024 * 1024;
    while (out.safe_value_rounded > 0 && !safe(out.safe_value_rounded)) out.safe_value_rounded -= 1024;
    if (out.safe_value_rounded == 0) out.safe_value_rounded = out.safe_value;
    out.limiting_term = largest_term(terms(out.value));
    out.bound = out.value < hi                               ? "budget"
                : limit > 0 && hi == limit                   ? "budget"
                : hi == model_max                            ? "max_position_embeddings"
                                                             : "max_model_len_limit";
    return out;
}

SolveResult solve_max_num_seqs(const Deployment& d, const Load& load) {
    SolveResult out;
    auto terms = [&](std::int64_t n) {
        Load at = load;
        at.max_num_seqs = n;
        at.max_num_seqs_is_default = false;  // n full-length requests, asked for
        return evaluate(d, at);
    };
    auto pred = [&](std::int64_t n) { return fits(terms(n), FitCriterion::uncapped); };
    if (!pred(1)) return nothing_fits("max_num_seqs", d, card_of(d, load), terms(1));
    const BudgetTerms t1 = terms(1);
    const double per_seq = static_cast<double>(t1.kv_requested_bytes);
    const double room = static_cast<double>(t1.available_for_kv_bytes);
    // llama.cpp takes at most kLlamaCppMaxSeqs sequences and -c = (max_model_len + extra) × max_num_seqs up to
    // kLlamaCppMaxCtx (check_load's rules).
    const std::int64_t seqs_hi =
        d.engine == EngineId::llama_cpp && load.max_model_len > 0
            ? std::min<std::int64_t>({kSeqsLimit, kLlamaCppMaxSeqs,
                                      kLlamaCppMaxCtx / (load.max_model_len + d.kv_extra_tokens)})
            : kSeqsLimit;
    out.value = largest_true(1, seqs_hi, to_guess(per_seq > 0 ? room / per_seq : 1e18, 1, seqs_hi), pred);
    out.value_rounded = out.value;
    out.ok = true;
    auto safe = [&](std::int64_t n) { return fits_safe(terms(n), FitCriterion::uncapped); };
    out.safe_band_bytes = terms(out.value).tight_band_bytes;
    if (safe(out.value)) out.safe_value = out.value;
    else if (safe(1)) out.safe_value = largest_true(1, out.value, out.value, safe);
    out.safe_value_rounded = out.safe_value;
    out.limiting_term = largest_term(terms(out.value));
    out.bound = out.value == seqs_hi ? "max_num_seqs_limit" : "budget";
    return out;
}

SolveResult solve_min_vram(const Deployment& d, const Load& load, FitCriterion criterion) {
    SolveResult out;
    const double util = d.settings.gpu_memory_utilization;
    // The vram_gb field's limit (1e6 GB), floored to whole GiB so that value_rounded can be entered back too.
    static const std::int64_t kHi =
        static_cast<std::int64_t>(find_scenario_field("vram_gb")->max * 1e9) / kBytesPerGib * kBytesPerGib;
    auto fails = [&](std::int64_t v) {
        Load at = load;
        at.vram_bytes = v;
        return !fits(evaluate(d, at), criterion);
    };
    // The non-KV terms do not depend on VRAM, so the budget needed is fixed + the KV the criterion asks for.
    const BudgetTerms t = evaluate(d, load);
    if (!t.kv_dtype_runs) return nothing_fits("vram", d, card_of(d, load), t);  // more memory does not add a kernel
    const std::int64_t kv = criterion == FitCriterion::boots ? t.kv_one_sequence_bytes : t.kv_requested_bytes;
    const double guess = static_cast<double>(t.fixed_bytes + kv) / util;
    out.value = largest_true(0, kHi, to_guess(guess, 0, kHi) - 1, fails) + 1;
    if (out.value > kHi) {
        SolveResult none = nothing_fits("vram", d, card_of(d, load), t);
        if (none.bound == "budget")
            none.diagnostics.back().message = "no VRAM per card up to vram_gb's limit of 1e6 GB fits this scenario: "
                                              "the largest term is " + term_in_sentence(none.limiting_term);
        return none;
    }
    out.value_rounded = ceil_div(out.value, kBytesPerGib) * kBytesPerGib;
    out.ok = true;
    // The safe card: the smallest on which the band still fits beside the point estimate's demand.
    auto unsafe = [&](std::int64_t v) {
        Load at = load;
        at.vram_bytes = v;
        return !fits_safe(evaluate(d, at), criterion);
    };
    Load at_answer = load;
    at_answer.vram_bytes = out.value;
    out.safe_band_bytes = evaluate(d, at_answer).tight_band_bytes;
    const std::int64_t safe_guess = out.value + to_guess(static_cast<double>(out.safe_band_bytes) / util, 0, kHi);
    const std::int64_t safe = largest_true(out.value - 1, kHi, std::min(safe_guess, kHi) - 1, unsafe) + 1;
    if (safe <= kHi) {
        out.safe_value = safe;
        out.safe_value_rounded = ceil_div(safe, kBytesPerGib) * kBytesPerGib;
        while (out.safe_value_rounded > safe && out.safe_value_rounded <= kHi && unsafe(out.safe_value_rounded))
            out.safe_value_rounded += kBytesPerGib;
    }
    out.limiting_term = largest_term(t);
    out.bound = "budget";
    return out;
}

namespace {

/// Resolves the scenario and checks its load; `check_len` false when the length is what is searched (a length
/// above the model's limit is then not an error, but one outside 1..2^27 still is).
template <class Solve>
SolveResult on_scenario(const Scenario& scenario, bool check_len, Solve solve) {
    SolveResult out;
    const auto d = resolve(scenario, out.diagnostics);
    if (!d) return out;
    Load load = d->load();
    for (auto& x : check_load(*d, load))
        if (check_len || (x.code != "max_model_len_too_long" && x.code != "llama_cpp_ctx_too_large"))
            out.diagnostics.push_back(std::move(x));
    if (has_error(out.diagnostics)) return out;
    Diagnostics early = std::move(out.diagnostics);
    out = solve(*d, load);
    early.insert(early.end(), out.diagnostics.begin(), out.diagnostics.end());
    out.diagnostics = std::move(early);
    return out;
}

}  // namespace

SolveResult solve_max_model_len(const Scenario& scenario, FitCriterion criterion) {
    return on_scenario(scenario, false, [&](const Deployment& d, const Load& l) { return solve_max_model_len(d, l, criterion); });
}

ContextLimits solve_context_limits(const Scenario& scenario) {
    ContextLimits out;
    Diagnostics ignored;  // the solvers below report the scenario's own problems
    if (const auto d = resolve(scenario, ignored)) out.max_num_seqs = d->load().max_num_seqs;
    out.all_sequences = solve_max_model_len(scenario, FitCriterion::uncapped);
    out.boots = solve_max_model_len(scenario, FitCriterion::boots);
    return out;
}

SolveResult solve_max_num_seqs(const Scenario& scenario) {
    return on_scenario(scenario, true, [&](const Deployment& d, const Load& l) { return solve_max_num_seqs(d, l); });
}

SolveResult solve_min_vram(const Scenario& scenario, FitCriterion criterion) {
    return on_scenario(scenario, true, [&](const Deployment& d, const Load& l) { return solve_min_vram(d, l, criterion); });
}

SolveResult solve_min_gpus(const Scenario& scenario, FitCriterion criterion) {
    SolveResult out;
    const std::shared_ptr<const ModelSpec> model = scenario_model(scenario, out.diagnostics);
    if (!model) return out;
    BudgetTerms last{};
    std::optional<Deployment> last_d;
    for (int tp : valid_tensor_parallel_sizes(*model)) {
        Scenario s = scenario;
        s.tensor_parallel_size = tp;
        s.gpus = 0;
        Diagnostics d;
        auto r = resolve(s, d);
        if (r) d = check_load(*r, r->load());
        if (!r || has_error(d)) {
            out.diagnostics = d;
            return out;
        }
        last = evaluate(*r, r->load());
        if (fits(last, criterion)) {
            out.ok = true;
            out.value = out.value_rounded = tp;
            out.limiting_term = largest_term(last);
            out.bound = "budget";
            return out;
        }
        last_d = std::move(r);
    }
    if (!last_d) return out;  // the model has no valid tensor_parallel_size (its diagnostics were returned above)
    out = nothing_fits("gpus", *last_d, last_d->gpu, last);
    if (last.kv_dtype_runs) out.bound = "tp_limit";
    return out;
}

}  // namespace kvcalc

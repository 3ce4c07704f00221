// Solvers: closed-form guesses on the linear terms, confirmed by the fit predicate with a short search.
#include "kvcalc/solver.h"

#include <algorithm>
#include <cmath>

#include "kvcalc/catalog.h"
#include "kvcalc/predict.h"
#include "kvcalc/units.h"

namespace kvcalc {

namespace {

constexpr std::int64_t kSeqsLimit = 65536;
constexpr std::int64_t kLenLimit = std::int64_t{1} << 27;

bool fits(const BudgetTerms& t, FitCriterion c) {
    if (classify(t) == Verdict::fail) return false;
    return c == FitCriterion::boots || t.kv_growing_requested_bytes <= t.available_for_kv_bytes;
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

std::int64_t to_guess(double x, std::int64_t lo, std::int64_t hi) {
    if (!std::isfinite(x)) return hi;
    return std::clamp(static_cast<std::int64_t>(x), lo, hi);
}

SolveResult nothing_fits(const char* what, const BudgetTerms& t) {
    SolveResult out;
    out.limiting_term = largest_term(t);
    out.bound = "budget";
    out.diagnostics.push_back({Severity::error, "nothing_fits", what,
                               std::string("no ") + what + " fits: the largest term is " + out.limiting_term});
    return out;
}

}  // namespace

SolveResult solve_max_model_len(const Scenario& scenario, FitCriterion criterion) {
    Scenario s = scenario;
    s.max_model_len = 1;  // the answer is searched; do not reject the scenario's own length
    SolveResult out;
    const auto r = resolve(s, out.diagnostics);
    if (!r) return out;
    const std::int64_t seqs = r->settings.max_num_seqs, vram = r->settings.vram_bytes;
    // predict() accepts max_model_len up to 2^27 whatever max_position_embeddings says (the reader allows 1e9).
    const std::int64_t hi = r->model->max_position_embeddings > 0 ? std::min(r->model->max_position_embeddings, kLenLimit)
                                                                  : kLenLimit;
    auto pred = [&](std::int64_t len) { return fits(compute_terms(*r, len, seqs, vram), criterion); };
    if (!pred(1)) return nothing_fits("max_model_len", compute_terms(*r, 1, seqs, vram));
    // Room left minus what the KV needs is linear in the length above the sliding window: find its root.
    const std::int64_t k = criterion == FitCriterion::boots ? 1 : seqs;
    auto slack = [&](std::int64_t len) {
        const BudgetTerms t = compute_terms(*r, len, seqs, vram);
        return static_cast<double>(t.budget_bytes - t.fixed_bytes - t.kv_one_sequence_bytes * k);
    };
    const std::int64_t x1 = std::max<std::int64_t>(1, r->footprint.sliding_window_tokens), x2 = hi;
    const double s1 = slack(x1), s2 = slack(x2);
    const double guess = s1 == s2 ? static_cast<double>(hi) : static_cast<double>(x1) + s1 * static_cast<double>(x2 - x1) / (s1 - s2);
    out.value = largest_true(1, hi, to_guess(guess, 1, hi), pred);
    out.value_rounded = out.value / 1024 * 1024;
    out.ok = true;
    out.limiting_term = largest_term(compute_terms(*r, out.value, seqs, vram));
    out.bound = out.value < hi                               ? "budget"
                : hi == r->model->max_position_embeddings ? "max_position_embeddings"
                                                          : "max_model_len_limit";
    return out;
}

SolveResult solve_max_num_seqs(const Scenario& scenario) {
    SolveResult out;
    const auto r = resolve(scenario, out.diagnostics);
    if (!r) return out;
    const std::int64_t len = r->settings.max_model_len, vram = r->settings.vram_bytes;
    auto pred = [&](std::int64_t n) { return fits(compute_terms(*r, len, n, vram), FitCriterion::uncapped); };
    if (!pred(1)) return nothing_fits("max_num_seqs", compute_terms(*r, len, 1, vram));
    const BudgetTerms t1 = compute_terms(*r, len, 1, vram);
    const double per_seq = static_cast<double>(t1.kv_one_sequence_bytes + t1.recurrent_state_bytes);
    const double room = static_cast<double>(t1.budget_bytes - (t1.fixed_bytes - t1.recurrent_state_bytes));
    out.value = largest_true(1, kSeqsLimit, to_guess(per_seq > 0 ? room / per_seq : 1e18, 1, kSeqsLimit), pred);
    out.value_rounded = out.value;
    out.ok = true;
    out.limiting_term = largest_term(compute_terms(*r, len, out.value, vram));
    out.bound = out.value == kSeqsLimit ? "max_num_seqs_limit" : "budget";
    return out;
}

SolveResult solve_min_vram(const Scenario& scenario, FitCriterion criterion) {
    SolveResult out;
    const auto r = resolve(scenario, out.diagnostics);
    if (!r) return out;
    const std::int64_t len = r->settings.max_model_len, seqs = r->settings.max_num_seqs;
    const double util = r->settings.gpu_memory_utilization;
    constexpr std::int64_t kHi = std::int64_t{1} << 50;  // 1 PiB per card: nothing needs more
    auto fails = [&](std::int64_t v) { return !fits(compute_terms(*r, len, seqs, v), criterion); };
    // The terms do not depend on VRAM, so the budget needed is fixed + the KV the criterion asks for.
    const BudgetTerms t = compute_terms(*r, len, seqs, r->settings.vram_bytes);
    const std::int64_t kv = criterion == FitCriterion::boots ? t.kv_one_sequence_bytes : t.kv_growing_requested_bytes;
    const double guess = static_cast<double>(t.fixed_bytes + kv) / util;
    out.value = largest_true(0, kHi, to_guess(guess, 0, kHi) - 1, fails) + 1;
    if (out.value > kHi) return nothing_fits("vram", t);
    out.value_rounded = ceil_div(out.value, kBytesPerGib) * kBytesPerGib;
    out.ok = true;
    out.limiting_term = largest_term(t);
    out.bound = "budget";
    return out;
}

SolveResult solve_min_gpus(const Scenario& scenario, FitCriterion criterion) {
    SolveResult out;
    // The model as resolve() reads it (config_json, inline or catalog), at a TP every model accepts.
    Scenario probe = scenario;
    probe.tensor_parallel_size = 1;
    probe.gpus = 0;
    Diagnostics probe_diagnostics;
    const auto base = resolve(probe, probe_diagnostics);
    if (!base) {
        out.diagnostics = std::move(probe_diagnostics);
        return out;
    }
    BudgetTerms last{};
    for (int tp : valid_tensor_parallel_sizes(*base->model)) {
        Scenario s = scenario;
        s.tensor_parallel_size = tp;
        s.gpus = 0;
        Diagnostics d;
        const auto r = resolve(s, d);
        if (!r) {
            out.diagnostics = d;
            return out;
        }
        last = compute_terms(*r, r->settings.max_model_len, r->settings.max_num_seqs, r->settings.vram_bytes);
        if (fits(last, criterion)) {
            out.ok = true;
            out.value = out.value_rounded = tp;
            out.limiting_term = largest_term(last);
            out.bound = "budget";
            return out;
        }
    }
    out = nothing_fits("gpus", last);
    out.bound = "tp_limit";
    return out;
}

}  // namespace kvcalc

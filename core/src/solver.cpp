// Solvers: closed-form guesses on the linear terms, confirmed by the fit predicate with a short search.
#include "kvcalc/solver.h"

#include <algorithm>
#include <cmath>

#include "kvcalc/context_limit.h"
#include "kvcalc/predict.h"
#include "kvcalc/units.h"

namespace kvcalc {

namespace {

constexpr std::int64_t kSeqsLimit = 65536;
constexpr std::int64_t kLenLimit = std::int64_t{1} << 27;

bool fits(const BudgetTerms& t, FitCriterion c) {
    if (classify(t) == Verdict::fail) return false;
    return c == FitCriterion::boots || t.kv_requested_bytes <= t.available_for_kv_bytes;
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

SolveResult solve_max_model_len(const Deployment& d, const Load& load, FitCriterion criterion) {
    SolveResult out;
    // predict() accepts max_model_len up to 2^27 whatever the model says (the reader allows 1e9). The engine's
    // derived maximum (context_limit.h) caps it unless allow_long_max_model_len lifts it.
    const std::int64_t model_max = d.allow_long_max_model_len ? 0 : context_limit(*d.model, d.engine).max_model_len;
    const std::int64_t hi = model_max > 0 ? std::min(model_max, kLenLimit) : kLenLimit;
    auto terms = [&](std::int64_t len) {
        Load at = load;
        at.max_model_len = len;
        return evaluate(d, at);
    };
    auto pred = [&](std::int64_t len) { return fits(terms(len), criterion); };
    if (!pred(1)) return nothing_fits("max_model_len", terms(1));
    // Room left minus what the KV needs is close to linear in the length: start at its root.
    auto slack = [&](std::int64_t len) {
        const BudgetTerms t = terms(len);
        const std::int64_t kv = criterion == FitCriterion::boots ? t.kv_one_sequence_bytes : t.kv_requested_bytes;
        return static_cast<double>(t.budget_bytes - t.fixed_bytes - kv);
    };
    const std::int64_t x1 = std::min<std::int64_t>(hi, 16384), x2 = hi;
    const double s1 = slack(x1), s2 = slack(x2);
    const double guess = s1 == s2 ? static_cast<double>(hi) : static_cast<double>(x1) + s1 * static_cast<double>(x2 - x1) / (s1 - s2);
    out.value = largest_true(1, hi, to_guess(guess, 1, hi), pred);
    out.value_rounded = out.value / 1024 * 1024;
    out.ok = true;
    out.limiting_term = largest_term(terms(out.value));
    out.bound = out.value < hi                               ? "budget"
                : hi == model_max                         ? "max_position_embeddings"
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
    if (!pred(1)) return nothing_fits("max_num_seqs", terms(1));
    const BudgetTerms t1 = terms(1);
    const double per_seq = static_cast<double>(t1.kv_requested_bytes);
    const double room = static_cast<double>(t1.available_for_kv_bytes);
    out.value = largest_true(1, kSeqsLimit, to_guess(per_seq > 0 ? room / per_seq : 1e18, 1, kSeqsLimit), pred);
    out.value_rounded = out.value;
    out.ok = true;
    out.limiting_term = largest_term(terms(out.value));
    out.bound = out.value == kSeqsLimit ? "max_num_seqs_limit" : "budget";
    return out;
}

SolveResult solve_min_vram(const Deployment& d, const Load& load, FitCriterion criterion) {
    SolveResult out;
    const double util = d.settings.gpu_memory_utilization;
    constexpr std::int64_t kHi = std::int64_t{1} << 50;  // 1 PiB per card: nothing needs more
    auto fails = [&](std::int64_t v) {
        Load at = load;
        at.vram_bytes = v;
        return !fits(evaluate(d, at), criterion);
    };
    // The non-KV terms do not depend on VRAM, so the budget needed is fixed + the KV the criterion asks for.
    const BudgetTerms t = evaluate(d, load);
    const std::int64_t kv = criterion == FitCriterion::boots ? t.kv_one_sequence_bytes : t.kv_requested_bytes;
    const double guess = static_cast<double>(t.fixed_bytes + kv) / util;
    out.value = largest_true(0, kHi, to_guess(guess, 0, kHi) - 1, fails) + 1;
    if (out.value > kHi) return nothing_fits("vram", t);
    out.value_rounded = ceil_div(out.value, kBytesPerGib) * kBytesPerGib;
    out.ok = true;
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
        if (check_len || x.code != "max_model_len_too_long") out.diagnostics.push_back(std::move(x));
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
    for (int tp : valid_tensor_parallel_sizes(*model)) {
        Scenario s = scenario;
        s.tensor_parallel_size = tp;
        s.gpus = 0;
        Diagnostics d;
        const auto r = resolve(s, d);
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
    }
    out = nothing_fits("gpus", last);
    out.bound = "tp_limit";
    return out;
}

}  // namespace kvcalc

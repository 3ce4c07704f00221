// GPU shopping and the demand curve: loops over Loads of one Deployment (sweeps.h).
#include "kvcalc/deployment/sweeps.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <tuple>

#include "kvcalc/base/checked_math.h"
#include "kvcalc/engines/context_limit.h"
#include "kvcalc/base/kv_format.h"
#include "kvcalc/deployment/solver.h"

namespace kvcalc {

namespace {

/// The deployment a shopping row is evaluated on, or why there is none (the first error, in a user's words).
struct ShopDeployment {
    std::optional<Deployment> dep;
    std::string why;
};

ShopDeployment resolve_for_shop(const Scenario& scenario, int cards, const GpuSpec* gpu) {
    Scenario s = scenario;
    s.tensor_parallel_size = cards;
    s.gpus = 0;
    s.vram_gb.reset();
    s.vram_gib.reset();
    s.gpu = gpu ? gpu->id : std::string();  // each row's card replaces it in the Load
    Diagnostics d;
    ShopDeployment out{resolve(s, d), {}};
    if (!out.dep)
        for (const auto& x : d)
            if (x.severity == Severity::error) {
                out.why = x.code == "tp_invalid" ? "TP " + std::to_string(cards) + " does not split this model's heads"
                                                 : x.message;
                break;
            }
    return out;
}

ShopRow shop_row(const ShopDeployment& at, const GpuSpec& gpu, int gpu_index, int cards) {
    ShopRow row;
    row.gpu_index = gpu_index;
    row.gpu_id = gpu.id;
    row.cards = cards;
    row.total_vram_bytes = sat_mul(gpu.vram_bytes, cards);
    if (!at.dep) {
        row.note = at.why;
        return row;
    }
    const Deployment& dep = *at.dep;
    // The row's card, with its own vLLM defaults where the user left max_num_seqs to vLLM.
    const Load load = load_on(dep, gpu);
    row.max_num_seqs = load.max_num_seqs;
    const Diagnostics bad = check_load(dep, load);
    if (has_error(bad)) {
        row.note = bad.front().message;
        return row;
    }
    row.valid = true;
    row.kv_cache_dtype = dep.format->name;
    const BudgetTerms t = evaluate(dep, load);
    row.runs = t.kv_dtype_runs;  // the hardware rule lives in evaluate(): a FAIL verdict too
    row.verdict = classify(t);
    row.max_concurrency = t.max_concurrency;
    row.limiting_term = largest_term(t);
    const SolveResult len = solve_max_model_len(dep, load, FitCriterion::boots);
    row.max_model_len = len.ok ? len.value : 0;
    if (!row.runs || !t.kv_dtype_support_known) row.note = kv_hardware_sentence(dep, &gpu);
    return row;
}

}  // namespace

int shop_verdict_rank(const ShopRow& r) { return r.valid && r.runs ? static_cast<int>(r.verdict) : 3; }

bool shop_buy_order(const ShopRow& a, const ShopRow& b) {
    return std::make_tuple(shop_verdict_rank(a), a.total_vram_bytes, a.cards, -a.max_model_len, a.gpu_index) <
           std::make_tuple(shop_verdict_rank(b), b.total_vram_bytes, b.cards, -b.max_model_len, b.gpu_index);
}

std::vector<ShopRow> shopping(const Scenario& scenario, const std::vector<GpuSpec>& gpus, const std::vector<int>& counts) {
    std::vector<ShopRow> out;
    out.reserve(gpus.size() * counts.size());
    const bool per_generation = is_auto_kv_cache_dtype(scenario.kv_cache_dtype);
    for (int cards : counts) {
        // "auto" is the model's dtype on the card, which depends on its compute capability only (kv_format.h
        // the engine row's resolve_auto_kv): one deployment per generation, not the first card's for every row.
        std::map<int, ShopDeployment> by_sm;
        const ShopDeployment once = per_generation ? ShopDeployment{} : resolve_for_shop(scenario, cards,
                                                                                         gpus.empty() ? nullptr : &gpus.front());
        for (std::size_t g = 0; g < gpus.size(); ++g) {
            const GpuSpec& gpu = gpus[g];
            const ShopDeployment* at = &once;
            if (per_generation) {
                auto it = by_sm.find(gpu.sm_x10);
                if (it == by_sm.end()) it = by_sm.emplace(gpu.sm_x10, resolve_for_shop(scenario, cards, &gpu)).first;
                at = &it->second;
            }
            out.push_back(shop_row(*at, gpu, static_cast<int>(g), cards));
        }
    }
    std::sort(out.begin(), out.end(), shop_buy_order);
    return out;
}

std::vector<ShopRow> best_row_per_gpu(const std::vector<ShopRow>& rows) {
    std::vector<ShopRow> out;
    std::set<int> seen;
    for (const ShopRow& r : rows)
        if (seen.insert(r.gpu_index).second) out.push_back(r);
    return out;
}

ShopHeadlines shop_headlines(const std::vector<ShopRow>& rows) {
    // Booting is the question, not the verdict's rank: a TIGHT row with less VRAM beats a PASS row; at equal VRAM
    // the PASS row wins, then buy order's remaining keys.
    auto cheaper = [](const ShopRow& a, const ShopRow& b) {
        return std::make_tuple(a.total_vram_bytes, a.cards, shop_verdict_rank(a), -a.max_model_len, a.gpu_index) <
               std::make_tuple(b.total_vram_bytes, b.cards, shop_verdict_rank(b), -b.max_model_len, b.gpu_index);
    };
    auto fewer = [](const ShopRow& a, const ShopRow& b) {
        return std::make_tuple(a.cards, a.total_vram_bytes, shop_verdict_rank(a), -a.max_model_len, a.gpu_index) <
               std::make_tuple(b.cards, b.total_vram_bytes, shop_verdict_rank(b), -b.max_model_len, b.gpu_index);
    };
    ShopHeadlines out;
    std::optional<ShopRow> least_boots, fewest_pass, fewest_boots;
    for (const ShopRow& r : rows) {
        if (!r.valid || !r.runs || r.verdict == Verdict::fail) continue;
        if (!least_boots || cheaper(r, *least_boots)) least_boots = r;
        if (!fewest_boots || fewer(r, *fewest_boots)) fewest_boots = r;
        if (r.verdict != Verdict::pass) continue;
        if (!out.least_vram_pass || cheaper(r, *out.least_vram_pass)) out.least_vram_pass = r;
        if (!fewest_pass || fewer(r, *fewest_pass)) fewest_pass = r;
    }
    if (least_boots && (!out.least_vram_pass || least_boots->total_vram_bytes < out.least_vram_pass->total_vram_bytes))
        out.least_vram_boots = least_boots;
    out.fewest_cards = fewest_pass ? fewest_pass : fewest_boots;
    return out;
}

DemandCurve demand_curve(const Deployment& d, const Load& load, int points) {
    DemandCurve out;
    constexpr std::int64_t kMin = 1024;
    if (points < 2) points = 2;
    const std::int64_t hi = std::max({context_limit(*d.model, d.engine).max_model_len, load.max_model_len, 2 * kMin});
    const double ratio = std::log(static_cast<double>(hi) / kMin);
    out.points.reserve(static_cast<std::size_t>(points));
    for (int i = 0; i < points; ++i) {
        const double f = static_cast<double>(i) / (points - 1);
        const auto len = std::min(hi, static_cast<std::int64_t>(std::llround(kMin * std::exp(ratio * f))));
        Load at = load;
        at.max_model_len = len;
        const BudgetTerms t = evaluate(d, at);
        out.points.push_back({len, t.demand_bytes, classify(t)});
        out.budget_bytes = t.budget_bytes;
    }
    return out;
}

}  // namespace kvcalc

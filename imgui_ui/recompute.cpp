// Recompute on change: the report, the three solvers, the GPU-shopping sweep and the memory-vs-context curve.
#include <algorithm>
#include <cmath>
#include <optional>
#include <string>

#include "app.h"
#include "kvcalc/catalog.h"
#include "kvcalc/gpu_catalog.h"
#include "kvcalc/layer_cache.h"
#include "kvcalc/predict.h"
#include "model_lookup.h"
#include "platform.h"

namespace kvcalc::ui {

namespace {

constexpr int kShopCards[] = {1, 2, 4, 8};
constexpr int kCurvePoints = 64;
constexpr std::int64_t kCurveMinTokens = 1024;
constexpr std::int64_t kMaxShopLen = std::int64_t{1} << 27;  ///< search ceiling when the model states no limit

/// Largest max_model_len in [1, hi] that boots (verdict not FAIL) on cards of `vram` bytes; 0 when none does.
/// Booting is monotone in the length, so a bisection over compute_terms (no allocation) is enough.
std::int64_t largest_booting_len(const ResolvedScenario& r, std::int64_t seqs, std::int64_t vram, std::int64_t hi) {
    auto boots = [&](std::int64_t len) { return classify(compute_terms(r, len, seqs, vram)) != Verdict::fail; };
    if (!boots(1)) return 0;
    std::int64_t lo = 1;
    while (lo < hi) {
        const std::int64_t mid = lo + (hi - lo + 1) / 2;
        if (boots(mid)) lo = mid;
        else hi = mid - 1;
    }
    return lo;
}

/// Every catalog GPU at `cards` = tensor_parallel_size. The scenario is resolved once per card count; a GPU only
/// changes the VRAM (a compute_terms argument) and whether the KV format runs on it.
void shop_rows_for_cards(const Scenario& base, const std::vector<int>& valid_tp, int cards, std::vector<ShopRow>& out) {
    const std::vector<GpuSpec>& gpus = gpu_catalog();
    Scenario s = base;  // outlives `r`, which points into it (an inline model from a pasted config.json)
    std::optional<ResolvedScenario> r;
    std::string why;
    if (std::find(valid_tp.begin(), valid_tp.end(), cards) == valid_tp.end()) {
        why = "TP " + std::to_string(cards) + " does not split this model's heads";
    } else {
        s.gpu = gpus.front().id;  // any card: the VRAM comes from each row below
        s.vram_gb.reset();
        s.vram_gib.reset();
        s.tensor_parallel_size = cards;
        s.gpus = 0;
        s.max_model_len = 1;  // the length is an argument of compute_terms; do not let resolve reject it
        Diagnostics d;
        r = resolve(s, d);
        if (!r) why = d.empty() ? "invalid" : d.front().message;
    }
    for (int g = 0; g < static_cast<int>(gpus.size()); ++g) {
        ShopRow row;
        row.gpu_index = g;
        row.cards = cards;
        const GpuSpec& gpu = gpus[static_cast<std::size_t>(g)];
        const KvFormat* f = r ? r->format : nullptr;
        if (!r) {
            row.note = why;
        } else if (gpu.sm_x10 && f && ((f->min_sm_x10 && gpu.sm_x10 < f->min_sm_x10) ||
                                       (f->max_sm_x10 && gpu.sm_x10 > f->max_sm_x10))) {
            row.note = std::string("kv_cache_dtype ") + f->name + " does not run on sm_" + std::to_string(gpu.sm_x10);
        } else {
            const std::int64_t seqs = r->settings.max_num_seqs;
            const std::int64_t hi = r->model->max_position_embeddings > 0 ? r->model->max_position_embeddings : kMaxShopLen;
            row.valid = true;
            const BudgetTerms t = compute_terms(*r, base.max_model_len, seqs, gpu.vram_bytes);
            row.verdict = classify(t);
            row.max_model_len = largest_booting_len(*r, seqs, gpu.vram_bytes, hi);
            row.note = std::string("largest term: ") + largest_term(t);
        }
        out.push_back(std::move(row));
    }
}

/// Per-card demand (fixed + requested KV) at log-spaced context lengths up to the model's limit.
std::vector<CurvePoint> context_curve(const Scenario& scenario, std::int64_t& budget_bytes) {
    std::vector<CurvePoint> curve;
    Scenario s = scenario;
    s.max_model_len = 1;
    Diagnostics d;
    const auto r = resolve(s, d);
    if (!r) return curve;
    const std::int64_t hi = std::max({r->model->max_position_embeddings, scenario.max_model_len, 2 * kCurveMinTokens});
    const double ratio = std::log(static_cast<double>(hi) / kCurveMinTokens);
    curve.reserve(kCurvePoints);
    for (int i = 0; i < kCurvePoints; ++i) {
        const double f = static_cast<double>(i) / (kCurvePoints - 1);
        const auto len = static_cast<std::int64_t>(std::llround(kCurveMinTokens * std::exp(ratio * f)));
        const BudgetTerms t = compute_terms(*r, len, r->settings.max_num_seqs, r->settings.vram_bytes);
        curve.push_back({len, t.demand_bytes});
        budget_bytes = t.budget_bytes;
    }
    return curve;
}

}  // namespace

bool recompute_if_dirty(App& app) {
    if (!app.dirty) return false;
    app.dirty = false;
    const double t0 = now_ms();
    app.report = predict(app.scenario);
    Derived& d = app.derived;
    d = Derived{};
    if (app.report.ok) {
        d.max_len = solve_max_model_len(app.scenario);
        d.max_seqs = solve_max_num_seqs(app.scenario);
        d.min_gpus = solve_min_gpus(app.scenario);
        d.curve = context_curve(app.scenario, d.budget_bytes);
    }
    if (const ModelSpec* model = current_model(app.scenario)) {
        const std::vector<int> valid_tp = valid_tensor_parallel_sizes(*model);
        d.shop.reserve(gpu_catalog().size() * 4);
        for (int cards : kShopCards) shop_rows_for_cards(app.scenario, valid_tp, cards, d.shop);
    }
    d.recompute_ms = now_ms() - t0;
    app.url_dirty = true;
    return true;
}

}  // namespace kvcalc::ui

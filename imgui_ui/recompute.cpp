// Recompute on change: the report, the three solvers, the GPU-shopping sweep and the memory-vs-context curve.
#include <algorithm>
#include <cmath>

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

/// One GPU × card count at the scenario's settings: verdict at its max_model_len and the largest context.
ShopRow shop_row(const Scenario& base, const std::vector<int>& valid_tp, int gpu_index, int cards) {
    ShopRow row;
    row.gpu_index = gpu_index;
    row.cards = cards;
    if (std::find(valid_tp.begin(), valid_tp.end(), cards) == valid_tp.end()) {
        row.note = "TP " + std::to_string(cards) + " does not split this model's heads";
        return row;
    }
    Scenario s = base;
    s.gpu = gpu_catalog()[static_cast<std::size_t>(gpu_index)].id;
    s.vram_gb.reset();
    s.vram_gib.reset();
    s.tensor_parallel_size = cards;
    s.gpus = 0;
    Diagnostics d;
    const auto r = resolve(s, d);
    if (!r) {
        row.note = d.empty() ? "invalid" : d.front().message;
        return row;
    }
    row.valid = true;
    const BudgetTerms t = compute_terms(*r, r->settings.max_model_len, r->settings.max_num_seqs, r->settings.vram_bytes);
    row.verdict = classify(t);
    const SolveResult len = solve_max_model_len(s);
    row.max_model_len = len.ok ? len.value : 0;
    row.note = len.ok ? len.limiting_term : "nothing fits";
    return row;
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
        const int n = static_cast<int>(gpu_catalog().size());
        d.shop.reserve(static_cast<std::size_t>(n) * 4);
        for (int g = 0; g < n; ++g)
            for (int cards : kShopCards) d.shop.push_back(shop_row(app.scenario, valid_tp, g, cards));
    }
    d.recompute_ms = now_ms() - t0;
    app.url_dirty = true;
    return true;
}

}  // namespace kvcalc::ui

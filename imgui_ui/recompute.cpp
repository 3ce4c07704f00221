// Recompute on change: the report, the solvers, the GPU-shopping rows and the demand curve, all from the core.
#include "app.h"
#include "kvcalc/base/gpu_catalog.h"
#include "kvcalc/deployment/predict.h"
#include "kvcalc/deployment/solver.h"
#include "kvcalc/deployment/sweeps.h"
#include "platform.h"

namespace kvcalc::ui {

bool recompute_if_dirty(App& app) {
    if (!app.dirty) return false;
    app.dirty = false;
    const double t0 = now_ms();
    app.report = predict(app.scenario);
    Derived& d = app.derived;
    d = Derived{};
    if (app.report.ok) {
        ContextLimits limits = solve_context_limits(app.scenario);
        d.max_len = std::move(limits.boots);
        d.max_len_all = std::move(limits.all_sequences);
        d.max_len_seqs = limits.max_num_seqs;
        d.max_seqs = solve_max_num_seqs(app.scenario);
        d.min_gpus = solve_min_gpus(app.scenario);
        Diagnostics ignored;  // already in app.report
        if (const auto dep = resolve(app.scenario, ignored)) {
            DemandCurve curve = demand_curve(*dep, dep->load());
            d.curve = std::move(curve.points);
            d.budget_bytes = curve.budget_bytes;
        }
    }
    // A pinned tensor_parallel_size is the one count priced, as `kvcalc --shop --tp N` does.
    d.shop_pinned_tp = app.ui.shop_pin_tp ? app.scenario.tensor_parallel_size : 0;
    d.shop = shopping(app.scenario, gpu_catalog(),
                      d.shop_pinned_tp > 0 ? std::vector<int>{d.shop_pinned_tp} : default_shop_counts());
    gguf_recompute(app);
    refresh_log_rows(app);
    d.recompute_ms = now_ms() - t0;
    app.url_dirty = true;
    return true;
}

}  // namespace kvcalc::ui

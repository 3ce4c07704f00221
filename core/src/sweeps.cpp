// GPU shopping and the demand curve: loops over Loads of one Deployment (sweeps.h).
#include "kvcalc/sweeps.h"

#include <algorithm>
#include <cmath>

#include "kvcalc/context_limit.h"
#include "kvcalc/solver.h"

namespace kvcalc {

std::vector<ShopRow> shopping(const Scenario& scenario, const std::vector<GpuSpec>& gpus, const std::vector<int>& counts) {
    std::vector<ShopRow> out;
    out.reserve(gpus.size() * counts.size());
    for (int cards : counts) {
        Scenario s = scenario;
        s.tensor_parallel_size = cards;
        s.gpus = 0;
        s.vram_gb.reset();
        s.vram_gib.reset();
        s.gpu = gpus.empty() ? std::string() : gpus.front().id;  // each row's card replaces it in the Load
        Diagnostics d;
        const std::optional<Deployment> dep = resolve(s, d);
        std::string why;
        if (!dep) {
            for (const auto& x : d)
                if (x.severity == Severity::error) {
                    why = x.code == "tp_invalid" ? "TP " + std::to_string(cards) + " does not split this model's heads"
                                                 : x.message;
                    break;
                }
        }
        for (std::size_t g = 0; g < gpus.size(); ++g) {
            const GpuSpec& gpu = gpus[g];
            ShopRow row;
            row.gpu_index = static_cast<int>(g);
            row.gpu_id = gpu.id;
            row.cards = cards;
            if (!dep) {
                row.note = why;
                out.push_back(std::move(row));
                continue;
            }
            // The row's card, with its own vLLM defaults where the user left max_num_seqs to vLLM.
            const Load load = load_on(*dep, gpu);
            row.max_num_seqs = load.max_num_seqs;
            const Diagnostics bad = check_load(*dep, load);
            if (has_error(bad)) {
                row.note = bad.front().message;
                out.push_back(std::move(row));
                continue;
            }
            row.valid = true;
            const BudgetTerms t = evaluate(*dep, load);
            row.runs = t.kv_dtype_runs;  // the hardware rule lives in evaluate(): a FAIL verdict too
            row.verdict = classify(t);
            row.max_concurrency = t.max_concurrency;
            row.limiting_term = largest_term(t);
            const SolveResult len = solve_max_model_len(*dep, load, FitCriterion::boots);
            row.max_model_len = len.ok ? len.value : 0;
            if (!row.runs || !t.kv_dtype_support_known) row.note = kv_hardware_sentence(*dep, &gpu);
            out.push_back(std::move(row));
        }
    }
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

// Row choice and order for GPU shopping; see shop_view.h.
#include "shop_view.h"

#include <algorithm>

#include "kvcalc/deployment/sweeps.h"
#include "model_lookup.h"
#include "widgets.h"

namespace kvcalc::ui {

namespace {

const GpuSpec& gpu_of(const ShopRow& r) { return gpu_catalog()[static_cast<std::size_t>(r.gpu_index)]; }

/// A column's order; ties keep the core's buy order (the rows arrive in it, and the sort is stable).
bool less_by(const ShopRow& a, const ShopRow& b, ShopSort key) {
    switch (key) {
        case ShopSort::gpu: return short_gpu_name(gpu_of(a)) < short_gpu_name(gpu_of(b));
        case ShopSort::vram: return a.total_vram_bytes < b.total_vram_bytes;
        case ShopSort::cards: return a.cards < b.cards;
        case ShopSort::max_context: return a.max_model_len < b.max_model_len;
        case ShopSort::verdict: break;
    }
    return shop_verdict_rank(a) < shop_verdict_rank(b);
}

bool contains(const std::string& text, const char* part) { return text.find(part) != std::string::npos; }

}  // namespace

std::vector<ShopRow> shop_rows_in_order(const App& app) {
    // The core's order and de-duplication (sweeps.h shop_buy_order, best_row_per_gpu), as `kvcalc --shop` prints.
    if (!app.ui.shop_all_counts) return best_row_per_gpu(app.derived.shop);
    std::vector<ShopRow> rows = app.derived.shop;
    const ShopSort key = app.ui.shop_sort;
    const bool reverse = key != ShopSort::verdict && app.ui.shop_sort_descending;
    std::stable_sort(rows.begin(), rows.end(), [&](const ShopRow& a, const ShopRow& b) {
        return reverse ? less_by(b, a, key) : less_by(a, b, key);
    });
    return rows;
}

std::string shop_caveat(const App& app, const GpuSpec& gpu) {
    if (gpu.sm_x10 == 0) return {};
    std::string weights(app.report.settings.weights_variant);
    if (weights.empty())
        if (const ModelSpec* m = current_model(app.scenario))
            if (!m->weights.empty()) weights = m->weights.front().id;
    const std::string& kv = app.scenario.kv_cache_dtype;
    std::string out;
    const bool bf16 = contains(weights, "bf16") || kv == "bf16" || kv == "auto";
    if (gpu.sm_x10 < 80 && bf16)
        out = "sm_" + std::to_string(gpu.sm_x10) + " has no bfloat16: vLLM runs this model in float16 (--dtype half); "
              "the memory is the same, the numerics can differ.";
    if (contains(weights, "fp8") && gpu.sm_x10 < 89)
        out += std::string(out.empty() ? "" : " ") +
               (gpu.sm_x10 >= 80 ? "fp8 weights run weight-only (Marlin kernels) below sm_89: slower, same memory."
                                 : "fp8 weights need sm_80 or newer in vLLM.");
    return out;
}

}  // namespace kvcalc::ui

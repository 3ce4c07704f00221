// Row choice and order for GPU shopping; see shop_view.h.
#include "shop_view.h"

#include <algorithm>
#include <map>
#include <tuple>

#include "model_lookup.h"
#include "widgets.h"

namespace kvcalc::ui {

namespace {

/// PASS 0, TIGHT 1, FAIL 2, not possible (heads do not split, or the KV format has no kernel on the card) 3.
int verdict_rank(const ShopRow& r) { return r.valid && r.runs ? static_cast<int>(r.verdict) : 3; }

const GpuSpec& gpu_of(const ShopRow& r) { return gpu_catalog()[static_cast<std::size_t>(r.gpu_index)]; }

std::int64_t total_vram(const ShopRow& r) { return gpu_of(r).vram_bytes * r.cards; }

/// "What to buy" order: verdict, then total VRAM, then fewer cards, then a longer context, then catalog order.
bool buy_order(const ShopRow& a, const ShopRow& b) {
    return std::make_tuple(verdict_rank(a), total_vram(a), a.cards, -a.max_model_len, a.gpu_index) <
           std::make_tuple(verdict_rank(b), total_vram(b), b.cards, -b.max_model_len, b.gpu_index);
}

bool less_by(const ShopRow& a, const ShopRow& b, ShopSort key) {
    switch (key) {
        case ShopSort::gpu: return short_gpu_name(gpu_of(a)) < short_gpu_name(gpu_of(b));
        case ShopSort::vram: return total_vram(a) < total_vram(b);
        case ShopSort::cards: return a.cards < b.cards;
        case ShopSort::max_context: return a.max_model_len < b.max_model_len;
        case ShopSort::verdict: break;
    }
    return buy_order(a, b);
}

bool contains(const std::string& text, const char* part) { return text.find(part) != std::string::npos; }

}  // namespace

std::vector<ShopRow> shop_rows_in_order(const App& app) {
    std::vector<ShopRow> rows;
    if (app.ui.shop_all_counts) {
        rows = app.derived.shop;
    } else {
        std::map<int, ShopRow> best;  // per GPU: the first row in buy order among its counts
        for (const ShopRow& r : app.derived.shop) {
            auto it = best.find(r.gpu_index);
            const bool better = it == best.end() ||
                                std::make_tuple(verdict_rank(r), r.cards) < std::make_tuple(verdict_rank(it->second), it->second.cards);
            if (better) best[r.gpu_index] = r;
        }
        for (auto& [g, r] : best) rows.push_back(r);
    }
    const ShopSort key = app.ui.shop_all_counts ? app.ui.shop_sort : ShopSort::verdict;
    const bool reverse = app.ui.shop_all_counts && key != ShopSort::verdict && app.ui.shop_sort_descending;
    std::stable_sort(rows.begin(), rows.end(), [&](const ShopRow& a, const ShopRow& b) {
        if (less_by(a, b, key)) return !reverse;
        if (less_by(b, a, key)) return reverse;
        return buy_order(a, b);
    });
    return rows;
}

std::string shop_caveat(const App& app, const GpuSpec& gpu) {
    if (gpu.sm_x10 == 0) return {};
    std::string weights = app.report.settings.weights_variant;
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

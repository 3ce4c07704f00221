// GPU shopping as an answer to "what should I buy": which rows are shown and in what order, and the caveats a
// card's generation adds. Presentation only: every verdict and length comes from the recompute (Derived::shop).
#pragma once
#include <string>
#include <vector>

#include "app.h"
#include "kvcalc/base/gpu_catalog.h"

namespace kvcalc::ui {

/// The rows the table shows, in order. By default the core's table without repeats (sweeps.h best_row_per_gpu: one
/// row per GPU at the fewest cards that pass, else boot), in its buy order (shop_buy_order: verdict, least total
/// VRAM, fewer cards, longer context), the rows `kvcalc --shop` prints. With UiState::shop_all_counts every count is
/// shown, sorted by the table's column, ties in buy order.
std::vector<ShopRow> shop_rows_in_order(const App& app);

/// Generation limits of `gpu` for this scenario ("" when none): bf16 needs sm_80 (vLLM runs such models as fp16 on
/// older cards: `--dtype half`), fp8 weights need sm_89 for native kernels (sm_80/86 run them weight-only).
std::string shop_caveat(const App& app, const GpuSpec& gpu);

}  // namespace kvcalc::ui

// Finished lists for front ends: the GPU-shopping table and the demand-vs-context curve. Each row or point is
// the same evaluation predict() makes for that scenario, so a front end renders them and computes nothing.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "kvcalc/engines/deployment.h"
#include "kvcalc/base/gpu_catalog.h"
#include "kvcalc/base/scenario.h"

namespace kvcalc {

/// One GPU-shopping row: the scenario on `cards` × one GPU with tensor_parallel_size = gpus = cards.
struct ShopRow {
    int gpu_index = 0;               ///< into the `gpus` list given to shopping()
    std::string gpu_id;
    int cards = 1;
    std::int64_t total_vram_bytes = 0;  ///< cards × the GPU's VRAM (the buy order's stand-in for cost)
    std::int64_t max_num_seqs = 0;   ///< the row's: the scenario's, or vLLM's default for this card when left unset
    /// The KV format priced on this card: kv_cache_dtype "auto" resolves per card (the model's dtype there: a
    /// bfloat16 model is float16 on cards below sm_80), so rows of one list can differ. Empty when invalid.
    std::string kv_cache_dtype;
    bool valid = false;              ///< the scenario resolves at this TP (the model's heads split)
    bool runs = false;               ///< the KV format has a kernel on this card (kv_format_runs_on)
    Verdict verdict = Verdict::fail; ///< predict() of that scenario (also when the format does not run there)
    std::int64_t max_model_len = 0;  ///< largest max_model_len that boots there, 0 when none
    double max_concurrency = 0.0;    ///< full-length requests the pool holds at the scenario's length
    std::string limiting_term;       ///< largest per-card term at the scenario's length
    std::string note;                ///< why invalid or not runnable; empty otherwise
};

/// Card counts the page and `--shop` sweep by default.
inline const std::vector<int>& default_shop_counts() {
    static const std::vector<int> counts{1, 2, 4, 8};
    return counts;
}

/// Every GPU in `gpus` × every count in `counts`, in buy order (shop_buy_order). The deployment is resolved once
/// per count (with kv_cache_dtype "auto": once per count and compute capability, which is all "auto" depends on);
/// each GPU enters as the Load (its VRAM and its identity), exactly as predict() evaluates it.
std::vector<ShopRow> shopping(const Scenario& scenario, const std::vector<GpuSpec>& gpus, const std::vector<int>& counts);

/// The "what to buy" order both front ends show: PASS, then TIGHT, then FAIL, then not possible (the heads do not
/// split at that count, or the card has no kernel for the KV format); within each, the least total VRAM first
/// (kvcalc has no prices: total VRAM stands in for cost), then fewer cards, then the longer largest max_model_len,
/// then `gpus` order. A strict weak order.
bool shop_buy_order(const ShopRow& a, const ShopRow& b);

/// 0 PASS, 1 TIGHT, 2 FAIL, 3 not possible: the first key of shop_buy_order.
int shop_verdict_rank(const ShopRow& row);

/// One row per GPU, the shopping table without repeats: each GPU's first row in buy order (the fewest cards that
/// pass, else the fewest that boot, else the fewest that are possible), kept in buy order. `rows` must be in buy
/// order (as shopping() returns them).
std::vector<ShopRow> best_row_per_gpu(const std::vector<ShopRow>& rows);

/// The answers above the shopping table, each taken from the whole sweep (every GPU at every count given to
/// shopping()), never from one row per GPU: a GPU whose fewest passing count is 2 still answers "least VRAM that
/// boots" with its 1-card TIGHT row. A row counts only when it is possible and its KV format runs on the card.
struct ShopHeadlines {
    std::optional<ShopRow> least_vram_pass;   ///< least total VRAM that passes (buy order's first PASS row)
    /// Least total VRAM that boots (PASS or TIGHT); set only when it is less VRAM than least_vram_pass (else it is
    /// the same answer) or when nothing passes.
    std::optional<ShopRow> least_vram_boots;
    /// Fewest cards of any GPU that pass, else that boot; ties: least total VRAM, then buy order.
    std::optional<ShopRow> fewest_cards;
};

/// The headlines of `rows` (any order; every row of the sweep, not best_row_per_gpu's).
ShopHeadlines shop_headlines(const std::vector<ShopRow>& rows);

/// One point of the per-card demand curve.
struct CurvePoint {
    std::int64_t max_model_len = 0;
    std::int64_t demand_bytes = 0;   ///< non-KV + requested KV at this length
    Verdict verdict = Verdict::fail;
};

/// Demand vs max_model_len at `points` log-spaced lengths from 1,024 up to the model's limit (or the load's
/// length when larger, or 2,048 when the model states none), at the load's max_num_seqs and VRAM.
struct DemandCurve {
    std::vector<CurvePoint> points;
    std::int64_t budget_bytes = 0;   ///< per card, for the budget line
};
DemandCurve demand_curve(const Deployment& deployment, const Load& load, int points = 64);

}  // namespace kvcalc

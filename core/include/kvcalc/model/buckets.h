// "Hybrid-layer cache buckets": identical per-card layer caches merged with a count, each priced as the engine's
// plan allocates it (page bytes, pages per request under the engine's window rule) and holding its share of the
// KV the verdict prices.
#pragma once
#include <cstdint>
#include <string_view>
#include <vector>

#include "kvcalc/base/inline_list.h"
#include "kvcalc/base/model_spec.h"
#include "kvcalc/model/layer_cache.h"

namespace kvcalc {

/// Which priced KV term a bucket's bytes belong to (BudgetTerms' requested growing, sliding and state).
enum class BucketTerm {
    none,     ///< the engine keeps nothing for these layers
    growing,  ///< full attention and MLA, and windowed layers an engine prices at full length
    sliding,  ///< sliding-window and chunked layers the engine keeps a window of
    state,    ///< recurrent state, one page per request whatever its length
};

/// The term's id in the report (BudgetTerms' term ids): "kv_growing", "kv_sliding", "recurrent_state", "none".
const char* bucket_term_name(BucketTerm term);

/// One group of identical layers as the chosen engine allocates it on one card, from the engine's plan
/// (vLLM: its KV cache spec after page-size unification; llama.cpp: its cells; SGLang: its token pool cells).
struct EngineBucket {
    BucketTerm term = BucketTerm::none;
    std::int64_t page_bytes = 0;         ///< one page of one layer on one card (a vLLM block, a llama.cpp or SGLang cell, a state)
    std::int64_t tokens_per_page = 0;    ///< tokens a page holds; 0 = one page per request (recurrent state)
    std::int64_t pages_per_request = 0;  ///< pages one request holds in one layer under the engine's rule
    double bytes_per_token_per_card = 0; ///< the engine's bytes per token of all the group's layers on one card (0 for state)
};

/// One row of the buckets table: `layer_count` layers with the same LayerCache value.
struct CacheBucket {
    std::string_view kind;                  ///< static text: layer_kind_json_name (layer_kinds.h)
    LayerCache cache;                       ///< the catalog value (TP=1 facts)
    int layer_count = 0;
    EngineBucket engine;                    ///< how the engine allocates these layers (its plan)
    /// This bucket's share of the KV the verdict prices on one card; the buckets of a report add up to
    /// BudgetTerms::kv_requested_bytes.
    std::int64_t kv_bytes_per_card = 0;
};

/// The rows of a buckets table, held in the Report itself for the usual one to four distinct layer caches
/// (predict() allocates nothing for them); more go to the heap.
using BucketList = InlineList<CacheBucket, 4>;

/// The KV an engine priced on one card, by where it goes (BudgetTerms' requested growing, sliding and state).
struct PricedKv {
    std::int64_t growing_bytes = 0;
    std::int64_t sliding_bytes = 0;
    std::int64_t state_bytes = 0;
};

/// Shares the priced terms over rows whose `engine` the engine's plan filled: each term goes to the rows of its
/// BucketTerm in proportion to page_bytes × pages_per_request × layer_count (a term with one row takes it whole),
/// the rounding to the last; a term without rows of its kind goes to the growing rows (every row, weighted at
/// least 1, when none grows). The shares add up to the three inputs exactly.
void share_priced_kv(const PricedKv& priced, BucketList& rows);

}  // namespace kvcalc

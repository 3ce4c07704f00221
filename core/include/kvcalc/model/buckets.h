// "Hybrid-layer cache buckets": identical per-card layer caches merged with a count.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "kvcalc/base/inline_list.h"
#include "kvcalc/base/kv_format.h"
#include "kvcalc/model/layer_cache.h"
#include "kvcalc/base/model_spec.h"

namespace kvcalc {

/// One row of the buckets table: `layer_count` layers with the same LayerCache value.
struct CacheBucket {
    std::string_view kind;                  ///< static text: layer_kind_json_name (layer_kinds.h)
    LayerCache cache;                       ///< the catalog value (TP=1 facts)
    int layer_count = 0;
    double bytes_per_token_per_card = 0.0;  ///< growing bytes per token per sequence on one card (exact rational)
    std::int64_t fixed_bytes_per_card = 0;  ///< sliding window or recurrent state at the scenario's length/seqs
    /// This bucket's share of the KV the verdict prices on one card (the engine's plan: vLLM's padded pages and
    /// blocks, llama.cpp's cells, SGLang's pool); the buckets of a report add up to BudgetTerms::kv_requested_bytes.
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

/// Groups model.layers (first-appearance order). Uses max_model_len for sliding windows shorter than the window
/// and max_num_seqs for recurrent state. Requires a valid tp.
BucketList cache_buckets(const ModelSpec& model, const KvFormat& format, int tp,
                        std::int64_t max_model_len, std::int64_t max_num_seqs);

/// Same, from groups already made by group_layers(model). With `priced`, each bucket's kv_bytes_per_card is its
/// share of what the engine priced: the growing bytes go to the full-attention and MLA buckets, the sliding bytes
/// to the sliding and chunked ones (when the engine priced no sliding term, e.g. SGLang or vLLM without the
/// hybrid manager, they share the growing bytes by bytes per token), the state to the recurrent ones, each in
/// proportion to the bucket's own bytes (exact when a kind has one layer spec), the rounding to the last. The
/// shares add up to the three inputs exactly.
BucketList cache_buckets(const ModelSpec& model, const std::vector<LayerGroup>& groups, const KvFormat& format, int tp,
                        std::int64_t max_model_len, std::int64_t max_num_seqs, const PricedKv* priced = nullptr);

/// The load-independent part of the buckets of one model × format × TP: the rows (kind, cache, count, growing bytes
/// per token) and each row's per-card footprint. A Deployment keeps one, so that predict() only prices the load.
struct BucketTemplate {
    std::vector<CacheBucket> rows;            ///< kv_bytes_per_card and fixed_bytes_per_card are 0 here
    std::vector<LayerFootprint> footprints;   ///< per row: one layer's footprint on one card (layer_footprint)
};

/// bucket_template() for groups made by group_layers(model). Requires a valid tp.
BucketTemplate bucket_template(const ModelSpec& model, const std::vector<LayerGroup>& groups, const KvFormat& format,
                               int tp);

/// cache_buckets() from a template: the same rows at max_model_len and max_num_seqs (and `priced` shares).
BucketList cache_buckets(const BucketTemplate& tmpl, std::int64_t max_model_len, std::int64_t max_num_seqs,
                        const PricedKv* priced = nullptr);
/// The same, written into `out` (predict() fills its Report's list in place, without a second copy).
void cache_buckets(const BucketTemplate& tmpl, std::int64_t max_model_len, std::int64_t max_num_seqs,
                   const PricedKv* priced, BucketList& out);

}  // namespace kvcalc

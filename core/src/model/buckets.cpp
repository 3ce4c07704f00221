// The buckets table's shares of the priced KV (buckets.h); the rows themselves come from the engine's plan.
#include "kvcalc/model/buckets.h"

#include <algorithm>

namespace kvcalc {

namespace {

/// Adds `total` to the rows whose term is `which`, split in proportion to `weight(i)` (floor of each share, the
/// rest to the last of them). A term with one row (the usual case: one layer spec of each kind) takes the whole
/// term without computing a weight.
template <class Weight>
void share(BucketList& rows, BucketTerm which, bool every_row, const Weight& weight, std::int64_t total) {
    auto takes = [&](std::size_t i) { return every_row || rows[i].engine.term == which; };
    std::size_t members = 0, last = 0;
    for (std::size_t i = 0; i < rows.size(); ++i)
        if (takes(i)) ++members, last = i;
    if (members == 0) return;
    if (members == 1) {
        rows[last].kv_bytes_per_card += total;
        return;
    }
    // long double: a weight only sets proportions, and the products can pass 2^63 at the schema's limits.
    long double sum = 0;
    for (std::size_t i = 0; i < rows.size(); ++i)
        if (takes(i)) sum += weight(i);
    std::int64_t given = 0;
    for (std::size_t i = 0; i < rows.size(); ++i) {
        if (!takes(i)) continue;
        const std::int64_t part =
            i == last || sum <= 0 ? total - given
                                  : static_cast<std::int64_t>(static_cast<long double>(total) * weight(i) / sum);
        rows[i].kv_bytes_per_card += part;
        given += part;
        if (i != last && sum <= 0) break;
    }
}

}  // namespace

const char* bucket_term_name(BucketTerm term) {
    switch (term) {
        case BucketTerm::none: return "none";
        case BucketTerm::growing: return "kv_growing";
        case BucketTerm::sliding: return "kv_sliding";
        case BucketTerm::state: return "recurrent_state";
    }
    return "none";
}

void share_priced_kv(const PricedKv& priced, BucketList& rows) {
    bool has[4] = {false, false, false, false};
    for (const CacheBucket& b : rows)
        if (b.layer_count > 0) has[static_cast<int>(b.engine.term)] = true;
    const bool has_growing = has[static_cast<int>(BucketTerm::growing)];
    const bool has_sliding = has[static_cast<int>(BucketTerm::sliding)];
    const bool has_state = has[static_cast<int>(BucketTerm::state)];
    // A term with no row of its kind (none in practice) stays in the table: the growing rows carry it, every row
    // weighted at least 1 when none grows.
    std::int64_t growing_total = priced.growing_bytes;
    if (!has_sliding) growing_total += priced.sliding_bytes;
    if (!has_state) growing_total += priced.state_bytes;
    const bool every_row = !has_growing && growing_total > 0;
    const auto weight = [&](std::size_t i) {
        const EngineBucket& e = rows[i].engine;
        const long double w = static_cast<long double>(e.page_bytes) * static_cast<long double>(e.pages_per_request) *
                              static_cast<long double>(rows[i].layer_count);
        return every_row ? std::max<long double>(1, w) : w;
    };
    share(rows, BucketTerm::growing, every_row, weight, growing_total);
    if (has_sliding) share(rows, BucketTerm::sliding, false, weight, priced.sliding_bytes);
    if (has_state) share(rows, BucketTerm::state, false, weight, priced.state_bytes);
}

}  // namespace kvcalc

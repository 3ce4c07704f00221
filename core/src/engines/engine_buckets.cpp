// The buckets table from the chosen engine's plan (buckets.h): one row per layer group, as the engine allocates it.
#include "engines/deploy_internal.h"
#include "kvcalc/model/layer_kinds.h"

namespace kvcalc {

void engine_buckets(const Deployment& d, const Load& load, const BudgetTerms& t, BucketList& out) {
    out.clear();
    for (std::size_t i = 0; i < d.groups.size(); ++i) {
        CacheBucket b;
        b.kind = layer_kind_json_name(d.groups[i].cache);
        b.cache = d.groups[i].cache;
        b.layer_count = d.groups[i].count;
        b.engine = std::visit([&](const auto& plan) { return detail::bucket(d, plan, load, i); }, d.plan);
        out.push_back(std::move(b));
    }
    share_priced_kv({t.kv_growing_requested_bytes, t.kv_sliding_requested_bytes, t.recurrent_state_requested_bytes},
                    out);
}

}  // namespace kvcalc

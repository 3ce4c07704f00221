#include "kvcalc/model/buckets.h"

#include <algorithm>
#include <array>
#include <variant>
#include <vector>

#include "kvcalc/model/layer_cache.h"
#include "kvcalc/base/checked_math.h"
#include "kvcalc/model/layer_kinds.h"
#include "kvcalc/base/units.h"

namespace kvcalc {

namespace {

/// ceil(x400 × window × layers / 400): the sliding bytes of `layers` layers over `window` tokens, exact while the
/// answer fits in int64 and saturated above. The ×400 fixed point leaves no headroom for the raw triple product
/// (1e5 heads × 1e6 head_dim × 4096 tokens × 10,000 layers), so the whole part of x400 / 400 is multiplied out
/// on its own and only the remainder (< 400) meets window × layers.
std::int64_t window_bytes(std::int64_t x400, std::int64_t window, std::int64_t layers) {
    const std::int64_t whole = x400 / kBpeDenominator;
    const std::int64_t rest = x400 % kBpeDenominator;
    const std::int64_t tokens = sat_mul(window, layers);
    return sat_add(sat_mul(whole, tokens), sat_ceil_div(sat_mul(rest, tokens), kBpeDenominator));
}

}  // namespace

BucketList cache_buckets(const ModelSpec& model, const KvFormat& format, int tp, std::int64_t max_model_len,
                        std::int64_t max_num_seqs) {
    return cache_buckets(model, group_layers(model), format, tp, max_model_len, max_num_seqs);
}

namespace {

// Which of the priced terms a bucket takes a share of (a bucket may take two: see cache_buckets).
enum : unsigned char { kGrowing = 1, kSliding = 2, kRecurrent = 4 };

/// Adds `total` to the buckets whose `member` mask has `which`, split in proportion to `weight(i)` (floor of each
/// share, the rest to the last member, `last`). A kind with one bucket (the usual case: one layer spec of each
/// kind) takes the whole term without computing a weight.
template <class Weight>
void share(BucketList& out, const unsigned char* member, unsigned char which, std::size_t members, std::size_t last,
           const Weight& weight, std::int64_t total) {
    if (members == 0) return;
    if (members == 1) {
        out[last].kv_bytes_per_card += total;
        return;
    }
    const std::size_t n = out.size();
    // long double: a weight only sets proportions, and the products can pass 2^63 at the schema's limits.
    long double sum = 0;
    for (std::size_t i = 0; i < n; ++i)
        if (member[i] & which) sum += weight(i);
    std::int64_t given = 0;
    for (std::size_t i = 0; i < n; ++i) {
        if (!(member[i] & which)) continue;
        const std::int64_t part =
            i == last ? total - given : static_cast<std::int64_t>(static_cast<long double>(total) * weight(i) / sum);
        out[i].kv_bytes_per_card += part;
        given += part;
    }
}

/// How many buckets take a kind, and the last of them.
struct Takers {
    std::size_t count = 0, last = 0;
    void add(std::size_t i) {
        last = count == 0 ? i : std::max(last, i);
        ++count;
    }
};

// Per-bucket membership masks without a heap allocation for the usual handful of layer groups.
struct Members {
    static constexpr std::size_t kInline = 8;
    unsigned char inline_values[kInline];  // not zeroed: every entry used is written first (per call)
    std::vector<unsigned char> heap;
    unsigned char* data = inline_values;
    Members(const Members&) = delete;
    Members& operator=(const Members&) = delete;
    explicit Members(std::size_t n) {
        if (n > kInline) {
            heap.assign(n, 0);
            data = heap.data();
        }
    }
    unsigned char& operator[](std::size_t i) { return data[i]; }
};

}  // namespace

BucketTemplate bucket_template(const ModelSpec& model, const std::vector<LayerGroup>& groups, const KvFormat& format,
                               int tp) {
    BucketTemplate t;
    t.rows.resize(groups.size());
    t.footprints.resize(groups.size());
    std::int64_t raw_growing_x400 = 0;
    for (std::size_t i = 0; i < groups.size(); ++i) {
        const LayerGroup& g = groups[i];
        const LayerFootprint f = layer_footprint(g.cache, format, tp);
        t.footprints[i] = f;
        CacheBucket& b = t.rows[i];
        b.kind = layer_kind_json_name(g.cache);
        b.cache = g.cache;
        b.layer_count = g.count;
        raw_growing_x400 += f.growing_x400_per_token * g.count;
        b.bytes_per_token_per_card = static_cast<double>(f.growing_x400_per_token) * static_cast<double>(g.count) / kBpeDenominator;
    }
    // A measured per-token override rescales the growing buckets so the table adds up to what is priced.
    if (model.measured_kv_growing_bytes_per_token_tp1_bf16 && raw_growing_x400 > 0) {
        const double scale = static_cast<double>(model_footprint(model, groups, format, tp).growing_x400_per_token) /
                             static_cast<double>(raw_growing_x400);
        for (auto& b : t.rows) b.bytes_per_token_per_card *= scale;
    }
    return t;
}

BucketList cache_buckets(const ModelSpec& model, const std::vector<LayerGroup>& groups, const KvFormat& format, int tp,
                        std::int64_t max_model_len, std::int64_t max_num_seqs, const PricedKv* priced) {
    return cache_buckets(bucket_template(model, groups, format, tp), max_model_len, max_num_seqs, priced);
}

BucketList cache_buckets(const BucketTemplate& tmpl, std::int64_t max_model_len, std::int64_t max_num_seqs,
                        const PricedKv* priced) {
    BucketList out;
    cache_buckets(tmpl, max_model_len, max_num_seqs, priced, out);
    return out;
}

void cache_buckets(const BucketTemplate& tmpl, std::int64_t max_model_len, std::int64_t max_num_seqs,
                   const PricedKv* priced, BucketList& out) {
    out.assign(tmpl.rows);
    const std::size_t n = out.size();
    // Per bucket, what it keeps: growing per token, sliding per token over its window, state per request. Each
    // factor is ≥ 0, so a bucket keeps a kind exactly when all of that product's factors are positive.
    Members member(n);
    Takers growing, sliding, recurrent;
    for (std::size_t i = 0; i < n; ++i) {
        const LayerFootprint& f = tmpl.footprints[i];
        CacheBucket& b = out[i];
        const std::int64_t window = std::min(f.window_tokens, max_model_len);
        b.fixed_bytes_per_card =
            sat_add(window_bytes(f.window_x400_per_token, window, b.layer_count),
                    sat_mul(sat_mul(f.state_bytes_per_sequence, b.layer_count), max_num_seqs));
        const bool counted = b.layer_count > 0;
        if (counted && f.state_bytes_per_sequence > 0) member[i] = kRecurrent, recurrent.add(i);
        else if (counted && f.window_x400_per_token > 0 && window > 0) member[i] = kSliding, sliding.add(i);
        else if (counted && f.growing_x400_per_token + f.window_x400_per_token > 0) member[i] = kGrowing, growing.add(i);
        else member[i] = 0;
    }
    if (!priced) return;
    if (sliding.count > 0 && priced->sliding_bytes == 0) {  // sliding layers priced at full length, with the rest
        for (std::size_t i = 0; i < n; ++i)
            if (member[i] == kSliding) member[i] = kGrowing, growing.add(i);
        sliding = Takers{};
    }
    // A term with no bucket of its kind (none in practice) stays in the table: the growing buckets carry it,
    // every bucket weighted at least 1 when none grows.
    std::int64_t growing_total = priced->growing_bytes;
    if (sliding.count == 0) growing_total += priced->sliding_bytes;
    if (recurrent.count == 0) growing_total += priced->state_bytes;
    const bool every_bucket_grows = growing.count == 0 && growing_total > 0;
    if (every_bucket_grows) {
        for (std::size_t i = 0; i < n; ++i) member[i] |= kGrowing;
        growing = Takers{n, n > 0 ? n - 1 : 0};
    }
    const auto count = [&](std::size_t i) { return static_cast<long double>(out[i].layer_count); };
    const auto per_token = [&](std::size_t i) {
        const LayerFootprint& f = tmpl.footprints[i];
        const long double w = static_cast<long double>(f.growing_x400_per_token + f.window_x400_per_token) * count(i);
        return every_bucket_grows ? std::max<long double>(1, w) : w;
    };
    const auto window_bytes = [&](std::size_t i) {
        const LayerFootprint& f = tmpl.footprints[i];
        return static_cast<long double>(f.window_x400_per_token) *
               static_cast<long double>(std::min(f.window_tokens, max_model_len)) * count(i);
    };
    const auto state = [&](std::size_t i) {
        return static_cast<long double>(tmpl.footprints[i].state_bytes_per_sequence) * count(i);
    };
    share(out, member.data, kGrowing, growing.count, growing.last, per_token, growing_total);
    share(out, member.data, kSliding, sliding.count, sliding.last, window_bytes, priced->sliding_bytes);
    share(out, member.data, kRecurrent, recurrent.count, recurrent.last, state, priced->state_bytes);
}

}  // namespace kvcalc

// resolve() through a small per-thread cache. A deployment's look-ups, validation, layer groups and per-model
// lists do not depend on the load (max_model_len, max_num_seqs), which is what a user changes most; a scenario
// that differs from a cached one only there re-binds the cached deployment to its load (rebind_load) instead of
// resolving from scratch. Every other field is part of the key (Scenario::operator==), so a changed config_json,
// model, GPU, format or TP resolves afresh. Per thread: no locks, and the page (WebAssembly) has one thread.
#include <algorithm>
#include <array>
#include <utility>

#include "kvcalc/input_limits.h"
#include "predict_internal.h"

namespace kvcalc::detail {

namespace {

struct Entry {
    Scenario key;                                 ///< the scenario `deployment` was resolved for
    std::shared_ptr<Deployment> deployment;       ///< only changed while no caller holds it (use_count 1)
    Diagnostics diagnostics;                      ///< resolve()'s warnings and notes for it (never errors)
    const ActivationFit* fit = nullptr;
};

// Enough for the page's recompute (predict, three solvers, the shopping counts, the GPU-count solver) to keep
// the user's own scenario; most recently used first.
constexpr std::size_t kEntries = 8;
// A config.json is a few KB; a key this large is resolved each time rather than kept (input_limits.h allows 4 MiB).
constexpr std::size_t kMaxCachedConfigBytes = 256 * 1024;

struct Cache {
    std::array<Entry, kEntries> entries;
    std::size_t used = 0;
};

Cache& cache() {
    thread_local Cache c;
    return c;
}

// Scenario equality ignoring the load fields, without copying either side: the stored key takes the query's load
// for the comparison.
bool same_but_load(Scenario& key, const Scenario& s) {
    const auto len = key.max_model_len, seqs = key.max_num_seqs;
    key.max_model_len = s.max_model_len;
    key.max_num_seqs = s.max_num_seqs;
    const bool same = key == s;
    key.max_model_len = len;
    key.max_num_seqs = seqs;
    return same;
}

std::shared_ptr<const Deployment> resolve_and_keep(Cache& c, const Scenario& s, Diagnostics& diags) {
    Diagnostics d;
    const ActivationFit* fit = nullptr;
    std::optional<Deployment> r = resolve_uncached(s, d, &fit);
    const bool keep = r && s.config_json.size() <= kMaxCachedConfigBytes;
    diags.insert(diags.end(), d.begin(), d.end());
    if (!r) return nullptr;
    auto dep = std::make_shared<Deployment>(std::move(*r));
    if (keep) {
        if (c.used < kEntries) ++c.used;
        std::rotate(c.entries.begin(), c.entries.begin() + static_cast<std::ptrdiff_t>(c.used) - 1,
                    c.entries.begin() + static_cast<std::ptrdiff_t>(c.used));
        c.entries[0] = Entry{s, dep, std::move(d), fit};
    }
    return dep;
}

}  // namespace

std::shared_ptr<const Deployment> resolve_shared(const Scenario& s, Diagnostics& diags) {
    Cache& c = cache();
    for (std::size_t i = 0; i < c.used; ++i) {
        Entry& e = c.entries[i];
        if (!same_but_load(e.key, s)) continue;
        std::rotate(c.entries.begin(), c.entries.begin() + static_cast<std::ptrdiff_t>(i),
                    c.entries.begin() + static_cast<std::ptrdiff_t>(i) + 1);
        Entry& hit = c.entries[0];
        if (hit.key.max_model_len != s.max_model_len || hit.key.max_num_seqs != s.max_num_seqs) {
            // Someone still holds the old binding: give the entry its own copy before changing it.
            if (hit.deployment.use_count() > 1) hit.deployment = std::make_shared<Deployment>(*hit.deployment);
            if (!rebind_load(s, hit.fit, *hit.deployment)) {
                std::rotate(c.entries.begin(), c.entries.begin() + 1,
                            c.entries.begin() + static_cast<std::ptrdiff_t>(c.used));
                --c.used;
                c.entries[c.used] = Entry{};
                return resolve_and_keep(c, s, diags);
            }
            hit.key.max_model_len = s.max_model_len;
            hit.key.max_num_seqs = s.max_num_seqs;
        }
        diags.insert(diags.end(), hit.diagnostics.begin(), hit.diagnostics.end());
        return hit.deployment;
    }
    return resolve_and_keep(c, s, diags);
}

}  // namespace kvcalc::detail

namespace kvcalc {

std::optional<Deployment> resolve(const Scenario& s, Diagnostics& diags) {
    std::shared_ptr<const Deployment> d = detail::resolve_shared(s, diags);
    if (!d) return std::nullopt;
    return *d;
}

}  // namespace kvcalc

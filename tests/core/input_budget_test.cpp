// Bounded work for the worst inputs the limits admit (a 4 MB config.json of NaN tokens, 300k keys, 10,000
// layers): the work must grow linearly. The measure is deterministic, never a clock: the number of heap
// allocations and the bytes allocated while reading and pricing, counted by this file's operator new. Doubling
// the input may at most double them (plus a small fixed part); a quadratic step would quadruple them.
// Timings and peak memory: bench/worst_inputs.cpp.
#include <doctest/doctest.h>

#include <cstddef>
#include <cstdlib>
#include <new>
#include <string>

#include "kvcalc/config/hf_config.h"
#include "kvcalc/deployment/predict.h"
#include "worst_inputs.h"

namespace {

using kvcalc::worst::layers_config;
using kvcalc::worst::many_keys_config;
using kvcalc::worst::nan_config;

struct Work {
    std::size_t allocations = 0;
    std::size_t bytes = 0;
};

thread_local bool g_counting = false;
thread_local Work g_work;

template <class F>
Work measure(F f) {
    g_work = {};
    g_counting = true;
    f();
    g_counting = false;
    return g_work;
}

/// At most twice the smaller input's work, plus 5% and a fixed 64 allocations / 64 KiB for what does not scale.
void check_linear(const Work& small, const Work& doubled) {
    CAPTURE(small.allocations);
    CAPTURE(doubled.allocations);
    CAPTURE(small.bytes);
    CAPTURE(doubled.bytes);
    CHECK(doubled.allocations <= 2 * small.allocations + small.allocations / 20 + 64);
    CHECK(doubled.bytes <= 2 * small.bytes + small.bytes / 20 + (64 << 10));
}

void price(const std::string& config) {
    kvcalc::Scenario s;
    s.config_json = config;
    s.gpu = "h100-80gb";
    s.max_model_len = 8192;
    (void)kvcalc::predict(s);
}

}  // namespace

void* operator new(std::size_t n) {
    if (g_counting) ++g_work.allocations, g_work.bytes += n;
    if (void* p = std::malloc(n ? n : 1)) return p;
    throw std::bad_alloc();
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }

TEST_SUITE("input_budget") {
    TEST_CASE("NaN tokens: 500k and 1M (4 MB) read with linear work and a bounded list of warnings") {
        const std::string small = nan_config(500000), big = nan_config(1000000);
        CHECK(big.size() > 4000000);
        std::size_t warnings = 0;
        const Work a = measure([&] { (void)kvcalc::read_hf_config(small); });
        const Work b = measure([&] {
            const auto cfg = kvcalc::read_hf_config(big);
            warnings = cfg.diagnostics.size();
        });
        check_linear(a, b);
        CHECK(warnings < 16);
    }

    TEST_CASE("keys: 20k and 40k NaN-valued keys, read and priced with linear work; 300k refused early") {
        const std::string small = many_keys_config(20000), big = many_keys_config(40000);
        price(many_keys_config(10));  // first-use costs (catalog tables, caches) stay out of the comparison
        check_linear(measure([&] { price(small); }), measure([&] { price(big); }));
        // Past kMaxConfigKeys (50,000) the reader stops before building the document, naming the limit.
        const std::string huge = many_keys_config(300000);
        kvcalc::Diagnostics d;
        const Work w = measure([&] { d = kvcalc::read_hf_config(huge).diagnostics; });
        REQUIRE(d.size() >= 1);
        CHECK(d.back().code == "too_large");
        CHECK(d.back().message.find("50000 keys") != std::string::npos);
        CHECK(w.bytes < 4 * huge.size() + (16 << 20));  // no 300k-key DOM was built
    }

    TEST_CASE("layers: 5,000 and 10,000 typed layers, read and priced with linear work") {
        const std::string small = layers_config(5000), big = layers_config(10000);
        check_linear(measure([&] { price(small); }), measure([&] { price(big); }));
    }
}

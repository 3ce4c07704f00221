#include <doctest/doctest.h>

#include <array>
#include <cmath>

#include "kvcalc/base/checked_math.h"
#include "kvcalc/base/units.h"

using namespace kvcalc;

TEST_SUITE("units") {
    TEST_CASE("GB is decimal, GiB is binary") {
        CHECK(gb_to_bytes(24) == 24'000'000'000LL);
        CHECK(gib_to_bytes(24) == 25'769'803'776LL);  // 24 × 2^30
        CHECK(gib_to_bytes(23.6) == 25'340'307'046LL); // 23.6 × 1,073,741,824 = 25,340,307,046.4 → nearest byte
        CHECK(bytes_to_gb(8'750'000'000LL) == doctest::Approx(8.75));
        CHECK(bytes_to_gib(kBytesPerGib * 3) == doctest::Approx(3.0));
        CHECK(ceil_div(7, 2) == 4);
        CHECK(ceil_div(8, 2) == 4);
    }

    TEST_CASE("round_to_int64 rounds as llround: nearest, halves away from zero (C11 7.12.9.7)") {
        CHECK(round_to_int64(2.5) == 3);
        CHECK(round_to_int64(-2.5) == -3);
        CHECK(round_to_int64(0.49999999999999994) == 0);  // the double below 0.5: x + 0.5 would round up to 1
        CHECK(round_to_int64(4503599627370495.5) == 4503599627370496);  // 2^52 − 0.5
        CHECK(round_to_int64(0.82 * 20e9) == 16'400'000'000);  // the dual-turbo budget: 0.82 × 20 GB
        CHECK(round_to_int64(1.32e9) == 1'320'000'000);  // the seed's CUDA-graph term at 0.82, TP 1
        CHECK(round_to_int64(5.0e18) == 5'000'000'000'000'000'000);  // past 2^62 (still an int64): the library call
        // Against the library around every quarter from −2^16 to 2^16 (ties and their neighbouring doubles).
        int differ = 0;
        for (double x = -65536.0; x <= 65536.0; x += 0.25)
            for (const double y : std::array{x, std::nextafter(x, -INFINITY), std::nextafter(x, INFINITY)})
                differ += round_to_int64(y) != std::llround(y);
        CHECK(differ == 0);
    }
}

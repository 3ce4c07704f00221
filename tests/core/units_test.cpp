#include <doctest/doctest.h>

#include "kvcalc/units.h"

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
}

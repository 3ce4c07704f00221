// checked_math.h: byte arithmetic saturates at the int64 ends instead of wrapping.
#include <doctest/doctest.h>

#include <limits>

#include "kvcalc/base/checked_math.h"
#include <cstdint>

using namespace kvcalc;

TEST_SUITE("checked_math") {
    TEST_CASE("saturating arithmetic clamps instead of wrapping") {
        constexpr std::int64_t max = std::numeric_limits<std::int64_t>::max();
        CHECK(sat_mul(std::int64_t{1} << 40, std::int64_t{1} << 40) == max);
        CHECK(sat_mul(-(std::int64_t{1} << 40), std::int64_t{1} << 40) == std::numeric_limits<std::int64_t>::min());
        CHECK(sat_add(max, 1) == max);
        CHECK(sat_ceil_div(max, 400) == max / 400 + 1);
        CHECK(sat_mul(6, 7) == 42);
    }
}

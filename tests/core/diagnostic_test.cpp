#include <doctest/doctest.h>

#include "kvcalc/base/diagnostic.h"

TEST_SUITE("diagnostic") {
    TEST_CASE("has_error sees only errors") {
        kvcalc::Diagnostics d{{kvcalc::Severity::warning, "assumed", "head_dim", "assumed 128"}};
        CHECK_FALSE(kvcalc::has_error(d));
        d.push_back({kvcalc::Severity::error, "tp_not_divisor", "tensor_parallel_size", "3 does not divide 4"});
        CHECK(kvcalc::has_error(d));
    }
}

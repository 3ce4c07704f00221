#include <doctest/doctest.h>

#include "kvcalc/calibration.h"

using namespace kvcalc;

TEST_SUITE("calibration") {
    TEST_CASE("11/11 on seed 003's Qwen rows and every reference row") {
        const CalibrationSummary c = run_calibration();
        REQUIRE(c.results.size() == 19);  // 11 seed 003 rows + 8 reference rows
        int seed_correct = 0, ref_correct = 0;
        for (const auto& r : c.results) {
            CHECK_MESSAGE(r.report.ok, r.row_id);
            CHECK_MESSAGE(r.correct, r.row_id);
            if (r.row_id.rfind("seed003:", 0) == 0) seed_correct += r.correct;
            else ref_correct += r.correct;
        }
        CHECK(seed_correct == 11);
        CHECK(ref_correct == 8);
        CHECK(c.correct == c.total);
    }
    TEST_CASE("measured peaks are GiB and rows are priced on 24 GiB cards") {
        const CalibrationSummary c = run_calibration();
        // seed 003 row 1: 23.6 GiB = 24,166 MiB (calibration_seed.yml).
        CHECK(c.results[0].measured_peak_bytes == 25340307046LL);
        CHECK(c.results[0].report.settings.vram_bytes == 25769803776LL);
        // reference 35B-A3B row: budget 0.92 × 24 GiB = 22.08 GiB, measured 22.1 GiB.
        const auto& moe = c.results.back();
        CHECK(moe.model_id == "qwen3.6-35b-a3b");
        CHECK(moe.report.terms.budget_bytes == 23708219474LL);  // 0.92 × 25,769,803,776 = 23,708,219,473.9
        int circular = 0;
        for (const auto& r : c.results) circular += r.circular;
        CHECK(circular == 1);  // the gemma-4-12b row (quirk 25)
    }
}

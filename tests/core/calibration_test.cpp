#include <doctest/doctest.h>

#include "kvcalc/deployment/calibration.h"

using namespace kvcalc;

TEST_SUITE("calibration") {
    TEST_CASE("11/11 on the original's Qwen rows and every profile row: booted and inside the band") {
        const CalibrationSummary c = run_calibration();
        REQUIRE(c.results.size() == 19);  // 11 Qwen 27B rows + 8 profile rows (docs/SOURCES.md "Calibration rows")
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
        // Qwen 27B row 1: 23.6 GiB = 24,166 MiB (club-3090 BENCHMARKS.md; docs/SOURCES.md "Calibration rows").
        CHECK(c.results[0].measured_peak_bytes == 25340307046LL);
        CHECK(c.results[0].report.settings.vram_bytes == 25769803776LL);
        // reference 35B-A3B row: budget 0.92 × 24 GiB = 22.08 GiB, measured 22.1 GiB.
        const auto& moe = c.results.back();
        CHECK(moe.model_id == "qwen3.6-35b-a3b");
        CHECK(moe.report.terms.budget_bytes == 23708219474LL);  // 0.92 × 25,769,803,776 = 23,708,219,473.9
        int circular = 0;
        for (const auto& r : c.results) circular += r.circular;
        CHECK(circular == 1);  // the gemma-4-12b row (docs/SOURCES.md quirk 25)
    }
    TEST_CASE("the reserve check fails both ways: over and under the band") {
        // ±1.5 GB band around a 22 GiB peak (23,622,320,128 B).
        const std::int64_t peak = 23622320128LL, band = 1'500'000'000;
        CHECK(check_reserve(peak, peak, band) == ReserveCheck::within);
        CHECK(check_reserve(peak + band, peak, band) == ReserveCheck::within);
        CHECK(check_reserve(peak + band + 1, peak, band) == ReserveCheck::over);
        CHECK(check_reserve(peak - band - 1, peak, band) == ReserveCheck::under);
        // The calibration band: a peak up to 1.5 GB above the prediction or up to 3.5 GB under it is inside.
        const std::int64_t below = kCalibrationBandBelowBytes;
        CHECK(check_reserve(peak + below, peak, band, below) == ReserveCheck::within);
        CHECK(check_reserve(peak + below + 1, peak, band, below) == ReserveCheck::over);
        CHECK(check_reserve(peak - band, peak, band, below) == ReserveCheck::within);
        CHECK(check_reserve(peak - band - 1, peak, band, below) == ReserveCheck::under);
    }
    TEST_CASE("reserve vs measured peak: GiB converted, circular rows skipped, weights alone never within the band") {
        const CalibrationSummary c = run_calibration();
        CHECK(c.reserve_checked == 18);  // 19 rows, one circular
        CHECK(c.reserve_within == 18);   // every measured peak inside its band
        for (const auto& r : c.results) {
            if (r.circular) {
                CHECK(r.reserve == ReserveCheck::not_checked);
                continue;
            }
            CHECK_MESSAGE(r.reserve == ReserveCheck::within, r.row_id);
            // Seed fits are calibrated: 1.5 GB over the reserve, 3.5 GB under it.
            CHECK_MESSAGE(r.band_bytes == 1'500'000'000, r.row_id);
            CHECK_MESSAGE(r.band_below_bytes == 3'500'000'000, r.row_id);
            // vLLM allocates the whole pool: the fixed terms plus every byte left for KV.
            CHECK(r.predicted_reserve_bytes == r.report.terms.fixed_bytes + r.report.terms.available_for_kv_bytes);
            // The check that a model pricing every non-weight term at 0 fails: weights per card (8.75–16.5 GB)
            // are far under every measured peak (19.8–23.8 GiB).
            CHECK_MESSAGE(r.reserve_weights_only == ReserveCheck::under, r.row_id);
        }
        CHECK(c.weights_only_within == 0);
    }
    TEST_CASE("a measured peak the prediction overshoots is 'over'") {
        CalibrationRow row = calibration_rows().front();  // the dual preset on 3090s
        row.measured_peak_gib = 10.0;  // 10.74 GB: far below the 24.48 GB vLLM allocates (fixed + the whole pool)
        CHECK(evaluate_calibration_row(row).reserve == ReserveCheck::over);
        CHECK_FALSE(evaluate_calibration_row(row).correct);
        row.measured_peak_gib = 40.0;
        CHECK(evaluate_calibration_row(row).reserve == ReserveCheck::under);
        CHECK_FALSE(evaluate_calibration_row(row).correct);
    }
}

// Every measured start-up log in tests/data/real_cases/ against the engine rules (see docs/REAL_CASES.md).
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "accuracy/engine_real_cases.h"

namespace {
std::vector<std::filesystem::path> fixtures() {
    std::vector<std::filesystem::path> out;
    for (const auto& e : std::filesystem::directory_iterator(std::string(KVCALC_TEST_DATA_DIR) + "/real_cases")) {
        if (e.path().extension() == ".json") out.push_back(e.path());
    }
    return out;
}
std::string slurp(const std::filesystem::path& p) {
    std::ifstream in(p);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}
}  // namespace

TEST_SUITE("real cases") {
    TEST_CASE("all 38 real start-up logs (docs/SOURCES.md) are fixtures") { CHECK(fixtures().size() >= 38); }

    TEST_CASE("each case matches within the log's rounding, or differs for its stated reason") {
        int differing = 0;
        for (const auto& path : fixtures()) {
            const kvcalc::RealCaseResult r = kvcalc::evaluate_real_case(slurp(path));
            INFO("fixture ", path.filename().string());
            REQUIRE_FALSE(kvcalc::has_error(r.diagnostics));
            CHECK_FALSE(r.checks.empty());
            for (const auto& c : r.checks) {
                INFO(c.run, " ", c.quantity, ": measured ", c.measured, ", predicted ", c.predicted, ", tolerance ",
                     c.tolerance, c.expect_differ ? ", expected to differ: " + c.differ_reason : std::string());
                CHECK(c.as_expected());
            }
            differing += r.expected_to_differ() ? 1 : 0;
        }
        // Cases kvcalc cannot match, each with its reason in the fixture (docs/REAL_CASES.md lists them).
        CHECK(differing == 11);
    }

    TEST_CASE("a fixture with a refusal must predict it (sanity of the harness)") {
        // gpt-oss-120b on H100 at 131072 tokens with 1.71 GiB left: 18 full layers × 8 KV heads × 64 × 2 × 2 B
        // = 36864 B/token × 131072 = 4.5 GiB needed > 1.71 GiB, so vLLM refuses (issue #27508).
        const auto r = kvcalc::evaluate_real_case(slurp(std::string(KVCALC_TEST_DATA_DIR) +
                                                        "/real_cases/vllm-gptoss-120b-h100-fail-b.json"));
        REQUIRE(r.checks.size() == 1);
        CHECK(r.checks[0].quantity == "refuses_to_start");
        CHECK(r.checks[0].predicted == 1.0);
    }

    TEST_CASE("a malformed fixture is an error, not a crash") {
        CHECK(kvcalc::has_error(kvcalc::evaluate_real_case("{").diagnostics));
        CHECK(kvcalc::has_error(kvcalc::evaluate_real_case(R"({"config":{},"runs":[]})").diagnostics));
    }
}

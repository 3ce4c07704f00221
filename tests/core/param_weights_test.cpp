// estimate_weights (core/src/config/param_weights.cpp): weight bytes from a parameter breakdown, at any size.
#include <doctest/doctest.h>

#include <cstdint>
#include <limits>
#include <string>

#include <nlohmann/json.hpp>

#include "kvcalc/config/param_count.h"
#include "kvcalc/io/api.h"

using namespace kvcalc;
using nlohmann::json;

TEST_SUITE("param_weights") {
    TEST_CASE("parts that each sit at the int64 ceiling add up without wrapping") {
        constexpr std::int64_t kMax = std::numeric_limits<std::int64_t>::max();
        ParamBreakdown p;
        p.attention = kMax;
        p.recurrent = kMax;
        p.dense_mlp = kMax;
        p.shared_experts = kMax;
        p.embedding = 1;
        HfArchitecture arch;
        const WeightsEstimate w = estimate_weights(p, arch, "bf16");
        // 4 × (2^63 − 1) + 1 parameters, 2 bytes each: 8 × 2^63 ≈ 7.38e19 bytes (positive, not wrapped).
        CHECK(w.bytes == doctest::Approx(8.0 * 9.223372036854775807e18));
        CHECK(w.bytes > 0.0);
    }

    TEST_CASE("a config.json whose parts overflow int64 gets the size error, not a missing-key one") {
        // 1,000 layers of 10,000 heads × head_dim 1e6 over hidden_size 1e6: q, k, v and o are 1e16 parameters
        // each per layer, 4e19 in all, above int64 (9.2e18), so the weights are far above the 1e6 GB limit.
        const json cfg = {{"num_hidden_layers", 1000}, {"hidden_size", 1000000}, {"num_attention_heads", 10000},
                          {"head_dim", 1000000},       {"vocab_size", 1},        {"intermediate_size", 1}};
        const json out = json::parse(evaluate_json(
            json{{"config", cfg}, {"gpu", "h100-80gb"}, {"max_model_len", 8192}}.dump()));
        CHECK(out["ok"] == false);
        bool size_error = false;
        for (const auto& d : out["diagnostics"]) {
            const std::string m = d["message"];
            CHECK(m.find("vocab_size or") == std::string::npos);  // both widths are in the file
            if (d["severity"] == "error" && d["field"] == "config_json" && m.find("above the 1e6 GB limit") != std::string::npos)
                size_error = true;
        }
        CHECK(size_error);
    }
}

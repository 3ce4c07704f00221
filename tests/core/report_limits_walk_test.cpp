// Every number of the Report (its JSON: terms, breakdown, buckets, start-up lines, solvers) at the largest
// values the input limits allow (kvcalc/deployment/input_limits.h, the scenario field table): non-negative,
// finite and below 2^62 (a wrapped int64 shows as a negative or a near-2^63 value), or a clear refusal.
#include <doctest/doctest.h>

#include <cmath>
#include <string>

#include <nlohmann/json.hpp>

#include "kvcalc/deployment/input_limits.h"
#include "kvcalc/io/api.h"

using namespace kvcalc;
using nlohmann::json;

namespace {

/// Numbers that may be negative by definition (none of them a byte or token count).
bool signed_by_design(const std::string& path) {
    return path.find("slack") != std::string::npos || path.find("headroom") != std::string::npos ||
           path.find("spare") != std::string::npos || path.find("margin") != std::string::npos ||
           path.find("min_sm_x10") != std::string::npos || path.find("max_sm_x10") != std::string::npos;
}

void walk(const json& j, const std::string& path, int& numbers) {
    if (j.is_object()) {
        for (auto it = j.begin(); it != j.end(); ++it) walk(it.value(), path + "." + it.key(), numbers);
    } else if (j.is_array()) {
        for (std::size_t i = 0; i < j.size(); ++i) walk(j[i], path + "[" + std::to_string(i) + "]", numbers);
    } else if (j.is_number()) {
        ++numbers;
        const double v = j.get<double>();
        CAPTURE(path);
        CAPTURE(v);
        CHECK(std::isfinite(v));
        CHECK(v < 4.611686018427387904e18);  // 2^62
        if (!signed_by_design(path)) CHECK(v >= 0.0);
    }
}

/// Runs predict and all four solvers; either a refusal naming a field, or every number sound.
void check_request(const json& req) {
    json r = req;
    r["action"] = "solve";
    const json out = json::parse(evaluate_json(r.dump()));
    int numbers = 0;
    walk(out, "", numbers);
    if (out["ok"] == true) CHECK(numbers > 50);
    for (const auto& d : out["diagnostics"]) {
        CHECK(d["code"] != "internal_error");
        if (d["severity"] == "error") CHECK_FALSE(d["field"].get<std::string>().empty());
    }
}

json big_model(const std::string& kind, std::int64_t window) {
    json layer = {{"kind", kind}, {"num_key_value_heads", kMaxModelHeads}, {"head_dim", kMaxModelDim},
                  {"count", kMaxModelLayers}};
    if (window > 0) layer["sliding_window"] = window;
    return {{"id", "m"}, {"num_attention_heads", kMaxModelHeads}, {"hidden_size", kMaxModelDim},
            {"layers", {layer}}, {"weights", {{{"id", "w"}, {"size_gb", kMaxModelGb}}}}};
}

}  // namespace

TEST_SUITE("report_limits_walk") {
    TEST_CASE("10,000 layers of 1e5 KV heads × head_dim 1e6 at the shortest and the longest length") {
        for (const char* kind : {"full_attention", "sliding_window"}) {
            for (std::int64_t len : {std::int64_t{1}, std::int64_t{16}, std::int64_t{134217728}}) {
                CAPTURE(kind);
                CAPTURE(len);
                check_request({{"model", big_model(kind, kind[0] == 's' ? kMaxModelTokens : 0)},
                               {"max_model_len", len}, {"max_num_seqs", 65536}, {"vram_gb", 1e6},
                               {"tensor_parallel_size", 8}, {"criterion", "uncapped"}});
                check_request({{"model", big_model(kind, kind[0] == 's' ? 4096 : 0)}, {"max_model_len", len},
                               {"max_num_seqs", 1}, {"vram_gb", 1e-9}});
            }
        }
    }

    TEST_CASE("a catalog model at the largest length, sequences and card") {
        check_request({{"model_id", "llama-3.1-8b"}, {"max_model_len", 134217728}, {"max_num_seqs", 65536},
                       {"vram_gb", 1e6}, {"allow_long_max_model_len", true}, {"criterion", "uncapped"}});
        check_request({{"model_id", "qwen3.6-27b"}, {"max_model_len", 134217728}, {"max_num_seqs", 65536},
                       {"vram_gb", 1e6}, {"allow_long_max_model_len", true}, {"tensor_parallel_size", 8}});
    }

    TEST_CASE("the config.json reader's largest dims, priced at max_model_len 16") {
        const json cfg = {{"num_hidden_layers", kMaxModelLayers}, {"hidden_size", kMaxModelDim},
                          {"num_attention_heads", kMaxModelHeads}, {"num_key_value_heads", kMaxModelHeads},
                          {"head_dim", kMaxModelDim}, {"intermediate_size", kMaxModelDim},
                          {"vocab_size", kMaxModelDim}, {"max_position_embeddings", kMaxModelTokens}};
        check_request({{"config", cfg}, {"max_model_len", 16}, {"vram_gb", 1e6}, {"weights_gb", 1}});
        check_request({{"config", cfg}, {"max_model_len", 16}, {"vram_gb", 1e6}});
    }
}

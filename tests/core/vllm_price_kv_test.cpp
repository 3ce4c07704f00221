// vLLM KV pricing (core/src/engines/vllm/deploy.cpp price_kv, rules.cpp vllm_request_split) at sizes the
// max_model_len solver probes before predict's 2^60 demand check.
#include <doctest/doctest.h>

#include <string>

#include <nlohmann/json.hpp>

#include "kvcalc/io/api.h"

using namespace kvcalc;
using nlohmann::json;

TEST_SUITE("vllm_price_kv") {
    TEST_CASE("solve max_model_len for a model whose every probe overflows: a clear refusal, no wrapped bytes") {
        // 10,000 layers × 1,000 KV heads × head_dim 1e6 × 2 tensors × 1 byte (int8) = 2e13 bytes per token; one
        // 16-token block is 3.2e14 bytes and 28,968 sequences of it are 9.3e18 bytes, past int64.
        const json req = {{"kv_cache_dtype", "int8_per_token_head"},
                          {"max_num_seqs", 28968},
                          {"solve", {"max_model_len"}},
                          {"weights_gb", 1983.5},
                          {"config", {{"num_hidden_layers", 10000}, {"hidden_size", 1000000}, {"num_heads", 1000},
                                      {"head_dim", 1000000}}},
                          {"action", "solve"}};
        const json out = json::parse(evaluate_json(req.dump()));
        CHECK(out["ok"] == false);
        bool too_large = false;
        for (const auto& d : out["diagnostics"])
            if (d["code"] == "too_large") too_large = true;
        CHECK(too_large);
        const std::string text = out.dump();
        CHECK(text.find("\"value\":-") == std::string::npos);
        CHECK(text.find("_bytes\":-") == std::string::npos);
    }
}

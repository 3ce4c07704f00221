// A config.json with impossible numbers: the error names the config keys the user wrote, never kvcalc's own
// ModelSpec paths (config_json.weights[0].size_gb).
#include <doctest/doctest.h>

#include <string>

#include "kvcalc/deployment/predict.h"

using namespace kvcalc;

TEST_SUITE("config errors") {
    TEST_CASE("weights past the 1e6 GB limit name num_hidden_layers, hidden_size, intermediate_size, vocab_size") {
        // 80 layers × (4·10^12 attention + 3·10^6·10^6 MLP) ≈ 5.6e14 parameters × 2 B ≈ 1.1e6 GB.
        Scenario s;
        s.config_json = R"({"model_type":"llama","num_hidden_layers":80,"hidden_size":1000000,
            "num_attention_heads":1000,"num_key_value_heads":1000,"intermediate_size":1000000,"vocab_size":32000,
            "max_position_embeddings":4096,"torch_dtype":"bfloat16"})";
        s.max_model_len = 4096;
        const Report r = predict(s);
        CHECK_FALSE(r.ok);
        bool found = false;
        for (const auto& d : r.diagnostics) {
            CHECK(d.field.find("weights[") == std::string::npos);
            CHECK(d.message.find("size_gb") == std::string::npos);
            if (d.severity != Severity::error || d.field != "config_json") continue;
            found = true;
            CHECK(d.message.find("num_hidden_layers 80") != std::string::npos);
            CHECK(d.message.find("hidden_size 1000000") != std::string::npos);
            CHECK(d.message.find("1e6 GB") != std::string::npos);
        }
        CHECK(found);
    }
}

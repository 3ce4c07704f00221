// A config.json with impossible numbers: the error names the config keys the user wrote, never kvcalc's own
// ModelSpec paths (config_json.weights[0].size_gb).
#include <doctest/doctest.h>

#include <string>

#include "kvcalc/deployment/predict.h"
#include "kvcalc/io/json_io.h"

using namespace kvcalc;

namespace {

bool has_diag(const Report& r, const char* code, const std::string& field, Severity sev = Severity::error) {
    for (const auto& d : r.diagnostics)
        if (d.code == code && d.field == field && d.severity == sev) return true;
    return false;
}
}  // namespace

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

TEST_SUITE("config errors") {
    TEST_CASE("hostile config.json through predict(): error diagnostics with key paths, never NaN") {
        auto run = [](const char* cfg) {
            Scenario s;
            s.config_json = cfg;
            return predict(s);
        };
        const Report zero = run(R"({"num_hidden_layers":0,"hidden_size":64,"num_attention_heads":1})");
        CHECK_FALSE(zero.ok);
        CHECK(has_diag(zero, "out_of_range", "config_json.num_hidden_layers"));
        const Report huge = run(R"({"num_hidden_layers":2,"hidden_size":64,"num_attention_heads":1e12})");
        CHECK_FALSE(huge.ok);
        CHECK(has_diag(huge, "out_of_range", "config_json.num_attention_heads"));
        const Report negative = run(R"({"num_hidden_layers":2,"hidden_size":64,"num_attention_heads":4,"head_dim":-8})");
        CHECK_FALSE(negative.ok);
        CHECK(has_diag(negative, "out_of_range", "config_json.head_dim"));
        const Report typed = run(R"({"num_hidden_layers":"32","hidden_size":64,"num_attention_heads":1})");
        CHECK_FALSE(typed.ok);
        CHECK(has_diag(typed, "wrong_type", "config_json.num_hidden_layers"));
        const Report broken = run(R"({"num_hidden_layers": 32,)");
        CHECK_FALSE(broken.ok);
        CHECK(has_diag(broken, "bad_json", "config_json"));
        const nlohmann::json j = broken;
        CHECK(j.dump().find("NaN") == std::string::npos);
    }
}

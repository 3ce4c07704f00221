// read_hf_config with many NaN / Infinity tokens (core/src/config/hf_config.cpp note_non_finite,
// hf_config_keys.cpp report_non_finite): a bounded list of warnings, and keys still judged one by one.
#include <doctest/doctest.h>

#include <cstddef>
#include <string>

#include "kvcalc/config/hf_config.h"

using namespace kvcalc;

namespace {

/// A llama config.json with `n` NaN tokens in the array "extra" (a key no reader uses).
std::string with_nans(std::size_t n) {
    std::string text = R"({"model_type":"llama","num_hidden_layers":2,"hidden_size":64,"num_attention_heads":4,)"
                       R"("max_position_embeddings":128,"extra":[)";
    for (std::size_t i = 0; i < n; ++i) text += i == 0 ? "NaN" : ",NaN";
    return text + "]}";
}

std::size_t count_code(const Diagnostics& d, const std::string& code) {
    std::size_t n = 0;
    for (const auto& x : d) n += x.code == code ? 1 : 0;
    return n;
}

std::size_t message_bytes(const Diagnostics& d) {
    std::size_t n = 0;
    for (const auto& x : d) n += x.message.size() + x.field.size();
    return n;
}

}  // namespace

TEST_SUITE("hf_config_non_finite") {
    TEST_CASE("ten NaN tokens: the first four named, then one line counting the other six") {
        const HfConfig cfg = read_hf_config(with_nans(10));
        CHECK_FALSE(has_error(cfg.diagnostics));
        CHECK(count_code(cfg.diagnostics, "non_standard_json") == 5);
        bool summary = false;
        for (const auto& d : cfg.diagnostics)
            if (d.code == "non_standard_json" && d.field == "extra[4]") {
                CHECK(d.message == "6 more values were NaN or Infinity (read as null); the first of them at extra[4] (NaN)");
                summary = true;
            }
        CHECK(summary);
    }

    TEST_CASE("a million NaN tokens (4 MB): the same five warnings as for a thousand") {
        const HfConfig small = read_hf_config(with_nans(1000));
        const HfConfig big = read_hf_config(with_nans(1000000));
        CHECK(count_code(big.diagnostics, "non_standard_json") == 5);
        CHECK(big.diagnostics.size() == small.diagnostics.size());
        // Only the count in the summary line grows (999,996 has three digits more than 996).
        CHECK(message_bytes(big.diagnostics) == message_bytes(small.diagnostics) + 3);
    }

    TEST_CASE("a required key that is NaN is still an error naming it, beside a flood elsewhere") {
        std::string text = R"({"model_type":"llama","num_hidden_layers":NaN,"hidden_size":64,"num_attention_heads":4,)"
                           R"("max_position_embeddings":128,"extra":[)";
        for (int i = 0; i < 100000; ++i) text += i == 0 ? "Infinity" : ",Infinity";
        text += "]}";
        const HfConfig cfg = read_hf_config(text);
        bool named = false;
        for (const auto& d : cfg.diagnostics)
            if (d.severity == Severity::error && d.field == "num_hidden_layers" &&
                d.message.find("num_hidden_layers is NaN") != std::string::npos)
                named = true;
        CHECK(named);
        CHECK(count_code(cfg.diagnostics, "non_standard_json") == 5);
    }
}

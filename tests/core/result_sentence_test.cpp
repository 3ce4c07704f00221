#include <doctest/doctest.h>

#include <string>

#include "kvcalc/predict.h"
#include "kvcalc/result_sentence.h"

using namespace kvcalc;

namespace {
bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// Llama 3.1 8B (meta-llama/Llama-3.1-8B-Instruct config.json: 32 layers, 8 KV heads, head_dim 128, bf16): one token
// of KV is 32 × 8 × 128 × 2 (K and V) × 2 B = 131,072 B, so 131,072 tokens are 16 GiB (17.18 GB) and 32,768 tokens
// 4 GiB (4.29 GB).
Scenario llama_8b(const char* gpu, std::int64_t max_model_len) {
    Scenario s;
    s.model_id = "llama-3.1-8b";
    s.gpu = gpu;
    s.max_model_len = max_model_len;
    s.kv_cache_dtype = "bf16";
    s.max_num_seqs = 0;           // vLLM's default for the card
    s.gpu_memory_utilization = 0;  // vLLM's default
    return s;
}
}  // namespace

TEST_SUITE("result_sentence") {
    TEST_CASE("a 128K context on one 24 GiB card: one request's KV does not fit, vLLM refuses to start") {
        const Report r = predict(llama_8b("rtx-4090", 131072));
        REQUIRE(r.ok);
        REQUIRE(r.verdict == Verdict::fail);
        const std::string gib = result_sentence(r);
        CHECK(contains(gib, "one 131,072-token sequence needs 16.00 GiB: vLLM refuses to start."));
        CHECK(contains(result_sentence(r, ByteUnit::gb), "needs 17.18 GB: vLLM refuses to start."));
    }

    TEST_CASE("the engine that refuses is the one chosen") {
        Scenario s = llama_8b("rtx-4090", 131072);
        s.engine = "llama.cpp";
        s.max_num_seqs = 1;
        s.gpu_memory_utilization = 0.9;
        const Report r = predict(s);
        REQUIRE(r.ok);
        REQUIRE(r.verdict == Verdict::fail);
        CHECK(contains(result_sentence(r), "llama.cpp"));
        CHECK_FALSE(contains(result_sentence(r), "vLLM"));
    }

    TEST_CASE("vLLM's default max_num_seqs is a cap: the sentence prices one request and reports concurrency") {
        const Report r = predict(llama_8b("h100-80gb", 32768));
        REQUIRE(r.ok);
        REQUIRE(r.verdict == Verdict::pass);
        REQUIRE(r.settings.max_num_seqs_is_default);
        const std::string text = result_sentence(r);
        CHECK(text.rfind("Fits: a 32,768-token request needs 4.00 GiB of KV", 0) == 0);
        CHECK(contains(text, "(max_num_seqs 1,024 is vLLM's default cap)."));  // >= 70 GiB and not an A100
    }

    TEST_CASE("a cache dtype the card has no kernel for is a FAIL in the core's own words") {
        Scenario s = llama_8b("rtx-3090", 8192);
        s.kv_cache_dtype = "fp8_e4m3";  // sm_86: no fp8 e4m3 KV kernel
        const Report r = predict(s);
        REQUIRE(r.ok);
        CHECK(r.verdict == Verdict::fail);
        CHECK(result_sentence(r) == r.reason + ".");
        CHECK(contains(result_sentence(r), "does not run on"));
    }

    TEST_CASE("an invalid scenario has no sentence (its diagnostics speak)") {
        Scenario s = llama_8b("rtx-4090", -1);  // 0 is "not given"
        const Report r = predict(s);
        REQUIRE_FALSE(r.ok);
        CHECK(result_sentence(r).empty());
    }

    TEST_CASE("sizes and counts as people read them") {
        CHECK(format_size(4LL << 30, ByteUnit::gib) == "4.00 GiB");
        CHECK(format_size(4LL << 30, ByteUnit::gb) == "4.29 GB");
        CHECK(format_size(141'000'000'000LL, ByteUnit::gb) == "141 GB");
        CHECK(format_count(180000) == "180,000");
        CHECK(format_count(-1234567) == "-1,234,567");
        CHECK(format_count(999) == "999");
    }
}

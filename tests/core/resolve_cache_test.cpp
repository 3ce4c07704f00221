// resolve()'s per-thread cache (core/src/deployment/resolve_cache.cpp) must never answer with another scenario's deployment.
// Scenarios that differ in one field are asked in turn, so that each question follows a cached neighbour; each
// answer is checked against a value worked from the model's public config.json (tests/data/configs/SOURCES.tsv)
// or vLLM's source, not against kvcalc's own output.
#include <doctest/doctest.h>

#include <fstream>
#include <sstream>
#include <string>
#include <thread>

#include "test_data.h"
#include "kvcalc/deployment/predict.h"

using namespace kvcalc;

namespace {

Scenario bf16_on(const char* gpu) {
    Scenario s;
    s.gpu = gpu;
    s.kv_cache_dtype = "bf16";
    s.max_model_len = 16384;
    s.max_num_seqs = 1;
    return s;
}

// Growing KV per token on one rank, bf16: layers × KV heads per rank × head_dim × (K + V) × 2 B.
constexpr std::int64_t kLlama32_1b = 16 * 8 * 64 * 2 * 2;      // 32,768 B (config: 16 layers, 8 KV heads, 64)
constexpr std::int64_t kQwen25_7b = 28 * 4 * 128 * 2 * 2;      // 57,344 B (28 layers, 4 KV heads, 3584 / 28)
constexpr std::int64_t kLlama31_8b = 32 * 8 * 128 * 2 * 2;     // 131,072 B (32 layers, 8 KV heads, 128)
constexpr std::int64_t kLlama33_70b = 80 * 8 * 128 * 2 * 2;    // 327,680 B (80 layers, 8 KV heads, 128)

}  // namespace

TEST_SUITE("resolve cache") {
    TEST_CASE("scenarios differing only in config_json get their own model") {
        Scenario a = bf16_on("h100-80gb"), b = a;
        a.config_json = kvcalc::test::config_file("llama-3.2-1b.json");
        b.config_json = kvcalc::test::config_file("qwen2.5-7b.json");
        for (int round = 0; round < 3; ++round) {
            for (const Scenario* s : {&a, &b}) {
                const Report r = predict(*s);
                REQUIRE(r.ok);
                const std::int64_t want = s == &a ? kLlama32_1b : kQwen25_7b;
                CHECK(r.startup.kv_bytes_per_token == want);
                CHECK(r.terms.kv_bytes_per_token == static_cast<double>(want));
            }
            a.max_model_len += 4096;  // and a new load each round: the cached deployment is re-bound
            b.max_model_len += 4096;
        }
    }

    TEST_CASE("scenarios differing only in model_id or tensor_parallel_size") {
        Scenario small = bf16_on("h100-80gb");
        small.model_id = "llama-3.1-8b";
        Scenario big = small;
        big.model_id = "llama-3.3-70b";
        big.tensor_parallel_size = 2;
        Scenario small_tp2 = small;
        small_tp2.tensor_parallel_size = 2;
        for (int round = 0; round < 2; ++round) {
            const Report r1 = predict(small), r2 = predict(big), r3 = predict(small_tp2);
            REQUIRE(r1.ok);
            REQUIRE(r2.ok);
            REQUIRE(r3.ok);
            CHECK(r1.startup.kv_bytes_per_token == kLlama31_8b);
            CHECK(r2.startup.kv_bytes_per_token == kLlama33_70b / 2);  // 8 KV heads over 2 ranks
            CHECK(r3.startup.kv_bytes_per_token == kLlama31_8b / 2);
            CHECK(r1.command.find("--tensor-parallel-size 1") != std::string::npos);
            CHECK(r3.command.find("--tensor-parallel-size 2") != std::string::npos);
        }
    }

    TEST_CASE("a new max_model_len or max_num_seqs is priced at that load") {
        Scenario s = bf16_on("h100-80gb");
        s.model_id = "llama-3.1-8b";
        for (const std::int64_t len : {16384, 32768, 8192, 32768}) {
            for (const std::int64_t seqs : {1, 4, 2}) {
                s.max_model_len = len;
                s.max_num_seqs = seqs;
                const Report r = predict(s);
                REQUIRE(r.ok);
                // Whole 16-token blocks (lengths here are multiples of 16): len × 131,072 B per request.
                CHECK(r.terms.kv_growing_requested_bytes == len * kLlama31_8b * seqs);
                CHECK(r.settings.max_model_len == len);
                CHECK(r.settings.max_num_seqs == seqs);
                CHECK(r.command.find("--max-model-len " + std::to_string(len) + " ") != std::string::npos);
                CHECK(r.command.find("--max-num-seqs " + std::to_string(seqs) + " ") != std::string::npos);
            }
        }
    }

    TEST_CASE("max_num_seqs 0 takes vLLM's default for the card each time, then a set value wins again") {
        // vllm/engine/arg_utils.py get_batch_defaults: 256 sequences on cards under 70 GiB, 1024 on an H100.
        Scenario s = bf16_on("rtx-4090");
        s.model_id = "llama-3.1-8b";
        s.max_model_len = 8192;
        for (int round = 0; round < 2; ++round) {
            s.max_num_seqs = 0;
            CHECK(predict(s).settings.max_num_seqs == 256);
            s.max_num_seqs = 3;
            CHECK(predict(s).settings.max_num_seqs == 3);
        }
        s.gpu = "h100-80gb";
        s.max_num_seqs = 0;
        CHECK(predict(s).settings.max_num_seqs == 1024);
    }

    TEST_CASE("a bad load after a cached good one is still reported") {
        Scenario s = bf16_on("h100-80gb");
        s.model_id = "llama-3.1-8b";
        REQUIRE(predict(s).ok);
        s.max_num_seqs = 70000;  // resolve() allows 1..65536
        const Report r = predict(s);
        CHECK_FALSE(r.ok);
        bool named = false;
        for (const auto& d : r.diagnostics) named = named || (d.field == "max_num_seqs" && d.severity == Severity::error);
        CHECK(named);
        s.max_num_seqs = 2;
        CHECK(predict(s).ok);
    }

    TEST_CASE("a deployment returned by resolve() keeps its load when the cache moves on") {
        Scenario s = bf16_on("h100-80gb");
        s.model_id = "llama-3.1-8b";
        Diagnostics d;
        const auto held = resolve(s, d);
        REQUIRE(held);
        s.max_model_len = 65536;
        REQUIRE(predict(s).ok);
        CHECK(held->settings.max_model_len == 16384);
        CHECK(evaluate(*held, held->load()).kv_growing_requested_bytes == 16384 * kLlama31_8b);
    }

    TEST_CASE("threads keep their own caches") {
        Scenario a = bf16_on("h100-80gb"), b = a;
        a.model_id = "llama-3.1-8b";
        b.config_json = kvcalc::test::config_file("llama-3.2-1b.json");
        int bad_a = 0, bad_b = 0;
        auto run = [](Scenario s, std::int64_t want, int& bad) {
            for (int i = 0; i < 200; ++i) {
                s.max_model_len = 4096 + 16 * i;
                const Report r = predict(s);
                if (!r.ok || r.terms.kv_growing_requested_bytes != s.max_model_len * want) ++bad;
            }
        };
        std::thread ta(run, a, kLlama31_8b, std::ref(bad_a));
        std::thread tb(run, b, kLlama32_1b, std::ref(bad_b));
        ta.join();
        tb.join();
        CHECK(bad_a == 0);
        CHECK(bad_b == 0);
    }
}

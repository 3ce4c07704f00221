#include <doctest/doctest.h>

#include <cstdio>
#include <string>

#include "kvcalc/deployment/concurrency_text.h"
#include "kvcalc/deployment/predict.h"
#include "kvcalc/deployment/result_sentence.h"

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

    TEST_CASE("llama.cpp allocates every -np slot at start-up: the FAIL names all slots' KV, not one sequence's") {
        // -c is max_num_seqs × max_model_len cells (llama-context.cpp: n_ctx for n_seq_max); 2 slots of 65,536
        // tokens at 131,072 B per token are 16 GiB (17.18 GB), which one slot alone (8 GiB) is not.
        Scenario s = llama_8b("rtx-4090", 65536);
        s.engine = "llama.cpp";
        s.max_num_seqs = 2;
        const Report r = predict(s);
        REQUIRE(r.ok);
        REQUIRE(r.verdict == Verdict::fail);
        const std::string text = result_sentence(r);
        CHECK(contains(text, "but the cache for 2 slots of 65,536 tokens (-np 2, -c 131,072) needs 16.00 GiB: "
                             "llama.cpp cannot allocate it at start-up."));
        CHECK_FALSE(contains(text, "one 65,536-token sequence"));
        CHECK(contains(r.reason, "but the cache of all 2 -np slots (-c = max_num_seqs × max_model_len) needs 17.18 GB"));
    }

    TEST_CASE("vLLM's default max_num_seqs is a cap: the sentence prices one request and reports concurrency") {
        const Report r = predict(llama_8b("h100-80gb", 32768));
        REQUIRE(r.ok);
        REQUIRE(r.verdict == Verdict::pass);
        REQUIRE(r.settings.max_num_seqs_is_default);
        const std::string text = result_sentence(r);
        CHECK(text.rfind("Fits: a 32,768-token request needs 4.00 GiB of the ", 0) == 0);
        CHECK(contains(text, "(max_num_seqs 1,024 is vLLM's default cap)."));  // >= 70 GiB and not an A100
    }

    TEST_CASE("the sentence and the one-line verdict quote one KV pair: all requested KV against the pool") {
        // 4 sequences of 32,768 tokens: 4 × 32,768 × 131,072 B = 16 GiB of KV, more than a 24 GiB card leaves for
        // it after 14.96 GiB of bf16 weights. The pool is what vLLM prints as "Available KV cache memory".
        Scenario s = llama_8b("rtx-4090", 32768);
        s.max_num_seqs = 4;
        const Report r = predict(s);
        REQUIRE(r.ok);
        REQUIRE(r.verdict == Verdict::tight);
        const KvFigures kv = kv_figures(r);
        CHECK(kv.needs_bytes == std::int64_t{4} * 32768 * 131072);
        CHECK(kv.sequences == 4);
        CHECK(kv.pool_bytes == r.terms.available_for_kv_bytes);
        char logged[32];
        std::snprintf(logged, sizeof logged, "%.2f GiB", r.startup.available_kv_gib);
        CHECK(result_sentence(r).rfind(std::string("Boots, but the KV pool holds ") + logged +
                                           " of the 16.00 GiB that 4 full-length sequences would need: about ", 0) == 0);
        // The concurrency is written once, vLLM's way (the reason and "Maximum concurrency … x" read the same).
        CHECK(contains(result_sentence(r), "about " + concurrency_text(r.effective_max_num_seqs) + " run"));

        // One request under vLLM's default cap: 4 GiB, and what is left of the pool is the room to spare.
        const Report one = predict(llama_8b("rtx-4090", 32768));
        REQUIRE(one.verdict == Verdict::pass);
        const KvFigures k1 = kv_figures(one);
        CHECK(k1.needs_bytes == std::int64_t{4} << 30);
        CHECK(k1.sequences == 1);
        CHECK(contains(result_sentence(one), "needs 4.00 GiB of the " + format_size(k1.pool_bytes, ByteUnit::gib) +
                                                 " KV pool, with " +
                                                 format_size(k1.pool_bytes - k1.needs_bytes, ByteUnit::gib) + " to spare"));

        // 128K: one sequence (16 GiB) does not fit what is left, so that sequence is the figure vLLM refuses on.
        const Report refused = predict(llama_8b("rtx-4090", 131072));
        REQUIRE(refused.verdict == Verdict::fail);
        CHECK(kv_figures(refused).needs_bytes == std::int64_t{16} << 30);
        CHECK(kv_figures(refused).sequences == 1);
    }

    TEST_CASE("a hybrid model's KV figure is all of its KV, the one the verdict's reason caps") {
        // Gemma 4 31B (the README's link: 2 × RTX 3090, int8_per_token_head, 262,144 tokens, 4 seqs, MTP) keeps
        // sliding-window layers next to the full ones: the pool holds both, so the sentence must not quote the
        // growing part alone against it (it read "holds 10.58 of 40.31 GiB" while the reason capped 44.62 GB).
        Scenario s;
        s.model_id = "gemma-4-31b";
        s.gpu = "rtx-3090";
        s.tensor_parallel_size = 2;
        s.kv_cache_dtype = "int8_per_token_head";
        s.max_model_len = 262144;
        s.max_num_seqs = 4;
        s.mtp = true;
        const Report r = predict(s);
        REQUIRE(r.ok);
        REQUIRE(r.terms.kv_sliding_requested_bytes > 0);
        const KvFigures kv = kv_figures(r);
        CHECK(kv.needs_bytes == r.terms.kv_growing_requested_bytes + r.terms.kv_sliding_requested_bytes +
                                    r.terms.recurrent_state_requested_bytes);
        // The same two figures as the reason ("requested KV X GB is capped to Y GB"), in the reason's GB.
        const std::string gb = result_sentence(r, ByteUnit::gb);
        CHECK(contains(r.reason, "requested KV " + format_size(kv.needs_bytes, ByteUnit::gb) + " is capped to " +
                                     format_size(kv.pool_bytes, ByteUnit::gb)));
        CHECK(contains(gb, "holds " + format_size(kv.pool_bytes, ByteUnit::gb) + " of the " +
                               format_size(kv.needs_bytes, ByteUnit::gb) + " that 4 full-length sequences"));
    }

    TEST_CASE("a cache dtype the card has no kernel for is a FAIL in the core's own words") {
        Scenario s = llama_8b("t4", 8192);
        s.kv_cache_dtype = "fp8_e4m3";  // sm_75: no fp8 e4m3 KV kernel
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

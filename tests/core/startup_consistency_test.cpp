// One answer per scenario: when the engine cannot start, the verdict, the solvers, the predicted start-up lines,
// the one-line result sentence and the notes all say so, and for the same reason (startup_stop.cpp). Where the
// non-KV terms shrink as max_model_len grows, the length solver still returns the longest length the verdict accepts.
#include <doctest/doctest.h>

#include <random>
#include <string>

#include "kvcalc/catalog/catalog.h"
#include "kvcalc/deployment/predict.h"
#include "kvcalc/deployment/result_sentence.h"
#include "kvcalc/deployment/solver.h"
#include "kvcalc/engines/vllm/defaults.h"

using namespace kvcalc;

namespace {

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

bool any_note_contains(const Report& r, const std::string& part) {
    for (const auto& n : r.notes)
        if (contains(n, part)) return true;
    return false;
}

// The README's former hero link: Gemma 4 31B on two RTX 3090 (sm_86) with fp8_e4m3 KV.
Scenario gemma_on_3090s(const char* kv, const char* gpu = "rtx-3090") {
    Scenario s;
    s.model_id = "gemma-4-31b";
    s.gpu = gpu;
    s.tensor_parallel_size = 2;
    s.kv_cache_dtype = kv;
    s.max_model_len = 65536;
    s.max_num_seqs = 4;
    s.gpu_memory_utilization = 0.95;
    return s;
}

// Llama 3.1 8B in bf16: 8.03 B parameters × 2 B = 16.06 GB (14.96 GiB) of weights on one card.
Scenario llama_8b_bf16(const char* gpu) {
    Scenario s;
    s.model_id = "llama-3.1-8b";
    s.gpu = gpu;
    s.kv_cache_dtype = "bf16";
    s.max_model_len = 8192;
    s.max_num_seqs = 1;
    s.gpu_memory_utilization = 0.9;
    return s;
}

Scenario at_length(Scenario s, std::int64_t len) {
    s.max_model_len = len;
    return s;
}

bool boots(const Scenario& s) {
    const Report r = predict(s);
    return r.ok && r.verdict != Verdict::fail;
}

}  // namespace

TEST_SUITE("one answer when the engine cannot start") {
    TEST_CASE("fp8_e4m3 KV on sm_75: every output says it does not run, and names fp8_e5m2") {
        const Scenario s = gemma_on_3090s("fp8_e4m3", "t4");
        const Report r = predict(s);
        REQUIRE(r.ok);
        CHECK(r.verdict == Verdict::fail);
        CHECK_FALSE(r.terms.kv_dtype_runs);

        // Solvers: no length, no sequence count, no VRAM and no GPU count makes a missing kernel appear.
        for (const SolveResult& x : {solve_max_model_len(s), solve_max_num_seqs(s), solve_min_vram(s), solve_min_gpus(s)}) {
            CHECK_FALSE(x.ok);
            CHECK(x.bound == "kv_cache_dtype");
            REQUIRE_FALSE(x.diagnostics.empty());
            const std::string& m = x.diagnostics.back().message;
            CHECK(contains(m, "does not run on NVIDIA T4 (sm_75)"));
            CHECK_FALSE(contains(m, "largest term"));
            // Triton builds fp8e5 below sm_89 (its fp8 types there are fp8e4b15 and fp8e5: vLLM issue #26431);
            // one byte per element, as e4m3.
            CHECK(contains(m, "fp8_e5m2 (1 B per element) runs there"));
        }

        // Start-up: vLLM stops before any KV line, with Triton's error of vLLM issue #26431 (no e4m3 below sm_89).
        CHECK(r.startup.refuses_to_start);
        CHECK(r.startup.stop == StartupStop::kv_dtype_no_kernel);
        CHECK_FALSE(r.startup.available);
        CHECK(r.startup.gpu_kv_cache_tokens == 0);
        CHECK(r.startup.estimated_max_model_len == 0);
        CHECK(contains(r.startup.refusal, "type fp8e4nv not supported in this architecture"));
        for (const auto& n : r.startup.notes) CHECK_FALSE(contains(n, "estimated maximum model length"));

        // Notes and sentence: the FAIL's reason, no "KV is cheap" advice under it.
        CHECK_FALSE(any_note_contains(r, "KV is cheap"));
        CHECK(contains(result_sentence(r), "does not run on"));
    }

    TEST_CASE("the same card with fp8_e5m2 boots, and the solvers answer") {
        const Scenario s = gemma_on_3090s("fp8_e5m2");
        const Report r = predict(s);
        REQUIRE(r.ok);
        CHECK(r.terms.kv_dtype_runs);
        CHECK(r.verdict != Verdict::fail);
        CHECK(r.startup.stop == StartupStop::none);
        CHECK_FALSE(r.startup.refuses_to_start);
        CHECK(r.startup.refusal.empty());
        CHECK(solve_max_model_len(s).ok);
        CHECK(solve_max_num_seqs(s).ok);
    }

    TEST_CASE("the README's hero link is not a FAIL (club-3090 dual int8 boot: vLLM 0.21, 262,144 tokens, 4 seqs)") {
        Scenario s = gemma_on_3090s("int8_per_token_head");
        s.max_model_len = 262144;
        s.mtp = true;
        const Report r = predict(s);
        REQUIRE(r.ok);
        CHECK(r.verdict != Verdict::fail);
        CHECK_FALSE(r.startup.refuses_to_start);
    }

    TEST_CASE("weights larger than the card: out of memory while loading them, not a KV refusal") {
        // 14.96 GiB of weights on an 8 GiB RTX 3070.
        const Report r = predict(llama_8b_bf16("rtx-3070"));
        REQUIRE(r.ok);
        CHECK(r.verdict == Verdict::fail);
        CHECK(r.startup.stop == StartupStop::weights_exceed_card);
        CHECK(r.startup.refuses_to_start);
        CHECK_FALSE(r.startup.available);
        CHECK(contains(r.startup.refusal, "runs out of memory while loading the weights"));
        const std::string sentence = result_sentence(r);
        CHECK(contains(sentence, "runs out of memory while loading them"));
        CHECK_FALSE(contains(sentence, "refuses to start"));
        CHECK_FALSE(contains(sentence, "KV cache"));
    }

    TEST_CASE("weights over the budget but on the card: vLLM's 'No available memory for the cache blocks'") {
        // 14.96 GiB of weights on a 16 GiB RTX 4080 at gpu_memory_utilization 0.9 (budget ≈ 14.1 GiB): vLLM loads
        // them, profiles, finds available KV memory ≤ 0 and raises in _check_enough_kv_cache_memory
        // (vllm/v1/core/kv_cache_utils.py), as in the real H100 log of Llama 3.3 70B FP8 at TP 1 (available
        // -1.44 GiB, tests/data/real_cases/vllm-h100-llama33-70b-fp8-tp1-fail.json).
        const Report r = predict(llama_8b_bf16("rtx-4080"));
        REQUIRE(r.ok);
        CHECK(r.verdict == Verdict::fail);
        CHECK(r.startup.stop == StartupStop::no_cache_memory);
        CHECK(r.startup.refuses_to_start);
        CHECK(r.startup.estimated_max_model_len == 0);  // vLLM prints no estimate with this error
        CHECK(contains(r.startup.refusal, "No available memory for the cache blocks"));
        const std::string sentence = result_sentence(r);
        CHECK(contains(sentence, "The weights alone"));
        CHECK(contains(sentence, "no available memory for the cache blocks"));
        CHECK_FALSE(contains(sentence, "refuses to start"));
    }

    TEST_CASE("one request's KV too large: vLLM refuses with its estimated maximum model length") {
        Scenario s = llama_8b_bf16("rtx-4090");
        s.max_model_len = 131072;  // 16 GiB of bf16 KV for one request (131,072 B per token)
        const Report r = predict(s);
        REQUIRE(r.ok);
        CHECK(r.verdict == Verdict::fail);
        CHECK(r.startup.stop == StartupStop::kv_below_one_request);
        CHECK(contains(r.startup.refusal, "refuses to start: one 131,072-token request"));
        const SolveResult fit = solve_max_model_len(s);
        REQUIRE(fit.ok);
        CHECK(r.startup.estimated_max_model_len == fit.value);
    }
}

TEST_SUITE("max_model_len solver where the fixed terms shrink with the length") {
    // vLLM's default max_num_batched_tokens is max_num_seqs × max_model_len under the card's default (arg_utils.py
    // get_batch_defaults), and the capture list of config/vllm.py _set_cudagraph_sizes adds it while it is not a
    // listed size under the cap 2 × max_num_seqs = 36: at 18 sequences, len 2 (36 tokens) captures 8 + 5 graphs,
    // len 3 (54 tokens) 7 + 5. A budget between the two leaves len 2 failing while longer lengths boot.
    Scenario qwen_18_seqs(double vram_gb) {
        Scenario s;
        s.model_id = "qwen2.5-7b";
        s.tensor_parallel_size = 4;
        s.max_num_seqs = 18;
        s.kv_cache_dtype = "bf16";
        s.gpu_memory_utilization = 0.95;
        s.vram_gb = vram_gb;
        s.max_model_len = 1024;
        return s;
    }

    TEST_CASE("qwen2.5-7b, TP 4, 18 seqs: the answer is the longest length that boots, past the dip") {
        // The dip is about 0.02 GB wide; it moves with the fixed terms (the PCIe non-torch term: 0.25 + 0.13 GiB per
        // extra rank for this custom card).
        const Scenario s = qwen_18_seqs(5.099);
        REQUIRE_FALSE(boots(at_length(s, 2)));
        REQUIRE(boots(at_length(s, 3)));
        const SolveResult a = solve_max_model_len(s);
        REQUIRE(a.ok);
        CHECK(a.bound == "budget");
        CHECK(a.value > 3);
        CHECK(boots(at_length(s, a.value)));
        // No longer length boots: every one up to four times past the settled batch (36 → 2048 tokens at 18 seqs)
        // is checked, and one block past it.
        for (std::int64_t len = a.value + 1; len <= 4 * 2048 / 18; ++len) CHECK_FALSE(boots(at_length(s, len)));
        CHECK_FALSE(boots(at_length(s, a.value + 16)));
        // The start-up line's estimate is the same answer.
        const Report r = predict(at_length(s, a.value + 16));
        if (r.startup.stop == StartupStop::kv_below_one_request) CHECK(r.startup.estimated_max_model_len == a.value);
    }

    TEST_CASE("over random small cards the answer boots and no longer length does") {
        std::mt19937_64 rng(20261201);
        const char* models[] = {"qwen2.5-7b", "llama-3.1-8b", "qwen3-8b"};
        int checked = 0;
        for (int i = 0; i < 60; ++i) {
            Scenario s;
            s.model_id = models[i % 3];
            if (!find_model(s.model_id) && !shared_catalog_model(s.model_id)) continue;
            s.tensor_parallel_size = 1 << std::uniform_int_distribution<int>(0, 2)(rng);
            s.max_num_seqs = std::uniform_int_distribution<int>(1, 64)(rng);
            s.kv_cache_dtype = "bf16";
            s.gpu_memory_utilization = 0.9;
            s.max_model_len = 1024;
            // A card just above what one short request needs, so the boundary falls where the batch is capped.
            Scenario probe = at_length(s, 1);
            const SolveResult least = solve_min_vram(probe);
            if (!least.ok) continue;
            s.vram_gb = static_cast<double>(least.value) / 1e9 * std::uniform_real_distribution<double>(1.0, 1.02)(rng);
            const SolveResult a = solve_max_model_len(s);
            if (!a.ok || a.bound != "budget") continue;
            ++checked;
            INFO(s.model_id, " tp ", s.tensor_parallel_size, " seqs ", s.max_num_seqs, " vram_gb ", *s.vram_gb,
                 " answer ", a.value);
            CHECK(boots(at_length(s, a.value)));
            const std::int64_t settled = 2048 / s.max_num_seqs + 2;  // vLLM's 2048 under 70 GiB: capped below it
            for (std::int64_t len = a.value + 1; len <= std::max<std::int64_t>(settled, a.value) + 64; ++len)
                CHECK_FALSE(boots(at_length(s, len)));
        }
        MESSAGE("checked ", checked, " small-card answers");
        CHECK(checked > 20);
    }
}

TEST_SUITE("vLLM's defaults as the page offers them") {
    // vllm/engine/arg_utils.py get_batch_defaults: `vllm serve` takes 2,048 batched tokens on cards under 70 GiB and
    // on the A100, 8,192 on larger ones; never more than max_num_seqs × max_model_len.
    std::int64_t default_batched(const char* gpu, std::int64_t seqs, std::int64_t len) {
        Scenario s;
        s.model_id = "qwen3-8b";
        s.gpu = gpu;
        s.max_num_seqs = seqs;
        s.max_model_len = len;
        const Report r = predict(s);
        REQUIRE(r.ok);
        REQUIRE(r.deployment);
        return vllm_max_num_batched_tokens(*r.deployment, r.load);
    }

    TEST_CASE("max_num_batched_tokens unset: the card's default, capped by the batch") {
        CHECK(default_batched("rtx-3090", 0, 8192) == 2048);
        CHECK(default_batched("a100-80gb", 0, 8192) == 2048);
        CHECK(default_batched("h100-80gb", 0, 8192) == 8192);
        CHECK(default_batched("h100-80gb", 2, 1024) == 2048);  // 2 sequences × 1,024 tokens
    }

    TEST_CASE("set: the user's value; other engines have none") {
        Scenario s;
        s.model_id = "qwen3-8b";
        s.gpu = "rtx-3090";
        s.max_model_len = 8192;
        s.max_num_batched_tokens = 4096;
        Report r = predict(s);
        REQUIRE(r.ok);
        CHECK(vllm_max_num_batched_tokens(*r.deployment, r.load) == 4096);
        s.engine = "sglang";
        s.max_num_seqs = 1;
        s.max_num_batched_tokens.reset();
        r = predict(s);
        REQUIRE(r.ok);
        CHECK(vllm_max_num_batched_tokens(*r.deployment, r.load) == 0);
    }
}

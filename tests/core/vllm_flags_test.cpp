// The vLLM flags that change memory (--enforce-eager, --block-size, --kv-cache-memory-bytes, --data-parallel-size,
// --enable-expert-parallel, --cpu-offload-gb), the band-straddle TIGHT and the solvers' safe answers.
#include <doctest/doctest.h>

#include <string>

#include "kvcalc/base/units.h"
#include "kvcalc/deployment/predict.h"
#include "kvcalc/deployment/solver.h"
#include "kvcalc/engines/deployment.h"

using namespace kvcalc;

namespace {

constexpr std::int64_t kGiB = std::int64_t{1} << 30;
// Llama 3.1 8B (meta-llama/Llama-3.1-8B-Instruct config.json): 32 layers × 8 KV heads × head_dim 128, K and V in
// bf16 = 32 × 2 × 8 × 128 × 2 B = 131072 B of KV per token on one card.
constexpr std::int64_t kLlamaKvPerToken = 131072;

Scenario llama(std::int64_t len = 8192) {
    Scenario s;
    s.model_id = "llama-3.1-8b";
    s.gpu = "a100-80gb";
    s.max_model_len = len;
    return s;
}

bool has_code(const Diagnostics& d, const char* code) {
    for (const auto& x : d)
        if (x.code == code) return true;
    return false;
}

}  // namespace

TEST_SUITE("vllm flags") {
    TEST_CASE("--block-size: blocks are pages of block × bytes per token; requests round up to whole blocks") {
        // kv_cache_utils.py get_num_blocks: pool // (page per layer × layers); the concurrency line divides by
        // ceil(max_model_len / block_size) blocks per request. A fixed 4 GiB pool makes the arithmetic exact.
        Scenario s = llama(1000);
        s.kv_cache_memory_bytes = 4 * kGiB;
        const Report at16 = predict(s);
        REQUIRE(at16.ok);
        REQUIRE(at16.startup.available);
        // 4 GiB / (16 × 131072 B) = 2048 blocks = 32768 tokens; 2048 / ceil(1000 / 16) = 2048 / 63 = 32.51.
        CHECK(at16.startup.available_kv_bytes == 4 * kGiB);
        CHECK(at16.startup.max_concurrency == doctest::Approx(2048.0 / 63.0));
        s.block_size = 256;  // 4 GiB / (256 × 131072 B) = 128 blocks; 1000 tokens take 4 of them: 32.0
        const Report at256 = predict(s);
        REQUIRE(at256.ok);
        CHECK(at256.startup.max_concurrency == doctest::Approx(32.0));
        CHECK(at256.command.find("--block-size 256") != std::string::npos);
        s.block_size = 48;  // not in vllm/config/cache.py BlockSize
        const Report bad = predict(s);
        CHECK_FALSE(bad.ok);
        CHECK(has_code(bad.diagnostics, "block_size_invalid"));
    }

    TEST_CASE("--kv-cache-memory-bytes: the pool is the flag, gpu_memory_utilization unused, one request must fit") {
        // vllm/v1/worker/gpu_worker.py determine_available_memory returns kv_cache_memory_bytes without profiling.
        Scenario s = llama(32768);
        s.kv_cache_memory_bytes = 4 * kGiB;
        s.gpu_memory_utilization = 0.5;  // ignored, with a warning
        const Report r = predict(s);
        REQUIRE(r.ok);
        CHECK(r.terms.available_for_kv_bytes == 4 * kGiB);
        CHECK(r.terms.kv_pool_fixed);
        CHECK(has_code(r.diagnostics, "gpu_memory_utilization_ignored"));
        CHECK(r.command.find("--kv-cache-memory-bytes 4294967296") != std::string::npos);
        // 32768 tokens × 131072 B = exactly 4 GiB: one request fits (vLLM's check is needed ≤ available).
        CHECK(r.verdict != Verdict::fail);
        // One token more than the pool holds: vLLM's "To serve at least one request with the model's max seq
        // len (…), (… GiB KV cache is needed, which is larger than the available KV cache memory" refusal, as in
        // the Arc Pro B70 log (tests/data/startup_logs/vllm-v1-xpu-kv-cache-memory-bytes-wrapped.log).
        s.max_model_len = 32768 + 16;
        CHECK(predict(s).verdict == Verdict::fail);
        // A pool the card cannot hold beside the weights: vLLM does not check it and runs out of memory.
        s.max_model_len = 8192;
        s.kv_cache_memory_bytes = 80 * kGiB;
        CHECK(predict(s).verdict == Verdict::fail);
    }

    TEST_CASE("--enforce-eager: no CUDA graphs; the pool grows by their estimate only where it was subtracted") {
        Scenario s = llama();
        s.vllm_version = "0.21";
        const Report graphs = predict(s);
        s.enforce_eager = true;
        const Report eager = predict(s);
        REQUIRE(graphs.ok);
        REQUIRE(eager.ok);
        const auto& a = graphs.deployment->non_kv.accounting;
        REQUIRE(a.cudagraph_bytes > 0);
        CHECK(eager.deployment->non_kv.accounting.cudagraph_bytes == 0);
        CHECK(eager.deployment->non_kv.accounting.cudagraph_capture_sizes == 0);
        // 0.21+ (#38284) subtracts the estimate: eager gets it back.
        CHECK(eager.startup.available_kv_bytes - graphs.startup.available_kv_bytes == a.cudagraph_bytes);
        CHECK(eager.command.find("--enforce-eager") != std::string::npos);
        // 0.17-0.20 logged it but did not subtract it: the same pool either way.
        s.vllm_version = "0.19";
        const Report eager19 = predict(s);
        s.enforce_eager = false;
        const Report graphs19 = predict(s);
        CHECK(eager19.startup.available_kv_bytes == graphs19.startup.available_kv_bytes);
    }

    TEST_CASE("--cpu-offload-gb: GiB per card off the weights (vllm/config/offload.py OffloadConfig)") {
        Scenario s = llama();
        const Report base = predict(s);
        s.cpu_offload_gib = 4;
        const Report off = predict(s);
        REQUIRE(base.ok);
        REQUIRE(off.ok);
        CHECK(base.terms.weights_bytes - off.terms.weights_bytes == 4 * kGiB);
        CHECK(off.command.find("--cpu-offload-gb 4") != std::string::npos);
        s.cpu_offload_gib = 100;  // more than the 16 GB of weights: all of them, with a warning
        const Report all = predict(s);
        REQUIRE(all.ok);
        CHECK(has_code(all.diagnostics, "cpu_offload_above_weights"));
    }

    TEST_CASE("--data-parallel-size: MoE layers split over TP × DP cards, dense layers and KV per TP") {
        // Qwen/Qwen3-30B-A3B config.json: 48 layers × 128 experts × (gate, up, down) 3 × hidden 2048 × 768 =
        // 28.99e9 routed parameters of 30.5e9 (the catalog's count).
        Scenario s;
        s.model_id = "qwen3-30b-a3b";
        s.gpu = "a100-80gb";
        s.max_model_len = 8192;
        const Report one = predict(s);
        s.data_parallel_size = 2;
        const Report two = predict(s);
        REQUIRE(one.ok);
        REQUIRE(two.ok);
        const double routed = 48.0 * 128 * 3 * 2048 * 768;
        const double share = routed / static_cast<double>(one.deployment->model->num_parameters);
        CHECK(share == doctest::Approx(28.99e9 / 30.5e9).epsilon(0.01));
        // The checkpoint's routed half moves to the other card (the rope buffer vLLM counts with the weights stays).
        const double w = static_cast<double>(one.settings.weights_bytes_total);
        CHECK(static_cast<double>(one.terms.weights_bytes - two.terms.weights_bytes) ==
              doctest::Approx(w * share / 2).epsilon(1e-6));
        CHECK(two.settings.gpus == 2);  // TP 1 × DP 2 ranks, none idle
        for (const auto& n : two.notes) CHECK(n.find("idle") == std::string::npos);
        CHECK(two.command.find("--data-parallel-size 2") != std::string::npos);
        // Expert parallel changes how the experts split, not how much of them each card holds.
        s.enable_expert_parallel = true;
        const Report ep = predict(s);
        REQUIRE(ep.ok);
        CHECK(ep.terms.weights_bytes == two.terms.weights_bytes);
        CHECK(ep.command.find("--enable-expert-parallel") != std::string::npos);
        // A dense model: every DP engine holds it whole.
        Scenario d = llama();
        const Report dense1 = predict(d);
        d.data_parallel_size = 4;
        const Report dense4 = predict(d);
        CHECK(dense4.terms.weights_bytes == dense1.terms.weights_bytes);
        d.tensor_parallel_size = 4;  // 4 × 4 = 16 cards: more than one box
        CHECK(has_code(predict(d).diagnostics, "too_many_cards"));
    }

    TEST_CASE("another engine does not read vLLM's flags: a warning, nothing priced") {
        Scenario s = llama();
        s.engine = "llama.cpp";
        const Report base = predict(s);
        s.enforce_eager = true;
        s.cpu_offload_gib = 2;
        const Report r = predict(s);
        REQUIRE(r.ok);
        CHECK(has_code(r.diagnostics, "vllm_flag_ignored"));
        CHECK(r.terms.weights_bytes == base.terms.weights_bytes);
    }

    TEST_CASE("another engine does not read vllm_usage_context: a warning naming it, nothing priced") {
        // Regression: llm_class with llama.cpp or SGLang was dropped without a word.
        for (const char* engine : {"llama.cpp", "sglang"}) {
            Scenario s = llama();
            s.engine = engine;
            const Report base = predict(s);
            s.vllm_usage_context = "LLM_Class";
            const Report r = predict(s);
            REQUIRE(r.ok);
            bool named = false;
            for (const auto& x : r.diagnostics)
                named = named || (x.code == "vllm_flag_ignored" && x.field == "vllm_usage_context" &&
                                  x.message.find("does not read vLLM's --vllm-usage-context (LLM_Class): it is not "
                                                 "priced") != std::string::npos);
            CHECK_MESSAGE(named, engine);
            CHECK(r.terms.fixed_bytes == base.terms.fixed_bytes);
        }
        Scenario v = llama();
        v.vllm_usage_context = "llm_class";
        CHECK_FALSE(has_code(predict(v).diagnostics, "vllm_flag_ignored"));
    }
}

TEST_SUITE("honest bands") {
    TEST_CASE("TIGHT, not PASS, while the band straddles the limit") {
        BudgetTerms t;
        t.budget_bytes = 20 * kGiB;
        t.fixed_bytes = 16 * kGiB;
        t.available_for_kv_bytes = 4 * kGiB;
        t.kv_one_sequence_bytes = t.kv_requested_bytes = 3 * kGiB + kGiB / 2;
        t.demand_bytes = t.fixed_bytes + t.kv_requested_bytes;
        t.tight_band_bytes = kGiB * 45 / 100;  // the 0.21+ dense TP 1 band (docs/ACCURACY.md)
        CHECK(classify(t) == Verdict::pass);   // 0.50 GiB of headroom beside a 0.45 GiB band
        t.tight_band_bytes = kGiB * 75 / 100;  // the V0 band: the optimistic end no longer fits
        CHECK(classify(t) == Verdict::tight);
    }

    TEST_CASE("the safe max_model_len boots at the band's optimistic end and is band / KV per token shorter") {
        Scenario s = llama();
        s.gpu = "rtx-4090";  // a pool of about 6 GiB: the length is bounded by the budget, not the model's 131072
        const SolveResult r = solve_max_model_len(s);
        REQUIRE(r.ok);
        CHECK(r.bound == "budget");
        REQUIRE(r.safe_band_bytes > 0);
        CHECK(r.safe_value > 0);
        CHECK(r.safe_value < r.value);
        // The pool is the same at both lengths but for the length-dependent terms (sampler and graphs follow
        // max_num_batched_tokens, not the length here): the gap is the band in tokens, to one 16-token block.
        const double gap = static_cast<double>(r.value - r.safe_value);
        CHECK(gap == doctest::Approx(static_cast<double>(r.safe_band_bytes) / kLlamaKvPerToken).epsilon(0.01));
        CHECK(r.safe_value_rounded % 1024 == 0);
        CHECK(r.safe_value_rounded <= r.safe_value);
        // At the safe length the verdict is PASS (the band fits beside it); at the point answer it is TIGHT.
        Scenario at = s;
        at.max_model_len = r.safe_value;
        CHECK(predict(at).verdict == Verdict::pass);
        at.max_model_len = r.value;
        CHECK(predict(at).verdict == Verdict::tight);
    }

    TEST_CASE("the safe max_num_seqs and min VRAM allow for the band too") {
        const SolveResult seqs = solve_max_num_seqs(llama(32768));
        REQUIRE(seqs.ok);
        CHECK(seqs.safe_value > 0);
        CHECK(seqs.safe_value <= seqs.value);
        Scenario s = llama(32768);
        s.gpu.clear();
        s.vram_gb = 40;
        const SolveResult vram = solve_min_vram(s);
        REQUIRE(vram.ok);
        CHECK(vram.safe_value > vram.value);
        CHECK(vram.safe_value_rounded % kGiB == 0);
        CHECK(vram.safe_value_rounded >= vram.safe_value);
    }
}

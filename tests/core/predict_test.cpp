#include <doctest/doctest.h>

#include <cmath>

#include "kvcalc/catalog/catalog.h"
#include "kvcalc/deployment/predict.h"
#include "kvcalc/base/units.h"
#include "seed_cli.h"

using namespace kvcalc;

namespace {
Scenario preset(const char* id) { return find_preset(id)->scenario; }
bool has_code(const Report& r, const char* code, const char* field) {
    for (const auto& d : r.diagnostics)
        if (d.code == code && d.field == field && d.severity == Severity::error) return true;
    return false;
}
double gb2(std::int64_t bytes) { return std::round(bytes_to_gb(bytes) * 100) / 100; }  // 2 decimals, as 003 prints

bool mentions(const std::vector<std::string>& notes, const char* text) {
    for (const auto& n : notes)
        if (n.find(text) != std::string::npos) return true;
    return false;
}

bool has_diag(const Report& r, const char* code, const std::string& field, Severity sev = Severity::error) {
    for (const auto& d : r.diagnostics)
        if (d.code == code && d.field == field && d.severity == sev) return true;
    return false;
}

}  // namespace

TEST_SUITE("predict") {
    TEST_CASE("the original's example: --compose dual-turbo --vram 20 --mem-util 0.82") {
        Scenario s = preset("qwen3.6-27b:dual-turbo");
        s.vram_gb = 20;
        s.gpu_memory_utilization = 0.82;
        const Report r = predict(s);
        REQUIRE(r.ok);
        // weights 17.5 / 2 = 8.75 GB
        CHECK(r.terms.weights_bytes == 8'750'000'000LL);
        // KV under vLLM's rules at TP 2: 16 full-attention layers × 2 KV heads per rank × 2 (K, V) × 109 B (a
        // 256-element TQ3 head vector at 17/40 B is 108.8 B, stored in whole bytes) = 6,976 B/token. The 48 DeltaNet
        // states (1,603,584 B per layer and rank) make vLLM raise the attention block to 16 × cdiv(1,603,584,
        // 16 × 436) = 3,680 tokens, so one page is 3,680 × 436 = 1,604,480 B and a state is padded to one page.
        // One request: cdiv(262,144 + 3 × 32 MTP positions, 3,680) = 72 blocks of the full group + 3 state groups
        // × 1 block = 75 blocks of 16 layers × 1,604,480 B.
        CHECK(r.terms.kv_growing_requested_bytes == 6976LL * 72 * 3680 * 4);  // 7,393,443,840 → "7.39"
        CHECK(gb2(r.terms.kv_growing_requested_bytes) == doctest::Approx(7.39));
        CHECK(r.terms.recurrent_state_requested_bytes == 4LL * 3 * 16 * 1604480);
        CHECK(r.terms.kv_one_sequence_bytes == 75LL * 16 * 1604480);
        // activation 165 × 48 × 262,144 / 2 = 1,038,090,240 → "1.04"
        CHECK(gb2(r.terms.activation_bytes) == doctest::Approx(1.04));
        // overhead 0.5 + 0.82 + 0.3 × (2 − 1) = 1.62 GB
        CHECK(r.terms.cudagraph_workspace_bytes == 1'620'000'000LL);
        // budget 0.82 × 20e9 = 16.4e9; non-KV 8.75 + 1.038 + 1.62 = 11,408,090,240; the pool 4,991,909,760 holds
        // 4,991,909,760 / (16 × 1,604,480) = 194 blocks, 194 / 75 = 2.59 requests < 4: capped → TIGHT. (003, without
        // capping, prints demand 18.71 GB = 114 % of budget → FAIL; KV-pool capping, docs/SOURCES.md, is what changes the verdict.)
        CHECK(r.terms.budget_bytes == 16'400'000'000LL);
        CHECK(r.terms.fixed_bytes == 11408090240LL);
        CHECK(r.terms.kv_granted_bytes == r.terms.available_for_kv_bytes);
        CHECK(r.terms.total_bytes == r.terms.budget_bytes);
        CHECK(r.verdict == Verdict::tight);
        CHECK(r.effective_max_num_seqs == doctest::Approx(194.0 / 75.0));
        CHECK(r.startup.max_concurrency == doctest::Approx(194.0 / 75.0));
        // docs/SOURCES.md "Activation": 3-bit TurboQuant raises the DeltaNet activation peak on cards under 24 GB (out of
        // memory near 90K tokens on 20 GB cards), so the 20 GB card gets the note and a 32 GB card does not (the rule
        // compares with 24 GiB).
        CHECK(mentions(r.notes, "3-bit TurboQuant KV on cards under 24 GB"));
        s.vram_gb = 32;
        CHECK_FALSE(mentions(predict(s).notes, "3-bit TurboQuant"));
    }
    TEST_CASE("verdict rules") {
        SUBCASE("PASS: Qwen 35B-A3B dual on 3090s has room") {
            Scenario s = preset("qwen3.6-35b-a3b:vllm/qwen-35b-a3b-dual");
            s.gpu = "rtx-3090";
            s.kv_cache_dtype = "fp8_e5m2";  // the preset's fp8_e4m3 has no kernel on sm_86 (that is a FAIL)
            const Report r = predict(s);
            REQUIRE(r.ok);
            CHECK(r.verdict == Verdict::pass);
            CHECK(r.terms.kv_growing_granted_bytes == r.terms.kv_growing_requested_bytes);
        }
        SUBCASE("FAIL: one full-length sequence does not fit (not the original's 1 GB floor, docs/SOURCES.md quirk 4)") {
            // Gemma 31B bf16 KV at TP1 on a 24 GiB card: weights alone 18 GB, one 262,144-token request needs
            // 10 × 4 × 512 × (K + V) × 2 B = 81,920 × 262,144 = 21.5 GB in the global layers, plus 50 sliding layers ×
            // 193 blocks × 16 tokens × 16,384 B (16 × 256 × 2 × 2 B, the largest page, so 16-token blocks; window
            // 1024 − 1 + vLLM's default 2,048 batched tokens on a 24 GiB card = 3,071 tokens, + 1 block).
            Scenario s;
            s.model_id = "gemma-4-31b";
            s.kv_cache_dtype = "bf16";
            s.max_model_len = 262144;
            s.gpu = "rtx-3090";
            const Report r = predict(s);
            REQUIRE(r.ok);
            CHECK(r.verdict == Verdict::fail);
            CHECK(r.terms.kv_one_sequence_bytes == 81920LL * 262144 + 50LL * 193 * 16 * 16384);
            CHECK(r.reason.find("refuses") != std::string::npos);
        }
        SUBCASE("TIGHT inside the 1.5 GB band without capping") {
            Scenario s = preset("qwen3.6-27b:long-text");
            s.gpu = "rtx-3090";
            const Report r = predict(s);
            REQUIRE(r.ok);
            CHECK(r.terms.kv_growing_requested_bytes <= r.terms.available_for_kv_bytes);
            CHECK(r.terms.budget_bytes - r.terms.demand_bytes < kTightBandBytes);
            CHECK(r.verdict == Verdict::tight);
        }
    }
    TEST_CASE("weights are divided by TP for every family, the MoE Gemma included (docs/SOURCES.md quirk 14)") {
        Scenario s = preset("gemma-4-26b-a4b:vllm/gemma-26ba4b-dual");
        s.gpu = "rtx-3090";
        const Report r = predict(s);
        REQUIRE(r.ok);
        CHECK(r.terms.weights_bytes == 8'500'000'000LL);  // 17.0 GB / 2
    }
    TEST_CASE("drafter weights shard with TP; MTP adds 3 × 32 KV positions on Qwen") {
        Scenario s = preset("qwen3.6-27b:dual-dflash");
        s.gpu = "rtx-3090";
        const Report r = predict(s);
        REQUIRE(r.ok);
        CHECK(r.terms.drafter_bytes == 875'000'000LL);  // 1.75 GB / 2
        CHECK(r.terms.kv_tokens_per_sequence == 185000);
        Scenario m = preset("qwen3.6-27b:dual");
        m.gpu = "rtx-3090";
        CHECK(predict(m).terms.kv_tokens_per_sequence == 262144 + 96);
        m.mtp = false;  // an explicit "no" removes the preset's MTP drafter
        CHECK(predict(m).terms.kv_tokens_per_sequence == 262144);
    }
    TEST_CASE("bad inputs give clear diagnostics, never NaN or a crash") {
        Scenario s;
        s.tensor_parallel_size = 3;  // Qwen 27B has 4 KV heads
        Report r = predict(s);
        CHECK_FALSE(r.ok);
        CHECK(has_code(r, "tp_invalid", "tensor_parallel_size"));

        s = Scenario{};
        s.vram_gb = 0;
        CHECK(has_code(predict(s), "out_of_range", "vram_gb"));
        s.vram_gb = std::nan("");
        CHECK(has_code(predict(s), "out_of_range", "vram_gb"));

        for (double u : {-0.1, 1.01, std::nan("")}) {
            s = Scenario{};
            s.gpu_memory_utilization = u;
            CHECK(has_code(predict(s), "out_of_range", "gpu_memory_utilization"));
        }
        s = Scenario{};
        s.max_model_len = -1;  // 0 is "not given"
        CHECK(has_code(predict(s), "out_of_range", "max_model_len"));
        s = Scenario{};
        s.max_num_seqs = -1;
        CHECK(has_code(predict(s), "out_of_range", "max_num_seqs"));
        s = Scenario{};
        s.engine = "llama.cpp";
        s.max_num_seqs = -1;
        CHECK(has_code(predict(s), "out_of_range", "max_num_seqs"));
        s = Scenario{};
        s.vllm_version = "0.x";
        CHECK(has_code(predict(s), "vllm_version_unknown", "vllm_version"));
        s = Scenario{};
        s.max_model_len = 1'000'000;  // above 262,144 (docs/SOURCES.md quirk 7)
        CHECK(has_code(predict(s), "max_model_len_too_long", "max_model_len"));
        s = Scenario{};
        s.model_id = "llama-9";
        CHECK(has_code(predict(s), "model_unknown", "model_id"));
        s = Scenario{};
        s.kv_cache_dtype = "fp9";
        CHECK(has_code(predict(s), "kv_format_unknown", "kv_cache_dtype"));
        s = Scenario{};
        s.weights_variant = "bf16";  // no bf16 checkpoint catalogued for Qwen 27B (docs/SOURCES.md quirk 11)
        r = predict(s);
        CHECK(has_code(r, "weights_variant_unknown", "weights_variant"));
        CHECK(r.diagnostics.back().message.find("autoround-int4") != std::string::npos);
        s = Scenario{};
        s.model_id = "agents-a1";
        s.mtp = true;  // no MTP head (docs/SOURCES.md quirk 16)
        CHECK(has_code(predict(s), "mtp_unavailable", "mtp"));
        s = Scenario{};
        s.tensor_parallel_size = 2;
        s.gpus = 1;
        CHECK(has_code(predict(s), "gpus_below_tp", "gpus"));
        s = Scenario{};
        s.gpu = "rtx-3090";
        s.vram_gb = 24;
        CHECK(has_code(predict(s), "vram_ambiguous", "gpu"));
        s = Scenario{};
        s.gpu = "rtx-9999";
        CHECK(has_code(predict(s), "gpu_unknown", "gpu"));
    }
    TEST_CASE("gpus above TP is a note, not an error") {
        Scenario s;
        s.gpus = 4;
        s.tensor_parallel_size = 2;
        s.gpu = "rtx-3090";
        const Report r = predict(s);
        REQUIRE(r.ok);
        CHECK(r.settings.gpus == 4);
        CHECK(r.notes.front().find("idle") != std::string::npos);
    }
    TEST_CASE("hardware notes for the KV format") {
        Scenario s = preset("gemma-4-31b:vllm/gemma-int8-mtp");
        s.kv_cache_dtype = "fp8_e4m3";
        s.gpu = "rtx-3090";
        const Report r = predict(s);
        REQUIRE(r.ok);
        bool found = false;
        for (const auto& n : r.notes) found = found || n.find("sm_89") != std::string::npos;
        CHECK(found);
    }
    TEST_CASE("kv-breakdown extras") {
        Scenario s = preset("qwen3.6-27b:dual");
        s.gpu = "rtx-3090";
        s.include_draft_kv = true;
        s.draft_kv_gb = 0.5;
        s.compressed_layers = 2;
        s.compression_ratio = 128;
        s.compressed_head_dim = 512;
        s.indexer_ratio_layers = 2;
        s.indexer_compress_ratio = 4;
        s.indexer_head_dim = 128;
        const Report r = predict(s);
        REQUIRE(r.ok);
        CHECK(r.breakdown.layout == "compressed_sparse");
        // 2 × floor(262,144 / 128) × 512 × 1 B (fp8) × 2 seqs / 2 = 2 × 2,048 × 512 = 2,097,152
        CHECK(r.breakdown.compressed_kv_bytes == 2097152);
        // 2 × floor(262,144 / 4) × 128 × 0.5 B (fp4) × 2 / 2 = 2 × 65,536 × 64 = 8,388,608
        CHECK(r.breakdown.indexer_bytes == 8388608);
        CHECK(r.breakdown.draft_kv_bytes == 500'000'000);
        CHECK(r.breakdown.subtotal_bytes == r.breakdown.growing_kv_bytes + r.breakdown.recurrent_state_bytes + 2097152 +
                                                8388608 + 500'000'000);
        // The verdict does not include the breakdown-only terms.
        Scenario plain = preset("qwen3.6-27b:dual");
        plain.gpu = "rtx-3090";
        CHECK(predict(plain).terms.fixed_bytes == r.terms.fixed_bytes);
    }
}

TEST_SUITE("predict") {
    TEST_CASE("seed models keep the seed math and stay calibrated") {
        const Report r = predict(seed_cli_scenario());  // qwen3.6-27b at the seed CLI's settings
        REQUIRE(r.ok);
        CHECK(r.calibrated);
        CHECK(r.error_band_bytes == kTightBandBytes);
        CHECK(r.terms.tight_band_bytes == kTightBandBytes);
        CHECK_FALSE(mentions(r.notes, "uncalibrated"));
        // docs/SOURCES.md "Per-card budget": CUDA graphs + workspace 0.5 + 1.0 × 0.95 GB at TP 1.
        CHECK(r.terms.cudagraph_workspace_bytes == 1'450'000'000);
        // Qwen 3.6 27B is a DeltaNet hybrid: vLLM makes several KV cache groups and its token count misleads.
        REQUIRE(r.startup.available);
        CHECK(r.startup.num_kv_cache_groups > 1);
        CHECK(mentions(r.startup.notes, "hybrid model"));
    }

    TEST_CASE("bad engine and weights_dtype on a seed model are errors naming the field") {
        Scenario s;
        s.engine = "tensorrt";
        CHECK(has_diag(predict(s), "engine_unknown", "engine"));
        Scenario t;
        t.weights_dtype = "fp8";  // qwen3.6-27b is a seed model with its own variants
        CHECK(has_diag(predict(t), "weights_dtype_unsupported", "weights_dtype"));
    }

    TEST_CASE("when the weights alone overflow the budget, the largest term is the weights, not the KV asked for") {
        // The UI test's task 1 in bf16: Qwen3 32B (Qwen/Qwen3-32B, 32.8 B parameters, about 65.5 GB of bf16) on one
        // RTX 5090 (32 GiB): 8 sequences of 32,768 tokens ask 64 GiB of KV (262,144 B per token), more than the
        // weights, but vLLM stops while it loads the weights and never sizes a KV pool.
        Scenario s;
        s.model_id = "qwen3-32b";
        s.gpu = "rtx-5090";
        s.max_model_len = 32768;
        s.max_num_seqs = 8;
        const Report r = predict(s);
        REQUIRE(r.ok);
        CHECK(r.verdict == Verdict::fail);
        CHECK(r.terms.kv_requested_bytes == 8LL * 32768 * 262144);
        CHECK(r.terms.kv_requested_bytes > r.terms.weights_bytes);
        CHECK(r.terms.fixed_bytes > r.terms.budget_bytes);
        CHECK(r.limiting_term == "weights");
        // When the fixed terms fit, the KV asked for is still the largest term (the 4-bit checkpoint).
        s.weights_dtype = "int4";
        const Report q = predict(s);
        REQUIRE(q.ok);
        CHECK(q.terms.fixed_bytes < q.terms.budget_bytes);
        CHECK(q.limiting_term == "kv_growing");
    }
}

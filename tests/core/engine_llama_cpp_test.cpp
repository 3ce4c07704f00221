// llama.cpp KV buffers, hand-worked; the printed-log comparisons live in real_cases_test.
#include <doctest/doctest.h>

#include <string>

#include "kvcalc/catalog/catalog_popular.h"
#include "kvcalc/engines/engine_rules.h"
#include "kvcalc/engines/llama_cpp_buffers.h"
#include "kvcalc/deployment/predict.h"
#include "kvcalc/deployment/solver.h"

using namespace kvcalc;

namespace {
kvcalc::ModelSpec model(const std::string& id) { return kvcalc::popular_model(id).value(); }
constexpr double kMiB = 1048576.0;

bool mentions(const std::vector<std::string>& notes, const char* text) {
    for (const auto& n : notes)
        if (n.find(text) != std::string::npos) return true;
    return false;
}

// vllm-h100-llama31-8b-16k: vLLM 0.11.1-0.16 on an H100 80GB, `--max-model-len 16000`, everything else
// vLLM's default (gpu_memory_utilization 0.9, max_num_seqs 1024, max_num_batched_tokens 8192), bf16 KV.
Scenario llama8b_h100() {
    Scenario s;
    s.model_id = "llama-3.1-8b";
    s.gpu = "h100-80gb";
    s.vllm_version = "0.11.1-0.16";
    s.gpu_memory_utilization = 0;
    s.max_num_seqs = 0;
    s.max_model_len = 16000;
    s.kv_cache_dtype = "bf16";
    return s;
}

}  // namespace

TEST_SUITE("engine_llama_cpp") {
    TEST_CASE("cache types: f16, q8_0 = 34 B per 32, q4_0 = 18 B per 32") {
        kvcalc::LlamaCppSettings s;
        s.n_ctx = 8192;
        auto p = kvcalc::predict_llama_cpp_kv(model("llama-3.1-8b"), s);
        CHECK(p.kv_bytes_per_token == 131072);  // 32 × 1024 × 2 B × 2
        CHECK(p.total_bytes / kMiB == doctest::Approx(1024.0));
        s.cache_type_k = s.cache_type_v = "q8_0";
        p = kvcalc::predict_llama_cpp_kv(model("llama-3.1-8b"), s);
        CHECK(p.kv_bytes_per_token == 32 * 1024 * 34 / 32 * 2);  // 69,632 B
        s.cache_type_k = s.cache_type_v = "q4_0";
        p = kvcalc::predict_llama_cpp_kv(model("llama-3.1-8b"), s);
        CHECK(p.kv_bytes_per_token == 32 * 1024 * 18 / 32 * 2);  // 36,864 B
        s.cache_type_k = "fp8";  // a vLLM name is not a ggml type
        CHECK(kvcalc::has_error(kvcalc::predict_llama_cpp_kv(model("llama-3.1-8b"), s).diagnostics));
    }

    TEST_CASE("sliding cache: window + n_ubatch cells padded to 256, per sequence") {
        kvcalc::LlamaCppSettings s;
        s.n_ctx = 65536;
        s.n_seq_max = 4;
        s.n_ubatch = 512;
        const auto p = kvcalc::predict_llama_cpp_kv(model("gemma-3-12b"), s);
        CHECK(p.streams == 4);
        CHECK(p.full_cells == 16384);           // 65536 / 4 sequences
        CHECK(p.swa_cells == 1536);             // pad256(1024 + 512)
        CHECK(p.full_layers == 8);              // 48 / 6
        CHECK(p.swa_layers == 40);
        // 40 layers × 1536 cells × 4 streams × (8 heads × 256) × 2 (K,V) × 2 B = 2,013,265,920 B = 1920 MiB.
        CHECK(p.swa_bytes / kMiB == doctest::Approx(1920.0));
    }

    TEST_CASE("an -ub above -b 2048 runs as 2048 tokens (llama-context.cpp n_ubatch = min(n_batch, -ub))") {
        // Regression: -ub 8192 was priced as 8192 cells of the sliding cache and an 8192-token compute graph.
        kvcalc::LlamaCppSettings s;
        s.n_ctx = 65536;
        s.n_seq_max = 4;
        s.n_ubatch = 8192;
        CHECK(kvcalc::llama_cpp_effective_ubatch(s) == 2048);
        const auto p = kvcalc::predict_llama_cpp_kv(model("gemma-3-12b"), s);
        CHECK(p.swa_cells == 3072);  // pad256(1024 + 2048), not pad256(1024 + 8192) = 9216
        // 40 layers × 3072 cells × 4 streams × (8 heads × 256) × 2 (K,V) × 2 B = 3840 MiB.
        CHECK(p.swa_bytes / kMiB == doctest::Approx(3840.0));
        CHECK(kvcalc::llama_cpp_compute_shape(model("gemma-3-12b"), s, true).n_tokens == 2048);
        s.n_ctx = 1000;  // -b is min(n_ctx, 2048) with causal attention
        CHECK(kvcalc::llama_cpp_effective_ubatch(s) == 1000);
        Scenario sc;
        sc.model_id = "gemma-3-12b";
        sc.engine = "llama.cpp";
        sc.vram_gb = 80;
        sc.max_model_len = 8192;
        sc.n_ubatch = 8192;
        const Report r = predict(sc);
        REQUIRE(r.ok);
        bool warned = false;
        for (const auto& d : r.diagnostics)
            warned = warned || (d.code == "llama_cpp_ubatch_above_batch" && d.field == "n_ubatch" &&
                                d.message.find("n_ubatch 8192 is above llama.cpp's -b 2048") != std::string::npos);
        CHECK(warned);
    }

    TEST_CASE("a -c above 2^31 - 1 (max_model_len × max_num_seqs) or -np above 256 is an error, as llama.cpp's") {
        // Regression: -np 65536 at 2^27 tokens printed "-c 8796093022208 -np 65536", a command llama.cpp refuses
        // twice: -c is read as an int, and llama_context throws "n_seq_max must be <= 256" (LLAMA_MAX_SEQ).
        auto has = [](const Report& r, const char* code, const char* field, const std::string& message) {
            for (const auto& d : r.diagnostics)
                if (d.code == code && d.field == field && d.message == message) return true;
            return false;
        };
        Scenario s;
        s.model_id = "gemma-3-12b";
        s.engine = "llama.cpp";
        s.vram_gb = 80;
        s.max_model_len = 131072;
        s.max_num_seqs = 257;
        const Report seqs_over = predict(s);
        CHECK_FALSE(seqs_over.ok);
        CHECK(has(seqs_over, "llama_cpp_too_many_seqs", "max_num_seqs",
                  "max_num_seqs 257 is above the 256 sequences llama.cpp takes (-np; llama_context: \"n_seq_max must "
                  "be <= 256\"); expected 1..256 for llama.cpp"));
        s.max_num_seqs = 256;
        s.max_model_len = 8388608;  // 2^23 × 256 = 2^31
        s.allow_long_max_model_len = true;
        const Report c_over = predict(s);
        CHECK_FALSE(c_over.ok);
        CHECK(has(c_over, "llama_cpp_ctx_too_large", "max_model_len",
                  "llama.cpp's -c is max_model_len × max_num_seqs = 2147483648, above the 2147483647 llama.cpp "
                  "accepts (-c is an int); lower max_model_len or max_num_seqs"));
        s.max_num_seqs = 255;  // -c 2139095040 is taken
        const Report ok = predict(s);
        CHECK(ok.ok);
        CHECK(ok.command.find("-c 2139095040") != std::string::npos);
        // The solvers stay below both: 256 sequences leave 2147483647 / 256 = 8388607 tokens each, and 2^23 tokens
        // leave 255 sequences (the max_model_len solver answered 131072 at -np 65536 before).
        s.vram_gb = 1000000;
        s.max_model_len = 0;
        s.max_num_seqs = 256;
        const SolveResult len = solve_max_model_len(s);
        REQUIRE(len.ok);
        CHECK(len.value == 8388607);
        s.max_model_len = 8388608;
        s.max_num_seqs = 1;
        const SolveResult seqs = solve_max_num_seqs(s);
        REQUIRE(seqs.ok);
        CHECK(seqs.value == 255);
        s.max_model_len = 4096;
        const SolveResult short_seqs = solve_max_num_seqs(s);
        REQUIRE(short_seqs.ok);
        CHECK(short_seqs.value == 256);
    }

    TEST_CASE("sliding cache per release: pad to n_pad before b7000, pad(min(cap, x), 256) from it") {
        // gpt-oss-20b at -c 4096 without flash attention: 12 SWA layers (window 128) × 8 KV heads × 64.
        // b6182 printed "creating SWA KV cache, size = 640 cells" (llama.cpp-b6182-gpt-oss-20b-vulkan-swa.log):
        // 128 + 512 rounded to 32. From PR #17046 every cache pads to 256: 640 → 768.
        kvcalc::LlamaCppSettings s;
        s.n_ctx = 4096;
        s.flash_attn = false;
        s.build = 6182;
        auto p = kvcalc::predict_llama_cpp_kv(model("gpt-oss-20b"), s);
        CHECK(p.swa_cells == 640);
        CHECK(p.swa_bytes / kMiB == doctest::Approx(15.0));  // 640 × 12 × 512 × 2 × 2 B
        s.build = 0;
        p = kvcalc::predict_llama_cpp_kv(model("gpt-oss-20b"), s);
        CHECK(p.swa_cells == 768);
        CHECK(p.swa_bytes / kMiB == doctest::Approx(18.0));
        // The cap comes before the padding: -c 512 leaves a 512-cell full cache and an SWA cache of 512, not 768.
        s.n_ctx = 512;
        CHECK(kvcalc::predict_llama_cpp_kv(model("gpt-oss-20b"), s).swa_cells == 512);
        // --kv-unified with 4 sequences: one stream holding 4 windows + one ubatch, pad256(4 × 128 + 512) = 1024.
        s.n_ctx = 16384;
        s.n_seq_max = 4;
        s.kv_unified = true;
        p = kvcalc::predict_llama_cpp_kv(model("gpt-oss-20b"), s);
        CHECK(p.streams == 1);
        CHECK(p.swa_cells == 1024);
        // --swa-full: the SWA cache is as large as the full one.
        s.swa_full = true;
        CHECK(kvcalc::predict_llama_cpp_kv(model("gpt-oss-20b"), s).swa_cells == 16384);
    }

    TEST_CASE("sliding cache keeps f16 under -ctk/-ctv q8_0 from b8628 (PR #21277); quantized before") {
        kvcalc::LlamaCppSettings s;
        s.n_ctx = 8192;
        s.n_seq_max = 2;
        s.cache_type_k = s.cache_type_v = "q8_0";
        auto p = kvcalc::predict_llama_cpp_kv(model("gemma-3-12b"), s);
        // Full: 8 layers × 2 streams × 4096 cells × 2048 values × 34/32 B × 2 (K, V) = 272 MiB, quantized.
        CHECK(p.full_bytes / kMiB == doctest::Approx(272.0));
        // SWA: 40 layers × 2 × pad256(1024 + 512) cells × 2048 × 2 B (f16) × 2 = 960 MiB.
        CHECK(p.swa_cells == 1536);
        CHECK(p.swa_bytes / kMiB == doctest::Approx(960.0));
        s.build = 8000;
        p = kvcalc::predict_llama_cpp_kv(model("gemma-3-12b"), s);
        CHECK(p.swa_bytes / kMiB == doctest::Approx(510.0));  // the same cells at 34/32 B
        s.build = -1;
        CHECK(kvcalc::has_error(kvcalc::predict_llama_cpp_kv(model("gemma-3-12b"), s).diagnostics));
    }

    TEST_CASE("the scenario's swa_full, n_ubatch and llama_cpp_build reach llama.cpp's rules") {
        Scenario s;
        s.model_id = "gemma-3-12b";
        s.engine = "llama.cpp";
        s.vram_gb = 80;
        s.kv_cache_dtype = "fp16";
        s.max_model_len = 8192;
        s.max_num_seqs = 2;
        Report r = predict(s);
        REQUIRE(r.ok);
        // -c 16384 -np 2: 2 streams × 8192 cells; 8 full layers × 2048 × 2 × 2 B = 1024 MiB; SWA 2 × 1536 cells.
        CHECK(r.terms.kv_growing_requested_bytes / kMiB == doctest::Approx(1024.0));
        CHECK(r.terms.kv_sliding_bytes / kMiB == doctest::Approx(960.0));
        s.n_ubatch = 2048;  // pad256(1024 + 2048) = 3072 cells per stream
        r = predict(s);
        REQUIRE(r.ok);
        CHECK(r.terms.kv_sliding_bytes / kMiB == doctest::Approx(1920.0));
        s.swa_full = true;  // 8192 cells per stream, as the full cache
        r = predict(s);
        REQUIRE(r.ok);
        CHECK(r.terms.kv_sliding_bytes / kMiB == doctest::Approx(5120.0));
        CHECK(r.command.find("--swa-full") != std::string::npos);
    }

    TEST_CASE("architectures without an SWA cache in llama.cpp get the full context (Mistral v0.1)") {
        kvcalc::LlamaCppSettings s;
        s.n_ctx = 8192;
        const auto p = kvcalc::predict_llama_cpp_kv(model("mistral-7b-v0.1"), s);
        CHECK(p.swa_layers == 0);
        CHECK(p.full_layers == 32);
        // Mistral's config.json has sliding_window 4096, but llama.cpp builds model_type "mistral" as LLM_ARCH_LLAMA
        // with a plain KV cache: every layer keeps all 8192 cells. 32 layers × 8192 × (8 heads × 128) × 2 (K, V)
        // × 2 B (f16) = 1024 MiB, not the 512 MiB a 4096-cell window would give.
        CHECK(p.full_cells == 8192);
        CHECK(p.total_bytes / kMiB == doctest::Approx(1024.0));
    }

    TEST_CASE("MLA keeps one 576-wide latent per layer (V is a view of K)") {
        kvcalc::LlamaCppSettings s;
        s.n_ctx = 4096;
        const auto p = kvcalc::predict_llama_cpp_kv(model("deepseek-v3"), s);
        CHECK(p.kv_bytes_per_token == 61 * 576 * 2);
    }

    TEST_CASE("bad settings are errors") {
        kvcalc::LlamaCppSettings s;
        s.n_ctx = 0;
        CHECK(kvcalc::has_error(kvcalc::predict_llama_cpp_kv(model("llama-3.1-8b"), s).diagnostics));
    }
}

TEST_SUITE("engine_llama_cpp") {
    TEST_CASE("llama.cpp: weights, KV from llama.cpp's own cell rules, and the GPU compute buffer") {
        Scenario s = llama8b_h100();
        s.engine = "llama.cpp";
        s.max_num_seqs = 1;               // llama.cpp has no "vLLM default"
        s.gpu_memory_utilization = 0.9;
        s.kv_cache_dtype = "fp16";
        s.max_model_len = 4096;
        const Report r = predict(s);
        REQUIRE(r.ok);
        CHECK(r.engine == "llama.cpp");
        // The compute buffer, with -fa on at 4,096 cells: the output step is the largest live set, the f32 logits
        // [n_vocab 128,256 × n_ubatch 512] over the normed hidden state [4,096 × 512] (llama-graph.cpp
        // build_inp_embd .. res->t_logits); the verdict takes the bound, one more hidden state of fragmentation.
        // Without it a card the weights and KV just fit was a PASS that llama.cpp cannot start on.
        CHECK(r.terms.activation_bytes == 128256LL * 512 * 4 + 2 * 4096LL * 512 * 4);
        CHECK(r.terms.cudagraph_workspace_bytes == 0);
        CHECK(mentions(r.notes, "the GPU compute buffer (0.26 GiB per card"));
        REQUIRE(r.startup.available);
        // 32 layers × 4096 cells × 8 heads × 128 × (K + V) × 2 B = 512 MiB (llama.cpp prints "size = 512.00 MiB").
        CHECK(r.startup.kv_total_bytes_all_devices == 512LL * 1024 * 1024);
    }

    TEST_CASE("Gemma 4 12B at -c 8192 -np 2, f16: the 1,088 MiB a llama.cpp boot printed (128 MiB full + 960 MiB SWA)") {
        // The boot's KV lines (docs/SOURCES.md "Model facts", Gemma 4 12B): 8 global layers × 8,192 cells × 1 head
        // × 512 × K and V × 2 B = 128 MiB; 40 SWA layers × 2 × 1,536 cells × 8 heads × 256 × K and V × 2 B = 960 MiB.
        Scenario s;
        s.model_id = "gemma-4-12b";
        s.engine = "llama.cpp";
        s.gpu = "rtx-3090";
        s.kv_cache_dtype = "fp16";
        s.max_model_len = 4096;
        s.max_num_seqs = 2;
        const Report r = predict(s);
        REQUIRE(r.startup.available);
        CHECK(r.startup.kv_total_bytes_all_devices == 1088LL * 1024 * 1024);
    }
}

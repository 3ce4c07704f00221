// A KV cache dtype without a kernel on the card fails the verdict, whatever the bytes: fp8_e4m3 needs sm_80
// (FlashInfer's attention kernels; Triton's only from sm_89) (kv_format.cpp table; the T4 is sm_75, the RTX 3090
// and A10 sm_86, the RTX 4090 sm_89, NVIDIA's compute-capability list).
// The rule is in evaluate(), so the verdict, the solvers and every shopping row say the same.
#include <doctest/doctest.h>

#include <string>

#include "kvcalc/base/gpu_catalog.h"
#include "kvcalc/deployment/predict.h"
#include "kvcalc/deployment/solver.h"
#include "kvcalc/deployment/sweeps.h"

using namespace kvcalc;

namespace {

Scenario small_llama(const char* gpu, const char* kv, const char* engine = "vllm") {
    Scenario s;
    s.engine = engine;
    s.model_id = "llama-3.1-8b";
    s.gpu = gpu;
    s.kv_cache_dtype = kv;
    s.max_model_len = 8192;
    s.max_num_seqs = 1;
    s.gpu_memory_utilization = 0.9;
    return s;
}

bool has(const std::string& text, const char* part) { return text.find(part) != std::string::npos; }

bool any_note(const Report& r, const char* part) {
    for (const auto& n : r.notes)
        if (has(n, part)) return true;
    return false;
}

}  // namespace

TEST_SUITE("kv dtype on the card") {
    TEST_CASE("fp8_e4m3 on a T4 (sm_75) is FAIL and says it does not run") {
        const Report r = predict(small_llama("t4", "fp8_e4m3"));
        REQUIRE(r.ok);
        CHECK_FALSE(r.terms.kv_dtype_runs);
        CHECK(r.verdict == Verdict::fail);
        CHECK(r.reason.find("does not run on") != std::string::npos);
        CHECK_FALSE(solve_max_model_len(small_llama("t4", "fp8_e4m3")).ok);  // no length boots either
        // The same bytes in fp8_e5m2 (no hardware requirement) boot: 8K tokens of an 8B model on 24 GiB.
        const Report e5 = predict(small_llama("rtx-3090", "fp8_e5m2"));
        REQUIRE(e5.ok);
        CHECK(e5.terms.kv_dtype_runs);
        CHECK(e5.verdict != Verdict::fail);
    }

    TEST_CASE("fp8_e4m3 on an RTX 3090 (sm_86) runs through FlashInfer, and the note names the backend") {
        // Qwen3.6-27B-FP8 boots with --kv-cache-dtype fp8 (e4m3) on 2 × RTX 3090 (noonghunna/club-3090 PR #594:
        // "Available KV cache memory: 5.33 GiB", 300,220 tokens): a verdict must not FAIL it.
        const Report r = predict(small_llama("rtx-3090", "fp8_e4m3"));
        REQUIRE(r.ok);
        CHECK(r.terms.kv_dtype_runs);
        CHECK(r.verdict != Verdict::fail);
        CHECK(any_note(r, "runs through FlashInfer's attention backend"));
        CHECK(any_note(r, "TRITON_ATTN"));
        CHECK(solve_max_model_len(small_llama("rtx-3090", "fp8_e4m3")).ok);
        // 1 B per element, as fp8_e5m2: the same pool and the same bytes per token.
        const Report e5 = predict(small_llama("rtx-3090", "fp8_e5m2"));
        REQUIRE(e5.ok);
        CHECK(r.terms.kv_bytes_per_token == e5.terms.kv_bytes_per_token);
        CHECK(r.terms.available_for_kv_bytes == e5.terms.available_for_kv_bytes);
        // sm_89 and newer have Triton's e4m3 too: no backend caveat there.
        CHECK_FALSE(any_note(predict(small_llama("rtx-4090", "fp8_e4m3")), "FlashInfer's attention backend"));
    }

    TEST_CASE("fp8_e4m3 on an RTX 4090 (sm_89) runs") {
        const Report r = predict(small_llama("rtx-4090", "fp8_e4m3"));
        REQUIRE(r.ok);
        CHECK(r.terms.kv_dtype_runs);
        CHECK(r.verdict != Verdict::fail);
    }

    TEST_CASE("a card given only as a VRAM size is not failed by the hardware rule (its generation is unknown)") {
        Scenario s = small_llama("", "fp8_e4m3");
        s.vram_gib = 24.0;
        const Report r = predict(s);
        REQUIRE(r.ok);
        CHECK(r.terms.kv_dtype_runs);
    }

    TEST_CASE("shopping: no PASS or TIGHT row on a card the dtype does not run on") {
        std::vector<GpuSpec> gpus;
        for (const char* id : {"t4", "rtx-2080-ti", "rtx-4090"}) gpus.push_back(*find_gpu(id));
        const std::vector<ShopRow> rows = shopping(small_llama("rtx-4090", "fp8_e4m3"), gpus, {1});
        REQUIRE(rows.size() == 3);
        for (const ShopRow& row : rows) {
            INFO(row.gpu_id);
            REQUIRE(row.valid);
            const bool sm75 = row.gpu_id != "rtx-4090";
            CHECK(row.runs == !sm75);
            if (sm75) {
                CHECK(row.verdict == Verdict::fail);
                CHECK(row.note.find("does not run on") != std::string::npos);
            } else {
                CHECK(row.verdict != Verdict::fail);
            }
        }
    }

    // AMD: vllm/platforms/rocm.py RocmPlatform.supports_fp8 is true on gfx94x / gfx95x / gfx12xx only (MI300X and
    // MI325X are gfx942, its device map); the RX 7900 XTX is RDNA3 gfx1100 (AMD's LLVM target list). nvfp4 is an
    // NVIDIA datacenter-Blackwell format.
    TEST_CASE("AMD cards have a vendor and an LLVM target, so the rule can answer") {
        CHECK(find_gpu("mi300x")->vendor == GpuVendor::amd);
        CHECK(find_gpu("mi300x")->gfx_arch == "gfx942");
        CHECK(find_gpu("mi325x")->gfx_arch == "gfx942");
        CHECK(find_gpu("rx-7900-xtx")->gfx_arch == "gfx1100");
        CHECK(find_gpu("rtx-4090")->vendor == GpuVendor::nvidia);
        for (const GpuSpec& g : gpu_catalog()) {  // no card is left without a generation
            INFO(g.id);
            CHECK((g.sm_x10 > 0) == (g.vendor == GpuVendor::nvidia));
            CHECK(g.gfx_arch.empty() == (g.vendor == GpuVendor::nvidia));
        }
    }

    TEST_CASE("nvfp4 on AMD is FAIL for vLLM (the QA case: RX 7900 XTX and MI300X)") {
        for (const char* gpu : {"rx-7900-xtx", "mi300x"}) {
            INFO(gpu);
            const Report r = predict(small_llama(gpu, "nvfp4"));
            REQUIRE(r.ok);
            CHECK_FALSE(r.terms.kv_dtype_runs);
            CHECK(r.verdict == Verdict::fail);
            CHECK(has(r.reason, "does not run on AMD"));
            CHECK(has(r.reason, "NVIDIA-only"));
        }
    }

    TEST_CASE("fp8_e4m3 runs on MI300X (gfx942) and not on the RX 7900 XTX (gfx1100)") {
        const Report mi = predict(small_llama("mi300x", "fp8_e4m3"));
        REQUIRE(mi.ok);
        CHECK(mi.terms.kv_dtype_runs);
        CHECK(mi.terms.kv_dtype_support_known);
        CHECK(mi.verdict != Verdict::fail);
        const Report rx = predict(small_llama("rx-7900-xtx", "fp8_e4m3"));
        REQUIRE(rx.ok);
        CHECK_FALSE(rx.terms.kv_dtype_runs);
        CHECK(rx.verdict == Verdict::fail);
        CHECK(has(rx.reason, "(gfx1100)"));
        CHECK(has(rx.reason, "supports_fp8"));
    }

    TEST_CASE("a format without a ROCm source says 'not known' instead of passing silently") {
        const Report r = predict(small_llama("mi300x", "fp8_e5m2"));
        REQUIRE(r.ok);
        CHECK(r.terms.kv_dtype_runs);  // assumed, and said
        CHECK_FALSE(r.terms.kv_dtype_support_known);
        CHECK(any_note(r, "not known whether kv_cache_dtype fp8_e5m2 runs on AMD Instinct MI300X (gfx942)"));
        // 16-bit needs nothing: known to run, no note.
        const Report bf = predict(small_llama("rx-7900-xtx", "bf16"));
        REQUIRE(bf.ok);
        CHECK(bf.terms.kv_dtype_support_known);
        CHECK_FALSE(any_note(bf, "not known"));
    }

    TEST_CASE("shopping rows on AMD cards follow the same rule") {
        std::vector<GpuSpec> gpus;
        for (const char* id : {"mi300x", "rx-7900-xtx", "b200"}) gpus.push_back(*find_gpu(id));
        const std::vector<ShopRow> rows = shopping(small_llama("b200", "nvfp4"), gpus, {1});
        REQUIRE(rows.size() == 3);
        const auto row = [&](const char* id) -> const ShopRow& {  // rows come in buy order, not list order
            for (const ShopRow& r : rows)
                if (r.gpu_id == id) return r;
            FAIL("no row " << id);
            return rows.front();
        };
        CHECK_FALSE(row("mi300x").runs);
        CHECK(row("mi300x").verdict == Verdict::fail);
        CHECK(has(row("mi300x").note, "NVIDIA-only"));
        CHECK_FALSE(row("rx-7900-xtx").runs);
        CHECK(row("b200").runs);  // B200 is sm_100: nvfp4's home
        CHECK(rows.front().gpu_id == "b200");  // the one that runs comes first
    }

    // The format checked is the one the engine stores and its command names (the stand-in of engine_kv_spelling).
    TEST_CASE("vLLM q4_0 on an RTX 4090 runs as its stand-in nvfp4, which needs sm_100: FAIL") {
        const Report r = predict(small_llama("rtx-4090", "q4_0"));
        REQUIRE(r.ok);
        CHECK(has(r.command, "--kv-cache-dtype nvfp4"));
        CHECK_FALSE(r.terms.kv_dtype_runs);
        CHECK(r.verdict == Verdict::fail);
        CHECK(has(r.reason, "kv_cache_dtype q4_0 (vLLM stores its stand-in nvfp4) does not run on"));
        CHECK_FALSE(solve_max_model_len(small_llama("rtx-4090", "q4_0")).ok);
        // On a B200 (sm_100) the same stand-in runs.
        const Report b = predict(small_llama("b200", "q4_0"));
        REQUIRE(b.ok);
        CHECK(b.terms.kv_dtype_runs);
    }

    TEST_CASE("vLLM q5_0 runs as fp8 (= fp8_e4m3 on CUDA), which the T4 (sm_75) lacks") {
        const Report r = predict(small_llama("t4", "q5_0"));
        REQUIRE(r.ok);
        CHECK(has(r.command, "--kv-cache-dtype fp8"));
        CHECK_FALSE(r.terms.kv_dtype_runs);
    }

    TEST_CASE("llama.cpp nvfp4 on an RTX 4090 runs: its command stores q4_0, which needs nothing") {
        const Report r = predict(small_llama("rtx-4090", "nvfp4", "llama.cpp"));
        REQUIRE(r.ok);
        CHECK(has(r.command, "-ctk q4_0"));
        CHECK(r.terms.kv_dtype_runs);
        CHECK(r.verdict != Verdict::fail);
        // and fp8_e4m3 on sm_86 under llama.cpp is stored as q8_0: runs too
        const Report e4 = predict(small_llama("rtx-3090", "fp8_e4m3", "llama.cpp"));
        REQUIRE(e4.ok);
        CHECK(e4.terms.kv_dtype_runs);
    }

    TEST_CASE("SGLang nvfp4 on an RTX 4090 is stored as fp8_e5m2: runs") {
        const Report r = predict(small_llama("rtx-4090", "nvfp4", "sglang"));
        REQUIRE(r.ok);
        CHECK(has(r.command, "--kv-cache-dtype fp8_e5m2"));
        CHECK(r.terms.kv_dtype_runs);
    }

    TEST_CASE("every engine's stand-in is a format of the table") {
        for (const auto& e : engines())
            for (const KvFormat& f : kv_formats()) {
                INFO(e.name, " ", f.name);
                const KvFormat& run = engine_run_format(e.id, f);
                const EngineKvSpelling sp = engine_kv_spelling(e.id, f.id);
                CHECK((&run == &f) == sp.exact);
            }
    }
}

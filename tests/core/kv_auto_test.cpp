// kv_cache_dtype "auto", every engine's default: the cache takes the dtype the engine runs the model in.
// Expected values come from the engines' source (cited beside each engine's rule, core/src/engines/<engine>/kv_dtype.cpp, reached through the engines table's resolve_auto_kv) applied by hand to
// real config.json files (tests/data/configs/, sources in SOURCES.tsv) and to catalog cards' compute capability
// (RTX 4090 sm_89, Tesla T4 sm_75).
#include <doctest/doctest.h>

#include <fstream>
#include <sstream>
#include <string>

#include "test_data.h"
#include "kvcalc/base/kv_format.h"
#include "kvcalc/deployment/predict.h"
#include "kvcalc/io/url_codec.h"
#include "kvcalc/base/gpu_catalog.h"
#include "kvcalc/deployment/sweeps.h"

using namespace kvcalc;

namespace {

AutoKvResolution resolve_auto(EngineId e, const char* torch_dtype, const char* model_type, int sm) {
    return engine_info(e).resolve_auto_kv(torch_dtype, model_type, sm, {});
}

std::string auto_name(EngineId e, const char* torch_dtype, const char* model_type, int sm) {
    const AutoKvResolution a = resolve_auto(e, torch_dtype, model_type, sm);
    return a.format ? a.format->name : "none";
}

Report auto_report(const char* config, const char* engine, const char* gpu, std::int64_t len) {
    Scenario s;
    s.config_json = kvcalc::test::config_file(config);
    s.engine = engine;
    s.gpu = gpu;
    s.kv_cache_dtype = "auto";
    s.max_model_len = len;
    s.max_num_seqs = 1;
    s.gpu_memory_utilization = 0.9;
    return predict(s);
}

bool has_code(const Report& r, const char* code) {
    for (const auto& d : r.diagnostics)
        if (d.code == code) return true;
    return false;
}

bool contains(const std::string& hay, const std::string& needle) { return hay.find(needle) != std::string::npos; }

Scenario llama8b(const char* kv, std::int64_t ctx) {
    Scenario s;
    s.model_id = "llama-3.1-8b";
    s.kv_cache_dtype = kv;
    s.max_model_len = ctx;
    s.max_num_seqs = 4;
    return s;
}

const ShopRow& row_of(const std::vector<ShopRow>& rows, const char* gpu, int cards) {
    for (const ShopRow& r : rows)
        if (r.gpu_id == gpu && r.cards == cards) return r;
    FAIL("no row " << gpu << " x " << cards);
    return rows.front();
}

}  // namespace

TEST_SUITE("kv_cache_dtype auto") {
    TEST_CASE("auto is a kv_cache_dtype value, not a size") {
        CHECK(kv_format_names().front() == "auto");
        CHECK(find_kv_format("auto") == nullptr);
        CHECK(is_auto_kv_cache_dtype("auto"));
        CHECK_FALSE(is_auto_kv_cache_dtype("Auto"));
        CHECK(kv_format_name_list().rfind("auto, fp16, bf16", 0) == 0);
    }

    TEST_CASE("vLLM: model dtype from the card's supported dtypes (vllm/platforms/cuda.py, config/model.py)") {
        // bf16 checkpoint: bf16 from sm_80, fp16 below (no bfloat16 on Turing).
        CHECK(auto_name(EngineId::vllm, "bfloat16", "llama", 89) == "bf16");
        CHECK(auto_name(EngineId::vllm, "bfloat16", "llama", 75) == "fp16");
        CHECK(resolve_auto(EngineId::vllm, "bfloat16", "llama", 75).note.find("float16") !=
              std::string::npos);
        // fp16 checkpoint stays fp16 everywhere.
        CHECK(auto_name(EngineId::vllm, "float16", "mistral", 89) == "fp16");
        CHECK(auto_name(EngineId::vllm, "float16", "mistral", 75) == "fp16");
        // fp32 (or unstated) checkpoint: the platform's first dtype.
        CHECK(auto_name(EngineId::vllm, "float32", "exaone", 89) == "bf16");
        CHECK(auto_name(EngineId::vllm, "float32", "exaone", 75) == "fp16");
        CHECK(auto_name(EngineId::vllm, "", "llama", 90) == "bf16");
        // Gemma 2 refuses float16 (_FLOAT16_NOT_SUPPORTED_MODELS): on a T4 only float32 is left.
        CHECK(auto_name(EngineId::vllm, "float32", "gemma2", 89) == "bf16");
        const AutoKvResolution g = resolve_auto(EngineId::vllm, "float32", "gemma2", 75);
        CHECK(g.format == nullptr);
        CHECK(g.model_dtype == "float32");
        CHECK(g.error.find("float32") != std::string::npos);
        // An unknown card (VRAM typed in) is taken as bf16-capable.
        CHECK(auto_name(EngineId::vllm, "bfloat16", "llama", 0) == "bf16");
    }

    TEST_CASE("SGLang: model dtype, float32 downcast to float16 (Gemma: bfloat16); llama.cpp: always f16") {
        CHECK(auto_name(EngineId::sglang, "bfloat16", "qwen3", 89) == "bf16");
        CHECK(auto_name(EngineId::sglang, "float16", "llama", 89) == "fp16");
        CHECK(auto_name(EngineId::sglang, "float32", "exaone", 89) == "fp16");
        CHECK(auto_name(EngineId::sglang, "float32", "gemma2", 89) == "bf16");
        CHECK(auto_name(EngineId::llama_cpp, "bfloat16", "llama", 89) == "fp16");
        CHECK(auto_name(EngineId::llama_cpp, "float32", "gemma2", 75) == "fp16");
    }

    TEST_CASE("a float16 config.json on vLLM: 2-byte cache, shown as auto (fp16), command keeps auto") {
        // llava-1.5-7b-hf: torch_dtype float16, Llama text model of 32 layers × 32 KV heads × head_dim 128:
        // K + V = 32 × 32 × 128 × 2 × 2 B = 524,288 B per token (vLLM FullAttentionSpec page / block_size).
        const Report r = auto_report("llava-1.5-7b-hf.json", "vllm", "rtx-4090", 4096);
        REQUIRE(r.ok);
        CHECK(r.settings.kv_cache_dtype == "auto (fp16)");
        CHECK(r.terms.kv_bytes_per_token == doctest::Approx(524288.0));
        CHECK(r.command.find("--kv-cache-dtype auto") != std::string::npos);
        CHECK(r.command.rfind("# kvcalc:", 0) != 0);  // no stand-in warning
    }

    TEST_CASE("a float32 config.json: vLLM runs bf16 on a 4090 and fp16 on a T4 (2 bytes either way)") {
        // exaone-3.5-7.8b: torch_dtype float32, 32 layers × 8 KV heads × 128: 32 × 8 × 256 × 2 = 131,072 B/token.
        const Report ada = auto_report("exaone-3.5-7.8b.json", "vllm", "rtx-4090", 4096);
        REQUIRE(ada.ok);
        CHECK(ada.settings.kv_cache_dtype == "auto (bf16)");
        CHECK(ada.terms.kv_bytes_per_token == doctest::Approx(131072.0));
        CHECK(has_code(ada, "kv_auto_dtype"));  // "config dtype float32: vLLM runs the model in bfloat16"
        const Report turing = auto_report("exaone-3.5-7.8b.json", "vllm", "t4", 4096);
        REQUIRE(turing.ok);
        CHECK(turing.settings.kv_cache_dtype == "auto (fp16)");
        CHECK(turing.terms.kv_bytes_per_token == doctest::Approx(131072.0));
    }

    TEST_CASE("Gemma 2 on a T4 under vLLM would run in float32: an error naming why, not a wrong price") {
        const Report r = auto_report("gemma-2-9b.json", "vllm", "t4", 4096);
        CHECK_FALSE(r.ok);
        CHECK(has_code(r, "kv_auto_float32"));
        // The same model on SGLang runs bf16 (no capability check there), and on a 4090 vLLM runs bf16.
        CHECK(auto_report("gemma-2-9b.json", "vllm", "rtx-4090", 4096).settings.kv_cache_dtype == "auto (bf16)");
    }

    TEST_CASE("llama.cpp auto is its f16 default, written out; SGLang keeps --kv-cache-dtype auto") {
        const Report l = auto_report("llava-1.5-7b-hf.json", "llama.cpp", "rtx-4090", 4096);
        REQUIRE(l.ok);
        CHECK(l.settings.kv_cache_dtype == "auto (fp16)");
        CHECK(l.command.find("-ctk f16 -ctv f16") != std::string::npos);
        const Report g = auto_report("llava-1.5-7b-hf.json", "sglang", "rtx-4090", 4096);
        REQUIRE(g.ok);
        CHECK(g.command.find("--kv-cache-dtype auto") != std::string::npos);
        CHECK(g.command.rfind("# kvcalc:", 0) != 0);
    }

    TEST_CASE("auto travels in a link as auto and resolves per card") {
        Scenario s;
        s.kv_cache_dtype = "auto";
        s.gpu = "rtx-4090";
        s.max_model_len = 32768;
        Diagnostics d;
        const Scenario back = decode_query(encode_query(s), d);
        CHECK_FALSE(has_error(d));
        CHECK(back.kv_cache_dtype == "auto");
        const Report r = predict(back);
        REQUIRE(r.ok);
        CHECK(r.settings.kv_cache_dtype == "auto (bf16)");  // the catalog's Qwen 3.6 27B is a bf16 checkpoint
    }
}

TEST_SUITE("kv_cache_dtype auto") {
    TEST_CASE("kv_cache_dtype auto is resolved per card: bf16 on sm_80+, fp16 below, Gemma 3 refused below sm_80") {
        // vLLM runs a bfloat16 model in float16 on cards without bfloat16 (compute capability < 8.0: T4 sm_75,
        // V100 sm_70), and refuses float16 for gemma3 (vllm/config/model.py _get_and_verify_dtype): the list's
        // first card no longer decides every row.
        const std::vector<GpuSpec> cards{*find_gpu("t4"), *find_gpu("a100-80gb"), *find_gpu("v100-32gb"),
                                         *find_gpu("rtx-4090")};
        const std::vector<ShopRow> llama = shopping(llama8b("auto", 8192), cards, {1});
        CHECK(row_of(llama, "t4", 1).kv_cache_dtype == "fp16");
        CHECK(row_of(llama, "v100-32gb", 1).kv_cache_dtype == "fp16");
        CHECK(row_of(llama, "a100-80gb", 1).kv_cache_dtype == "bf16");
        CHECK(row_of(llama, "rtx-4090", 1).kv_cache_dtype == "bf16");
        Scenario gemma = llama8b("auto", 8192);
        gemma.model_id = "gemma-3-12b";
        const std::vector<ShopRow> g = shopping(gemma, cards, {1});
        CHECK_FALSE(row_of(g, "t4", 1).valid);
        CHECK(contains(row_of(g, "t4", 1).note, "float32"));
        CHECK(row_of(g, "a100-80gb", 1).valid);
        CHECK(row_of(g, "a100-80gb", 1).kv_cache_dtype == "bf16");
        // Each row is still predict() of that scenario on that card.
        for (const char* id : {"t4", "a100-80gb"}) {
            Scenario s = llama8b("auto", 8192);
            s.gpu = id;
            const Report r = predict(s);
            REQUIRE(r.ok);
            CHECK(r.verdict == row_of(llama, id, 1).verdict);
            CHECK(r.settings.kv_cache_dtype == std::string("auto (") + row_of(llama, id, 1).kv_cache_dtype + ")");
        }
    }
}

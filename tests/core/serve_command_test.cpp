// The start command in each engine's own spelling: every kv_cache_dtype kvcalc prices maps to a value the engine
// accepts, and a format the engine lacks is said so in a warning line.
#include <doctest/doctest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "kvcalc/base/kv_format.h"
#include "kvcalc/catalog/catalog.h"
#include "kvcalc/deployment/predict.h"

using namespace kvcalc;

namespace {

// vllm/config/cache.py CacheDType at vllm-project/vllm@002f10e0cfa1373a19a0d2756598a34b700d20e5.
const std::vector<std::string> kVllmCacheDtypes = {
    "auto", "float16", "bfloat16", "fp8", "fp8_e4m3", "fp8_e5m2", "fp8_inc", "fp8_ds_mla", "nvfp4_ds_mla",
    "turboquant_k8v4", "turboquant_4bit_nc", "turboquant_k3v4_nc", "turboquant_3bit_nc", "int4_per_token_head",
    "int8_per_token_head", "fp8_per_token_head", "nvfp4", "nvfp4_4over6"};
// llama.cpp common/arg.cpp kv_cache_types (-ctk / -ctv).
const std::vector<std::string> kGgmlCacheTypes = {"f32", "f16", "bf16", "q8_0", "q4_0", "q4_1", "iq4_nl", "q5_0", "q5_1"};
// SGLang server_args.py --kv-cache-dtype choices (fp8 pools and bf16).
const std::vector<std::string> kSglangDtypes = {"auto", "fp8_e5m2", "fp8_e4m3", "bf16", "bfloat16"};

bool in(const std::vector<std::string>& list, const std::string& x) {
    return std::find(list.begin(), list.end(), x) != list.end();
}

bool contains(const std::string& hay, const std::string& needle) { return hay.find(needle) != std::string::npos; }

}  // namespace

TEST_SUITE("serve command") {
    TEST_CASE("every KV format is spelled with a value each engine accepts") {
        for (const KvFormat& f : kv_formats()) {
            INFO(f.name);
            CHECK(in(kVllmCacheDtypes, engine_kv_spelling(EngineId::vllm, f.id).k));
            const EngineKvSpelling l = engine_kv_spelling(EngineId::llama_cpp, f.id);
            CHECK(in(kGgmlCacheTypes, l.k));
            CHECK(in(kGgmlCacheTypes, l.v));
            CHECK(in(kSglangDtypes, engine_kv_spelling(EngineId::sglang, f.id).k));
        }
        // Formats that are the engine's own are exact: no stand-in.
        CHECK(engine_kv_spelling(EngineId::vllm, KvFormatId::bf16).k == "bfloat16");
        CHECK(engine_kv_spelling(EngineId::vllm, KvFormatId::fp16).k == "float16");
        CHECK(engine_kv_spelling(EngineId::vllm, KvFormatId::k8v4).k == "turboquant_k8v4");
        CHECK(engine_kv_spelling(EngineId::llama_cpp, KvFormatId::k8v4).v == "q4_0");
        CHECK_FALSE(engine_kv_spelling(EngineId::vllm, KvFormatId::q4_0).exact);
    }

    TEST_CASE("the command of every format and engine uses those spellings, with a warning for stand-ins") {
        for (const char* engine : {"vllm", "llama.cpp", "sglang"}) {
            for (const KvFormat& f : kv_formats()) {
                Scenario s;
                s.engine = engine;
                s.kv_cache_dtype = f.name;
                s.max_model_len = 32768;
                s.gpu = "h100-80gb";
                const Report r = predict(s);
                INFO(engine, " ", f.name);
                REQUIRE(r.ok);
                const EngineId id = find_engine(engine)->id;
                const EngineKvSpelling sp = engine_kv_spelling(id, f.id);
                const std::string flag = id == EngineId::llama_cpp ? "-ctk " + sp.k + " -ctv " + sp.v
                                                                  : "--kv-cache-dtype " + sp.k;
                CHECK(r.command.find(flag) != std::string::npos);
                const bool warned = r.command.rfind("# kvcalc:", 0) == 0;
                CHECK(warned == !sp.exact);
                const bool has_length = r.command.find("--max-model-len 32768") != std::string::npos ||
                                        r.command.find("--context-length 32768") != std::string::npos ||
                                        r.command.find("-c 32768") != std::string::npos;
                CHECK(has_length);
            }
        }
    }
}

TEST_SUITE("serve command") {
    TEST_CASE("a config.json model's command serves its Hub id, or a placeholder folder, never config.json") {
        // A Llama 3.1 8B-shaped config.json whose _name_or_path is `name`.
        const auto config = [](const std::string& name) {
            return R"({"_name_or_path": ")" + name + R"(", "architectures": ["LlamaForCausalLM"],
            "model_type": "llama", "hidden_size": 4096, "intermediate_size": 14336, "num_hidden_layers": 32,
            "num_attention_heads": 32, "num_key_value_heads": 8, "vocab_size": 128256,
            "max_position_embeddings": 131072, "torch_dtype": "bfloat16"})";
        };
        Scenario s;
        s.gpu = "a100-80gb";
        s.max_model_len = 4096;
        // transformers writes _name_or_path on save_pretrained; THUDM/chatglm3-6b's config.json names itself.
        s.config_json = config("THUDM/chatglm3-6b");
        Report r = predict(s);
        REQUIRE(r.ok);
        CHECK(contains(r.command, "vllm serve THUDM/chatglm3-6b \\\n"));
        s.weights_gb = 16.1;  // the override prices it; the command still names the repo
        r = predict(s);
        REQUIRE(r.ok);
        CHECK(contains(r.command, "vllm serve THUDM/chatglm3-6b \\\n"));
        s.weights_gb.reset();
        // Local folders as real config.json files name them (tests/data/configs/mistral-7b-instruct.json,
        // bge-large.json), none, and strings huggingface_hub's validate_repo_id refuses.
        for (const char* local : {"./workspace/Mistral-7B-Instruct-v0.2-dequantized",
                                  "/root/.cache/torch/sentence_transformers/BAAI_bge-large-en/", "", "a/../b",
                                  "owner/name/extra", "-owner/name", "owner--x/name"}) {
            INFO(local);
            Scenario c = s;
            c.config_json = config(local);
            r = predict(c);
            REQUIRE(r.ok);
            CHECK(contains(r.command, "vllm serve <path-to-model-dir> \\\n"));
            CHECK(contains(r.command, "# <path-to-model-dir>: the folder with this config.json and the weights"));
            CHECK_FALSE(contains(r.command, "serve config.json"));
        }
        s.engine = "sglang";
        r = predict(s);
        REQUIRE(r.ok);
        CHECK(contains(r.command, "--model-path THUDM/chatglm3-6b \\\n"));
        CHECK(predict([] { Scenario c; c.model_id = "llama-3.1-8b"; return c; }()).command.find("<path-to") ==
              std::string::npos);
    }
}

#include <doctest/doctest.h>

#include "kvcalc/io/api.h"
#include "kvcalc/io/json_io.h"
#include "kvcalc/catalog/catalog.h"
#include "kvcalc/deployment/predict.h"

using namespace kvcalc;
using nlohmann::json;

namespace {

// Llama 3.1 8B config facts, as in tests/data/real_cases/vllm-h100-llama31-8b-16k.json.
const char* kLlama8bConfig = R"({"architectures":["LlamaForCausalLM"],"model_type":"llama","num_hidden_layers":32,
"hidden_size":4096,"num_attention_heads":32,"num_key_value_heads":8,"head_dim":128,"intermediate_size":14336,
"vocab_size":128256,"tie_word_embeddings":false,"max_position_embeddings":131072,"torch_dtype":"bfloat16"})";
}  // namespace

TEST_SUITE("json") {
    TEST_CASE("evaluate_json: request in, report out") {
        const json r = json::parse(evaluate_json(
            R"({"schema":1,"compose":"qwen3.6-27b:dual-turbo","vram_gb":20,"gpu_memory_utilization":0.82})"));
        CHECK(r["schema"] == 1);
        CHECK(r["ok"] == true);
        CHECK(r["verdict"] == "TIGHT");
        CHECK(r["terms"]["weights_bytes"] == 8750000000LL);
        CHECK(r["terms"]["cudagraph_workspace_bytes"] == 1620000000LL);
        CHECK(r["settings"]["kv_cache_dtype"] == "turboquant_3bit_nc");
        CHECK(r["buckets"].size() == 2);
        CHECK(r["diagnostics"].is_array());
    }
    TEST_CASE("malformed requests never throw") {
        for (const char* bad : {"", "nope", "[1,2]", "{\"schema\":2}", "{\"max_model_len\":\"long\"}",
                                "{\"tensor_parallel_size\":3}", "{\"model\":{\"layers\":[{\"kind\":\"warp\"}]}}",
                                "{\"compose\":\"missing\"}", "{\"action\":7}", "{\"action\":\"dance\"}",
                                "{\"gpu_memory_utilization\":1e999}", "{\"max_model_len\":1e300}",
                                "{\"solve\":[\"max_model_len\",\"nonsense\"]}"}) {
            json r;
            CHECK_NOTHROW(r = json::parse(evaluate_json(bad)));
            CHECK_MESSAGE(r["ok"] == false, bad);
            CHECK_MESSAGE(!r["diagnostics"].empty(), bad);
            CHECK(r["schema"] == 1);
        }
    }
    TEST_CASE("unknown keys are warnings") {
        const json r = json::parse(evaluate_json(R"({"colour":"red"})"));
        CHECK(r["ok"] == true);
        CHECK(r["diagnostics"][0]["code"] == "unknown_key");
    }
    TEST_CASE("Scenario round-trips") {
        Scenario s = find_preset("gemma-4-31b:vllm/gemma-int8-mtp")->scenario;
        s.gpu = "rtx-3090";
        s.max_num_batched_tokens = 4096;
        s.drafter_gb = 1.0;
        const json j = s;
        Scenario back;
        Diagnostics d;
        read_scenario(j, back, d);
        CHECK(d.empty());
        CHECK(json(back) == j);
        Scenario thrown;
        CHECK_THROWS_AS(from_json(json{{"max_model_len", "x"}}, thrown), std::invalid_argument);
    }
    TEST_CASE("inline model: a dense model described in JSON") {
        // 32 layers × 8 KV heads × (128 + 128) × 1 B (fp8) = 65,536 B/token.
        const json r = json::parse(evaluate_json(R"({
            "model": {"id": "dense-8b", "family": "generic-dense", "hidden_size": 4096, "num_attention_heads": 32,
                      "max_position_embeddings": 131072, "weights": [{"id": "bf16", "size_gb": 16.0}],
                      "layers": [{"kind": "full_attention", "num_key_value_heads": 8, "head_dim": 128, "count": 32}]},
            "kv_cache_dtype": "fp8_e5m2", "max_model_len": 32768, "gpu": "rtx-4090"})"));
        REQUIRE(r["ok"] == true);
        CHECK(r["terms"]["kv_bytes_per_token"] == 65536.0);
        CHECK(r["terms"]["kv_one_sequence_bytes"] == 65536LL * 32768);
        CHECK(r["terms"]["weights_bytes"] == 16000000000LL);
    }
    TEST_CASE("solvers, catalog and calibration actions") {
        const json s = json::parse(evaluate_json(R"({"action":"solve","model_id":"gemma-4-31b","tensor_parallel_size":2,
            "kv_cache_dtype":"int8_per_token_head","gpu":"rtx-3090","gpu_memory_utilization":0.92,"max_model_len":262144})"));
        // TP1: 18 GB of weights leave no room for one 262,144-token sequence of 82,739 B/token; TP2 boots.
        REQUIRE(s["ok"] == true);
        CHECK(s["solvers"]["max_model_len"]["ok"] == true);
        CHECK(s["solvers"]["min_gpus"]["value"] == 2);
        const json c = json::parse(evaluate_json(R"({"action":"catalog"})"));
        CHECK(c["models"].size() >= 7);
        CHECK(c["gpus"].size() >= 40);
        CHECK(c["kv_formats"].size() == 14);
        CHECK(c["presets"].size() == compose_presets().size());
        const json k = json::parse(evaluate_json(R"({"action":"calibration"})"));
        CHECK(k["correct"] == k["total"]);
    }
}

TEST_SUITE("json") {
    TEST_CASE("JSON: config_json string, config object, engine and the new Report keys") {
        nlohmann::json req = {{"config", nlohmann::json::parse(kLlama8bConfig)}, {"gpu", "h100-80gb"},
                              {"gpu_memory_utilization", 0.9}, {"max_model_len", 16000}, {"kv_cache_dtype", "bf16"}};
        Scenario s;
        Diagnostics d;
        read_scenario(req, s, d);
        CHECK(d.empty());
        CHECK_FALSE(s.config_json.empty());
        const nlohmann::json out = predict(s);
        CHECK(out["engine"] == "vllm");
        CHECK(out["calibrated"] == false);
        CHECK(out["startup"]["kv_bytes_per_token"] == 131072);
        CHECK(out["model_facts"].size() > 5);
        Scenario t;
        read_scenario(nlohmann::json{{"config_json", kLlama8bConfig}, {"engine", "sglang"}}, t, d);
        CHECK(t.engine == "sglang");
        CHECK(t.config_json == kLlama8bConfig);
        read_scenario(nlohmann::json{{"config", 7}}, t, d);
        CHECK(d.back().field == "config");
    }
}

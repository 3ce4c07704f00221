// ModelSpec → JSON → ModelSpec keeps every fact that prices a model: the inline copy of each catalog model
// predicts exactly what the catalog entry predicts (the {"action":"catalog"} entry posted back as "model").
#include <doctest/doctest.h>

#include <fstream>
#include <sstream>
#include <string>

#include "kvcalc/catalog/catalog.h"
#include "kvcalc/io/json_io.h"
#include "kvcalc/deployment/predict.h"

using namespace kvcalc;
using nlohmann::json;

TEST_SUITE("model json") {
    TEST_CASE("every catalog model round-trips through JSON and gives an identical report") {
        int models = 0;
        for (const ModelSpec& m : model_catalog()) {
            INFO(m.id);
            const json j = m;
            ModelSpec back;
            Diagnostics d;
            read_model(j, back, d, "model");
            CHECK_FALSE(has_error(d));
            CHECK(d.empty());  // every key written is a key read
            CHECK(json(back) == j);
            CHECK(back.layers == m.layers);
            CHECK(back.parallel_caches == m.parallel_caches);
            CHECK(back.model_type == m.model_type);
            CHECK(back.num_kv_shared_layers == m.num_kv_shared_layers);
            CHECK(back.num_parameters == m.num_parameters);
            for (const char* engine : {"vllm", "llama.cpp", "sglang"}) {
                Scenario by_id;
                by_id.model_id = m.id;
                by_id.engine = engine;
                by_id.gpu = "h100-80gb";
                by_id.max_model_len = m.max_position_embeddings > 0 ? std::min<std::int64_t>(m.max_position_embeddings, 32768) : 32768;
                by_id.max_num_seqs = 2;
                Scenario inline_model = by_id;
                inline_model.model = back;
                const json a = predict(by_id), b = predict(inline_model);
                INFO(engine);
                CHECK(a == b);
            }
            ++models;
        }
        CHECK(models == static_cast<int>(model_catalog().size()));
    }

    TEST_CASE("DeepSeek V3.2's indexer survives the round trip and is in the verdict's KV term") {
        std::ifstream in(std::string(KVCALC_TEST_DATA_DIR) + "/configs/deepseek-v3.2.json");
        std::stringstream text;
        text << in.rdbuf();
        Scenario s;
        s.config_json = text.str();
        s.kv_cache_dtype = "fp8_e4m3";
        s.tensor_parallel_size = 8;
        s.gpu = "h200";
        s.max_model_len = 32768;
        Diagnostics d;
        const auto model = scenario_model(s, d);
        REQUIRE(model);
        const json j = *model;
        CHECK(j["layers"][0]["index_head_dim"] == 128);
        ModelSpec back;
        read_model(j, back, d, "model");
        CHECK(back.layers == model->layers);
        Scenario inline_model = s;
        inline_model.config_json.clear();
        inline_model.model = back;
        const Report r = predict(s);
        REQUIRE(r.ok);
        CHECK(json(predict(inline_model))["terms"] == json(r)["terms"]);
        // Per layer and token, on every rank: the fp8 latent with its scales and bf16 rope (512 + 4 × 4 + 64 × 2 =
        // 656 B) plus the indexer key (128 fp8 + one fp32 scale = 132 B); 61 layers (a DeepSeek-V3.2 TP8 start-up
        // log prints the same 48,068 B per token for SGLang's pool).
        CHECK(r.terms.kv_bytes_per_token == 61.0 * 788);
        CHECK(r.startup.kv_bytes_per_token == 61 * 788);
    }

    TEST_CASE("the facts that were dropped before are written: parallel caches, model_type") {
        const json falcon = *find_model("falcon-h1-7b");
        REQUIRE(falcon["parallel_caches"].is_array());
        CHECK_FALSE(falcon["parallel_caches"].empty());
        CHECK(falcon["parallel_caches"][0]["kind"] == "recurrent_state");
        CHECK(falcon["model_type"] == "falcon_h1");
    }
}

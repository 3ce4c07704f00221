#include <doctest/doctest.h>

#include <set>

#include "kvcalc/catalog/catalog.h"
#include "kvcalc/model/layer_cache.h"
#include "kvcalc/model/layer_kinds.h"

using namespace kvcalc;

namespace {
int count_kind(const ModelSpec& m, std::string_view kind) {
    int n = 0;
    for (const auto& c : m.layers) n += kind == layer_kind_json_name(c) ? 1 : 0;
    return n;
}
}  // namespace

TEST_SUITE("catalog") {
    TEST_CASE("seed models: the seven of docs/SOURCES.md \"Model facts\"") {
        for (const char* id : {"qwen3.6-27b", "qwen3.6-35b-a3b", "gemma-4-31b", "gemma-4-26b-a4b", "agents-a1",
                               "qwen-agentworld-35b-a3b", "gemma-4-12b"})
            CHECK_MESSAGE(find_model(id) != nullptr, id);
        CHECK(seed_models().size() == 7);
        CHECK(find_model("QWEN3.6-27B") != nullptr);
        CHECK(find_model("llama-9") == nullptr);
        for (const auto& m : seed_models()) {
            CHECK(m.layers.size() == static_cast<std::size_t>(m.num_hidden_layers));
            CHECK_FALSE(m.weights.empty());
            CHECK_FALSE(m.provenance.empty());
            CHECK_FALSE(m.source.empty());
        }
    }
    TEST_CASE("layer splits from docs/SOURCES.md \"Model facts\"") {
        CHECK(count_kind(*find_model("qwen3.6-27b"), "full_attention") == 16);
        CHECK(count_kind(*find_model("qwen3.6-27b"), "recurrent_state") == 48);
        CHECK(count_kind(*find_model("qwen3.6-35b-a3b"), "full_attention") == 10);
        CHECK(count_kind(*find_model("qwen3.6-35b-a3b"), "recurrent_state") == 30);
        CHECK(count_kind(*find_model("gemma-4-31b"), "full_attention") == 10);
        CHECK(count_kind(*find_model("gemma-4-31b"), "sliding_window") == 50);
        CHECK(count_kind(*find_model("gemma-4-26b-a4b"), "full_attention") == 5);
        CHECK(count_kind(*find_model("gemma-4-26b-a4b"), "sliding_window") == 25);
        // 35B-A3B full attention at 3, 7, …, 39; 26B-A4B global at 5, 11, 17, 23, 29.
        CHECK(std::holds_alternative<FullAttention>(find_model("qwen3.6-35b-a3b")->layers[3]));
        CHECK(std::holds_alternative<FullAttention>(find_model("qwen3.6-35b-a3b")->layers[39]));
        CHECK(std::holds_alternative<FullAttention>(find_model("gemma-4-26b-a4b")->layers[29]));
        CHECK(std::holds_alternative<SlidingWindow>(find_model("gemma-4-26b-a4b")->layers[28]));
    }
    TEST_CASE("weights: default first, sizes from the sources") {
        CHECK(find_model("qwen3.6-27b")->weights.front().size_gb == 17.5);
        CHECK(find_model("gemma-4-26b-a4b")->weights.front().id == "awq");
        CHECK(find_model("gemma-4-12b")->weights.front().id == "bf16");  // profile default (not docs/SOURCES.md quirk 12's int4)
        CHECK(find_model("qwen-agentworld-35b-a3b")->weights.front().size_gb == 23.52);
    }
    TEST_CASE("compose presets are namespaced by model and unique") {
        std::set<std::string> ids;
        for (const auto& p : compose_presets()) CHECK(ids.insert(p.id).second);
        const ComposePreset* p = find_preset("qwen3.6-27b:dual-turbo");
        REQUIRE(p != nullptr);
        CHECK(p->scenario.kv_cache_dtype == "turboquant_3bit_nc");
        CHECK(p->scenario.max_num_seqs == 4);
        CHECK(p->scenario.tensor_parallel_size == 2);
        CHECK(p->scenario.mtp == true);  // the preset turns MTP on, and kvcalc prices it
        CHECK(find_preset("dual-turbo") == p);
        CHECK(find_preset("gemma-4-31b:vllm/gemma-int8-mtp")->scenario.kv_cache_dtype == "int8_per_token_head");
        CHECK(find_preset("nope") == nullptr);
        for (const auto& x : compose_presets()) CHECK(find_model(x.model_id) != nullptr);
    }
}

// The layer kinds' fact sheet (kvcalc/model/layer_kinds.h) on real config.json files.
#include <doctest/doctest.h>

#include "kvcalc/config/hf_config.h"
#include "kvcalc/model/layer_kinds.h"
#include "test_data.h"

TEST_SUITE("layer kinds") {
    TEST_CASE("every JSON name reads back as its own kind, and an unknown name reads as none") {
        const std::string names = kvcalc::layer_kind_json_names();
        CHECK(names == "full_attention, sliding_window, chunked_local_attention, mla_latent, recurrent_state, none");
        for (const char* n : {"full_attention", "sliding_window", "chunked_local_attention", "mla_latent",
                              "recurrent_state", "none"}) {
            const auto c = kvcalc::layer_of_json_name(n);
            REQUIRE(c);
            CHECK(std::string(kvcalc::layer_kind_json_name(*c)) == n);
        }
        CHECK_FALSE(kvcalc::layer_of_json_name("sliding"));
    }

    TEST_CASE("Llama 4 Scout: the model panel counts its 36 chunked and 12 full attention layers") {
        // llama-4-scout-17b-16e-instruct.json: 48 layers, attention_chunk_size 8192, every 4th layer global
        // (Llama4TextConfig no_rope_layers default: layers 3, 7, ... keep full attention without RoPE).
        const auto c = kvcalc::read_hf_config(kvcalc::test::config_file("llama-4-scout-17b-16e-instruct.json"));
        const auto counts = kvcalc::layer_kind_counts(c.spec.layers);
        REQUIRE(counts.size() == 2);
        CHECK(std::string(counts[0].label) == "full attention");
        CHECK(counts[0].count == 12);
        CHECK(std::string(counts[1].label) == "chunked local attention");
        CHECK(counts[1].count == 36);
        // Chunked layers hold q/k/v/o weights and 8 KV heads that TP splits, with a window of one chunk.
        const kvcalc::LayerCache& chunked = c.spec.layers.front();
        CHECK(kvcalc::layer_mixer_weights(chunked) == kvcalc::MixerWeights::gqa_attention);
        CHECK(kvcalc::layer_tp_heads(chunked).kv_heads == 8);
        CHECK(kvcalc::layer_window_tokens(chunked) == 8192);
        CHECK(kvcalc::layer_cache_growth(chunked) == kvcalc::CacheGrowth::windowed);
    }
}

// input_limits.h: the bounds a model, a request and the config.json reader keep, so hostile numbers give an error
// naming the field instead of an out-of-bounds read, a division by zero or an overflow. Each input is the smallest
// that showed the fault; each expected value is worked out by hand in the comment next to it.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "kvcalc/io/api.h"
#include "kvcalc/catalog/catalog.h"
#include "kvcalc/base/checked_math.h"
#include "kvcalc/engines/engine_rules.h"
#include "kvcalc/deployment/input_limits.h"
#include "kvcalc/io/json_io.h"
#include "kvcalc/io/json_results.h"
#include "kvcalc/deployment/predict.h"
#include "kvcalc/deployment/solver.h"
#include "kvcalc/io/url_codec.h"

using namespace kvcalc;
using nlohmann::json;

namespace {

json eval(const std::string& request) { return json::parse(evaluate_json(request)); }

/// The first error diagnostic of a report document, or an empty object.
json first_error(const json& report) {
    for (const auto& d : report["diagnostics"])
        if (d["severity"] == "error") return d;
    return json::object();
}

bool has_error(const Report& r, const std::string& field, const std::string& code = "") {
    for (const auto& d : r.diagnostics)
        if (d.severity == Severity::error && d.field == field && (code.empty() || d.code == code)) return true;
    return false;
}

int count_code(const Diagnostics& d, const std::string& code) {
    int n = 0;
    for (const auto& x : d) n += x.code == code ? 1 : 0;
    return n;
}

Scenario from_json_text(const std::string& text) {
    Scenario s;
    Diagnostics d;
    read_scenario(json::parse(text), s, d);
    REQUIRE_FALSE(kvcalc::has_error(d));
    return s;
}

// A Llama-shaped config small enough to price by hand.
std::string tiny_config(const std::string& extra) {
    return R"({"num_hidden_layers":2,"hidden_size":8,"num_attention_heads":1,"vocab_size":10,"intermediate_size":8,)"
           R"("max_position_embeddings":4096,"torch_dtype":"bfloat16")" +
           (extra.empty() ? "" : "," + extra) + "}";
}

}  // namespace

TEST_SUITE("input limits") {
    TEST_CASE("num_kv_shared_layers == num_hidden_layers is an error, not an out-of-bounds read") {
        const json r = eval(R"({"config":{"num_hidden_layers":1,"hidden_size":8,"num_attention_heads":1,)"
                            R"("num_kv_shared_layers":1,"vocab_size":10,"intermediate_size":8},"max_model_len":8})");
        CHECK(r["ok"] == false);
        CHECK(first_error(r)["field"] == "config_json.num_kv_shared_layers");
        // One shared layer of two is fine: the shared layer keeps nothing, so KV is one layer's:
        // 1 KV head × (8 + 8) dims × 2 B (bf16) = 32 B per token.
        Scenario s;
        s.config_json = tiny_config(R"("num_kv_shared_layers":1)");
        s.kv_cache_dtype = "bf16";
        s.max_model_len = 1024;
        const Report ok = predict(s);
        REQUIRE(ok.ok);
        CHECK(ok.terms.kv_bytes_per_token == doctest::Approx(32.0));
    }

    TEST_CASE("a 0-byte inline layer is an error naming it (no division by zero)") {
        const json mla = eval(R"({"model":{"layers":[{"kind":"mla_latent"}],"weights":[{"size_gb":1}]},"max_model_len":8})");
        CHECK(mla["ok"] == false);
        CHECK(first_error(mla)["field"] == "model.layers[0].kv_lora_rank");
        const json rec = eval(R"({"model":{"layers":[{"kind":"recurrent_state"}],"weights":[{"size_gb":1}]},"max_model_len":8})");
        CHECK(rec["ok"] == false);
        CHECK(first_error(rec)["field"] == "model.layers[0].state_elements");
        const json neg = eval(R"({"model":{"layers":[{"kind":"mla_latent","kv_lora_rank":-600,"qk_rope_head_dim":64}],)"
                              R"("weights":[{"size_gb":1}]},"max_model_len":8})");
        CHECK(first_error(neg)["field"] == "model.layers[0].kv_lora_rank");
    }

    TEST_CASE("vLLM's rules skip a layer that stores 0 bytes instead of dividing by its page") {
        ModelSpec m;
        m.id = "zero-plus-one";
        m.layers = {FullAttention{8, 128, 128, 0}, MlaLatent{0, 0, 0}};
        VllmSettings v;
        v.max_model_len = 4096;
        v.kv_cache_dtype = "bf16";
        const VllmKvPrediction p = predict_vllm_kv(m, v, {std::int64_t{1} << 30});
        REQUIRE_FALSE(kvcalc::has_error(p.diagnostics));
        // Only the attention layer: 8 heads × (128 + 128) × 2 B = 4096 B per token; 16-token pages of 65,536 B.
        CHECK(p.kv_bytes_per_token == 4096);
        CHECK(p.page_size_bytes == 65536);
        CHECK(p.num_blocks == (std::int64_t{1} << 30) / 65536);
    }


    TEST_CASE("inline model numbers are validated with the field, the value and the range") {
        const json w = eval(R"({"model":{"layers":[{"kind":"full_attention","num_key_value_heads":1,"head_dim":1}],)"
                            R"("weights":[{"size_gb":-5}]},"max_model_len":8})");
        CHECK(w["ok"] == false);
        CHECK(first_error(w)["field"] == "model.weights[0].size_gb");
        CHECK(first_error(w)["message"].get<std::string>().find("-5") != std::string::npos);
        const json dr = eval(R"({"model":{"layers":[{"kind":"full_attention","num_key_value_heads":1,"head_dim":1}],)"
                             R"("weights":[{"size_gb":1}],"drafters":[{"id":"x","weights_gb":-30}]},"max_model_len":8})");
        CHECK(first_error(dr)["field"] == "model.drafters[0].weights_gb");
        const json kv = eval(R"({"model":{"layers":[{"kind":"full_attention","num_key_value_heads":1,"head_dim":1}],)"
                             R"("weights":[{"size_gb":1}],"measured_kv_growing_bytes_per_token_tp1_bf16":-100000},"max_model_len":8})");
        CHECK(first_error(kv)["field"] == "model.measured_kv_growing_bytes_per_token_tp1_bf16");
        const json hd = eval(R"({"model":{"layers":[{"kind":"full_attention","num_key_value_heads":1,"head_dim":2147483647}],)"
                             R"("weights":[{"size_gb":1}]},"max_model_len":8})");
        CHECK(first_error(hd)["field"] == "model.layers[0].head_dim_k");
        CHECK(first_error(hd)["message"].get<std::string>().find("1..1000000") != std::string::npos);
    }


    TEST_CASE("a request past 2^60 bytes per card is an error naming max_model_len, not a negative PASS") {
        const std::string mha = R"({"config":{"num_hidden_layers":64,"hidden_size":5120,"num_attention_heads":40,)"
                                R"("vocab_size":152064,"intermediate_size":27648},"max_model_len":134217728,)"
                                R"("max_num_seqs":65536,"kv_cache_dtype":"bf16",)";
        for (const char* vram : {R"("vram_gb":80})", R"("vram_gb":1000000})"}) {
            const json r = eval(mha + vram);
            CHECK(r["ok"] == false);
            CHECK(first_error(r)["code"] == "too_large");
            CHECK(first_error(r)["field"] == "max_model_len");
            // 134,217,728 tokens × 65,536 sequences of full-attention KV: the growing KV is the term, in words
            CHECK(first_error(r)["message"].get<std::string>().find("mostly KV cache (growing)") != std::string::npos);
        }
        // The same model at a real length: 64 layers × 40 heads × 256 dims × 2 B = 1,310,720 B per token.
        const json fine = eval(R"({"config":{"num_hidden_layers":64,"hidden_size":5120,"num_attention_heads":40,)"
                               R"("vocab_size":152064,"intermediate_size":27648},"max_model_len":8192,"kv_cache_dtype":"bf16",)"
                               R"("vram_gb":80})");
        REQUIRE(fine["ok"] == true);
        CHECK(fine["terms"]["kv_one_sequence_bytes"] == 1310720LL * 8192);
    }

    TEST_CASE("the config.json reader's own limits no longer overflow int") {
        Scenario s;
        s.config_json = tiny_config(R"("layer_types":["mamba","full_attention"],"mamba_num_heads":100000,)"
                                    R"("mamba_head_dim":1000000,"ssm_state_size":16,"conv_kernel":4)");
        const Report r = predict(s);
        CHECK_FALSE(r.ok);
        CHECK(has_error(r, "config_json.mamba_head_dim", "out_of_range"));
    }


    TEST_CASE("layer runs and config_json are capped") {
        std::string runs;
        for (int i = 0; i < 2000; ++i) runs += std::string(i ? "," : "") + R"({"kind":"full_attention","num_key_value_heads":1,"head_dim":1,"count":4096})";
        const json r = eval(R"({"model":{"layers":[)" + runs + R"(],"weights":[{"size_gb":1}]},"max_model_len":8})");
        CHECK(r["ok"] == false);
        CHECK(first_error(r)["field"] == "model.layers[2].count");  // 4,096 × 3 = 12,288 > 10,000
        CHECK(r["diagnostics"].size() == 1);

        Scenario big;
        big.config_json = std::string(kMaxConfigJsonBytes + 1, ' ');
        CHECK(has_error(predict(big), "config_json", "too_large"));
        const json req = eval(std::string(kMaxRequestBytes + 1, ' '));
        CHECK(first_error(req)["code"] == "too_large");
    }


    TEST_CASE("unknown layer_types are errors, not layers that keep nothing") {
        Scenario s;
        s.config_json = tiny_config(R"("layer_types":["warp_attention","full_attention"])");
        const Report r = predict(s);
        CHECK_FALSE(r.ok);
        CHECK(has_error(r, "config_json.layer_types[0]", "unknown_layer_type"));
    }

    TEST_CASE("an inline model of 8,192 identical layers survives to_json → read_model") {
        const Scenario s = from_json_text(R"({"model":{"num_attention_heads":1,"layers":[{"kind":"full_attention",)"
                                          R"("num_key_value_heads":1,"head_dim":1,"count":8192}],"weights":[{"size_gb":1}]},"max_model_len":8})");
        json j = s;
        Scenario back;
        Diagnostics d;
        read_scenario(j, back, d);
        CHECK_FALSE(kvcalc::has_error(d));
        REQUIRE(back.model);
        CHECK(back.model->layers.size() == 8192);
    }


    TEST_CASE("weights_variant / weights_dtype are checked even with weights_gb") {
        Scenario v;
        v.model_id = "llama-3.1-8b";
        v.weights_gb = 10.0;
        v.weights_variant = "no-such-variant";
        CHECK(has_error(predict(v), "weights_variant", "weights_variant_unknown"));
        Scenario d;
        d.config_json = tiny_config("");
        d.weights_gb = 1.0;
        d.weights_dtype = "int3";
        CHECK(has_error(predict(d), "weights_dtype"));
        Scenario u;
        u.model_id = "no-such-model";
        u.weights_dtype = "int4";
        CHECK(has_error(predict(u), "model_id", "model_unknown"));
        // A link range the core would reject is rejected by the link too.
        Diagnostics w;
        CHECK(decode_query("cl=5000", w).compressed_layers == 0);
        CHECK(count_code(w, "url_bad_value") == 1);
    }

    TEST_CASE("--compressed-head-dim / --indexer-head-dim 0 mean the model's head dim (help text)") {
        Scenario s;
        s.model_id = "llama-3.1-8b";
        s.gpu = "h100-80gb";
        s.max_model_len = 8192;
        s.kv_cache_dtype = "fp8_e5m2";
        s.compressed_layers = 4;    // compression_ratio 128: 8192 / 128 = 64 entries
        s.indexer_ratio_layers = 2; // indexer_compress_ratio 4: 2048 entries, fp4 = 0.5 B
        const Report r = predict(s);
        REQUIRE(r.ok);
        CHECK(r.breakdown.compressed_kv_bytes == 4 * 64 * 128);   // head_dim 128 × 1 B
        CHECK(r.breakdown.indexer_bytes == 2 * 2048 * 128 / 2);  // 262,144
    }


}

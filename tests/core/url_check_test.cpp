// url_check.h (scenario_errors, url_link_problems) and the readers in front of it: each bad value reaches one clear
// diagnostic (field, value, what is valid), the same at every door (JSON, link, CLI), and what a link decodes to
// predicts without a surprise.
#include <doctest/doctest.h>

#include <cstdint>
#include <limits>
#include <string>

#include "kvcalc/io/api.h"
#include "kvcalc/catalog/catalog.h"
#include "kvcalc/deployment/input_limits.h"
#include "kvcalc/io/json_io.h"
#include "kvcalc/deployment/predict.h"
#include "kvcalc/io/url_check.h"
#include "kvcalc/io/url_codec.h"
#include "kvcalc/engines/vllm/accounting.h"

using namespace kvcalc;
using nlohmann::json;

namespace {

int count(const Diagnostics& d, const std::string& code, const std::string& field) {
    int n = 0;
    for (const auto& x : d) n += x.code == code && x.field == field;
    return n;
}

int count(const json& diagnostics, const std::string& code, const std::string& field) {
    int n = 0;
    for (const auto& x : diagnostics) n += x["code"] == code && x["field"] == field;
    return n;
}

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

/// The link's warnings after decoding: the codec's own plus what predict() rejects.
Diagnostics link_warnings(const char* query) {
    Diagnostics d;
    const Scenario s = decode_query(query, d);
    REQUIRE_FALSE(has_error(d));
    for (auto& x : url_link_problems(s)) d.push_back(std::move(x));
    return d;
}

Scenario scenario_of(const json& j) {
    Scenario s;
    Diagnostics d;
    read_scenario(j, s, d);
    REQUIRE_FALSE(has_error(d));
    return s;
}

json inline_llama() { return json(*find_model("llama-3.1-8b")); }

Diagnostics inline_errors(const json& model) {
    Scenario s;
    Diagnostics d;
    read_scenario(json{{"model", model}, {"gpu", "h100-80gb"}, {"max_model_len", 8192}}, s, d);
    if (has_error(d)) return d;
    return scenario_errors(s);
}

}  // namespace

TEST_SUITE("url_check") {
    // docs/URL.md: a link that decodes without a warning predicts without an error.
    TEST_CASE("links that predict() rejects decode with a warning naming the link key") {
        struct Case {
            const char* query;
            const char* field;
            const char* code;
        };
        const Case cases[] = {
            {"v=1&m=llama-3.1-8b&g=rtx-4090&vram=20&ctx=8192", "url.g", "vram_ambiguous"},
            {"v=1&m=llama-3.1-8b&g=rtx-4090&ctx=8192&tp=2&n=1", "url.n", "gpus_below_tp"},
            {"m=llama-3.1-8b&mtp=1", "url.mtp", "mtp_unavailable"},
            // Qwen 3.6 27B states max_position_embeddings 262,144; 2^27 is inside the field's range but not the model's.
            {"?v=1&m=qwen3.6-27b&ctx=134217728", "url.ctx", "max_model_len_too_long"},
        };
        for (const Case& c : cases) {
            INFO(c.query);
            const Diagnostics d = link_warnings(c.query);
            CHECK(count(d, c.code, c.field) == 1);
            for (const auto& x : d) CHECK(x.severity != Severity::error);
            const std::string key = std::string(c.field).substr(4);
            for (const auto& x : d)
                if (x.field == c.field) CHECK(has(x.message, "link key \"" + key + "\""));
        }
        Diagnostics wd = link_warnings("v=1&wd=int4");
        CHECK(count(wd, "weights_dtype_unsupported", "url.wd") == 1);
    }

    TEST_CASE("a link that predicts decodes without a warning") {
        // The CLI's `--compose dual-turbo --vram 20 --mem-util 0.82 --url` link (tests/node/url.test.mjs).
        CHECK(link_warnings("v=1&c=qwen3.6-27b%3Adual-turbo&vram=20&tp=2&kv=turboquant_3bit_nc&ctx=262144&seqs=4&"
                            "util=0.82&mtp=1&dr=qwen-mtp-builtin")
                  .empty());
    }

    TEST_CASE("encodeQuery's check: the errors evaluate gives, one per problem") {
        const Diagnostics d = scenario_errors(scenario_of(json::parse(
            R"({"schema":1,"tensor_parallel_size":99,"gpu":"nope","kv_cache_dtype":"zz","max_num_seqs":1e9,"gpu_memory_utilization":7})")));
        CHECK(count(d, "out_of_range", "tensor_parallel_size") == 1);
        CHECK(count(d, "gpu_unknown", "gpu") == 1);
        CHECK(count(d, "kv_format_unknown", "kv_cache_dtype") == 1);
        CHECK(count(d, "out_of_range", "max_num_seqs") == 1);
        CHECK(count(d, "out_of_range", "gpu_memory_utilization") == 1);
        // 0 is "not given" (the model's derived maximum), not an error.
        for (const std::int64_t len : {std::int64_t{-5}, std::int64_t{-1}, std::numeric_limits<std::int64_t>::max()}) {
            INFO(len);
            const Diagnostics e = scenario_errors(scenario_of(json{{"max_model_len", len}}));
            CHECK(count(e, "out_of_range", "max_model_len") == 1);  // was reported twice
        }
    }

    TEST_CASE("gpu_memory_utilization 1e-400 is out of range, not the vLLM default 0") {
        Diagnostics d;
        const Scenario s = decode_query("v=1&util=1e-400", d);
        CHECK(count(d, "url_bad_value", "url.util") == 1);
        CHECK(s.gpu_memory_utilization == 0.95);  // read as absent: a version 1 link's 0.95
        Diagnostics d2;
        CHECK(decode_query("v=2&util=1e-400", d2).gpu_memory_utilization == 0);  // version 2: the engine's default
        CHECK(count(d2, "url_bad_value", "url.util") == 1);
        Diagnostics zero;
        decode_query("v=1&util=0", zero);  // typed as 0: the sentinel
        CHECK(count(zero, "url_bad_value", "url.util") == 0);
        Diagnostics tiny;
        decode_query("v=1&util=0.0e-5", tiny);  // zero written another way is still zero
        CHECK(count(tiny, "url_bad_value", "url.util") == 0);
    }

    TEST_CASE("model and a different model_id together are an error, as --model with --config is") {
        Scenario s;
        Diagnostics d;
        read_scenario(json::parse(R"({"model_id":"gemma-4-31b","model":"llama-3.1-8b"})"), s, d);
        CHECK(count(d, "model_conflict", "model") == 1);
        Diagnostics same;
        read_scenario(json::parse(R"({"model_id":"llama-3.1-8b","model":"llama-3.1-8b"})"), s, same);
        CHECK_FALSE(has_error(same));
    }

    TEST_CASE("a VRAM figure under one byte names the field typed and its value") {
        const Diagnostics d = scenario_errors(scenario_of(json::parse(R"({"vram_gib":5e-324})")));
        REQUIRE(count(d, "out_of_range", "vram_gib") == 1);
        CHECK(count(d, "out_of_range", "vram_gb") == 0);
        for (const auto& x : d)
            if (x.field == "vram_gib") {
                INFO(x.message);
                CHECK(has(x.message, "vram_gib = 4.94"));  // the value typed, shown as %g
                CHECK(has(x.message, "is out of range; expected a number in [9.31"));
            }
    }

    TEST_CASE("vllm_version: real release forms only; older than the oldest era warns") {
        for (const char* ok : {"0.19.0", "v0.19.0", "0.19", "v0.19", "0.10.1.1", "0.19.0rc1", "0.8.5.post1", "V0",
                               "0.11.1-0.16", ""})
            CHECK_MESSAGE(parse_vllm_version(ok).has_value(), ok);
        for (const char* bad : {"0.19.1.2.3", "0.19x", "0..19", "0.x", "19", "v", "0.19.", "0.19rc"})
            CHECK_FALSE_MESSAGE(parse_vllm_version(bad).has_value(), bad);
        // V0's first release is 0.6.5 (vllm_accounting_eras.cpp): 0.0 and 0.6.4 predate every priced era.
        for (const char* old : {"0.0", "0.6.4"}) {
            const auto note = vllm_version_note(old);
            REQUIRE_MESSAGE(note.has_value(), old);
            CHECK(has(*note, "older than any vLLM release kvcalc prices"));
        }
        CHECK_FALSE(vllm_version_note("0.8").has_value());
        CHECK_FALSE(vllm_version_note("0.6.5").has_value());
    }

    TEST_CASE("shop reports the request's own errors at the top level") {
        const json out = json::parse(evaluate_json(
            R"({"schema":1,"action":"shop","model_id":"llama-3.1-8b","kv_cache_dtype":"zzz","tensor_parallel_size":99,"gpu":"nope"})"));
        CHECK(out["ok"] == false);
        CHECK_FALSE(out.contains("rows"));
        const json& d = out["diagnostics"];
        CHECK(count(d, "kv_format_unknown", "kv_cache_dtype") == 1);
        CHECK(count(d, "out_of_range", "tensor_parallel_size") == 1);
        CHECK(count(d, "gpu_unknown", "gpu") == 1);
        // a good request still shops, whatever TP it names (each row sets its own)
        const json good = json::parse(evaluate_json(R"({"schema":1,"action":"shop","model_id":"llama-3.1-8b","max_model_len":8192,"tensor_parallel_size":3})"));
        CHECK(good["ok"] == true);
        CHECK(good["rows"].size() > 0);
    }

    TEST_CASE("solve and criterion where no solver runs are warned about, not ignored silently") {
        const json shop = json::parse(evaluate_json(
            R"({"schema":1,"action":"shop","model_id":"llama-3.1-8b","max_model_len":8192,"solve":["max_model_len"]})"));
        CHECK(count(shop["diagnostics"], "key_ignored", "solve") == 1);
        const json predict = json::parse(evaluate_json(R"({"schema":1,"model_id":"llama-3.1-8b","criterion":"nope"})"));
        CHECK(count(predict["diagnostics"], "key_ignored", "criterion") == 1);
        const json solve = json::parse(evaluate_json(R"({"schema":1,"action":"solve","model_id":"llama-3.1-8b","criterion":"nope"})"));
        CHECK(solve["ok"] == false);
        CHECK(count(solve["diagnostics"], "bad_value", "criterion") == 1);
    }

    TEST_CASE("an error echoes at most 64 bytes of a huge value") {
        const std::string huge(7u << 20, 'x');
        const std::string out = evaluate_json(json{{"schema", 1}, {"model", huge}}.dump());
        CHECK(out.size() < 20000);  // bounded however long the value
        CHECK(has(out, "(7340032 bytes)"));
        const std::string gpu = evaluate_json(json{{"schema", 1}, {"gpu", std::string(100000, 'g')}}.dump());
        CHECK(gpu.size() < 20000);
    }

    // The config.json reader's consistency rules (hf_config.cpp read_attention; layer runs; experts) hold for an
    // inline model too.
    TEST_CASE("inline models are checked like config.json") {
        json m = inline_llama();
        m["num_attention_heads"] = 0;
        CHECK(count(inline_errors(m), "inconsistent", "model.num_attention_heads") == 1);
        m = inline_llama();
        m["num_hidden_layers"] = 33;  // the runs give Llama 3.1 8B's 32
        CHECK(count(inline_errors(m), "inconsistent", "model.num_hidden_layers") == 1);
        m = inline_llama();
        for (auto& run : m["layers"]) run["num_key_value_heads"] = 64;  // 8 in the real config, 32 query heads
        CHECK(count(inline_errors(m), "inconsistent", "model.num_attention_heads") == 1);
        m = inline_llama();
        m["num_experts"] = 8;
        m["num_experts_per_tok"] = 9;
        CHECK(count(inline_errors(m), "inconsistent", "model.num_experts_per_tok") == 1);
        m = inline_llama();
        m["parallel_caches"] = json::array({json{{"kind", "none"}, {"count", 1}}});  // 1 entry for 32 layers
        CHECK(count(inline_errors(m), "inconsistent", "model.parallel_caches") == 1);
        CHECK_FALSE(has_error(inline_errors(inline_llama())));
    }

    TEST_CASE("every catalog model passes the inline checks") {
        for (const ModelSpec& m : model_catalog()) {
            INFO(m.id);
            Diagnostics d;
            CHECK(check_inline_model(m, "model", d));
            for (const auto& x : d) INFO(x.message);
        }
    }
}

TEST_CASE("num_speculative_tokens without a drafter is an error naming what to set") {
    // vLLM: num_speculative_tokens is a key of --speculative-config, read with its method or model.
    const Diagnostics d = scenario_errors(scenario_of(json::parse(
        R"({"model_id":"llama-3.1-8b","gpu":"rtx-4090","max_model_len":8192,"num_speculative_tokens":3})")));
    REQUIRE(count(d, "drafter_missing", "num_speculative_tokens") == 1);
    for (const auto& x : d)
        if (x.code == "drafter_missing") CHECK(has(x.message, "needs a drafter"));
    // With Qwen 3.6's built-in MTP head the same count is the drafter's.
    CHECK(scenario_errors(scenario_of(json::parse(
              R"({"model_id":"qwen3.6-27b","gpu":"rtx-4090","max_model_len":8192,"mtp":true,"num_speculative_tokens":3})")))
              .empty());
}

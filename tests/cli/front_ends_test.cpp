// One question, one answer: the CLI, the JSON API (evaluate_json, what the embind module calls), a link and the
// page's own scenario give the same report when the user leaves the same fields unset. The page's scenario is
// built by its own code (imgui_ui/model_lookup.cpp landing_scenario, imgui_ui/config_import.cpp), linked in here.
#include <doctest/doctest.h>

#include <string>

#include <nlohmann/json.hpp>

#include "app.h"
#include "cli_run.h"
#include "kvcalc/io/api.h"
#include "kvcalc/io/json_io.h"
#include "kvcalc/deployment/predict.h"
#include "kvcalc/io/url_codec.h"
#include "model_lookup.h"

using clitest::Run;
using nlohmann::json;

namespace {

json one_document(const Run& r) {
    INFO(r.err);
    REQUIRE(r.status != 2);
    return json::parse(r.out);
}

/// The numbers a user compares between front ends: verdict, every term, the start-up lines, the settings priced
/// and what was assumed. `names` = also the model's id and display name (a pasted file has the page's names).
json numbers(const json& report, bool names = true) {
    json out = {{"verdict", report["verdict"]}, {"terms", report["terms"]}, {"startup", report["startup"]},
                {"settings", report["settings"]}, {"assumed_defaults", report["assumed_defaults"]},
                {"command", report["command"]}};
    if (!names) {
        out["settings"].erase("model_id");
        out["settings"].erase("display_name");
    }
    return out;
}

json predicted(const kvcalc::Scenario& s) {
    const kvcalc::Report r = kvcalc::predict(s);
    REQUIRE(r.ok);
    return json(r);
}

std::string mistral_config_path() { return std::string(KVCALC_TEST_DATA_DIR) + "/configs/mistral-7b-instruct.json"; }

}  // namespace

TEST_SUITE("front_ends") {
    TEST_CASE("Llama 3.1 8B on an RTX 4090 at 32K with nothing else set: one report in every front end") {
        // The page's landing: model, card and length chosen, the rest left to vLLM.
        const json page = predicted(kvcalc::ui::landing_scenario());
        const json cli = one_document(clitest::kvcalc("--model llama-3.1-8b --gpu rtx-4090 --max-model-len 32768 --json"));
        const json api = json::parse(kvcalc::evaluate_json(
            R"({"schema":1,"model":"llama-3.1-8b","gpu":"rtx-4090","max_model_len":32768})"));
        const char* link = "https://x.example/kvcalc/?v=2&m=llama-3.1-8b&g=rtx-4090&ctx=32768";
        kvcalc::Diagnostics d;
        const json from_link = predicted(kvcalc::decode_query(link, d));
        CHECK(d.empty());
        const json cli_link = one_document(clitest::kvcalc(std::string("--from-url '") + link + "' --json"));
        CHECK(numbers(cli) == numbers(page));
        CHECK(numbers(api) == numbers(page));
        CHECK(numbers(from_link) == numbers(page));
        CHECK(numbers(cli_link) == numbers(page));
        // What `vllm serve` does on a 24 GiB card (vllm/engine/arg_utils.py get_batch_defaults, OPENAI_API_SERVER:
        // 256 sequences and 2048 batched tokens below 70 GiB; --kv-cache-dtype auto = the bf16 checkpoint's dtype;
        // gpu_memory_utilization 0.92 from v0.21, vllm_accounting_eras.cpp).
        const json& s = page["settings"];
        CHECK(s["kv_cache_dtype"] == "auto (bf16)");
        CHECK(s["max_num_seqs"] == 256);
        CHECK(s["max_num_seqs_is_default"] == true);
        CHECK(s["max_num_batched_tokens"] == 2048);
        CHECK(s["gpu_memory_utilization"] == 0.92);
        // One 32,768-token request of 131,072 B per token (32 layers × 8 KV heads × 128 × K and V × 2 B) is priced.
        CHECK(page["terms"]["kv_growing_requested_bytes"] == std::int64_t{32768} * 131072);
        const std::string command = page["command"];
        CHECK(command.find("--max-num-seqs 256") != std::string::npos);
        CHECK(command.find("--kv-cache-dtype auto") != std::string::npos);
        CHECK(command.find("--gpu-memory-utilization 0.92") != std::string::npos);
    }

    TEST_CASE("max_model_len left out everywhere: the model's derived maximum, named in assumed_defaults") {
        const json cli = one_document(clitest::kvcalc("--model llama-3.1-8b --gpu h100-80gb --json"));
        const json api = json::parse(kvcalc::evaluate_json(R"({"schema":1,"model":"llama-3.1-8b","gpu":"h100-80gb"})"));
        kvcalc::Diagnostics d;
        const json from_link = predicted(kvcalc::decode_query("v=2&m=llama-3.1-8b&g=h100-80gb", d));
        CHECK(numbers(api) == numbers(cli));
        CHECK(numbers(from_link) == numbers(cli));
        // Llama 3.1 8B's config.json: max_position_embeddings 131072, rope_type llama3 (not multiplied).
        CHECK(cli["settings"]["max_model_len"] == 131072);
        CHECK(cli["settings"]["max_num_seqs"] == 1024);  // ≥ 70 GiB, not an A100 (get_batch_defaults)
        bool said = false;
        for (const auto& x : cli["assumed_defaults"])
            said = said || x.get<std::string>().rfind("max_model_len 131072 (not given", 0) == 0;
        CHECK(said);
    }

    TEST_CASE("a pasted config.json (Mistral 7B Instruct) prices the same on the page as in the CLI and the API") {
        // The QA's case: the page built its own model from the file (no vocab_size / intermediate_size for vLLM's
        // profile run), so its demand and token count differed from the CLI's --config.
        const std::string text = clitest::read_file(mistral_config_path());
        REQUIRE_FALSE(text.empty());
        kvcalc::ui::App app;
        app.scenario = kvcalc::ui::landing_scenario();
        REQUIRE(kvcalc::ui::apply_config_text(app, text, "paste"));
        const json page = predicted(app.scenario);
        const json cli = one_document(
            clitest::kvcalc("--config " + mistral_config_path() + " --gpu rtx-4090 --max-model-len 32768 --json"));
        json request = {{"schema", 1}, {"config_json", text}, {"gpu", "rtx-4090"}, {"max_model_len", 32768}};
        const json api = json::parse(kvcalc::evaluate_json(request.dump()));
        CHECK(numbers(cli, false) == numbers(page, false));
        CHECK(numbers(api, false) == numbers(page, false));
        // The file's _name_or_path is a local folder: every front end serves the placeholder folder.
        CHECK(page["command"].get<std::string>().find("vllm serve <path-to-model-dir>") != std::string::npos);
    }
}

// --log FILE: the CLI side of the start-up log reader (the reader itself: tests/core/startup_log_test.cpp).
#include <doctest/doctest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "cli_run.h"

namespace {

const std::string kLogs = std::string(KVCALC_TEST_DATA_DIR) + "/startup_logs/";
const std::string kV1 = kLogs + "vllm-0.10.2-v1-llava-mistral-7b-h100.log";

}  // namespace

TEST_SUITE("log") {
    TEST_CASE("--log FILE prints each fact with its line and process; the share read is in the header") {
        const clitest::Run r = clitest::kvcalc("--log " + clitest::shell_quote(kV1));
        CHECK(r.status == 0);
        CHECK(r.out.find("vllm 0.10.2") != std::string::npos);
        CHECK(r.out.find("9 of 9 known lines with numbers read") != std::string::npos);
        // line 45 of the log: "Available KV cache memory: 55.15 GiB"; line 46: "GPU KV cache size: 451,744 tokens"
        CHECK(r.out.find("line 45  available_kv_cache_gib = 55.15 GiB  (EngineCore_DP0 pid=3021)") != std::string::npos);
        CHECK(r.out.find("line 46  gpu_kv_cache_tokens = 451744 tokens") != std::string::npos);
        CHECK(r.out.find("kv_cache_memory_in_use_bytes = 59212694937 bytes") != std::string::npos);
    }

    TEST_CASE("--log - reads stdin; --json puts the facts under \"log\"") {
        const clitest::Run r = clitest::kvcalc("--log - --json < " + clitest::shell_quote(kV1));
        REQUIRE(r.status == 0);
        const nlohmann::json j = nlohmann::json::parse(r.out);
        CHECK(j["schema"] == 1);
        CHECK(j["ok"] == true);
        CHECK(j["log"]["engine"] == "vllm");
        bool found = false;
        for (const auto& f : j["log"]["facts"])
            found = found || (f["name"] == "gpu_kv_cache_tokens" && f["value"] == 451744 && f["line"] == 46);
        CHECK(found);
    }

    TEST_CASE("beside a prediction the report keeps its keys and gains \"log\"") {
        const clitest::Run r =
            clitest::kvcalc("--model qwen3.6-27b --log " + clitest::shell_quote(kLogs + "vllm-0.8.5-v1-llama31-8b-l40s.log") +
                            " --json");
        REQUIRE(r.status != 2);
        const nlohmann::json j = nlohmann::json::parse(r.out);
        CHECK(j.contains("verdict"));
        CHECK(j["log"]["read_lines"] == 3);
    }

    TEST_CASE("bad logs and misuse exit 2 with the reason") {
        const clitest::Run missing = clitest::kvcalc("--log /nonexistent/kvcalc.log");
        CHECK(missing.status == 2);
        CHECK(missing.err.find("--log: cannot read '/nonexistent/kvcalc.log'") != std::string::npos);

        const clitest::Run empty = clitest::kvcalc("--log /dev/null");
        CHECK(empty.status == 2);
        CHECK(empty.err.find("the log is empty") != std::string::npos);

        const std::string prose_path = clitest::temp_path("prose.log");
        std::ofstream(prose_path) << "hello world 42\n";
        const clitest::Run prose = clitest::kvcalc("--log - --json < " + clitest::shell_quote(prose_path));
        CHECK(prose.status == 2);
        CHECK(nlohmann::json::parse(prose.out)["ok"] == false);

        const clitest::Run shop = clitest::kvcalc("--log " + clitest::shell_quote(kV1) + " --shop");
        CHECK(shop.status == 2);
        CHECK(shop.err.find("--log goes alone, with a plain prediction") != std::string::npos);

        // A solver with a log and no model: the log alone was printed and the solver dropped without a word.
        const std::string l40s = kLogs + "vllm-0.8.5-v1-llama31-8b-l40s.log";
        const clitest::Run solve = clitest::kvcalc("--log " + clitest::shell_quote(l40s) + " --solve-max-ctx");
        CHECK(solve.status == 2);
        CHECK(solve.err.find("--solve-max-ctx with --log needs the model's layers") != std::string::npos);
        CHECK(solve.out.empty());
    }

    TEST_CASE("--log with a solver answers on the boot's measured terms") {
        // Regression: --log refused the solvers, so the calibrated answers were only in the JSON API and the page.
        // vllm #10517's RTX 3090 boot at --max-model-len 20000 printed "Maximum concurrency for 20000 tokens per
        // request: 1.56x": one full request fits, two do not.
        const std::string log = kLogs + "vllm-0.6.4-v0-llama31-8b-3090-20k.log";
        const clitest::Run seqs =
            clitest::kvcalc("--model llama-3.1-8b --log " + clitest::shell_quote(log) + " --solve-max-seqs --json");
        REQUIRE(seqs.status == 0);
        const auto j = nlohmann::json::parse(seqs.out);
        CHECK(j["solvers"]["max_num_seqs"]["value"] == 1);
        CHECK(j["settings"]["max_model_len"] == 20000);  // the boot's length, from the log
        CHECK(j["settings"]["vram_bytes"] == std::int64_t{25318832210});  // 23.58 GiB (the log's total), rounded up to a byte
    }
}

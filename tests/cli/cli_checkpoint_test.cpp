// kvcalc --model DIR and --model ORG/NAME on the real checkpoints of tests/data/checkpoints (SOURCES.tsv): the
// weights are the index's total_size as vLLM loads it, and a Hub repo offline says how to pass a snapshot. No test
// here touches the network: the Hub path is exercised through --offline and a prepared cache folder.
#include <doctest/doctest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "cli_run.h"

using clitest::Run;

namespace {

bool contains(const std::string& hay, const std::string& needle) { return hay.find(needle) != std::string::npos; }

std::string dir(const std::string& name) { return std::string(KVCALC_TEST_DATA_DIR) + "/checkpoints/" + name; }

nlohmann::json json_run(const std::string& args) {
    const Run r = clitest::kvcalc(args + " --gpu h100-80gb --json");
    INFO(r.err);
    REQUIRE(r.status != 2);
    return nlohmann::json::parse(r.out);
}

}  // namespace

TEST_SUITE("checkpoint") {
    TEST_CASE("--model DIR prices the index's total_size (Devstral-Small-2507, 47,144,806,400 bytes)") {
        const auto j = json_run("--model " + clitest::shell_quote(dir("devstral-small-2507")));
        CHECK(j["settings"]["weights_bytes_total"] == 47144806400LL);
        CHECK(j["settings"]["weights_variant"] == "checkpoint");
    }

    TEST_CASE("--model DIR says which tensors vLLM skips (Falcon-180B's tied lm_head)") {
        const auto j = json_run("--model " + clitest::shell_quote(dir("falcon-180b-chat")) + " --tp 8 --gpus 8");
        CHECK(j["settings"]["weights_bytes_total"] == 359045130240LL - 65024LL * 14848 * 2);
        bool said = false;
        for (const auto& d : j["diagnostics"])
            said = said || (d["code"] == "tensors_not_loaded" && contains(d["message"].get<std::string>(), "lm_head.weight"));
        CHECK(said);
    }

    TEST_CASE("--model ORG/NAME --offline without a cache says how to pass a local snapshot") {
        const std::string cache = clitest::temp_path("empty-cache");
        const Run r = clitest::kvcalc_env("XDG_CACHE_HOME=" + clitest::shell_quote(cache),
                                          "--model mistralai/Devstral-Small-2507 --offline");
        CHECK(r.status == 2);
        CHECK(contains(r.err, "--offline"));
        CHECK(contains(r.err, "--model DIR"));
        CHECK(contains(r.err, "model.safetensors.index.json"));
    }

    TEST_CASE("--model ORG/NAME@REV reads the cache folder like the snapshot it holds") {
        namespace fs = std::filesystem;
        const std::string cache = clitest::temp_path("hub-cache");
        const fs::path at = fs::path(cache) / "kvcalc/hub/mistralai--Devstral-Small-2507/main";
        fs::create_directories(at);
        for (const char* f : {"config.json", "model.safetensors.index.json"})
            fs::copy_file(fs::path(dir("devstral-small-2507")) / f, at / f, fs::copy_options::overwrite_existing);
        const Run r = clitest::kvcalc_env("XDG_CACHE_HOME=" + clitest::shell_quote(cache),
                                          "--model mistralai/Devstral-Small-2507@main --offline --gpu h100-80gb --json");
        INFO(r.err);
        REQUIRE(r.status != 2);
        const auto hub = nlohmann::json::parse(r.out);
        const auto local = json_run("--model " + clitest::shell_quote(dir("devstral-small-2507")));
        CHECK(hub["settings"] == local["settings"]);
        CHECK(hub["terms"] == local["terms"]);
    }

    TEST_CASE("--url for a Hub model writes hf= and no m=, and --from-url reads the repo again") {
        namespace fs = std::filesystem;
        const std::string cache = clitest::temp_path("hub-cache-url");
        const fs::path at = fs::path(cache) / "kvcalc/hub/mistralai--Devstral-Small-2507/main";
        fs::create_directories(at);
        for (const char* f : {"config.json", "model.safetensors.index.json"})
            fs::copy_file(fs::path(dir("devstral-small-2507")) / f, at / f, fs::copy_options::overwrite_existing);
        const std::string env = "XDG_CACHE_HOME=" + clitest::shell_quote(cache);
        const Run made = clitest::kvcalc_env(env, "--model mistralai/Devstral-Small-2507 --offline --gpu h100-80gb "
                                                  "--url https://x.example/kvcalc/");
        INFO(made.err);
        REQUIRE(made.status != 2);
        const std::size_t at_link = made.out.find("Link: ");
        REQUIRE(at_link != std::string::npos);
        const std::string link = made.out.substr(at_link + 6, made.out.find('\n', at_link) - at_link - 6);
        CHECK(link == "https://x.example/kvcalc/?v=2&g=h100-80gb&hf=mistralai%2FDevstral-Small-2507");
        CHECK(contains(made.out, "vllm serve mistralai/Devstral-Small-2507 \\"));
        const Run back = clitest::kvcalc_env(env, "--from-url " + clitest::shell_quote(link) + " --offline --json");
        INFO(back.err);
        REQUIRE(back.status != 2);
        const auto j = nlohmann::json::parse(back.out);
        CHECK(j["settings"]["weights_bytes_total"] == 47144806400LL);
        // Offline without the cache: the link's repo is named with the snapshot hint.
        const Run none = clitest::kvcalc_env("XDG_CACHE_HOME=" + clitest::shell_quote(clitest::temp_path("no-cache")),
                                             "--from-url " + clitest::shell_quote(link) + " --offline");
        CHECK(none.status == 2);
        CHECK(contains(none.err, "mistralai/Devstral-Small-2507"));
        CHECK(contains(none.err, "--model DIR"));
        // The user typed no --model: the error names the link's key that named the repo.
        CHECK(contains(none.err, "error: --from-url hf=mistralai/Devstral-Small-2507: --offline"));
    }

    TEST_CASE("--model with a bad repo name is refused with the snapshot hint") {
        const Run r = clitest::kvcalc("--model 'a/b/c' --offline");
        CHECK(r.status == 2);
        CHECK(contains(r.err, "ORG/NAME"));
    }
}

// kvcalc --gguf ORG/NAME/FILE.gguf (and its huggingface.co URLs): the header read from the Hub by range requests.
// No test here touches the network: a RangeServer on 127.0.0.1 (range_server.h) serves the real GGUF files of
// tests/data/gguf (SOURCE.md) as the Hub and its CDN do, and HF_ENDPOINT points kvcalc at it. What comes out must
// be what --gguf on the same local file gives; the server's log says which bytes were asked for.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <string>

#include "cli_run.h"
#include "range_server.h"
#include "../core/gguf_writer.h"

using clitest::RangeServer;
using clitest::Run;

namespace {

bool contains(const std::string& hay, const std::string& needle) { return hay.find(needle) != std::string::npos; }

std::string fixture(const std::string& name) { return std::string(KVCALC_TEST_DATA_DIR) + "/gguf/" + name; }

const char* const kFiles[] = {"llama-2-tiny-random.gguf", "ggml-vocab-bert-bge.gguf", "ggml-vocab-deepseek-coder.gguf",
                              "ggml-vocab-falcon.gguf", "ggml-vocab-llama-spm.gguf", "ggml-vocab-phi-3.gguf"};

std::map<std::string, std::string> served() {
    std::map<std::string, std::string> m;
    for (const char* f : kFiles) m[std::string("test-org/fixtures-GGUF/") + f] = fixture(f);
    m["gated-org/private-GGUF/llama-2-tiny-random.gguf"] = fixture("llama-2-tiny-random.gguf");
    return m;
}

/// A fresh cache folder for one test (XDG_CACHE_HOME), and the environment that points kvcalc at `server`.
std::string env_for(const RangeServer& server, const std::string& cache, const std::string& more = "") {
    std::filesystem::remove_all(cache);
    return "HF_ENDPOINT=" + clitest::shell_quote(server.endpoint()) + " XDG_CACHE_HOME=" + clitest::shell_quote(cache) +
           " HF_TOKEN= " + more;
}

const std::string kSettings = " --engine llama.cpp --kv-cache-dtype f16 --gpu rtx-3060 --json";

nlohmann::json json_of(const Run& r) {
    INFO(r.err);
    REQUIRE((r.status == 0 || r.status == 1));
    return nlohmann::json::parse(r.out);
}

/// The highest byte asked for, checking that the ranges run on from 0 with no byte asked twice.
std::uint64_t bytes_asked(const std::vector<RangeServer::Request>& log, const std::string& file) {
    std::uint64_t next = 0;
    for (const auto& q : log) {
        if (q.path.rfind("/cdn/", 0) != 0 || !contains(q.path, file)) continue;
        const auto dash = q.range.find('-');
        REQUIRE(q.range.rfind("bytes=", 0) == 0);
        CHECK(std::stoull(q.range.substr(6, dash - 6)) == next);
        next = std::stoull(q.range.substr(dash + 1)) + 1;
    }
    return next;
}

}  // namespace

TEST_SUITE("hub_gguf") {
    TEST_CASE("a Hub GGUF gives the terms --gguf gives on the same local file, for every GGUF fixture") {
        RangeServer server(served());
        for (const char* f : kFiles) {
            CAPTURE(f);
            const std::string env = env_for(server, clitest::temp_path("hub_cache_all"));
            const auto local = json_of(clitest::kvcalc("--gguf " + clitest::shell_quote(fixture(f)) + kSettings));
            const auto hub = json_of(clitest::kvcalc_env(env, std::string("--gguf test-org/fixtures-GGUF/") + f + kSettings));
            CHECK(hub.at("terms") == local.at("terms"));
            CHECK(hub.at("verdict") == local.at("verdict"));
            // Vocab-only files list no tensors and have no buffer lines: absent on both sides.
            CHECK(hub.value("llama_cpp_buffers", nlohmann::json()) == local.value("llama_cpp_buffers", nlohmann::json()));
            CHECK(hub.at("settings").at("weights_known") == local.at("settings").at("weights_known"));
        }
    }

    TEST_CASE("only the header is asked for: ranges from byte 0, stopping within one doubling of the header's end") {
        RangeServer server(served());
        const std::string cache = clitest::temp_path("hub_cache_ranges");
        const Run r = clitest::kvcalc_env(env_for(server, cache), "--gguf test-org/fixtures-GGUF/llama-2-tiny-random.gguf" + kSettings);
        json_of(r);
        const auto log = server.requests();
        // The Hub's resolve URL first (it redirects), then the CDN with the Range header kept.
        REQUIRE(!log.empty());
        CHECK(log.front().path == "/test-org/fixtures-GGUF/resolve/main/llama-2-tiny-random.gguf");
        CHECK(log.front().range == "bytes=0-262143");
        // The file is 1,750,560 B; its tensor data starts at 724,416 (the header, tensor infos included).
        const std::uint64_t asked = bytes_asked(log, "llama-2-tiny-random.gguf");
        MESSAGE("bytes asked for: " << asked << " of 1750560 (header 724416)");
        CHECK(asked > 724416);
        CHECK(asked < 2 * 724416);
        // The cache keeps the header's bytes, not the file, and a second run reads it without the network.
        const auto cached = std::filesystem::path(cache) / "kvcalc/hub/test-org--fixtures-GGUF/main/gguf-headers/llama-2-tiny-random.gguf";
        REQUIRE(std::filesystem::exists(cached));
        CHECK(std::filesystem::file_size(cached) <= 724416);
        CHECK(std::filesystem::file_size(cached) > 700000);
        server.clear_requests();
        const std::string again_env = "HF_ENDPOINT=http://127.0.0.1:1 XDG_CACHE_HOME=" + clitest::shell_quote(cache);
        {   // A cached header cut short (a full disk, a killed run) is named as such, not as "not in the cache".
            const std::string whole = clitest::read_file(cached.string());
            const std::string cut_cache = clitest::temp_path("hub_cache_cut");
            const auto cut = std::filesystem::path(cut_cache) / "kvcalc/hub/test-org--fixtures-GGUF/main/gguf-headers/llama-2-tiny-random.gguf";
            std::filesystem::create_directories(cut.parent_path());
            std::ofstream(cut, std::ios::binary) << whole.substr(0, 4096);
            const Run r = clitest::kvcalc_env("HF_ENDPOINT=http://127.0.0.1:1 XDG_CACHE_HOME=" + clitest::shell_quote(cut_cache),
                                              "--gguf test-org/fixtures-GGUF/llama-2-tiny-random.gguf --offline");
            CHECK(r.status == 2);
            CHECK(contains(r.err, "cannot be read: it ends inside the header, after 4096 bytes"));
            CHECK_FALSE(contains(r.err, "not in the cache"));
        }
        const auto again = json_of(clitest::kvcalc_env(again_env, "--gguf test-org/fixtures-GGUF/llama-2-tiny-random.gguf --offline" + kSettings));
        const auto local = json_of(clitest::kvcalc("--gguf " + clitest::shell_quote(fixture("llama-2-tiny-random.gguf")) + kSettings));
        CHECK(again.at("terms") == local.at("terms"));
        CHECK(server.requests().empty());
    }

    TEST_CASE("the URL forms and --model X.gguf read the same file; the command downloads it with --hf-repo/--hf-file") {
        RangeServer server(served());
        const std::string env = env_for(server, clitest::temp_path("hub_cache_forms"));
        const auto plain = json_of(clitest::kvcalc_env(env, "--gguf test-org/fixtures-GGUF/llama-2-tiny-random.gguf" + kSettings));
        for (const std::string form : {"https://huggingface.co/test-org/fixtures-GGUF/resolve/main/llama-2-tiny-random.gguf",
                                       "https://huggingface.co/test-org/fixtures-GGUF/blob/main/llama-2-tiny-random.gguf",
                                       "'https://huggingface.co/test-org/fixtures-GGUF/resolve/main/llama-2-tiny-random.gguf?download=true'",
                                       "test-org/fixtures-GGUF@main/llama-2-tiny-random.gguf"}) {
            CAPTURE(form);
            const auto j = json_of(clitest::kvcalc_env(env, "--model " + form + kSettings));
            CHECK(j.at("terms") == plain.at("terms"));
        }
        // llama.cpp common/arg.cpp: -hfr/--hf-repo REPO, -hff/--hf-file FILE ("will override the quant in --hf-repo").
        const std::string command = plain.at("command");
        CHECK(contains(command, "llama-server --hf-repo test-org/fixtures-GGUF --hf-file llama-2-tiny-random.gguf \\\n  -c 4096"));
        CHECK_FALSE(contains(command, " -m "));
        const Run other = clitest::kvcalc_env(env, "--gguf test-org/fixtures-GGUF@v1.0/llama-2-tiny-random.gguf --engine llama.cpp --offline");
        CHECK(other.status == 2);  // v1.0 is another revision: not in the cache
        CHECK(contains(other.err, "@v1.0"));
        // llama.cpp downloads <endpoint>/REPO/resolve/main/FILE (common/arg.cpp): the command says so.
        const auto tagged = json_of(clitest::kvcalc_env(env, "--gguf test-org/fixtures-GGUF@v1.0/llama-2-tiny-random.gguf" + kSettings));
        CHECK(contains(tagged.at("command"), "llama.cpp has no revision flag; kvcalc read revision v1.0"));
    }

    TEST_CASE("a pull request's revision (refs%2Fpr%2F1) is read from the Hub; a URL that is no Hub GGUF says why") {
        RangeServer server(served());
        const std::string env = env_for(server, clitest::temp_path("hub_cache_pr"));
        const auto plain = json_of(clitest::kvcalc_env(env, "--gguf test-org/fixtures-GGUF/llama-2-tiny-random.gguf" + kSettings));
        server.clear_requests();
        const auto pr = json_of(clitest::kvcalc_env(
            env, "--gguf https://huggingface.co/test-org/fixtures-GGUF/resolve/refs%2Fpr%2F1/llama-2-tiny-random.gguf" + kSettings));
        CHECK(pr.at("terms") == plain.at("terms"));
        const auto asked = server.requests();
        REQUIRE_FALSE(asked.empty());
        CHECK(asked.front().path == "/test-org/fixtures-GGUF/resolve/refs%2Fpr%2F1/llama-2-tiny-random.gguf");
        // A space in the file name is not a name kvcalc reads: the error says what a Hub GGUF URL is, not "no such file".
        const Run spaced = clitest::kvcalc_env(env, "--gguf 'https://huggingface.co/test-org/fixtures-GGUF/resolve/main/a%20b.gguf'");
        CHECK(spaced.status == 2);
        CHECK(contains(spaced.err, "is not a Hub GGUF URL kvcalc reads"));
        CHECK_FALSE(contains(spaced.err, "no such file"));
    }

    TEST_CASE("a link carries gguf= and --from-url reads the same model again") {
        RangeServer server(served());
        const std::string env = env_for(server, clitest::temp_path("hub_cache_link"));
        const Run made = clitest::kvcalc_env(env, "--gguf test-org/fixtures-GGUF/llama-2-tiny-random.gguf --engine llama.cpp --gpu rtx-3060 --url https://example.test/");
        INFO(made.err);
        REQUIRE((made.status == 0 || made.status == 1));
        std::string link;
        for (std::size_t at = made.out.find("https://example.test/?"); at != std::string::npos;) {
            link = made.out.substr(at, made.out.find_first_of(" \n", at) - at);
            break;
        }
        REQUIRE(!link.empty());
        CHECK(contains(link, "gguf=test-org%2Ffixtures-GGUF%2Fllama-2-tiny-random.gguf"));
        CHECK_FALSE(contains(link, "&m="));
        const auto back = json_of(clitest::kvcalc_env(env, "--from-url " + clitest::shell_quote(link) + " --offline --kv-cache-dtype f16 --json"));
        const auto direct = json_of(clitest::kvcalc_env(env, "--gguf test-org/fixtures-GGUF/llama-2-tiny-random.gguf --offline" + kSettings));
        CHECK(back.at("terms") == direct.at("terms"));
        CHECK(back.at("command") == direct.at("command"));
    }

    TEST_CASE("a split Hub GGUF is read part by part, in a folder of the repo; the command names the first part") {
        // The two parts cli_gguf_test.cpp writes (split.no / split.count, a q4_K and a q6_K tensor).
        kvcalc::test::GgufWriter a, b;
        const auto keys = [](kvcalc::test::GgufWriter& w, std::uint16_t no, bool arch) {
            w.head(1, arch ? 8 : 3).kv_u16("split.no", no).kv_u16("split.count", 2).kv_i32("split.tensors.count", 2);
            if (arch)
                w.kv_str("general.architecture", "llama").kv_u32("llama.block_count", 1)
                    .kv_u32("llama.embedding_length", 256).kv_u32("llama.context_length", 1024)
                    .kv_u32("llama.attention.head_count", 2);
        };
        keys(a, 0, true);
        a.tensor("token_embd.weight", 12, {256, 1000}, 0);  // q4_K: 1000 rows × 144 B
        keys(b, 1, false);
        b.tensor("output.weight", 14, {256, 1000}, 0);      // q6_K: 1000 rows × 210 B
        const std::string pa = clitest::temp_path("hub-split-00001-of-00002.gguf"), pb = clitest::temp_path("hub-split-00002-of-00002.gguf");
        std::ofstream(pa, std::ios::binary) << a.bytes;
        std::ofstream(pb, std::ios::binary) << b.bytes;
        RangeServer server({{"test-org/split-GGUF/Q4_K_M/m-00001-of-00002.gguf", pa},
                            {"test-org/split-GGUF/Q4_K_M/m-00002-of-00002.gguf", pb}});
        const std::string env = env_for(server, clitest::temp_path("hub_cache_split"));
        // The second part named: both are read, and the command loads the model from the first.
        const auto j = json_of(clitest::kvcalc_env(env, "--gguf test-org/split-GGUF/Q4_K_M/m-00002-of-00002.gguf" + kSettings));
        CHECK(j.at("terms").at("weights_bytes") == 144000 + 210000);
        CHECK(j.at("terms").at("kv_bytes_per_token") == 2.0 * 256 * 2);  // 2 KV heads × (128 + 128) × 2 B
        CHECK(contains(j.at("command"), "--hf-repo test-org/split-GGUF --hf-file Q4_K_M/m-00001-of-00002.gguf"));
        int parts = 0;
        for (const auto& q : server.requests()) parts += q.path.rfind("/test-org/split-GGUF/resolve/main/Q4_K_M/m-0000", 0) == 0;
        CHECK(parts == 2);
    }

    TEST_CASE("errors name the flag, the URL, the HTTP status and what to do") {
        RangeServer server(served(), "gated-org/private-GGUF", "hf_secret");
        const std::string cache = clitest::temp_path("hub_cache_errors");
        const Run missing = clitest::kvcalc_env(env_for(server, cache), "--gguf test-org/fixtures-GGUF/missing.gguf --engine llama.cpp");
        CHECK(missing.status == 2);
        CHECK(contains(missing.err, "--gguf test-org/fixtures-GGUF/missing.gguf"));
        CHECK(contains(missing.err, server.endpoint() + "/test-org/fixtures-GGUF/resolve/main/missing.gguf answered HTTP 404"));
        CHECK(contains(missing.err, "check the repo, the revision (main) and the file name"));

        const Run gated = clitest::kvcalc_env(env_for(server, cache), "--gguf gated-org/private-GGUF/llama-2-tiny-random.gguf --engine llama.cpp");
        CHECK(gated.status == 2);
        CHECK(contains(gated.err, "answered HTTP 401"));
        CHECK(contains(gated.err, "set HF_TOKEN"));
        server.clear_requests();
        const Run token = clitest::kvcalc_env(env_for(server, cache, "HF_TOKEN=hf_secret"),
                                              "--gguf gated-org/private-GGUF/llama-2-tiny-random.gguf" + kSettings);
        json_of(token);
        CHECK(server.requests().front().authorization == "Bearer hf_secret");
        const Run wrong = clitest::kvcalc_env(env_for(server, cache, "HF_TOKEN=hf_wrong"),
                                              "--gguf gated-org/private-GGUF/llama-2-tiny-random.gguf --engine llama.cpp");
        CHECK(wrong.status == 2);
        CHECK(contains(wrong.err, "the HF_TOKEN sent has no access"));

        const Run offline = clitest::kvcalc_env(env_for(server, cache), "--gguf test-org/fixtures-GGUF/ggml-vocab-phi-3.gguf --offline");
        CHECK(offline.status == 2);
        CHECK(contains(offline.err, "--offline, and its header is not in the cache"));
        CHECK(contains(offline.err, "run once without --offline"));

        const Run down = clitest::kvcalc_env("HF_ENDPOINT=http://127.0.0.1:1 XDG_CACHE_HOME=" + clitest::shell_quote(cache),
                                             "--gguf test-org/fixtures-GGUF/ggml-vocab-phi-3.gguf");
        CHECK(down.status == 2);
        CHECK(contains(down.err, "cannot reach http://127.0.0.1:1/test-org/fixtures-GGUF/resolve/main/ggml-vocab-phi-3.gguf"));

    }

    TEST_CASE("--model ORG/NAME of a gated repo: HF_TOKEN goes with the config.json and index requests too") {
        // Meta's and Mistral's repos are gated: without the token the Hub answers 401. The checkpoint fetch used to
        // send no token at all (only the GGUF reader did), so a gated checkpoint could not be read with one.
        const std::string ckpt = std::string(KVCALC_TEST_DATA_DIR) + "/checkpoints/devstral-small-2507/";
        RangeServer server({{"gated-org/Devstral-Small-2507/config.json", ckpt + "config.json"},
                            {"gated-org/Devstral-Small-2507/model.safetensors.index.json", ckpt + "model.safetensors.index.json"}},
                           "gated-org/Devstral-Small-2507", "hf_secret");
        const Run refused = clitest::kvcalc_env(env_for(server, clitest::temp_path("hub_cache_gated_ckpt")),
                                                "--model gated-org/Devstral-Small-2507 --gpu h100-80gb");
        CHECK(refused.status == 2);
        CHECK(contains(refused.err, "HTTP 401"));
        server.clear_requests();
        const Run r = clitest::kvcalc_env(env_for(server, clitest::temp_path("hub_cache_gated_ckpt2"), "HF_TOKEN=hf_secret"),
                                          "--model gated-org/Devstral-Small-2507 --gpu h100-80gb --json");
        INFO(r.err);
        REQUIRE(r.status != 2);
        REQUIRE_FALSE(server.requests().empty());
        for (const auto& q : server.requests()) CHECK(q.authorization == "Bearer hf_secret");
        // The index's total_size, as the local snapshot prices it (cli_checkpoint_test.cpp).
        CHECK(nlohmann::json::parse(r.out)["settings"]["weights_bytes_total"] == 47144806400LL);
    }

    TEST_CASE("a link's gguf= is named as the link's key, and gguf= with hf= is refused, not one dropped (bugs)") {
        const std::string cache = clitest::temp_path("hub_cache_link_keys");
        const Run gone = clitest::kvcalc_env("HF_ENDPOINT=http://127.0.0.1:1 XDG_CACHE_HOME=" + clitest::shell_quote(cache),
                                             "--from-url 'http://x/?v=2&gguf=test-org/fixtures-GGUF/tiny.gguf' --offline");
        CHECK(gone.status == 2);
        CHECK(contains(gone.err, "error: --from-url gguf=test-org/fixtures-GGUF/tiny.gguf: --offline"));
        const Run both = clitest::kvcalc_env("HF_ENDPOINT=http://127.0.0.1:1 XDG_CACHE_HOME=" + clitest::shell_quote(cache),
                                             "--from-url 'http://x/?v=2&gguf=test-org/fixtures-GGUF/tiny.gguf&hf=A/B' --offline");
        CHECK(both.status == 2);
        CHECK(contains(both.err, "--from-url hf=A/B and --from-url gguf=test-org/fixtures-GGUF/tiny.gguf both describe the model"));
    }
}

// CLI tests: run the real kvcalc binary. Expected numbers come from the seeds (hand arithmetic in comments),
// never from a previous run of the code. Golden files were reviewed against the same numbers.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>

#include <cmath>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <string>

#include "cli_run.h"
#include "xml_check.h"

using clitest::kvcalc;
using clitest::Run;
using nlohmann::json;

namespace {

/// The original's first recommended command (also its usage example).
const char* const kDualTurbo20 = "--model qwen3.6-27b --compose dual-turbo --vram 20 --mem-util 0.82";

/// Parses stdout as exactly one JSON document (trailing text is a parse error).
json one_document(const Run& r) {
    json j = json::parse(r.out, nullptr, false);
    REQUIRE_MESSAGE(!j.is_discarded(), r.out);
    return j;
}

double gb2(std::int64_t bytes) { return std::round(static_cast<double>(bytes) / 1e7) / 100.0; }  // GB, 2 decimals

bool contains(const std::string& hay, const std::string& needle) { return hay.find(needle) != std::string::npos; }

std::size_t count(const std::string& hay, const std::string& needle) {
    std::size_t n = 0;
    for (auto p = hay.find(needle); p != std::string::npos; p = hay.find(needle, p + 1)) ++n;
    return n;
}

/// Bad input: exit 2, nothing on stdout, stderr names every piece of `needles`.
void check_bad(const std::string& args, std::initializer_list<const char*> needles) {
    const Run r = kvcalc(args);
    CHECK_MESSAGE(r.status == 2, args);
    CHECK_MESSAGE(r.out.empty(), args);
    for (const char* n : needles) CHECK_MESSAGE(contains(r.err, n), args << " → stderr: " << r.err << " (wanted " << n << ")");
}

}  // namespace

TEST_SUITE("golden") {
    TEST_CASE("three seed scenarios print exactly the reviewed text") {
        for (const char* name : {"dual_turbo_20gb", "dual_kv_breakdown", "gemma31_solve_max_ctx"}) {
            const std::string base = std::string(KVCALC_GOLDEN_DIR) + "/" + name;
            std::string args = clitest::read_file(base + ".args");
            while (!args.empty() && (args.back() == '\n' || args.back() == ' ')) args.pop_back();
            REQUIRE_MESSAGE(!args.empty(), base);
            const Run r = kvcalc(args);
            CHECK(r.status == 0);
            CHECK(r.err.empty());
            CHECK_MESSAGE(r.out == clitest::read_file(base + ".txt"), name << ": regenerate with tests/cli/regen_golden.sh and review");
        }
    }
}

TEST_SUITE("json") {
    TEST_CASE("dual-turbo on 20 GB cards at mem-util 0.82, field by field") {
        const Run r = kvcalc(std::string(kDualTurbo20) + " --json");
        CHECK(r.status == 0);
        CHECK(r.err.empty());
        const json j = one_document(r);
        CHECK(j["schema"] == 1);
        CHECK(j["ok"] == true);
        // docs/SOURCES.md "Model facts": 17.5 GB / TP 2 = 8.75 GB per card
        CHECK(j["terms"]["weights_bytes"] == 8750000000LL);
        // docs/SOURCES.md "The KV formula": 16 attention layers × 4 KV heads × 256 × 2 (K,V) × 0.425 B (TQ3) / TP 2 = 6963.2 B/token
        // × (262144 + 3 MTP tokens × 32) × 4 seqs = 7.30 GB. vLLM stores whole-byte head vectors (109 B: 6,976 B/token)
        // in 3,680-token blocks (hybrid page alignment, see predict_test): 72 blocks × 3,680 × 6,976 × 4 = 7.39 GB.
        CHECK(gb2(j["terms"]["kv_growing_requested_bytes"].get<std::int64_t>()) == doctest::Approx(7.39));
        // docs/SOURCES.md "Activation": 165 B (TQ3 coefficient) × 48 GDN layers × 262144 / TP 2 = 1.04 GB
        CHECK(gb2(j["terms"]["activation_bytes"].get<std::int64_t>()) == doctest::Approx(1.04));
        // docs/SOURCES.md "Per-card budget": 0.5 + 1.0 × 0.82 + 0.3 × (2 − 1) = 1.62 GB
        CHECK(j["terms"]["cudagraph_workspace_bytes"] == 1620000000LL);
        // budget = 0.82 × 20e9
        CHECK(j["terms"]["budget_bytes"] == 16400000000LL);
        // docs/SOURCES.md "KV-pool capping and the verdict": the requested pool exceeds what is left, vLLM caps it → TIGHT
        CHECK(j["verdict"] == "TIGHT");
        CHECK(j["terms"]["kv_growing_granted_bytes"] < j["terms"]["kv_growing_requested_bytes"]);
        CHECK(j["settings"]["kv_cache_dtype"] == "turboquant_3bit_nc");
        CHECK(j["settings"]["tensor_parallel_size"] == 2);
        CHECK(j["settings"]["max_model_len"] == 262144);
        CHECK(j["settings"]["max_num_seqs"] == 4);
        CHECK(j["settings"]["drafter"] == "qwen-mtp-builtin");  // the preset's MTP is applied and priced
    }
    TEST_CASE("--no-mtp overrides the preset's MTP") {
        const json j = one_document(kvcalc(std::string(kDualTurbo20) + " --no-mtp --json"));
        CHECK(j["settings"]["drafter"] == "");
        // without the 3 × 32 MTP positions: 6963.2 × 262144 × 4 = 7.30 GB still, but tokens per sequence = 262144
        CHECK(j["terms"]["kv_tokens_per_sequence"] == 262144);
    }
    TEST_CASE("the original's breakdown example: dual on 2 × 24 GB") {
        const json j = one_document(kvcalc("--compose dual --vram 24 --gpus 2 --kv-breakdown --json"));
        // 16 × 4 × 256 × 2 × 1 B (fp8) / 2 = 16384 B/token/card × 262240 tokens × 2 seqs = 8.59 GB (the original's breakdown example);
        // vLLM allocates the 262,240 tokens in 1,568-token blocks (16 × cdiv(1,603,584 B state, 16 × 1,024 B)):
        // 168 blocks = 263,424 tokens × 16384 × 2 = 8.63 GB.
        CHECK(gb2(j["breakdown"]["growing_kv_bytes"].get<std::int64_t>()) == doctest::Approx(8.63));
        CHECK(j["breakdown"]["layout"] == "hybrid_mamba");
        CHECK(j["settings"]["gpus"] == 2);
        CHECK(j["buckets"].size() == 2);  // 48 GDN layers + 16 full-attention layers
    }
    TEST_CASE("solver prints one document, also when nothing fits") {
        const Run ok = kvcalc("--model gemma-4-31b --solve-max-ctx --tp 2 --kv-format int8_per_token_head --vram 24 --mem-util 0.92 --json");
        CHECK(ok.status == 0);
        const json j = one_document(ok);
        CHECK(j["schema"] == 1);
        CHECK(j["solvers"]["max_model_len"]["ok"] == true);
        CHECK(j["solvers"]["max_model_len"]["value_rounded"].get<std::int64_t>() % 1024 == 0);
        CHECK(j["settings"]["max_model_len"] == j["solvers"]["max_model_len"]["value_rounded"]);
        // 17.5 GB of Qwen 27B weights on one 16 GB card: nothing fits (docs/SOURCES.md "Model facts")
        const Run none = kvcalc("--solve-max-ctx --vram 16 --json");
        CHECK(none.status == 1);
        const json n = one_document(none);
        CHECK(n["solvers"]["max_model_len"]["ok"] == false);
        const Run seqs = kvcalc("--solve-max-seqs --compose dual --vram 24 --json");
        CHECK(seqs.status == 0);
        CHECK(one_document(seqs)["solvers"]["max_num_seqs"]["value"].get<int>() >= 2);  // dual booted with 2 (docs/SOURCES.md "Calibration rows")
    }
    TEST_CASE("calibration and lists are one document each") {
        const json c = one_document(kvcalc("--calibration --json"));
        CHECK(c["schema"] == 1);
        int seed003 = 0, seed003_ok = 0;
        for (const auto& row : c["rows"]) {
            if (row["row_id"].get<std::string>().rfind("seed003", 0) == 0) {
                ++seed003;
                seed003_ok += row["correct"].get<bool>();
            }
        }
        CHECK(seed003 == 11);     // 11 measured Qwen 27B rows (docs/SOURCES.md "Calibration rows")
        CHECK(seed003_ok == 11);  // with KV-pool capping all 11 are right (docs/SOURCES.md "KV-pool capping and the verdict")
        CHECK(contains(one_document(kvcalc("--list-models --json")).dump(), "\"qwen3.6-27b\""));
        CHECK(contains(one_document(kvcalc("--list-gpus --json")).dump(), "\"rtx-3090\""));
        CHECK(contains(one_document(kvcalc("--list-composes --json")).dump(), "\"qwen3.6-27b:dual-turbo\""));
    }
    TEST_CASE("--json with invalid core input still prints one document, and exits 2") {
        const Run r = kvcalc("--model gemma-4-31b --tp 3 --json");
        CHECK(r.status == 2);
        const json j = one_document(r);
        CHECK(j["ok"] == false);
        CHECK(contains(r.err, "--tp"));
    }
}

TEST_SUITE("exit_codes") {
    TEST_CASE("0 PASS, 0 TIGHT, 1 FAIL, 2 bad input") {
        // docs/SOURCES.md "Calibration rows": dual-turbo on 24 GB cards booted (measured 19.8) — PASS
        const Run pass = kvcalc("--compose dual-turbo --vram 24");
        CHECK(pass.status == 0);
        CHECK(contains(pass.out, "Verdict: PASS"));
        const Run tight = kvcalc(kDualTurbo20);
        CHECK(tight.status == 0);
        CHECK(contains(tight.out, "Verdict: TIGHT"));
        // 17.5 GB of weights on one 16 GB card cannot boot
        const Run fail = kvcalc("--model qwen3.6-27b --tp 1 --vram 16");
        CHECK(fail.status == 1);
        CHECK(contains(fail.out, "Verdict: FAIL"));
        CHECK(kvcalc("--bogus").status == 2);
        CHECK(kvcalc("--help").status == 0);
        CHECK(kvcalc("--version").status == 0);
    }
}

TEST_SUITE("bad_input") {
    TEST_CASE("every class names the flag, the value and what is valid") {
        check_bad("--max-ctxx 5", {"--max-ctxx", "--max-ctx"});       // unknown flag → closest
        check_bad("--mem-utl 0.9", {"--mem-utl", "--mem-util"});
        check_bad("--tp", {"--tp", "needs a value"});                    // missing value
        check_bad("--max-ctx long", {"--max-ctx", "long", "integer"});   // not a number
        check_bad("--vram 2x", {"--vram", "2x", "number"});
        check_bad("--vram nan", {"--vram", "nan"});
        check_bad("--mem-util 1.5", {"--mem-util", "1.5", "(0, 1]"});    // out of range
        check_bad("--max-ctx -1", {"--max-ctx", "-1"});                  // 0 is "not given": the model's maximum
        check_bad("--max-num-seqs -1 --engine llama.cpp", {"--max-num-seqs", "-1"});
        check_bad("--vllm-version 0.x", {"--vllm-version", "0.x", "0.17-0.20"});
        check_bad("--sequences -2", {"--max-num-seqs", "-2"});
        check_bad("--model gpt-9", {"--model", "gpt-9", "qwen3.6-27b"});  // unknown names list the valid ones
        check_bad("--gpu voodoo5", {"--gpu", "voodoo5", "rtx-3090"});
        check_bad("--kv-format fp7", {"--kv-format", "fp7", "fp8_e5m2"});
        check_bad("--compose nope", {"--compose", "nope", "qwen3.6-27b:dual-turbo"});
        check_bad("--indexer-format q9", {"--indexer-format", "q9", "fp4"});
        // Gemma 4 31B has 16 sliding KV heads and 4 global: TP 3 divides neither
        check_bad("--model gemma-4-31b --tp 3", {"--tp", "3", "1, 2, 4"});
        check_bad("--tp 4 --gpus 2", {"--gpus", "2", "4"});              // fewer GPUs than TP
        check_bad("--vram 24 --gpu rtx-3090", {"--vram", "--gpu"});      // both VRAM sources
        check_bad("--gpus 9", {"--gpus", "9"});
        check_bad("--engine foo", {"--engine", "foo", "vllm"});
        check_bad("--json=yes", {"--json", "yes"});
        check_bad("--calibration --solve-max-ctx", {"--solve-max-ctx"});
        check_bad("stray", {"stray"});
        check_bad("--config /nonexistent/config.json", {"--config", "/nonexistent/config.json"});
    }
    TEST_CASE("--flag=value is accepted like --flag value") {
        const json a = one_document(kvcalc("--max-ctx=65536 --vram=24 --json"));
        const json b = one_document(kvcalc("--max-ctx 65536 --vram 24 --json"));
        CHECK(a == b);
        CHECK(a["settings"]["max_model_len"] == 65536);
    }
}

TEST_SUITE("url") {
    TEST_CASE("--url output fed to --from-url gives the identical --json") {
        for (const std::string args : {std::string(kDualTurbo20), std::string("--model gemma-4-31b --tp 2 --gpu rtx-3090 --kv-format int8_per_token_head --max-ctx 131072 --max-num-seqs 2"),
                                       std::string("--compose dual-dflash --vram 24 --no-mtp --max-num-batched-tokens 4096")}) {
            const Run linked = kvcalc(args + " --url https://example.org/kvcalc/");
            CHECK(linked.status == 0);
            const auto at = linked.out.rfind("Link: ");
            REQUIRE_MESSAGE(at != std::string::npos, linked.out);
            std::string link = linked.out.substr(at + 6);
            while (!link.empty() && link.back() == '\n') link.pop_back();
            CHECK(link.rfind("https://example.org/kvcalc/?v=2", 0) == 0);
            const Run direct = kvcalc(args + " --json");
            const Run decoded = kvcalc("--from-url " + clitest::shell_quote(link) + " --json");
            CHECK(decoded.status == direct.status);
            CHECK(decoded.err.empty());
            CHECK(one_document(decoded) == one_document(direct));
        }
    }
    TEST_CASE("--config X --url carries the config.json in #cfg= (no stale m=) and --from-url opens the same model") {
        // The page's form for a pasted config (docs/URL.md): query + "#cfg=" + base64url(text). Falcon-40B (60 layers,
        // 8 KV heads × 64) on two H100s; the link alone must give the same model, numbers and verdict.
        const std::string args = std::string("--config ") + KVCALC_TEST_DATA_DIR +
                                 "/configs/falcon-40b.json --gpu h100-80gb --tp 2 --max-ctx 2048 --max-num-seqs 8";
        const Run linked = kvcalc(args + " --url https://example.org/kvcalc/");
        CHECK(linked.status == 0);
        CHECK_FALSE(contains(linked.err, "cannot travel"));
        const auto at = linked.out.rfind("Link: ");
        REQUIRE_MESSAGE(at != std::string::npos, linked.out);
        std::string link = linked.out.substr(at + 6);
        while (!link.empty() && link.back() == '\n') link.pop_back();
        const std::string query = link.substr(0, link.find('#'));
        CHECK(query.find("m=") == std::string::npos);  // no catalog model beside the config
        CHECK(link.find("#cfg=") != std::string::npos);
        const Run direct = kvcalc(args + " --json");
        const Run decoded = kvcalc("--from-url " + clitest::shell_quote(link) + " --json");
        CHECK(decoded.status == direct.status);
        CHECK(decoded.err.empty());
        const json a = one_document(direct), b = one_document(decoded);
        CHECK(b["verdict"] == a["verdict"]);
        CHECK(b == a);
        // Without its fragment the link names no model of its own: the default, not Falcon and not a stale one.
        const Run bare = kvcalc("--from-url " + clitest::shell_quote(query) + " --json");
        // Regression: this read settings["model"], a key the report has not, which aborts a debug build.
        const json bare_settings = one_document(bare).at("settings");
        CHECK(bare_settings.at("model_id") != a.at("settings").at("model_id"));
        CHECK(bare_settings.at("display_name") != a.at("settings").at("display_name"));
    }
    TEST_CASE("--url with --json keeps stdout one document (link on stderr)") {
        const Run r = kvcalc(std::string(kDualTurbo20) + " --json --url https://x.example/");
        one_document(r);
        CHECK(contains(r.err, "https://x.example/?v=2"));
    }
    TEST_CASE("a link with unknown keys opens with a warning") {
        const Run r = kvcalc("--from-url 'https://x.example/?v=1&tp=2&colour=red&theme=dark'");
        CHECK(r.status == 0);
        CHECK(contains(r.err, "colour"));
        CHECK_FALSE(contains(r.err, "theme"));  // reserved for front ends
        CHECK(contains(r.out, "tensor_parallel_size=2"));
    }
}

TEST_SUITE("svg") {
    TEST_CASE("well-formed, one bar per card") {
        struct Case { const char* args; std::size_t bars; };
        for (const Case c : {Case{"--compose dual --vram 24 --gpus 2", 2}, Case{"--model qwen3.6-27b --max-ctx 32768 --vram 24", 1},
                             Case{"--compose dual4 --vram 24", 4}, Case{"--compose dual --vram 24 --gpus 4", 4},
                             Case{kDualTurbo20, 2}}) {
            const std::string path = clitest::temp_path("breakdown.svg");
            const Run r = kvcalc(std::string(c.args) + " --svg " + clitest::shell_quote(path));
            CHECK(r.status == 0);
            const std::string svg = clitest::read_file(path);
            CHECK_MESSAGE(clitest::xml_problem(svg).empty(), c.args << ": " << clitest::xml_problem(svg));
            CHECK_MESSAGE(count(svg, "class=\"bar\"") == c.bars, c.args);
            CHECK(contains(svg, ">VRAM "));    // "VRAM 25.77 GB": label and value on one line (no overlap)
            CHECK(contains(svg, ">budget "));
            CHECK(contains(svg, "GB"));
            std::remove(path.c_str());
        }
    }
    TEST_CASE("the checker itself rejects broken XML") {
        CHECK_FALSE(clitest::xml_problem("<a><b></a></b>").empty());
        CHECK_FALSE(clitest::xml_problem("<a x=1/>").empty());
        CHECK_FALSE(clitest::xml_problem("<a>x & y</a>").empty());
        CHECK_FALSE(clitest::xml_problem("<a/><b/>").empty());
        CHECK(clitest::xml_problem("<?xml version=\"1.0\"?>\n<a x='1'><b/>t &amp; u</a>\n").empty());
    }
    TEST_CASE("unwritable path is bad input") {
        CHECK(kvcalc("--svg /nonexistent/dir/x.svg").status == 2);
    }
}

TEST_SUITE("seed_commands") {
    TEST_CASE("the original's recommended commands") {
        CHECK(kvcalc(kDualTurbo20).status == 0);  // TIGHT (capped pool), checked field by field above
        const Run solve = kvcalc("--model gemma-4-31b --solve-max-ctx --tp 2 --kv-format int8_per_token_head --vram 24 --mem-util 0.92");
        CHECK(solve.status == 0);
        CHECK(contains(solve.out, "Largest max_model_len"));
        const Run cal = kvcalc("--calibration");
        CHECK(cal.status == 0);
        const Run br = kvcalc("--compose dual --vram 24 --gpus 2 --kv-breakdown");
        CHECK(br.status == 0);
        CHECK(contains(br.out, "Cache architecture breakdown"));
        CHECK(contains(br.out, "8.63"));  // the breakdown example's 8.59 GB in vLLM's 1,568-token blocks (see above)
        const Run seqs = kvcalc("--model qwen3.6-27b --max-ctx 32768 --sequences 2 --tp 2 --vram 24 --kv-breakdown");
        CHECK(seqs.status == 0);
        CHECK(contains(seqs.out, "Verdict: PASS"));
        CHECK(contains(seqs.out, "sequences=2"));
    }
    TEST_CASE("the original's usage lines and examples run") {
        CHECK(kvcalc("--compose dual-turbo --vram 24").status == 0);                       // PASS (booted, 19.8 measured)
        CHECK(kvcalc("--compose dual-turbo --kv-format fp8_e5m2 --vram 20").status == 0);  // capped pool → TIGHT (docs/SOURCES.md "KV-pool capping and the verdict")
        // --vram 24 means 24e9 B here as in the seed; one 180K sequence misses by 0.24 GB → the core says FAIL
        // (the original printed TIGHT; see docs/CLI.md "Differences"). Only check that it answers.
        const int s3 = kvcalc("--max-ctx 180000 --kv-format turboquant_3bit_nc --tp 1 --vram 24").status;
        const bool answered = s3 == 0 || s3 == 1;
        CHECK(answered);
        CHECK(kvcalc("--solve-max-ctx --tp 2 --kv-format fp8_e5m2 --vram 16").status == 0);  // the original's usage example
    }
}

TEST_SUITE("help") {
    TEST_CASE("--help lists every issue-4 flag with units and defaults") {
        const Run r = kvcalc("--help");
        for (const char* f : {"--model", "--config", "--engine", "--compose", "--vram", "--gpu", "--gpus", "--tp",
                              "--kv-format", "--max-ctx", "--max-num-seqs", "--sequences", "--mem-util", "--mtp",
                              "--no-mtp", "--drafter-gb", "--dflash-draft-gb", "--max-num-batched-tokens",
                              "--kv-breakdown", "--include-draft-kv", "--draft-kv-gb", "--compressed-layers",
                              "--compression-ratio", "--compressed-head-dim", "--indexer-ratio-layers",
                              "--indexer-compress-ratio", "--indexer-head-dim", "--indexer-format", "--solve-max-ctx",
                              "--solve-max-seqs", "--calibration", "--json", "--list-models", "--list-gpus",
                              "--list-composes", "--from-url", "--url", "--svg", "--version"}) {
            const bool listed = contains(r.out, std::string(f) + " ") || contains(r.out, std::string(f) + ",");
            CHECK_MESSAGE(listed, f);
        }
        CHECK(contains(r.out, "Default: 0 = the model's maximum"));  // vLLM's default, not the seed's 180000
        CHECK(contains(r.out, "decimal GB"));
        CHECK(contains(kvcalc("--version").out, "kvcalc "));
    }
}

TEST_SUITE("engine") {
    TEST_CASE("--engine llama.cpp prices weights, KV and the compute buffer, and says so") {
        // Llama 3.1 8B bf16 KV: 32 layers × 8 KV heads × 128 × 2 (K, V) × 2 B = 131,072 B per token.
        const Run r = kvcalc("--model llama-3.1-8b --gpu rtx-3090 --max-ctx 32768 --kv-format bf16 --engine llama.cpp --json");
        CHECK_MESSAGE(r.status == 0, r.err);
        const json j = one_document(r);
        CHECK(j["engine"] == "llama.cpp");
        CHECK(j["terms"]["kv_bytes_per_token"] == 131072.0);
        CHECK(j["terms"]["kv_growing_requested_bytes"] == 131072LL * 32768);
        bool noted = false;
        for (const auto& n : j["notes"]) noted = noted || n.get<std::string>().find("llama.cpp") != std::string::npos;
        CHECK(noted);
    }
}

TEST_SUITE("solve") {
    TEST_CASE("max_model_len solver works for a model whose context is shorter than the default length") {
        // Regression: the default max_model_len (180,000) was validated before solving, so Llama 3.1 8B
        // (max_position_embeddings 131,072) exited 2 unless --max-ctx was given.
        const Run r = kvcalc("--model llama-3.1-8b --gpu rtx-3090 --kv-format bf16 --mem-util 0.9 --solve-max-ctx --json");
        CHECK_MESSAGE(r.status == 0, r.err);
        const json j = one_document(r);
        const std::int64_t best = j["solvers"]["max_model_len"]["value"].get<std::int64_t>();
        // bf16 KV of Llama 3.1 8B: 32 layers × 8 KV heads × 128 × 2 (K, V) × 2 B = 131,072 B per token, so the
        // answer must be positive and leave room for one sequence below the model's 131,072 tokens.
        CHECK(best > 0);
        CHECK(best <= 131072);
        CHECK(j["terms"]["kv_bytes_per_token"] == 131072.0);
    }
}

TEST_SUITE("hostile_input") {
    TEST_CASE("invalid UTF-8 values, deep and huge configs, folders and empty files exit 2 without crashing") {
        // Regressions from the QA pass: each of these used to abort (134), segfault (139) or price the default
        // model silently.
        CHECK(kvcalc("--json --model \xff\xfe").status == 2);
        CHECK(kvcalc("--json --from-url '?v=1&dr=%ff&wv=%fe'").status == 2);
        CHECK(kvcalc("--config /dev/zero").status == 2);
        CHECK(kvcalc("--config /").status == 2);
        CHECK(kvcalc("--solve-max-ctx --max-ctx -1").status == 2);
    }
}

TEST_SUITE("fit_shop") {
    TEST_CASE("--fit MODEL:PRESET --card GPU is the preset's verdict on that card, with the booting length") {
        const Run r = kvcalc("--fit qwen3.6-27b:dual-turbo --card rtx-3090 --json");
        CHECK(r.status == 0);
        const json j = one_document(r);
        CHECK(j["fit"] == "qwen3.6-27b:dual-turbo");
        CHECK(j["settings"]["gpu"] == "rtx-3090");
        CHECK(j["settings"]["kv_cache_dtype"] == "turboquant_3bit_nc");  // the preset's
        // Same numbers as the plain prediction of that scenario.
        const json p = one_document(kvcalc("--compose qwen3.6-27b:dual-turbo --gpu rtx-3090 --json"));
        CHECK(j["verdict"] == p["verdict"]);
        CHECK(j["terms"] == p["terms"]);
        CHECK(j["solvers"]["max_model_len"]["ok"] == true);
        CHECK(kvcalc("--fit qwen3.6-27b:no-such-preset").status == 2);
        CHECK(kvcalc("--fit no-such-model").status == 2);
        CHECK(contains(kvcalc("--fit llama-3.1-8b --card h100-80gb --max-ctx 32768").out, "Largest max_model_len that boots here"));
    }
    TEST_CASE("without --max-ctx a model gets its own derived maximum, as vLLM does, and the report says so") {
        // Llama 3.1 8B's config.json: max_position_embeddings 131072.
        const Run r = kvcalc("--fit llama-3.1-8b --card rtx-4090 --json");
        CHECK(r.status != 2);
        CHECK(contains(r.out, "\"max_model_len\": 131072"));
        CHECK(contains(r.out, "max_model_len 131072 (not given: vLLM's default, the model's derived maximum, "
                              "max_position_embeddings 131072)"));
        // An explicit length above the model's limit is still an error naming both numbers.
        CHECK(kvcalc("--model llama-3.1-8b --max-ctx 180000").status == 2);
    }
    TEST_CASE("--fit-all --card GPU gives one verdict per preset") {
        const Run r = kvcalc("--fit-all --card rtx-3090 --model qwen3.6-27b --json");
        const json j = one_document(r);
        REQUIRE(j["fits"].is_array());
        CHECK(j["fits"].size() >= 11);  // the Qwen 3.6 27B presets (docs/SOURCES.md "Compose presets")
        for (const auto& f : j["fits"]) {
            CHECK(f["preset"].get<std::string>().rfind("qwen3.6-27b:", 0) == 0);
            CHECK(f["settings"]["gpu"] == "rtx-3090");
        }
        CHECK(contains(kvcalc("--fit-all --card rtx-3090").out, "gemma-4-31b:"));
    }
    TEST_CASE("--shop --every-count lists every catalog GPU at 1, 2, 4 and 8 cards") {
        const Run r = kvcalc("--shop --every-count --model llama-3.1-8b --max-ctx 32768 --json");
        CHECK(r.status == 0);
        const json j = one_document(r);
        const json list = one_document(kvcalc("--list-gpus --json"));
        CHECK(j["rows"].size() == 4 * list["gpus"].size());
        // The row for 1 × RTX 4090 is the prediction of that scenario.
        const json p = one_document(kvcalc("--model llama-3.1-8b --max-ctx 32768 --gpu rtx-4090 --json"));
        for (const auto& row : j["rows"])
            if (row["gpu"] == "rtx-4090" && row["cards"] == 1) CHECK(row["verdict"] == p["verdict"]);
        CHECK(contains(kvcalc("--shop --model llama-3.1-8b --max-ctx 32768").out, "boots up to"));
    }
    TEST_CASE("--shop --tp N prices every GPU at N cards and that tensor_parallel_size; without --tp the header says TP = cards") {
        // Llama 3.1 8B in bf16: 8.03e9 parameters × 2 B = 16.06 GB of weights on one card at TP 1. So at --tp 1 no
        // card under 16 GB can load it (FAIL), where the sweep would have shown it at 2 or more cards.
        const Run r = kvcalc("--shop --tp 1 --model llama-3.1-8b --max-ctx 8192 --kv-format bf16 --json");
        CHECK(r.status == 0);
        const json j = one_document(r);
        const json list = one_document(kvcalc("--list-gpus --json"));
        CHECK(j["card_counts"] == json::array({1}));
        CHECK(j["rows"].size() == list["gpus"].size());  // one row per GPU, each at 1 card
        int small = 0;
        for (const auto& row : j["rows"]) {
            CHECK(row["cards"] == 1);
            CHECK(row["tensor_parallel_size"] == 1);
            for (const auto& g : list["gpus"])
                if (g["id"] == row["gpu"] && g["vram_bytes"].get<std::int64_t>() < 16'060'000'000) {
                    CHECK_MESSAGE(row["verdict"] == "FAIL", row["gpu"]);
                    ++small;
                }
        }
        CHECK(small > 0);  // the catalog has cards under 16 GB (12 GB RTX 3060 …): the check above ran
        const json swept = one_document(kvcalc("--shop --model llama-3.1-8b --max-ctx 8192 --kv-format bf16 --json"));
        CHECK(swept["card_counts"] == json::array({1, 2, 4, 8}));
        bool more_cards = false;
        for (const auto& row : swept["rows"]) {
            CHECK(row["tensor_parallel_size"] == row["cards"]);
            more_cards = more_cards || row["cards"] != 1;
        }
        CHECK(more_cards);  // without --tp the small cards are shown at 2+ cards: the flag changed the rows

        // --tp 2 on one GPU: one row, 2 cards, the verdict of that exact scenario.
        const json one = one_document(kvcalc("--shop --tp 2 --gpu rtx-4090 --model llama-3.1-8b --max-ctx 32768 --json"));
        REQUIRE(one["rows"].size() == 1);
        CHECK(one["rows"][0]["cards"] == 2);
        const json p = one_document(kvcalc("--tp 2 --gpu rtx-4090 --model llama-3.1-8b --max-ctx 32768 --json"));
        CHECK(one["rows"][0]["verdict"] == p["verdict"]);

        CHECK(contains(kvcalc("--shop --tp 2 --model llama-3.1-8b --max-ctx 32768").out,
                       "Every GPU at tensor_parallel_size 2 (--tp): 2 cards each."));
        CHECK(contains(kvcalc("--shop --model llama-3.1-8b --max-ctx 32768").out,
                       "Each row runs tensor_parallel_size = its card count"));
    }
    TEST_CASE("--fit without a card says which VRAM it priced: 24 GB, the documented default") {
        // docs/CLI.md, --vram: "Default: 24 when no gpu" (decimal GB: 24e9 B = 22.35 GiB).
        const Run r = kvcalc("--fit llama-3.1-8b --max-ctx 8192");
        CHECK(contains(r.out, "Note: no --card given: priced on 24.00 GB (22.35 GiB) per card, kvcalc's default VRAM"));
        const json j = one_document(kvcalc("--fit llama-3.1-8b --max-ctx 8192 --json"));
        CHECK(j["assumed_vram_gb"] == 24.0);
        CHECK(j["settings"]["vram_bytes"] == 24'000'000'000LL);
        // A card or a VRAM given: nothing assumed.
        CHECK(one_document(kvcalc("--fit llama-3.1-8b --max-ctx 8192 --card rtx-4090 --json"))["assumed_vram_gb"].is_null());
        CHECK(one_document(kvcalc("--fit llama-3.1-8b --max-ctx 8192 --vram 48 --json"))["assumed_vram_gb"].is_null());
        CHECK_FALSE(contains(kvcalc("--fit llama-3.1-8b --max-ctx 8192 --card rtx-4090").out, "no --card given"));
    }
}

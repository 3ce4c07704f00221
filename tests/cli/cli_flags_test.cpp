// The flag parser (cli/flags.cpp) as the user meets it: unknown or misspelt flags get a suggestion, missing values,
// contradictory or empty flags and bad links are errors naming the flag, and hostile input stays bounded.
#include <doctest/doctest.h>

#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "cli_run.h"
#include "xml_check.h"
#include "flags.h"
#include "kvcalc/catalog/catalog.h"
#include "kvcalc/deployment/suggest.h"
#include "kvcalc/deployment/input_limits.h"
#include <sstream>
#include <set>
#include <vector>
#include "kvcalc/base/gpu_catalog.h"

using clitest::Run;

namespace {

bool contains(const std::string& hay, const std::string& needle) { return hay.find(needle) != std::string::npos; }


std::string write_temp(const std::string& name, const std::string& text) {
    const std::string path = clitest::temp_path(name);
    std::ofstream(path, std::ios::binary) << text;
    return path;
}

// A Llama-3.1-8B-shaped config.json (its real dims) with a chosen name and max_position_embeddings.
std::string config(const std::string& architecture, int max_position) {
    return R"({"architectures":[")" + architecture +
           R"("],"model_type":"llama","num_hidden_layers":32,"hidden_size":4096,"num_attention_heads":32,)"
           R"("num_key_value_heads":8,"head_dim":128,"vocab_size":128256,"intermediate_size":14336,)"
           R"("max_position_embeddings":)" + std::to_string(max_position) + R"(,"torch_dtype":"bfloat16"})";
}

Run cli(const std::string& args) { return clitest::kvcalc(args); }

/// Every flag spelling --help lists (the left column: "  --max-model-len, --max-ctx TOKENS").
std::vector<std::string> help_flags() {
    std::vector<std::string> out;
    std::istringstream in(kvcli::help_text());
    for (std::string line; std::getline(in, line);) {
        if (line.rfind("  -", 0) != 0) continue;
        std::istringstream words(line);
        for (std::string w; words >> w && w.size() > 1 && w[0] == '-';) {  // up to the metavar or the help
            if (w.back() == ',') w.pop_back();
            out.push_back(w);
        }
    }
    return out;
}

/// The name in "did you mean NAME?", "" when there is none.
std::string suggestion(const std::string& error) {
    const auto at = error.find("did you mean ");
    if (at == std::string::npos) return "";
    const auto from = at + 13;
    return error.substr(from, error.find('?', from) - from);
}

}  // namespace

TEST_SUITE("flags") {

    TEST_CASE("--solve-max-ctx answers for a model with less than 1,024 tokens of context") {
        // Llama-8B dims with max_position_embeddings 512 on an H100: KV is 131,072 B/token, so the 512 cap binds.
        const std::string path = write_temp("tiny_ctx.json", config("LlamaForCausalLM", 512));
        const Run r = cli("--config " + clitest::shell_quote(path) + " --gpu h100-80gb --max-ctx 256 --solve-max-ctx --json");
        CHECK(r.status == 0);
        const auto j = nlohmann::json::parse(r.out);
        CHECK(j["solvers"]["max_model_len"]["value"] == 512);
        CHECK(j["solvers"]["max_model_len"]["bound"] == "max_position_embeddings");
        std::remove(path.c_str());
    }

    TEST_CASE("--sequences and --max-num-seqs that disagree are an error; agreeing or repeated ones are not") {
        const Run bad = cli("--model llama-3.1-8b --gpu h100-80gb --max-ctx 8192 --max-num-seqs 4 --sequences 8");
        CHECK(bad.status == 2);
        CHECK(contains(bad.err, "--max-num-seqs 4"));
        CHECK(contains(bad.err, "--sequences 8"));
        CHECK(contains(bad.err, "max_num_seqs"));
        CHECK(cli("--model llama-3.1-8b --gpu h100-80gb --max-ctx 8192 --max-num-seqs 4 --sequences 4").status == 0);
        CHECK(cli("--model llama-3.1-8b --gpu h100-80gb --max-ctx 8192 --sequences 2 --sequences 4").status == 0);
    }

    TEST_CASE("a flag where a value belongs says the value is missing") {
        const Run r = cli("--model --tp 2");
        CHECK(r.status == 2);
        CHECK(contains(r.err, "--model needs a value"));
        CHECK(contains(r.err, "--tp"));
    }

    TEST_CASE("--svg failures give the reason") {
        const Run r = cli("--model llama-3.1-8b --gpu h100-80gb --max-ctx 8192 --svg /nonexistent/dir/x.svg");
        CHECK(r.status == 2);
        CHECK(contains(r.err, "No such file or directory"));
    }

    TEST_CASE("a 100 KB link of one repeated key opens in well under a second with two warnings") {
        std::string link;
        for (int i = 0; i < 20000; ++i) link += "tp=1&";
        const Run r = cli("--from-url " + clitest::shell_quote(link) + " --model llama-3.1-8b --gpu h100-80gb --max-ctx 4096");
        CHECK(r.status == 0);
        std::size_t warnings = 0;
        for (auto p = r.err.find("warning"); p != std::string::npos; p = r.err.find("warning", p + 1)) ++warnings;
        CHECK(warnings == 3);  // too long, too many parameters, repeated key
    }

    TEST_CASE("--config with --model warns that --model is ignored") {
        const std::string path = write_temp("both.json", config("LlamaForCausalLM", 8192));
        const Run r = cli("--config " + clitest::shell_quote(path) + " --model qwen3.6-27b --gpu h100-80gb --max-ctx 8192");
        CHECK(r.status == 0);
        CHECK(contains(r.err, "--model is ignored"));
        std::remove(path.c_str());
    }
}

// QA breaker: a link's problem names the link key; empty values and contradictions are errors.
TEST_SUITE("bad_input") {
    TEST_CASE("--from-url: a value predict() rejects is an error naming the link key, exit 2") {
        // Llama 3.1 8B's 32 attention heads and 8 KV heads: tensor_parallel_size 3 splits neither.
        const Run r = cli("--from-url 'v=2&m=llama-3.1-8b&g=rtx-4090&ctx=8192&tp=3'");
        CHECK(r.status == 2);
        CHECK(contains(r.err, "link key \"tp\""));
        CHECK_FALSE(contains(r.err, "--tensor-parallel-size"));
        // A flag typed with the link overrides it: no link error, the run goes on.
        const Run fixed = cli("--from-url 'v=2&m=llama-3.1-8b&g=rtx-4090&ctx=8192&tp=3' --tp 2 --gpus 2");
        CHECK_FALSE(contains(fixed.err, "link key"));
        CHECK(fixed.status != 2);
    }

    TEST_CASE("--from-url whose model key cannot be read is an error, not the default model priced") {
        // Each of the link's three model sources, with a value no catalog id, repo or GGUF path can be.
        for (const char* link : {"v=1&m=nonexist", "v=1&gguf=foo", "v=1&hf=bad%20repo"}) {
            INFO(link);
            const Run r = cli(std::string("--from-url '") + link + "' --gpu rtx-4090");
            CHECK(r.status == 2);
            CHECK(contains(r.err, "no model is priced"));
            CHECK_FALSE(contains(r.out, "Qwen 3.6 27B"));  // the default model
        }
        // A model typed beside the link chooses it: the bad key is only a warning then.
        const Run typed = cli("--from-url 'v=1&m=nonexist' --model llama-3.1-8b --gpu rtx-4090 --max-ctx 4096");
        CHECK(typed.status != 2);
        CHECK(contains(typed.out, "Llama 3.1 8B"));
    }

    TEST_CASE("--gpu '' and --engine '' are errors, not the 24 GB / vllm defaults; --mtp with --no-mtp too") {
        for (const char* args : {"--model llama-3.1-8b --gpu ''", "--model llama-3.1-8b --engine ''",
                                 "--model qwen3.6-27b --mtp --no-mtp"}) {
            INFO(args);
            const Run r = cli(args);
            CHECK(r.status == 2);
        }
    }

    TEST_CASE("--mem-util 1e-400 is out of range, not vLLM's default") {
        const Run r = cli("--model llama-3.1-8b --gpu rtx-4090 --max-ctx 8192 --mem-util 1e-400");
        CHECK(r.status == 2);
    }
}

TEST_SUITE("bad_input") {
    TEST_CASE("--config past the core's config_json limit is refused naming --config and the path; CLI.md quotes it") {
        const std::size_t limit = kvcalc::kMaxConfigJsonBytes;
        const std::string mib = std::to_string(limit >> 20) + " MiB";
        std::string text = "{" + std::string(limit - 2, ' ') + "}";  // exactly the limit: read and handed on
        const std::string at = clitest::temp_path("at_limit.json");
        std::ofstream(at, std::ios::binary) << text;
        Run r = cli("--config " + clitest::shell_quote(at) + " --gpu h100-80gb --max-ctx 8192");
        CHECK_FALSE(contains(r.err, "larger than"));
        text.insert(1, " ");  // one byte over
        const std::string over = clitest::temp_path("over_limit.json");
        std::ofstream(over, std::ios::binary) << text;
        r = cli("--config " + clitest::shell_quote(over) + " --gpu h100-80gb --max-ctx 8192");
        CHECK(r.status == 2);
        CHECK(contains(r.err, "--config"));
        CHECK(contains(r.err, over));
        CHECK(contains(r.err, "larger than " + mib));
        CHECK_FALSE(contains(r.err, "config_json"));
        // docs/CLI.md states the same number (and no other) for --config.
        const std::string doc = clitest::read_file(std::string(KVCALC_TEST_DATA_DIR) + "/../../docs/CLI.md");
        REQUIRE_FALSE(doc.empty());
        CHECK(contains(doc, "(at most " + mib + ", `kMaxConfigJsonBytes`"));
        CHECK(contains(doc, "over-" + std::to_string(limit >> 20) + "-MiB `--config`"));
        CHECK_FALSE(contains(doc, "16 MiB"));
    }

    TEST_CASE("QA: --modle gets 'did you mean --model?'; --frob gets no suggestion") {
        const Run r = cli("--modle qwen3.6-27b");
        CHECK(r.status == 2);
        CHECK(contains(r.err, "unknown flag '--modle'; did you mean --model?"));
        const Run frob = cli("--frob");
        CHECK(frob.status == 2);
        CHECK(contains(frob.err, "unknown flag '--frob'"));
        CHECK_FALSE(contains(frob.err, "did you mean"));
        for (const char* word : {"--banana", "--output", "--xyz", "--verbose"})
            CHECK_MESSAGE(suggestion(kvcli::parse_args({word}).error).empty(), word);
    }

    TEST_CASE("every flag: one swap, one dropped or one doubled letter suggests it (or a flag as near)") {
        const std::vector<std::string> names = help_flags();
        REQUIRE(names.size() > 40);
        const std::set<std::string> known(names.begin(), names.end());
        int typos = 0;
        for (const std::string& flag : names) {
            const std::size_t from = flag.find_first_not_of('-');
            if (flag.size() - from < 2) continue;  // -h: no one-letter suggestions
            for (std::size_t i = from; i < flag.size(); ++i) {
                std::vector<std::string> variants;
                std::string t = flag;
                if (i + 1 < flag.size() && flag[i] != flag[i + 1]) {
                    std::swap(t[i], t[i + 1]);
                    variants.push_back(t);
                }
                variants.push_back(flag.substr(0, i) + flag.substr(i + 1));
                variants.push_back(flag.substr(0, i + 1) + flag.substr(i));
                for (const std::string& typo : variants) {
                    if (known.count(typo) || kvcalc::typo_distance(typo, "--") == 0) continue;  // another real flag
                    if (typo.size() - std::min(typo.size(), typo.find_first_not_of('-')) < 2) continue;  // one letter left
                    const std::string err = kvcli::parse_args({typo, "1"}).error;
                    if (!contains(err, "unknown flag")) continue;  // '_' spellings and such resolve
                    ++typos;
                    const std::string near = suggestion(err);
                    INFO(flag, " typed as ", typo, ": ", err);
                    REQUIRE_FALSE(near.empty());
                    CHECK(known.count(near) == 1);
                    CHECK(kvcalc::typo_distance(typo, near) <= kvcalc::typo_distance(typo, flag));
                }
            }
        }
        CHECK(typos > 500);
    }

    TEST_CASE("a catalog id one typo off is suggested before the list: --gpu rtx-3009, --model qwen3.6-72b") {
        const Run gpu = cli("--gpu rtx-3009");
        CHECK(gpu.status == 2);
        CHECK(contains(gpu.err, "--gpu: 'rtx-3009' is not one of the valid values (did you mean rtx-3090?)"));
        CHECK(contains(gpu.err, "rtx-4090"));  // the list still follows
        CHECK(contains(kvcli::parse_args({"--model", "qwen3.6-72b"}).error, "(did you mean qwen3.6-27b?)"));
        CHECK(contains(kvcli::parse_args({"--kv-cache-dtype", "fp8_e4m4"}).error, "(did you mean fp8_e4m3?)"));
        CHECK(contains(kvcli::parse_args({"--engine", "vlm"}).error, "(did you mean vllm?)"));
        CHECK(suggestion(kvcli::parse_args({"--gpu", "banana"}).error).empty());
        for (const auto& g : kvcalc::gpu_catalog()) {  // each id with its last two characters swapped
            std::string typo = g.id;
            std::swap(typo[typo.size() - 1], typo[typo.size() - 2]);
            if (kvcalc::find_gpu(typo)) continue;
            const std::string near = suggestion(kvcli::parse_args({"--gpu", typo}).error);
            INFO(g.id, " typed as ", typo);
            CHECK(kvcalc::typo_distance(typo, near) <= 1);
        }
    }

    TEST_CASE("QA: --compose nope lists the valid presets, also for a model that has none") {
        const Run r = cli("--compose nope");
        CHECK(r.status == 2);
        CHECK(contains(r.err, "--compose: 'nope' is not a preset; valid: qwen3.6-27b:minimal, "));
        CHECK(contains(r.err, "gemma-4-31b:vllm/gemma-bf16-mtp"));
        // Llama 3.1 8B has no serving presets: the message says so and still lists what --compose takes.
        const Run none = cli("--model llama-3.1-8b --compose nope");
        CHECK(none.status == 2);
        CHECK(contains(none.err, "model 'llama-3.1-8b' has no serving presets"));
        CHECK(contains(none.err, "valid: qwen3.6-27b:minimal, "));
        CHECK_FALSE(contains(none.err, "valid: \n"));
        CHECK(none.err.back() == '\n');
        CHECK(none.err[none.err.size() - 2] != ' ');
        // A model with presets lists only its own, and a typo of one is named.
        const std::string gemma = kvcli::parse_args({"--model", "gemma-4-31b", "--compose", "gemma-bf16-mpt"}).error;
        CHECK(contains(gemma, "is not a preset of model 'gemma-4-31b'; did you mean gemma-4-31b:vllm/gemma-bf16-mtp?"));
        CHECK(contains(gemma, "valid: gemma-4-31b:vllm/gemma-bf16-mtp, gemma-4-31b:vllm/gemma-int8-mtp"));
        CHECK_FALSE(contains(gemma, "qwen3.6-27b:"));
        CHECK(contains(kvcli::parse_args({"--compose", "dual-trubo"}).error, "did you mean qwen3.6-27b:dual-turbo?"));
    }
}

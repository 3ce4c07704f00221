// Bugs from the new-user QA pass, each asserted on what the user sees: the exit status and the text on stdout or
// stderr of the real binary (or the parser's own message, which main() prints unchanged).
#include <doctest/doctest.h>

#include <algorithm>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "cli_run.h"
#include "flags.h"
#include "kvcalc/catalog.h"
#include "kvcalc/gpu_catalog.h"
#include "kvcalc/suggest.h"


using clitest::Run;

namespace {

bool contains(const std::string& hay, const std::string& needle) { return hay.find(needle) != std::string::npos; }

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

TEST_SUITE("bad_input") {
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

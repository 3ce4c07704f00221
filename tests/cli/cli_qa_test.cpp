// Bugs from the new-user QA pass, each asserted on what the user sees: the exit status and the text on stdout or
// stderr of the real binary (or the parser's own message, which main() prints unchanged).
#include <doctest/doctest.h>

#include <algorithm>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "cli_run.h"
#include <nlohmann/json.hpp>

#include "flags.h"
#include "svg.h"
#include "kvcalc/deployment/predict.h"
#include "kvcalc/catalog/catalog.h"
#include "kvcalc/base/gpu_catalog.h"
#include "kvcalc/deployment/suggest.h"
#include "kvcalc/deployment/input_limits.h"


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

TEST_SUITE("fit_shop") {
    TEST_CASE("QA: --fit-all without a card is an error saying what to pass, not a silent 24 GB") {
        const Run r = cli("--fit-all");
        CHECK(r.status == 2);
        CHECK(r.out.empty());
        CHECK(contains(r.err, "--fit-all needs the card: give --card GPU"));
        CHECK(contains(r.err, "--vram GB or --vram-gib GiB"));
        // With the card, the table says which card it answers for: RTX 3090 is 24 GiB = 25.77 GB.
        const Run ok = cli("--fit-all --card rtx-3090 --model qwen3.6-27b");
        CHECK(ok.status != 2);
        CHECK(contains(ok.out, "Every preset on rtx-3090, 25.77 GB (24.00 GiB) per card"));
        const Run vram = cli("--fit-all --vram 20 --model qwen3.6-27b");
        CHECK(contains(vram.out, "Every preset on cards of 20.00 GB (18.63 GiB) per card"));
    }

    TEST_CASE("QA: --shop --gpu X shows that GPU at 1, 2, 4 and 8 cards; --vram with --shop is an error") {
        const Run r = cli("--shop --gpu rtx-4090 --model llama-3.1-8b --max-ctx 32768 --json");
        CHECK(r.status == 0);
        const auto j = nlohmann::json::parse(r.out);
        REQUIRE(j["rows"].size() == 4);
        std::set<int> counts;
        for (const auto& row : j["rows"]) {
            CHECK(row["gpu"] == "rtx-4090");
            counts.insert(row["cards"].get<int>());
        }
        CHECK(counts == std::set<int>{1, 2, 4, 8});
        CHECK(j["view"] == "one_gpu");
        const Run text = cli("--shop --card 4090 --model llama-3.1-8b --max-ctx 32768");  // an alias works too
        CHECK(contains(text.out, "One GPU (--gpu) at 1, 2, 4 and 8 cards."));
        CHECK_FALSE(contains(text.out, "rtx-3090"));
        const Run vram = cli("--shop --vram 24 --model llama-3.1-8b");
        CHECK(vram.status == 2);
        CHECK(contains(vram.err, "--vram with --shop"));
        CHECK(contains(vram.err, "--gpu ID"));
    }

    TEST_CASE("QA: --shop prints one row per GPU in buy order, as the page does; --every-count all of them") {
        const Run r = cli("--shop --model llama-3.1-8b --max-ctx 32768 --kv-format fp8_e4m3 --json");
        REQUIRE(r.status == 0);
        const auto j = nlohmann::json::parse(r.out);
        const auto gpus = kvcalc::gpu_catalog();
        CHECK(j["rows"].size() == gpus.size());  // was 160 rows, repeats and all
        CHECK(j["view"] == "best_per_gpu");
        std::set<std::string> seen;
        int last_rank = -1;
        std::int64_t last_total = 0;
        for (const auto& row : j["rows"]) {
            CHECK(seen.insert(row["gpu"].get<std::string>()).second);
            const std::string v = row["verdict"];
            const int rank = !row["valid"].get<bool>() || !row["runs"].get<bool>() ? 3
                             : v == "PASS" ? 0 : v == "TIGHT" ? 1 : 2;
            const std::int64_t total = row["total_vram_bytes"];
            CHECK(rank >= last_rank);
            if (rank == last_rank) CHECK(total >= last_total);
            last_rank = rank;
            last_total = total;
        }
        // The first PASS is the least VRAM that passes: Llama 3.1 8B (16.06 GB of bf16 weights) at 32K with
        // fp8 KV cannot pass on one 12 GB card, so the first row has more than 12 GB in all.
        CHECK(j["rows"][0]["verdict"] == "PASS");
        CHECK(j["rows"][0]["total_vram_bytes"].get<std::int64_t>() > 12LL * 1024 * 1024 * 1024);
        const Run all = cli("--shop --every-count --model llama-3.1-8b --max-ctx 32768 --kv-format fp8_e4m3 --json");
        CHECK(nlohmann::json::parse(all.out)["rows"].size() == 4 * gpus.size());
        const Run text = cli("--shop --model llama-3.1-8b --max-ctx 32768 --kv-format fp8_e4m3");
        CHECK(contains(text.out, "One row per GPU, at the fewest cards (1, 2, 4, 8) that pass, else boot"));
        CHECK(contains(text.out, "total GB"));
    }

    TEST_CASE("QA: --shop with kv_cache_dtype auto prices each card in the model's dtype there") {
        const Run r = cli("--shop --every-count --model gemma-3-12b --kv-cache-dtype auto --max-ctx 8192 --json");
        REQUIRE(r.status == 0);
        const auto j = nlohmann::json::parse(r.out);
        bool t4 = false, a100 = false;
        for (const auto& row : j["rows"]) {
            if (row["gpu"] == "t4" && row["cards"] == 1) {  // sm_75: no bfloat16, and vLLM refuses float16 for gemma3
                t4 = true;
                CHECK(row["valid"] == false);
                CHECK(contains(row["note"].get<std::string>(), "float32"));
            }
            if (row["gpu"] == "a100-80gb" && row["cards"] == 1) {
                a100 = true;
                CHECK(row["kv_cache_dtype"] == "bf16");
            }
        }
        CHECK((t4 && a100));
        const Run text = cli("--shop --model llama-3.1-8b --kv-cache-dtype auto --max-ctx 8192 --gpu t4");
        CHECK(contains(text.out, "kv_cache_dtype auto (the model's dtype on each card)"));
        CHECK(contains(text.out, " fp16 "));  // T4: bfloat16 Llama runs as float16
    }
}

TEST_SUITE("engine") {
    TEST_CASE("QA: the pool's requests, the reason and vLLM's 'Maximum concurrency' print one number one way") {
        // Qwen3 8B, 32K, 64 sequences on an RTX 3090: the pool holds 2.845... requests; floored it read 2.84 next
        // to vLLM's %.2f "2.85x".
        for (const char* gpu : {"rtx-3090", "rtx-4090", "l4", "a100-40gb"}) {
            // fp8_e5m2 at 0.95, the seed CLI's settings the pool above was worked at
            const Run r = cli(std::string("--model qwen3-8b --max-ctx 32768 --max-num-seqs 64 --kv-format fp8_e5m2 "
                                          "--mem-util 0.95 --gpu ") + gpu);
            INFO(std::string(gpu), "\n", r.out);
            const auto pool = r.out.find("Full-length requests the pool holds: ");
            const auto vllm = r.out.find("tokens per request: ");
            REQUIRE(pool != std::string::npos);
            REQUIRE(vllm != std::string::npos);
            const std::string a = r.out.substr(pool + 37, r.out.find('\n', pool) - pool - 37);
            const std::string b = r.out.substr(vllm + 20, r.out.find('x', vllm + 20) - vllm - 20);
            CHECK(a == b);
            CHECK(contains(r.out, "about " + a + " full-length sequences"));
        }
    }

    TEST_CASE("QA: a --config model's command names its Hub id, or a placeholder folder, never config.json") {
        const std::string dir = std::string(KVCALC_TEST_DATA_DIR) + "/configs/";
        const Run hub = cli("--config " + dir + "chatglm3-6b.json --vram 80 --max-ctx 4096");
        CHECK(contains(hub.out, "vllm serve THUDM/chatglm3-6b \\\n"));  // its _name_or_path
        const Run local = cli("--config " + dir + "mistral-7b-instruct.json --vram 80 --max-ctx 4096");
        CHECK(contains(local.out, "vllm serve <path-to-model-dir> \\\n"));  // "./workspace/..." is a local folder
        CHECK(contains(local.out, "# <path-to-model-dir>: the folder with this config.json and the weights"));
        for (const Run* r : {&hub, &local}) CHECK_FALSE(contains(r->out, "serve config.json"));
    }
}

TEST_SUITE("svg") {
    TEST_CASE("QA: SVG labels never overlap: VRAM 25.77 GB and budget 24.48 GB on an RTX 3090, every model") {
        int drawings = 0;
        for (const auto& m : kvcalc::model_catalog()) {
            for (const char* gpu : {"rtx-3090", "rtx-4090", "a100-80gb", "h100-80gb", "rtx-3060-12gb"}) {
                for (int tp : {1, 2}) {
                    kvcalc::Scenario s;
                    s.model_id = m.id;
                    s.gpu = gpu;
                    s.tensor_parallel_size = tp;
                    s.gpus = tp == 2 ? 4 : 0;  // two idle cards as well
                    s.max_model_len = std::min<std::int64_t>(32768, m.max_position_embeddings);
                    const kvcalc::Report r = kvcalc::predict(s);
                    if (!r.ok) continue;
                    ++drawings;
                    const kvcli::SvgLayout l = kvcli::svg_layout(r);
                    INFO(m.id, " on ", tp, " x ", std::string(gpu));
                    for (std::size_t i = 0; i < l.texts.size(); ++i) {
                        const auto& a = l.texts[i];
                        CHECK(a.x0 >= 0);
                        CHECK(a.y0 >= 0);
                        CHECK(a.x1 <= l.width);
                        CHECK(a.y1 <= l.height);
                        for (std::size_t k = i + 1; k < l.texts.size(); ++k) {
                            const auto& b = l.texts[k];
                            const bool apart = a.x1 <= b.x0 || b.x1 <= a.x0 || a.y1 <= b.y0 || b.y1 <= a.y0;
                            CHECK_MESSAGE(apart, "'" << a.text << "' overlaps '" << b.text << "'");
                        }
                        for (const auto& sw : l.swatches) {
                            const bool apart = a.x1 <= sw.x || sw.x + sw.size <= a.x0 || a.y1 <= sw.y ||
                                               sw.y + sw.size <= a.y0;
                            CHECK_MESSAGE(apart, "'" << a.text << "' overlaps a legend square");
                        }
                    }
                }
            }
        }
        CHECK(drawings > 100);
        // The QA case: 24 GiB = 25.77 GB, and the budget 0.95 × that = 24.48 GB, 4.4 px apart on the plot.
        kvcalc::Scenario qa;  // at the seed CLI's settings, as the QA ran it
        qa.gpu = "rtx-3090";
        qa.kv_cache_dtype = "fp8_e5m2";
        qa.max_model_len = 180000;
        qa.max_num_seqs = 1;
        qa.gpu_memory_utilization = 0.95;
        const kvcli::SvgLayout l = kvcli::svg_layout(kvcalc::predict(qa));
        int found = 0;
        for (const auto& t : l.texts) found += t.text == "VRAM 25.77 GB" || t.text == "budget 24.48 GB";
        CHECK(found == 2);
    }
}

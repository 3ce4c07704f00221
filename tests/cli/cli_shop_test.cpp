// --fit-all and --shop (cli/flags.cpp, the core's sweeps): what the user sees, the exit status and the rows on stdout
// or the error on stderr of the real binary.
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



}  // namespace

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


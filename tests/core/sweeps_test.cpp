// GPU shopping rows under vLLM's default max_num_seqs: each row is the scenario on that card, with that card's
// own vLLM defaults, and the verdict asks what vLLM asks at start-up (one max_model_len request).
#include <doctest/doctest.h>

#include <algorithm>
#include <set>
#include <tuple>

#include "kvcalc/base/gpu_catalog.h"
#include "kvcalc/deployment/predict.h"
#include "kvcalc/deployment/solver.h"
#include "kvcalc/deployment/sweeps.h"
#include <nlohmann/json.hpp>
#include "kvcalc/io/api.h"

using namespace kvcalc;
using nlohmann::json;

namespace {

/// The page's landing scenario (imgui_ui/model_lookup.cpp): Llama 3.1 8B, 32K, every vLLM setting left to vLLM.
Scenario llama8b_defaults(const char* gpu) {
    Scenario s;
    s.model_id = "llama-3.1-8b";
    s.gpu = gpu;
    s.kv_cache_dtype = "bf16";
    s.max_model_len = 32768;
    s.max_num_seqs = 0;
    s.gpu_memory_utilization = 0;
    return s;
}

const GpuSpec& gpu(const char* id) { return *find_gpu(id); }

Scenario llama8b(const char* kv, std::int64_t ctx) {
    Scenario s;
    s.model_id = "llama-3.1-8b";
    s.kv_cache_dtype = kv;
    s.max_model_len = ctx;
    s.max_num_seqs = 4;
    return s;
}

const ShopRow& row_of(const std::vector<ShopRow>& rows, const char* gpu, int cards) {
    for (const ShopRow& r : rows)
        if (r.gpu_id == gpu && r.cards == cards) return r;
    FAIL("no row " << gpu << " x " << cards);
    return rows.front();
}

nlohmann::json eval(const std::string& request) { return nlohmann::json::parse(evaluate_json(request)); }

}  // namespace

TEST_SUITE("GPU shopping") {
    TEST_CASE("vLLM's default max_num_seqs is each row's own card's: 1024 on >= 70 GiB cards except A100, else 256") {
        // vllm/engine/arg_utils.py get_batch_defaults: device_memory >= 70 GiB and "a100" not in the name -> 1024
        // sequences and 8192 batched tokens (vllm serve), else 256 and 2048.
        CHECK(predict(llama8b_defaults("h100-80gb")).settings.max_num_seqs == 1024);
        CHECK(predict(llama8b_defaults("b200")).settings.max_num_seqs == 1024);
        CHECK(predict(llama8b_defaults("a100-80gb")).settings.max_num_seqs == 256);
        CHECK(predict(llama8b_defaults("rtx-4090")).settings.max_num_seqs == 256);

        // The list starts with a small card, as the page's does (its scenario's card is an RTX 4090).
        const Scenario s = llama8b_defaults("rtx-4090");
        const std::vector<GpuSpec> cards{gpu("rtx-4090"), gpu("h100-80gb"), gpu("a100-80gb"), gpu("b200"), gpu("l40s")};
        const std::vector<ShopRow> rows = shopping(s, cards, {1, 2});
        REQUIRE(rows.size() == cards.size() * 2);
        for (const ShopRow& row : rows) {
            Scenario one = s;
            one.gpu = row.gpu_id;
            one.tensor_parallel_size = row.cards;
            INFO(row.gpu_id, " x ", row.cards);
            const Report direct = predict(one);
            REQUIRE(direct.ok);
            REQUIRE(row.valid);
            CHECK(row.max_num_seqs == direct.settings.max_num_seqs);
            CHECK(row.max_num_seqs == (row.gpu_id == "h100-80gb" || row.gpu_id == "b200" ? 1024 : 256));
            CHECK(row.verdict == direct.verdict);
            CHECK(row.max_concurrency == doctest::Approx(direct.terms.max_concurrency));
            CHECK(row.limiting_term == direct.limiting_term);
            const SolveResult len = solve_max_model_len(one);
            CHECK(row.max_model_len == (len.ok ? len.value : 0));
        }
    }

    TEST_CASE("the verdict under vLLM's default max_num_seqs needs one full-length request, as vLLM does") {
        // vllm/v1/core/kv_cache_utils.py check_enough_kv_cache_memory: start-up fails only when one request of
        // max_model_len does not fit; max_num_seqs caps the batch the scheduler forms, the pool takes what fits.
        // Llama 3.1 8B keeps 32 layers x 8 KV heads x 128 dims x K+V x 2 B = 131,072 B per token in bf16, so one
        // 32K request is 4 GiB.
        const Report b200 = predict(llama8b_defaults("b200"));
        REQUIRE(b200.ok);
        CHECK(b200.terms.kv_requested_bytes == 32768LL * 131072);
        CHECK(b200.verdict == Verdict::pass);
        CHECK(b200.terms.max_concurrency > 30.0);  // 180 GB card: tens of 32K requests, not 1024
        CHECK(b200.effective_max_num_seqs == doctest::Approx(b200.terms.max_concurrency));

        // The QA run's "least VRAM that passes: 8x B200" for this 8B model (buy order: verdict, then total VRAM).
        // One card of 32 GB holds the 15 GiB of weights, vLLM's profiling peak and a 4 GiB request with room.
        const std::vector<ShopRow> rows = shopping(llama8b_defaults("rtx-4090"), gpu_catalog(), default_shop_counts());
        const ShopRow* least = nullptr;
        auto total = [](const ShopRow& r) { return gpu_catalog()[static_cast<std::size_t>(r.gpu_index)].vram_bytes * r.cards; };
        for (const ShopRow& r : rows)
            if (r.valid && r.runs && r.verdict == Verdict::pass && (!least || total(r) < total(*least))) least = &r;
        REQUIRE(least != nullptr);
        INFO(least->gpu_id, " x ", least->cards);
        CHECK(least->cards == 1);
        CHECK(total(*least) <= 32LL << 30);
        const Report on_5090 = predict(llama8b_defaults("rtx-5090"));
        CHECK(on_5090.verdict == Verdict::pass);
    }

    TEST_CASE("real log: Llama 3.1 8B on an RTX 3090 at max_model_len 20000 under vLLM's defaults boots") {
        // vllm-project/vllm issue #10517 (docs/SOURCES.md "Real start-up logs" vllm-llama31-8b-3090-20k): V0, util 0.9, default
        // max_num_seqs (256); 3.81 GiB of KV, 1952 blocks of 16 tokens, maximum concurrency 1.56x. It started,
        // so the default sequence count must not make the verdict ask for 256 x 20000 tokens.
        Scenario s = llama8b_defaults("rtx-3090");
        s.max_model_len = 20000;
        s.gpu_memory_utilization = 0.9;
        s.vllm_version = "V0";
        const Report r = predict(s);
        REQUIRE(r.ok);
        CHECK(r.settings.max_num_seqs == 256);
        CHECK(r.terms.kv_requested_bytes == 20000LL * 131072);
        CHECK(r.verdict != Verdict::fail);
        CHECK(r.terms.kv_requested_bytes <= r.terms.available_for_kv_bytes);  // not "capped": the ask is one request
        // An explicit max_num_seqs is a demand: 256 full-length requests do not fit in 3.8 GiB.
        s.max_num_seqs = 256;
        const Report asked = predict(s);
        REQUIRE(asked.ok);
        CHECK(asked.terms.kv_requested_bytes == 256LL * 20000 * 131072);
        CHECK(asked.verdict == Verdict::tight);
    }
}

TEST_SUITE("GPU shopping") {
    TEST_CASE("shopping rows come in buy order: verdict, then least total VRAM, fewer cards, longer context") {
        const std::vector<ShopRow> rows = shopping(llama8b("fp8_e4m3", 32768), gpu_catalog(), default_shop_counts());
        REQUIRE(rows.size() == gpu_catalog().size() * default_shop_counts().size());  // every cell is still there
        CHECK(std::is_sorted(rows.begin(), rows.end(), shop_buy_order));
        for (std::size_t i = 1; i < rows.size(); ++i) {
            const ShopRow &a = rows[i - 1], &b = rows[i];
            CHECK(shop_verdict_rank(a) <= shop_verdict_rank(b));
            if (shop_verdict_rank(a) == shop_verdict_rank(b)) CHECK(a.total_vram_bytes <= b.total_vram_bytes);
        }
        // The total is the card count times the catalog VRAM (RTX 4090: 24 GiB as the engine sees it).
        CHECK(row_of(rows, "rtx-4090", 2).total_vram_bytes == 2 * find_gpu("rtx-4090")->vram_bytes);
        CHECK(row_of(rows, "rtx-4090", 2).total_vram_bytes == 2LL * 24 * 1024 * 1024 * 1024);
    }

    TEST_CASE("one row per GPU: its fewest cards that pass, else boot; the page's former rule, now the core's") {
        const std::vector<ShopRow> all = shopping(llama8b("fp8_e4m3", 131072), gpu_catalog(), default_shop_counts());
        const std::vector<ShopRow> best = best_row_per_gpu(all);
        CHECK(best.size() == gpu_catalog().size());
        CHECK(std::is_sorted(best.begin(), best.end(), shop_buy_order));
        std::set<int> gpus;
        for (const ShopRow& b : best) {
            CHECK(gpus.insert(b.gpu_index).second);
            for (const ShopRow& r : all) {
                if (r.gpu_index != b.gpu_index) continue;
                // nothing better for that GPU: a better verdict, or the same verdict with fewer cards
                CHECK_FALSE(shop_verdict_rank(r) < shop_verdict_rank(b));
                if (shop_verdict_rank(r) == shop_verdict_rank(b)) CHECK(r.cards >= b.cards);
            }
        }
    }
}

TEST_SUITE("GPU shopping") {
    TEST_CASE("min_gpus walks the config.json model's own TP sizes") {
        // 3 KV heads and 24 attention heads: valid TP sizes are 1 and 3 (qwen3.6-27b's list has 2 and 4).
        const json r = eval(R"({"config":{"num_hidden_layers":32,"hidden_size":3072,"num_attention_heads":24,)"
                            R"("num_key_value_heads":3,"head_dim":128,"vocab_size":32000,"intermediate_size":8192,)"
                            R"("max_position_embeddings":32768},"max_model_len":8192,"gpu":"rtx-3060-12gb",)"
                            R"("action":"solve","solve":["min_gpus"]})");
        const json& g = r["solvers"]["min_gpus"];
        REQUIRE(g["ok"] == true);
        const int tp = g["value"].get<int>();
        CHECK((tp == 1 || tp == 3));
    }

    TEST_CASE("the headlines come from every GPU x count: a GPU that passes at 2 cards still boots at 1") {
        // The UI test's task 1: Qwen3 32B at 4 bits, max_model_len 32,768, max_num_seqs 8. Qwen3-32B's config.json
        // (64 layers x 8 KV heads x head_dim 128 x K+V x 2 B) keeps 262,144 B per token, so one 32K request is 8 GiB
        // and all 8 are 64 GiB. One RTX 5090 (32 GiB) boots with one request; it passes only at 4 cards, so one row
        // per GPU shows it at 4 and a headline taken from those rows named 4x RTX 3080 10GB (40 GiB) instead.
        Scenario s;
        s.model_id = "qwen3-32b";
        s.weights_dtype = "int4";
        s.max_model_len = 32768;
        s.max_num_seqs = 8;
        const std::vector<ShopRow> rows = shopping(s, gpu_catalog(), default_shop_counts());
        const ShopRow& one_5090 = row_of(rows, "rtx-5090", 1);
        CHECK(one_5090.verdict == Verdict::tight);
        const ShopHeadlines head = shop_headlines(rows);
        REQUIRE(head.least_vram_boots.has_value());
        CHECK(head.least_vram_boots->gpu_id == "rtx-5090");  // 32 GiB, as 2x 16 GiB cards: the fewer cards first
        CHECK(head.least_vram_boots->cards == 1);
        CHECK(head.least_vram_boots->total_vram_bytes == 32LL << 30);
        // Best row per GPU, as the table shows it: the first TIGHT there has more VRAM than the headline's.
        const std::vector<ShopRow> best = best_row_per_gpu(rows);
        const auto first_tight = std::find_if(best.begin(), best.end(), [](const ShopRow& r) {
            return r.valid && r.runs && r.verdict == Verdict::tight;
        });
        REQUIRE(first_tight != best.end());
        CHECK(first_tight->total_vram_bytes > head.least_vram_boots->total_vram_bytes);
        // Least VRAM that passes: one H100 NVL (94 GiB) holds the 64 GiB of KV next to ~18 GiB of weights.
        REQUIRE(head.least_vram_pass.has_value());
        CHECK(head.least_vram_pass->gpu_id == "h100-nvl");
        CHECK(head.least_vram_pass->cards == 1);
        CHECK(head.least_vram_pass->verdict == Verdict::pass);
        REQUIRE(head.fewest_cards.has_value());
        CHECK(head.fewest_cards->cards == 1);
        CHECK(head.fewest_cards->verdict == Verdict::pass);
        CHECK(head.fewest_cards->gpu_id == "h100-nvl");
        // Each headline is the row a tap opens: predict() on that card at that TP gives the same verdict.
        Scenario opened = s;
        opened.gpu = "rtx-5090";
        opened.tensor_parallel_size = 1;
        CHECK(predict(opened).verdict == Verdict::tight);
    }

    TEST_CASE("a pinned tensor_parallel_size prices every GPU at that count only, headlines too") {
        Scenario s;
        s.model_id = "qwen3-32b";
        s.weights_dtype = "int4";
        s.max_model_len = 32768;
        s.max_num_seqs = 8;
        const std::vector<ShopRow> rows = shopping(s, gpu_catalog(), {2});
        for (const ShopRow& r : rows) CHECK(r.cards == 2);
        const ShopHeadlines head = shop_headlines(rows);
        REQUIRE(head.least_vram_boots.has_value());
        CHECK(head.least_vram_boots->cards == 2);
        CHECK(head.least_vram_boots->total_vram_bytes == 32LL << 30);  // 2x 16 GiB cards
        REQUIRE(head.least_vram_pass.has_value());
        CHECK(head.least_vram_pass->cards == 2);
    }
}

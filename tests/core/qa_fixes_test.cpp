// Core halves of the new-user QA fixes: the shopping order and de-duplication both front ends show, kv_cache_dtype
// "auto" resolved per shopping card, one concurrency number and rounding, and the model a config.json command serves.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdio>
#include <map>
#include <set>
#include <string>

#include "kvcalc/catalog/catalog.h"
#include "kvcalc/deployment/concurrency_text.h"
#include "kvcalc/base/gpu_catalog.h"
#include "kvcalc/deployment/predict.h"
#include "kvcalc/deployment/sweeps.h"

using namespace kvcalc;

namespace {

bool contains(const std::string& hay, const std::string& needle) { return hay.find(needle) != std::string::npos; }

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

std::string printf2(double x) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.2f", x);
    return buf;
}

}  // namespace

TEST_SUITE("QA fixes (core)") {
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

    TEST_CASE("kv_cache_dtype auto is resolved per card: bf16 on sm_80+, fp16 below, Gemma 3 refused below sm_80") {
        // vLLM runs a bfloat16 model in float16 on cards without bfloat16 (compute capability < 8.0: T4 sm_75,
        // V100 sm_70), and refuses float16 for gemma3 (vllm/config/model.py _get_and_verify_dtype): the list's
        // first card no longer decides every row.
        const std::vector<GpuSpec> cards{*find_gpu("t4"), *find_gpu("a100-80gb"), *find_gpu("v100-32gb"),
                                         *find_gpu("rtx-4090")};
        const std::vector<ShopRow> llama = shopping(llama8b("auto", 8192), cards, {1});
        CHECK(row_of(llama, "t4", 1).kv_cache_dtype == "fp16");
        CHECK(row_of(llama, "v100-32gb", 1).kv_cache_dtype == "fp16");
        CHECK(row_of(llama, "a100-80gb", 1).kv_cache_dtype == "bf16");
        CHECK(row_of(llama, "rtx-4090", 1).kv_cache_dtype == "bf16");
        Scenario gemma = llama8b("auto", 8192);
        gemma.model_id = "gemma-3-12b";
        const std::vector<ShopRow> g = shopping(gemma, cards, {1});
        CHECK_FALSE(row_of(g, "t4", 1).valid);
        CHECK(contains(row_of(g, "t4", 1).note, "float32"));
        CHECK(row_of(g, "a100-80gb", 1).valid);
        CHECK(row_of(g, "a100-80gb", 1).kv_cache_dtype == "bf16");
        // Each row is still predict() of that scenario on that card.
        for (const char* id : {"t4", "a100-80gb"}) {
            Scenario s = llama8b("auto", 8192);
            s.gpu = id;
            const Report r = predict(s);
            REQUIRE(r.ok);
            CHECK(r.verdict == row_of(llama, id, 1).verdict);
            CHECK(r.settings.kv_cache_dtype == std::string("auto (") + row_of(llama, id, 1).kv_cache_dtype + ")");
        }
    }

    TEST_CASE("concurrency text is vLLM's %.2f: round to nearest, the same for every sentence") {
        // vLLM prints f"{max_concurrency:.2f}"-style %.2f (kv_cache_utils.py _report_kv_cache_config); real logs:
        // Qwen3-14B 2666 blocks / 2048 per request → "1.30x" (LMCache #1739), Llama 3.1 8B on a 3090,
        // 1952 blocks × 16 / 20000 → "1.56x" (vLLM #10517).
        CHECK(concurrency_text(2666.0 / 2048.0) == "1.30");
        CHECK(concurrency_text(1952.0 * 16 / 20000.0) == "1.56");
        CHECK(concurrency_text(330018.0 / 1161.0) == "284.25");  // gpt-oss-120b TP4 (real-cases.json)
        CHECK(concurrency_text(3.396) == "3.40");  // the QA report: floored this read 3.39 beside "3.40x"
        CHECK(concurrency_text(2.675) == "2.67");  // 2.675 is 2.67499999… in binary: printf and Python say 2.67
        CHECK(concurrency_text(0) == "0.00");
        CHECK(concurrency_text(-1) == "0.00");
        for (int i = 0; i < 20000; ++i) {
            const double x = i * 0.0137 + 0.0005;
            CHECK_MESSAGE(concurrency_text(x) == printf2(x), x);
        }
    }

    TEST_CASE("the pool's concurrency and vLLM's printed concurrency are one number, so the texts agree") {
        int compared = 0, capped = 0;
        for (const auto& m : model_catalog()) {
            for (const char* gpu : {"rtx-3090", "rtx-4090", "l40s", "a100-80gb", "h100-80gb"}) {
                for (std::int64_t seqs : {1, 8, 64}) {
                    Scenario s;
                    s.model_id = m.id;
                    s.gpu = gpu;
                    s.kv_cache_dtype = "fp8_e4m3";
                    s.max_model_len = std::min<std::int64_t>(32768, m.max_position_embeddings);
                    s.max_num_seqs = seqs;
                    s.tensor_parallel_size = 1;
                    const Report r = predict(s);
                    if (!r.ok || !r.startup.available) continue;
                    ++compared;
                    INFO(m.id, " on ", std::string(gpu), " seqs ", seqs);
                    CHECK(r.startup.max_concurrency == r.terms.max_concurrency);
                    if (contains(r.reason, "full-length sequences fit at once")) {
                        ++capped;
                        CHECK(contains(r.reason, "about " + concurrency_text(r.terms.max_concurrency) + " full-length"));
                    }
                }
            }
        }
        CHECK(compared > 100);
        CHECK(capped > 10);
    }

    TEST_CASE("a config.json model's command serves its Hub id, or a placeholder folder, never config.json") {
        // A Llama 3.1 8B-shaped config.json whose _name_or_path is `name`.
        const auto config = [](const std::string& name) {
            return R"({"_name_or_path": ")" + name + R"(", "architectures": ["LlamaForCausalLM"],
            "model_type": "llama", "hidden_size": 4096, "intermediate_size": 14336, "num_hidden_layers": 32,
            "num_attention_heads": 32, "num_key_value_heads": 8, "vocab_size": 128256,
            "max_position_embeddings": 131072, "torch_dtype": "bfloat16"})";
        };
        Scenario s;
        s.gpu = "a100-80gb";
        s.max_model_len = 4096;
        // transformers writes _name_or_path on save_pretrained; THUDM/chatglm3-6b's config.json names itself.
        s.config_json = config("THUDM/chatglm3-6b");
        Report r = predict(s);
        REQUIRE(r.ok);
        CHECK(contains(r.command, "vllm serve THUDM/chatglm3-6b \\\n"));
        s.weights_gb = 16.1;  // the override prices it; the command still names the repo
        r = predict(s);
        REQUIRE(r.ok);
        CHECK(contains(r.command, "vllm serve THUDM/chatglm3-6b \\\n"));
        s.weights_gb.reset();
        // Local folders as real config.json files name them (tests/data/configs/mistral-7b-instruct.json,
        // bge-large.json), none, and strings huggingface_hub's validate_repo_id refuses.
        for (const char* local : {"./workspace/Mistral-7B-Instruct-v0.2-dequantized",
                                  "/root/.cache/torch/sentence_transformers/BAAI_bge-large-en/", "", "a/../b",
                                  "owner/name/extra", "-owner/name", "owner--x/name"}) {
            INFO(local);
            Scenario c = s;
            c.config_json = config(local);
            r = predict(c);
            REQUIRE(r.ok);
            CHECK(contains(r.command, "vllm serve <path-to-model-dir> \\\n"));
            CHECK(contains(r.command, "# <path-to-model-dir>: the folder with this config.json and the weights"));
            CHECK_FALSE(contains(r.command, "serve config.json"));
        }
        s.engine = "sglang";
        r = predict(s);
        REQUIRE(r.ok);
        CHECK(contains(r.command, "--model-path THUDM/chatglm3-6b \\\n"));
        CHECK(predict([] { Scenario c; c.model_id = "llama-3.1-8b"; return c; }()).command.find("<path-to") ==
              std::string::npos);
    }
}

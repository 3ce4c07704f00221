// concurrency_text.h: one concurrency number, rounded as vLLM prints it, for every sentence that quotes it.
#include <doctest/doctest.h>

#include <cstdio>
#include <string>

#include "kvcalc/catalog/catalog.h"
#include "kvcalc/deployment/concurrency_text.h"
#include "kvcalc/deployment/predict.h"

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

std::string printf2(double x) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.2f", x);
    return buf;
}

}  // namespace

TEST_SUITE("concurrency text") {
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
}

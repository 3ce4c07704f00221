#include <doctest/doctest.h>

#include <set>

#include "kvcalc/base/gpu_catalog.h"

using namespace kvcalc;

TEST_SUITE("gpu_catalog") {
    TEST_CASE("at least 40 cards with unique ids, VRAM in whole GiB") {
        CHECK(gpu_catalog().size() >= 40);
        std::set<std::string> ids;
        for (const auto& g : gpu_catalog()) {
            CHECK(ids.insert(g.id).second);
            CHECK(g.vram_bytes > 0);
            CHECK(g.vram_bytes % (1LL << 30) == 0);
            CHECK_FALSE(g.source.empty());
        }
    }
    TEST_CASE("a 24 GB 3090 is 24 GiB") {
        const GpuSpec* g = find_gpu("rtx-3090");
        REQUIRE(g != nullptr);
        CHECK(g->vram_bytes == 25769803776LL);  // 24 × 2^30
        CHECK(g->sm_x10 == 86);
        CHECK(find_gpu("RTX 3090") == g);
        CHECK(find_gpu("3090") == g);
        CHECK(find_gpu("nvidia_rtx_3090") == g);
        CHECK(find_gpu("rtx-6000-pro-blackwell") == find_gpu("rtx-pro-6000-blackwell"));
        CHECK(find_gpu("h200")->vram_bytes == 141LL << 30);
        CHECK(find_gpu("dgx-spark")->sm_x10 == 121);
        CHECK(find_gpu("a100") == nullptr);  // ambiguous 40/80 GB: not guessed
        CHECK(find_gpu("") == nullptr);
    }
}

// Split GGUF names (config/gguf.h parse_gguf_split_name): llama.cpp's gguf-split names part K of N
// "%s-%05d-of-%05d.gguf" (src/llama.cpp llama_split_path); the names below are built on that format, with a
// folder in front (Hub repos keep a quantization's parts in one) and an upper-case extension (the check ignores case).
#include <doctest/doctest.h>

#include "kvcalc/config/gguf.h"

TEST_SUITE("gguf split names") {
    TEST_CASE("NAME-0000K-of-0000N.gguf gives NAME, K and N; the name of part K comes back the same") {
        const kvcalc::GgufSplitName a = kvcalc::parse_gguf_split_name("Q4_K_M/Qwen3-235B-A22B-Q4_K_M-00002-of-00003.gguf");
        CHECK(a.stem == "Q4_K_M/Qwen3-235B-A22B-Q4_K_M");
        CHECK(a.part == 2);
        CHECK(a.count == 3);
        CHECK(kvcalc::gguf_split_part_name(a.stem, 1, 3) == "Q4_K_M/Qwen3-235B-A22B-Q4_K_M-00001-of-00003.gguf");
        const kvcalc::GgufSplitName b = kvcalc::parse_gguf_split_name("gpt-oss-120b-mxfp4-00001-of-00003.GGUF");
        CHECK(b.stem == "gpt-oss-120b-mxfp4");
        CHECK(b.part == 1);
    }

    TEST_CASE("a plain file, a part 0, a part above the count or other digit counts are not split names") {
        CHECK(kvcalc::parse_gguf_split_name("Qwen3-8B-Q4_K_M.gguf").part == 0);
        CHECK(kvcalc::parse_gguf_split_name("model-00000-of-00003.gguf").part == 0);
        CHECK(kvcalc::parse_gguf_split_name("model-00004-of-00003.gguf").part == 0);
        CHECK(kvcalc::parse_gguf_split_name("model-0001-of-00003.gguf").part == 0);
        CHECK(kvcalc::parse_gguf_split_name("model-00001-of-00003.bin").part == 0);
        CHECK(kvcalc::parse_gguf_split_name("-00001-of-00003.gguf").stem.empty());
        CHECK(kvcalc::parse_gguf_split_name("").part == 0);
    }
}

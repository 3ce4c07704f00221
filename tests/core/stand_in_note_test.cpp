// A KV format the engine lacks is priced as the engine's stand-in; the note must quote the stand-in's bytes (the ones
// priced), not the requested format's. Bytes per element from kv_format.cpp's table (ggml-common.h block_q8_0 for
// q8_0's 17/16).
#include <doctest/doctest.h>

#include <string>

#include "kvcalc/deployment/predict.h"

using namespace kvcalc;

namespace {

Report run(const char* engine, const char* kv) {
    Scenario s;
    s.model_id = "qwen3-8b";
    s.engine = engine;
    s.gpu = "h100-80gb";
    s.kv_cache_dtype = kv;
    s.max_model_len = 32768;
    s.max_num_seqs = 1;
    return predict(s);
}

std::string stand_in(const Report& r) {
    for (const auto& n : r.notes)
        if (n.find("has no KV cache format") != std::string::npos) return n;
    for (const auto& n : r.startup.notes)
        if (n.find("has no KV cache format") != std::string::npos) return n;
    return "";
}

}  // namespace

TEST_SUITE("stand-in notes") {
    TEST_CASE("vLLM q8_0 is priced as bfloat16: the note says 2 B, and the KV equals bf16's") {
        const Report q8 = run("vllm", "q8_0"), bf16 = run("vllm", "bf16");
        REQUIRE(q8.ok);
        const std::string note = stand_in(q8);
        REQUIRE_FALSE(note.empty());
        CHECK(note.find("bfloat16 (2 B per element)") != std::string::npos);
        CHECK(note.find("q8_0 (17/16 B per element)") != std::string::npos);
        CHECK(q8.terms.kv_one_sequence_bytes == bf16.terms.kv_one_sequence_bytes);
    }

    TEST_CASE("llama.cpp fp8 is priced as q8_0: the note says 17/16 B, not fp8's 1 B") {
        const Report fp8 = run("llama.cpp", "fp8_e4m3"), q8 = run("llama.cpp", "q8_0");
        REQUIRE(fp8.ok);
        const std::string note = stand_in(fp8);
        REQUIRE_FALSE(note.empty());
        CHECK(note.find("q8_0 (17/16 B per element)") != std::string::npos);
        CHECK(note.find("fp8_e4m3 (1 B per element)") != std::string::npos);
        CHECK(fp8.terms.kv_one_sequence_bytes == q8.terms.kv_one_sequence_bytes);
    }
}

// CLI output says what the engine and the release in use would say, and refuses what it cannot answer.
#include <doctest/doctest.h>

#include <string>

#include "cli_run.h"

using clitest::kvcalc;
using clitest::Run;

namespace {

bool contains(const std::string& hay, const std::string& needle) { return hay.find(needle) != std::string::npos; }

}  // namespace

TEST_SUITE("fit_shop") {
    TEST_CASE("--fit-all for a model without serving presets says so and fails instead of an empty table") {
        const Run r = kvcalc("--fit-all --card rtx-4090 --model llama-3.2-1b");
        CHECK(r.status == 2);
        CHECK(contains(r.err, "llama-3.2-1b"));
        CHECK(contains(r.err, "no serving presets"));
        CHECK(contains(r.err, "--fit llama-3.2-1b"));
        CHECK_FALSE(contains(r.out, "preset"));
    }
}

TEST_SUITE("engine") {
    TEST_CASE("--vllm-version V0: the start-up lines are headed V0, not V1") {
        const Run r = kvcalc("--model llama-3.1-8b --gpu rtx-3090 --max-ctx 20000 --max-num-seqs 0 --mem-util 0.9 "
                             "--kv-format bf16 --vllm-version V0");
        CHECK(r.status == 0);
        CHECK(contains(r.out, "Predicted start-up (vLLM V0"));
        CHECK_FALSE(contains(r.out, "vLLM V1"));
    }
    TEST_CASE("--engine llama.cpp: no vLLM budget wording, and -m names a local GGUF file, not a made-up repo") {
        const Run r = kvcalc("--engine llama.cpp --model llama-3.1-8b --gpu rtx-4090 --max-ctx 8192 --kv-format q8_0");
        CHECK(r.status == 0);
        CHECK_FALSE(contains(r.out, "mem-util"));
        CHECK_FALSE(contains(r.out, "gpu_memory_utilization"));
        CHECK_FALSE(contains(r.out, "CUDA graphs + workspace"));  // not modelled (the note says so), not zero
        CHECK(contains(r.out, "budget (usable fraction x VRAM)"));
        // The Hub repo holds safetensors; "meta-llama/Llama-3.1-8B-Instruct.gguf" is no file anywhere.
        CHECK_FALSE(contains(r.out, "meta-llama/Llama-3.1-8B-Instruct.gguf"));
        CHECK(contains(r.out, "# -m: a GGUF file of meta-llama/Llama-3.1-8B-Instruct"));
        CHECK(contains(r.out, "llama-server -m Llama-3.1-8B-Instruct.gguf"));
    }
}

TEST_SUITE("svg") {
    TEST_CASE("--svg: a write that fails after opening gives the OS's reason too") {
        const Run r = kvcalc("--model llama-3.1-8b --gpu h100-80gb --max-ctx 8192 --svg /dev/full");
        CHECK(r.status == 2);
        CHECK(contains(r.err, "No space left on device"));
    }
    TEST_CASE("--svg: a directory is refused with the reason") {
        const Run r = kvcalc("--model llama-3.1-8b --gpu h100-80gb --max-ctx 8192 --svg /tmp");
        CHECK(r.status == 2);
        CHECK(contains(r.err, "Is a directory"));
    }
}

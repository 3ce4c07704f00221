// CLI output says what the engine and the release in use would say, and refuses what it cannot answer.
#include <doctest/doctest.h>

#include <string>

#include "cli_run.h"

using clitest::kvcalc;
using clitest::Run;

namespace {

bool contains(const std::string& hay, const std::string& needle) { return hay.find(needle) != std::string::npos; }

Run cli(const std::string& args) { return clitest::kvcalc(args); }

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

// kvcalc --gguf FILE / --model FILE.gguf on the real GGUF files of tests/data/gguf (SOURCE.md): the KV terms come
// from the file's metadata, the weights from its tensor infos, and bad files are refused naming the flag and path.
#include <doctest/doctest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "cli_run.h"
#include "../core/gguf_writer.h"

using clitest::Run;

namespace {

bool contains(const std::string& hay, const std::string& needle) { return hay.find(needle) != std::string::npos; }

std::string data(const std::string& name) { return clitest::shell_quote(std::string(KVCALC_TEST_DATA_DIR) + "/gguf/" + name); }

nlohmann::json json_run(const std::string& args) {
    const Run r = clitest::kvcalc(args + " --engine llama.cpp --kv-cache-dtype f16 --json");
    INFO(r.err);
    REQUIRE(r.status == 0);
    return nlohmann::json::parse(r.out);
}

bool has_code(const nlohmann::json& j, const std::string& code) {
    for (const auto& d : j["diagnostics"])
        if (d["code"] == code) return true;
    return false;
}

std::string write_temp(const std::string& name, const std::string& bytes) {
    const std::string path = clitest::temp_path(name);
    std::ofstream(path, std::ios::binary) << bytes;
    return path;
}

}  // namespace

TEST_SUITE("gguf") {
    TEST_CASE("--gguf: the complete tiny llama — KV from its keys, weights = its tensor bytes") {
        const auto j = json_run("--gguf " + data("llama-2-tiny-random.gguf") + " --max-model-len 4096");
        // 1 layer × 2 KV heads × (4 + 4) × 2 B; the tensors fill 1,750,560 − 724,416 (the data offset) bytes.
        CHECK(j["terms"]["kv_bytes_per_token"] == 32.0);
        CHECK(j["terms"]["weights_bytes"] == 1026144);
        CHECK_FALSE(has_code(j, "gguf_weights_unknown"));
        CHECK(j["settings"]["weights_known"] == true);
    }

    TEST_CASE("--gguf with --url: the warning names --gguf and the file, not --config") {
        const Run r = clitest::kvcalc("--gguf " + data("llama-2-tiny-random.gguf") +
                                      " --engine llama.cpp --url https://example.org/kvcalc/");
        CHECK(contains(r.err, "--gguf (model.gguf_file): a model read from a local GGUF file"));
        CHECK(contains(r.err, "llama-2-tiny-random.gguf"));
        CHECK_FALSE(contains(r.err, "--config"));
    }

    TEST_CASE("--gguf --engine llama.cpp: the model and KV buffer lines per device, placed by -ngl") {
        const std::string f = data("llama-2-tiny-random.gguf");
        const auto j = json_run("--gguf " + f + " --engine llama.cpp --max-model-len 4096");
        REQUIRE(j.contains("llama_cpp_buffers"));
        const auto& b = j["llama_cpp_buffers"];
        // token_embd (8 × 32000 f16 = 512,000 B, the file's first tensor) stays on the CPU; output.weight is the
        // last tensor and goes to the GPU with the one repeating layer.
        CHECK(b["cpu_model_bytes"] == 512000);
        CHECK(b["offloaded_layers"] == 2);
        CHECK(b["total_layers"] == 2);
        CHECK(b["gpu_kv_bytes"] == 4096 * 32);  // 4096 cells × 2 KV heads × (4 + 4) × 2 B
        CHECK(b["lines"][1]["log_line"] == "load_tensors:   CPU_Mapped model buffer size =     0.49 MiB");
        // -ngl 0: nothing on the GPU; the mapped range is the whole data section (1,750,560 − 724,416 B).
        const auto cpu = json_run("--gguf " + f + " --engine llama.cpp --max-model-len 4096 -ngl 0");
        CHECK(cpu["llama_cpp_buffers"]["gpu_model_bytes"] == 0);
        CHECK(cpu["llama_cpp_buffers"]["cpu_model_bytes"] == 1026144);
        CHECK(cpu["llama_cpp_buffers"]["cpu_kv_bytes"] == 4096 * 32);
        CHECK(cpu["llama_cpp_buffers"]["offloaded_layers"] == 0);
    }

    TEST_CASE("--model FILE.gguf: a vocab-only file gives the KV terms and says the weights are unknown") {
        const auto j = json_run("--model " + data("ggml-vocab-llama-spm.gguf"));
        CHECK(j["terms"]["kv_bytes_per_token"] == 32.0 * 32 * 256 * 2);  // 32 layers × 32 KV heads × (128 + 128) × 2 B
        CHECK(j["settings"]["max_model_len"] == 4096);                     // llama.context_length
        CHECK(has_code(j, "gguf_weights_unknown"));
        // Unknown, not guessed: 0 B of weights, said by a warning and by settings.weights_known.
        CHECK(has_code(j, "weights_unknown"));
        CHECK(j["terms"]["weights_bytes"] == 0);
        CHECK(j["settings"]["weights_known"] == false);
        CHECK(j["settings"]["weights_variant"] == "unknown");
        const auto given = json_run("--model " + data("ggml-vocab-llama-spm.gguf") + " --weights-gb 13.5");
        CHECK(given["terms"]["weights_bytes"] == 13500000000);
        CHECK_FALSE(has_code(given, "gguf_weights_unknown"));
        CHECK_FALSE(has_code(given, "weights_unknown"));
        CHECK(given["settings"]["weights_known"] == true);
        const auto f = json_run("--gguf " + data("ggml-vocab-falcon.gguf"));
        CHECK(f["terms"]["kv_bytes_per_token"] == 32.0 * 1 * 128 * 2);     // one KV head of 4544 / 71 = 64
    }

    TEST_CASE("--gguf: bert (bge-small) keeps no KV cache") {
        const auto j = json_run("--gguf " + data("ggml-vocab-bert-bge.gguf"));
        CHECK(j["terms"]["kv_bytes_per_token"] == 0.0);
        CHECK(j["terms"]["kv_requested_bytes"] == 0);
    }

    TEST_CASE("--gguf: a split file is read part by part and its tensors summed") {
        kvcalc::test::GgufWriter a, b;
        const auto keys = [](kvcalc::test::GgufWriter& w, std::uint16_t no, std::uint64_t n_tensors, bool arch) {
            w.head(n_tensors, arch ? 8 : 3).kv_u16("split.no", no).kv_u16("split.count", 2).kv_i32("split.tensors.count", 2);
            if (arch)
                w.kv_str("general.architecture", "llama").kv_u32("llama.block_count", 1)
                    .kv_u32("llama.embedding_length", 256).kv_u32("llama.context_length", 1024)
                    .kv_u32("llama.attention.head_count", 2);
        };
        keys(a, 0, 1, true);
        a.tensor("token_embd.weight", 12, {256, 1000}, 0);  // q4_K: 1000 rows × 144 B
        keys(b, 1, 1, false);
        b.tensor("output.weight", 14, {256, 1000}, 0);      // q6_K: 1000 rows × 210 B
        const std::string first = write_temp("split-00001-of-00002.gguf", a.bytes);
        write_temp("split-00002-of-00002.gguf", b.bytes);
        const auto j = json_run("--gguf " + clitest::shell_quote(first));
        CHECK(j["terms"]["weights_bytes"] == 144000 + 210000);
        CHECK(j["terms"]["kv_bytes_per_token"] == 2.0 * 256 * 2);  // 2 KV heads × (128 + 128) × 2 B
        const Run missing = clitest::kvcalc("--gguf " + clitest::shell_quote(write_temp("lone-00001-of-00002.gguf", a.bytes)));
        CHECK(missing.status == 2);
        CHECK(contains(missing.err, "lone-00002-of-00002.gguf"));
    }

    TEST_CASE("--gguf: not a GGUF, a cut header, a missing file — exit 2 naming --gguf and the path") {
        const Run text = clitest::kvcalc("--gguf " + clitest::shell_quote(write_temp("config.gguf", "{\"model_type\":\"llama\"}")));
        CHECK(text.status == 2);
        CHECK(contains(text.err, "--gguf"));
        CHECK(contains(text.err, "not a GGUF file"));
        std::ifstream f(std::string(KVCALC_TEST_DATA_DIR) + "/gguf/ggml-vocab-phi-3.gguf", std::ios::binary);
        std::string bytes(100000, '\0');
        f.read(bytes.data(), static_cast<std::streamsize>(bytes.size()));
        const Run cut = clitest::kvcalc("--gguf " + clitest::shell_quote(write_temp("cut.gguf", bytes)));
        CHECK(cut.status == 2);
        CHECK(contains(cut.err, "ends inside its header"));
        const Run none = clitest::kvcalc("--gguf /nonexistent/model.gguf");
        CHECK(none.status == 2);
        CHECK(contains(none.err, "no such file"));
        const Run both = clitest::kvcalc("--gguf " + data("llama-2-tiny-random.gguf") + " --config " + data("SOURCE.md"));
        CHECK(both.status == 2);
    }

    TEST_CASE("--gguf --fit-free-mib: llama.cpp's --fit choice and the flags that reproduce it") {
        const std::string f = data("llama-2-tiny-random.gguf");
        // Plenty free: nothing changes — every layer (1 + the output) on the GPU at the trained context.
        const auto big = json_run("--gguf " + f + " --engine llama.cpp --fit-free-mib 2000");
        REQUIRE(big.contains("llama_cpp_fit"));
        CHECK(big["llama_cpp_fit"]["fits"] == true);
        CHECK(big["llama_cpp_fit"]["n_gpu_layers"] == -1);
        CHECK(big["llama_cpp_fit"]["arguments"] == "-c 4096 -ngl 2");
        // 1030 MiB free, 1024 to leave: even at -ngl 0 the GPU's compute buffer (the output product is offloaded
        // for a 512-token batch) passes the 6 MiB left, so the fit says it does not fit.
        const auto small = json_run("--gguf " + f + " --engine llama.cpp --fit-free-mib 1030");
        CHECK(small["llama_cpp_fit"]["fits"] == false);
        CHECK(small["llama_cpp_fit"]["n_gpu_layers"] == 0);
        CHECK(small["llama_cpp_fit"]["arguments"] == "-c 4096 -ngl 0");
        // --fit-target 0 leaves nothing free: 100 MiB holds the 0.49 + 0.12 MiB buffers and the 66.81 MiB band.
        const auto none = json_run("--gguf " + f + " --engine llama.cpp --fit-free-mib 100 --fit-target 0");
        CHECK(none["llama_cpp_fit"]["arguments"] == "-c 4096 -ngl 2");
        const Run bad = clitest::kvcalc("--gguf " + f + " --engine llama.cpp --fit-free-mib 0");
        CHECK(bad.status == 2);
        CHECK(contains(bad.err, "--fit-free-mib"));
    }

    TEST_CASE("--fit-free-mib that cannot be answered is an error, not dropped") {
        // Regression: with the vLLM engine, without --gguf or with a vocab-only file the fit was skipped without a
        // word and the run exited 0.
        const std::string f = data("llama-2-tiny-random.gguf");
        const Run vllm = clitest::kvcalc("--gguf " + f + " --fit-free-mib 8000");
        CHECK(vllm.status == 2);
        CHECK(contains(vllm.err, "kvcalc: error: --fit-free-mib: llama.cpp's buffer lines need engine \"llama.cpp\" "
                                 "(add --engine llama.cpp)\n"));
        const Run no_gguf = clitest::kvcalc("--engine llama.cpp --fit-free-mib 8000");
        CHECK(no_gguf.status == 2);
        CHECK(contains(no_gguf.err, "kvcalc: error: --fit-free-mib needs --gguf FILE"));
        const Run vocab = clitest::kvcalc("--engine llama.cpp --gguf " + data("ggml-vocab-llama-spm.gguf") +
                                          " --max-model-len 4096 --fit-free-mib 8000");
        CHECK(vocab.status == 2);
        CHECK(contains(vocab.err, "--fit-free-mib: the --gguf file lists no tensors (a vocab-only file)"));
        // Regression: --fit-target / --fit-ctx without --fit-free-mib were dropped without a word (exit 0).
        for (const char* flag : {"--fit-target 512", "--fit-ctx 2048"}) {
            const Run alone = clitest::kvcalc("--gguf " + f + " --engine llama.cpp " + flag);
            CHECK(alone.status == 2);
            CHECK(contains(alone.err, "runs only with --fit-free-mib MIB"));
            CHECK(contains(alone.err, std::string(flag).substr(0, std::string(flag).find(' '))));
        }
        const Run ok = clitest::kvcalc("--engine llama.cpp --gguf " + f + " --fit-free-mib 8000");
        CHECK(ok.status == 0);
        CHECK(contains(ok.out, "llama.cpp --fit (predicted, 8000 MiB free, 1024 MiB to leave): -c 4096 -ngl 2\n"));
    }

    TEST_CASE("-ngl / --n-cpu-moe that place nothing are an error, not dropped") {
        // Regression: with the vLLM engine, without --gguf or with a vocab-only file they were ignored, exit 0.
        const std::string f = data("llama-2-tiny-random.gguf");
        const Run vllm = clitest::kvcalc("--gguf " + f + " -ngl 0");
        CHECK(vllm.status == 2);
        CHECK(contains(vllm.err, "kvcalc: error: --n-gpu-layers: llama.cpp's buffer lines need engine \"llama.cpp\" "
                                 "(add --engine llama.cpp)\n"));
        const Run no_gguf = clitest::kvcalc("--engine llama.cpp -ngl 3");
        CHECK(no_gguf.status == 2);
        CHECK(contains(no_gguf.err, "kvcalc: error: --n-gpu-layers needs --gguf FILE"));
        const Run vocab = clitest::kvcalc("--engine llama.cpp --gguf " + data("ggml-vocab-llama-spm.gguf") +
                                          " --max-model-len 4096 --n-cpu-moe 2");
        CHECK(vocab.status == 2);
        CHECK(contains(vocab.err, "--n-cpu-moe: the --gguf file lists no tensors (a vocab-only file)"));
        const Run ok = clitest::kvcalc("--engine llama.cpp --gguf " + f + " -ngl 0");
        CHECK(ok.status == 0);
        CHECK(contains(ok.out, "load_tensors: offloaded 0/2 layers to GPU\n"));
    }

    TEST_CASE("the llama.cpp integer flags echo a bad value once, cut to 64 bytes, and say what is valid") {
        // Regression: the setter's text repeated the flag and the whole value after the cut echo (a 200-byte value
        // came back twice, the second time uncut).
        const std::string f = data("llama-2-tiny-random.gguf");
        const std::string long_value(200, 'x');
        for (const auto& [flag, valid] : std::vector<std::pair<std::string, std::string>>{
                 {"--fit-free-mib", "an integer from 1 to 1000000"}, {"--fit-target", "an integer from 0 to 1000000"},
                 {"--fit-ctx", "an integer from 1 to 1000000"}, {"--n-gpu-layers", "an integer from -1 to 1000000"},
                 {"--n-cpu-moe", "an integer from 0 to 1000000"}}) {
            const Run r = clitest::kvcalc("--gguf " + f + " --engine llama.cpp --fit-free-mib 2000 " + flag + " " +
                                          long_value);
            INFO(r.err);
            CHECK(r.status == 2);
            CHECK(contains(r.err, "kvcalc: error: " + flag + ": '" + std::string(64, 'x') + "…' is not valid; expected " +
                                      valid + "\n"));
            CHECK_FALSE(contains(r.err, std::string(65, 'x')));
        }
        const Run nan = clitest::kvcalc("--gguf " + f + " --engine llama.cpp --fit-free-mib nan");
        CHECK(nan.status == 2);
        CHECK(contains(nan.err, "--fit-free-mib: 'nan' is not valid; expected an integer from 1 to 1000000"));
    }

    TEST_CASE("--gguf --engine llama.cpp: the text output gives the compute buffer and the fit's flags") {
        const Run r = clitest::kvcalc("--gguf " + data("llama-2-tiny-random.gguf") +
                                      " --engine llama.cpp --kv-cache-dtype f16 --fit-free-mib 2000");
        INFO(r.err);
        REQUIRE(r.status == 0);
        // The peak is at the output: the logits, 32000 rows × 512 tokens × 4 B = 62.50 MiB, beside the normed hidden
        // state they come from (embedding_length 8 × 512 × 4 B = 0.02 MiB).
        CHECK(contains(r.out, "llama_context:      CUDA0 compute buffer size =    62.52 MiB"));
        CHECK(contains(r.out, "llama.cpp --fit (predicted, 2000 MiB free, 1024 MiB to leave): -c 4096 -ngl 2"));
    }

    TEST_CASE("--gguf --engine llama.cpp -ngl 0: the llama-server command carries -ngl 0, not -ngl 999 (bug)") {
        // The command used to keep kvcalc's default "-ngl 999" (every layer) whatever -ngl the run gave, so the
        // printed command offloaded what the buffer table kept on the CPU ("offloaded 0/2 layers to GPU").
        const Run r = clitest::kvcalc("--gguf " + data("llama-2-tiny-random.gguf") + " --engine llama.cpp -ngl 0");
        INFO(r.err);
        REQUIRE(r.status == 0);
        CHECK(contains(r.out, "  -ngl 0\n"));
        CHECK_FALSE(contains(r.out, "-ngl 999"));
        CHECK(contains(r.out, "load_tensors: offloaded 0/2 layers to GPU"));
        const Run j = clitest::kvcalc("--gguf " + data("llama-2-tiny-random.gguf") + " --engine llama.cpp -ngl 1 --json");
        REQUIRE(j.status == 0);
        CHECK(contains(j.out, "-ngl 1\""));  // the command string ends with the placement
        // Without -ngl the command keeps every layer on the GPU.
        const Run d = clitest::kvcalc("--gguf " + data("llama-2-tiny-random.gguf") + " --engine llama.cpp");
        CHECK(contains(d.out, "-ngl 999"));
    }

    TEST_CASE("--gguf FILE: llama-server -m names that file, with no 'make a GGUF' comment (bug)") {
        // The command used to print "# -m: a GGUF file of <id> (convert_hf_to_gguf.py ...)" and -m <id>.gguf even
        // when the model was read from a GGUF file, so a file without the extension (an Ollama blob) got a wrong one.
        const std::string file = std::string(KVCALC_TEST_DATA_DIR) + "/gguf/llama-2-tiny-random.gguf";
        const Run r = clitest::kvcalc("--gguf " + clitest::shell_quote(file) + " --engine llama.cpp");
        INFO(r.err);
        REQUIRE(r.status == 0);
        CHECK(contains(r.out, "llama-server -m " + file + " \\\n"));
        CHECK_FALSE(contains(r.out, "convert_hf_to_gguf.py"));
    }

    TEST_CASE("--gguf with a second model source, or -ngl with the fit, is refused by name (bugs)") {
        const std::string tiny = data("llama-2-tiny-random.gguf");
        // --fit MODEL used to print "Fit: llama-3.1-8b" and price the GGUF.
        const Run fit = clitest::kvcalc("--gguf " + tiny + " --fit llama-3.1-8b");
        CHECK(fit.status == 2);
        CHECK(contains(fit.err, "--fit llama-3.1-8b and --gguf "));
        CHECK(contains(fit.err, "both describe the model"));
        // llama.cpp's fit stops when -ngl or --n-cpu-moe is given (common/fit.cpp "n_gpu_layers already set by
        // user"); kvcalc used to print a fit choice that ignored the user's -ngl.
        const Run ngl = clitest::kvcalc("--gguf " + tiny + " --engine llama.cpp -ngl 0 --fit-free-mib 24000");
        CHECK(ngl.status == 2);
        CHECK(contains(ngl.err, "--fit-free-mib with -ngl 0: llama.cpp's fit does not run"));
        const Run moe = clitest::kvcalc("--gguf " + tiny + " --engine llama.cpp --n-cpu-moe 3 --fit-free-mib 24000");
        CHECK(moe.status == 2);
        CHECK(contains(moe.err, "--n-cpu-moe 3"));
    }
}

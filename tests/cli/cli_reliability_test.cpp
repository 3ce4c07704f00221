// CLI regressions of the reliability report (reference/reliability.md B3, B8, B11, B14 and the differential
// findings of issue 14): hostile config.json text, links, contradictory flags.
#include <doctest/doctest.h>

#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "cli_run.h"
#include "xml_check.h"

using clitest::kvcalc;
using clitest::Run;

namespace {

bool contains(const std::string& hay, const std::string& needle) { return hay.find(needle) != std::string::npos; }

/// Bytes a terminal or an XML parser would act on: C0 controls other than \n, DEL, and UTF-8 C1 controls.
bool has_control(const std::string& s) {
    for (std::size_t i = 0; i < s.size(); ++i) {
        const auto c = static_cast<unsigned char>(s[i]);
        if ((c < 0x20 && c != '\n') || c == 0x7f) return true;
        if (c == 0xC2 && i + 1 < s.size() && static_cast<unsigned char>(s[i + 1]) < 0xA0) return true;
    }
    return false;
}

std::string write_temp(const std::string& name, const std::string& text) {
    const std::string path = clitest::temp_path(name);
    std::ofstream(path, std::ios::binary) << text;
    return path;
}

// A Llama-3.1-8B-shaped config.json (its real dims) with a chosen name and max_position_embeddings.
std::string config(const std::string& architecture, int max_position) {
    return R"({"architectures":[")" + architecture +
           R"("],"model_type":"llama","num_hidden_layers":32,"hidden_size":4096,"num_attention_heads":32,)"
           R"("num_key_value_heads":8,"head_dim":128,"vocab_size":128256,"intermediate_size":14336,)"
           R"("max_position_embeddings":)" + std::to_string(max_position) + R"(,"torch_dtype":"bfloat16"})";
}

}  // namespace

TEST_SUITE("reliability") {
    TEST_CASE("B11: control characters from config.json reach neither the terminal nor the SVG") {
        // JSON escapes: ESC [2J (clear screen), OSC 0 title BEL, U+0001, U+009B (C1 CSI).
        const std::string path = write_temp("esc.json", config(R"(\u001b[2J\u001b]0;owned\u0007Evil\u0001\u009bModel)", 8192));
        const std::string svg = clitest::temp_path("esc.svg");
        const Run r = kvcalc("--config " + clitest::shell_quote(path) + " --gpu h100-80gb --max-ctx 8192 --svg " +
                             clitest::shell_quote(svg));
        CHECK(r.status == 0);
        CHECK(contains(r.out, "Evil"));
        CHECK_FALSE(has_control(r.out));
        CHECK_FALSE(has_control(r.err));
        const std::string text = clitest::read_file(svg);
        CHECK(contains(text, "Evil"));
        CHECK_FALSE(has_control(text));
        CHECK(clitest::xml_problem(text).empty());
        std::remove(path.c_str());
        std::remove(svg.c_str());
    }

    TEST_CASE("B8: --solve-max-ctx answers for a model with less than 1,024 tokens of context") {
        // Llama-8B dims with max_position_embeddings 512 on an H100: KV is 131,072 B/token, so the 512 cap binds.
        const std::string path = write_temp("tiny_ctx.json", config("LlamaForCausalLM", 512));
        const Run r = kvcalc("--config " + clitest::shell_quote(path) + " --gpu h100-80gb --max-ctx 256 --solve-max-ctx --json");
        CHECK(r.status == 0);
        const auto j = nlohmann::json::parse(r.out);
        CHECK(j["solvers"]["max_model_len"]["value"] == 512);
        CHECK(j["solvers"]["max_model_len"]["bound"] == "max_position_embeddings");
        std::remove(path.c_str());
    }

    TEST_CASE("--sequences and --max-num-seqs that disagree are an error; agreeing or repeated ones are not") {
        const Run bad = kvcalc("--model llama-3.1-8b --gpu h100-80gb --max-ctx 8192 --max-num-seqs 4 --sequences 8");
        CHECK(bad.status == 2);
        CHECK(contains(bad.err, "--max-num-seqs 4"));
        CHECK(contains(bad.err, "--sequences 8"));
        CHECK(contains(bad.err, "max_num_seqs"));
        CHECK(kvcalc("--model llama-3.1-8b --gpu h100-80gb --max-ctx 8192 --max-num-seqs 4 --sequences 4").status == 0);
        CHECK(kvcalc("--model llama-3.1-8b --gpu h100-80gb --max-ctx 8192 --sequences 2 --sequences 4").status == 0);
    }

    TEST_CASE("B14: a flag where a value belongs says the value is missing") {
        const Run r = kvcalc("--model --tp 2");
        CHECK(r.status == 2);
        CHECK(contains(r.err, "--model needs a value"));
        CHECK(contains(r.err, "--tp"));
    }

    TEST_CASE("B14: --svg failures give the reason") {
        const Run r = kvcalc("--model llama-3.1-8b --gpu h100-80gb --max-ctx 8192 --svg /nonexistent/dir/x.svg");
        CHECK(r.status == 2);
        CHECK(contains(r.err, "No such file or directory"));
    }

    TEST_CASE("B3: a 100 KB link of one repeated key opens in well under a second with two warnings") {
        std::string link;
        for (int i = 0; i < 20000; ++i) link += "tp=1&";
        const Run r = kvcalc("--from-url " + clitest::shell_quote(link) + " --model llama-3.1-8b --gpu h100-80gb --max-ctx 4096");
        CHECK(r.status == 0);
        std::size_t warnings = 0;
        for (auto p = r.err.find("warning"); p != std::string::npos; p = r.err.find("warning", p + 1)) ++warnings;
        CHECK(warnings == 3);  // too long, too many parameters, repeated key
    }

    TEST_CASE("B14: --config with --model warns that --model is ignored") {
        const std::string path = write_temp("both.json", config("LlamaForCausalLM", 8192));
        const Run r = kvcalc("--config " + clitest::shell_quote(path) + " --model qwen3.6-27b --gpu h100-80gb --max-ctx 8192");
        CHECK(r.status == 0);
        CHECK(contains(r.err, "--model is ignored"));
        std::remove(path.c_str());
    }
}

// QA breaker: a link's problem names the link key; empty values and contradictions are errors.
TEST_SUITE("bad_input") {
    TEST_CASE("--from-url: a value predict() rejects is an error naming the link key, exit 2") {
        // Llama 3.1 8B's 32 attention heads and 8 KV heads: tensor_parallel_size 3 splits neither.
        const Run r = kvcalc("--from-url 'v=2&m=llama-3.1-8b&g=rtx-4090&ctx=8192&tp=3'");
        CHECK(r.status == 2);
        CHECK(contains(r.err, "link key \"tp\""));
        CHECK_FALSE(contains(r.err, "--tensor-parallel-size"));
        // A flag typed with the link overrides it: no link error, the run goes on.
        const Run fixed = kvcalc("--from-url 'v=2&m=llama-3.1-8b&g=rtx-4090&ctx=8192&tp=3' --tp 2 --gpus 2");
        CHECK_FALSE(contains(fixed.err, "link key"));
        CHECK(fixed.status != 2);
    }

    TEST_CASE("--gpu '' and --engine '' are errors, not the 24 GB / vllm defaults; --mtp with --no-mtp too") {
        for (const char* args : {"--model llama-3.1-8b --gpu ''", "--model llama-3.1-8b --engine ''",
                                 "--model qwen3.6-27b --mtp --no-mtp"}) {
            INFO(args);
            const Run r = kvcalc(args);
            CHECK(r.status == 2);
        }
    }

    TEST_CASE("--mem-util 1e-400 is out of range, not vLLM's default") {
        const Run r = kvcalc("--model llama-3.1-8b --gpu rtx-4090 --max-ctx 8192 --mem-util 1e-400");
        CHECK(r.status == 2);
    }
}

// Unicode bidi controls from config.json (U+202E RIGHT-TO-LEFT OVERRIDE) reach neither the terminal, the SVG
// nor the --json text raw; long flag values are echoed cut.
#include <doctest/doctest.h>

#include <cstdio>
#include <fstream>
#include <string>

#include "cli_run.h"

using clitest::kvcalc;
using clitest::Run;

namespace {

bool contains(const std::string& hay, const std::string& needle) { return hay.find(needle) != std::string::npos; }

const std::string kRlo = "\xE2\x80\xAE";  // U+202E in UTF-8

std::string write_temp(const std::string& name, const std::string& text) {
    const std::string path = clitest::temp_path(name);
    std::ofstream(path, std::ios::binary) << text;
    return path;
}

// Llama-3.1-8B's dims (meta-llama/Llama-3.1-8B config.json) named "\u202eLlama".
const char* kConfig =
    R"({"architectures":["\u202eLlama"],"model_type":"llama","num_hidden_layers":32,"hidden_size":4096,)"
    R"("num_attention_heads":32,"num_key_value_heads":8,"head_dim":128,"vocab_size":128256,)"
    R"("intermediate_size":14336,"max_position_embeddings":8192,"torch_dtype":"bfloat16"})";

}  // namespace

TEST_SUITE("hostile_input") {
    TEST_CASE("U+202E in a config.json name: '?' on stdout and in the SVG, \\u202e in --json") {
        const std::string path = write_temp("bidi.json", kConfig);
        const std::string svg = clitest::temp_path("bidi.svg");
        const Run r = kvcalc("--config " + clitest::shell_quote(path) + " --gpu h100-80gb --max-ctx 8192 --svg " +
                             clitest::shell_quote(svg));
        CHECK(r.status == 0);
        CHECK_FALSE(contains(r.out, kRlo));
        CHECK_FALSE(contains(r.err, kRlo));
        CHECK(contains(r.out, "?Llama"));
        const std::string text = clitest::read_file(svg);
        CHECK_FALSE(contains(text, kRlo));
        CHECK(contains(text, "?Llama"));
        const Run j = kvcalc("--config " + clitest::shell_quote(path) + " --gpu h100-80gb --max-ctx 8192 --json");
        CHECK_FALSE(contains(j.out, kRlo));
        CHECK(contains(j.out, "\\u202eLlama"));
        std::remove(path.c_str());
        std::remove(svg.c_str());
    }

    TEST_CASE("a 300-character flag value is echoed as 64 characters and an ellipsis") {
        const std::string value(300, 'x');
        const Run r = kvcalc("--gpu " + value);
        CHECK(r.status == 2);
        CHECK(contains(r.err, "'" + std::string(64, 'x') + "…'"));
        CHECK_FALSE(contains(r.err, std::string(65, 'x')));
        const Run f = kvcalc("--foo" + value);
        CHECK(f.status == 2);
        CHECK_FALSE(contains(f.err, std::string(65, 'x')));
    }
}

// The --svg drawing (cli/svg.cpp): labels that never overlap and text from config.json that reaches neither the
// terminal nor the SVG as control characters.
#include <doctest/doctest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "cli_run.h"
#include "svg.h"
#include "xml_check.h"
#include "kvcalc/catalog/catalog.h"
#include "kvcalc/deployment/predict.h"

using clitest::Run;

namespace {

Run cli(const std::string& args) { return clitest::kvcalc(args); }

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

TEST_SUITE("svg") {
    TEST_CASE("QA: SVG labels never overlap: VRAM 25.77 GB and budget 24.48 GB on an RTX 3090, every model") {
        int drawings = 0;
        for (const auto& m : kvcalc::model_catalog()) {
            for (const char* gpu : {"rtx-3090", "rtx-4090", "a100-80gb", "h100-80gb", "rtx-3060-12gb"}) {
                for (int tp : {1, 2}) {
                    kvcalc::Scenario s;
                    s.model_id = m.id;
                    s.gpu = gpu;
                    s.tensor_parallel_size = tp;
                    s.gpus = tp == 2 ? 4 : 0;  // two idle cards as well
                    s.max_model_len = std::min<std::int64_t>(32768, m.max_position_embeddings);
                    const kvcalc::Report r = kvcalc::predict(s);
                    if (!r.ok) continue;
                    ++drawings;
                    const kvcli::SvgLayout l = kvcli::svg_layout(r);
                    INFO(m.id, " on ", tp, " x ", std::string(gpu));
                    for (std::size_t i = 0; i < l.texts.size(); ++i) {
                        const auto& a = l.texts[i];
                        CHECK(a.x0 >= 0);
                        CHECK(a.y0 >= 0);
                        CHECK(a.x1 <= l.width);
                        CHECK(a.y1 <= l.height);
                        for (std::size_t k = i + 1; k < l.texts.size(); ++k) {
                            const auto& b = l.texts[k];
                            const bool apart = a.x1 <= b.x0 || b.x1 <= a.x0 || a.y1 <= b.y0 || b.y1 <= a.y0;
                            CHECK_MESSAGE(apart, "'" << a.text << "' overlaps '" << b.text << "'");
                        }
                        for (const auto& sw : l.swatches) {
                            const bool apart = a.x1 <= sw.x || sw.x + sw.size <= a.x0 || a.y1 <= sw.y ||
                                               sw.y + sw.size <= a.y0;
                            CHECK_MESSAGE(apart, "'" << a.text << "' overlaps a legend square");
                        }
                    }
                }
            }
        }
        CHECK(drawings > 100);
        // The QA case: 24 GiB = 25.77 GB, and the budget 0.95 × that = 24.48 GB, 4.4 px apart on the plot.
        kvcalc::Scenario qa;  // at the seed CLI's settings, as the QA ran it
        qa.gpu = "rtx-3090";
        qa.kv_cache_dtype = "fp8_e5m2";
        qa.max_model_len = 180000;
        qa.max_num_seqs = 1;
        qa.gpu_memory_utilization = 0.95;
        const kvcli::SvgLayout l = kvcli::svg_layout(kvcalc::predict(qa));
        int found = 0;
        for (const auto& t : l.texts) found += t.text == "VRAM 25.77 GB" || t.text == "budget 24.48 GB";
        CHECK(found == 2);
    }
}

TEST_SUITE("svg") {
    TEST_CASE("control characters from config.json reach neither the terminal nor the SVG") {
        // JSON escapes: ESC [2J (clear screen), OSC 0 title BEL, U+0001, U+009B (C1 CSI).
        const std::string path = write_temp("esc.json", config(R"(\u001b[2J\u001b]0;owned\u0007Evil\u0001\u009bModel)", 8192));
        const std::string svg = clitest::temp_path("esc.svg");
        const Run r = cli("--config " + clitest::shell_quote(path) + " --gpu h100-80gb --max-ctx 8192 --svg " +
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
}

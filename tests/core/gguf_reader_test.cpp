// The GGUF reader on real files (tests/data/gguf, sources in tests/data/gguf/SOURCE.md), on a header written from
// a real Q4_K_M tensor dump, and on hostile headers. Expected numbers are the files' own sizes and the lines
// llama.cpp printed for them (tests/data/gguf/LOGS.md).
#include <doctest/doctest.h>

#include <cmath>
#include <functional>
#include <limits>
#include <map>
#include <regex>
#include <sstream>

#include "gguf_writer.h"
#include "test_data.h"
#include "kvcalc/config/gguf.h"
#include "kvcalc/config/hf_config.h"
#include "kvcalc/deployment/predict.h"
#include "kvcalc/engines/llama_cpp_buffers.h"

using namespace kvcalc;
using kvcalc::test::GgufWriter;

namespace {

constexpr double kMiB = 1024.0 * 1024.0;

std::string gguf_file(const std::string& name) { return kvcalc::test::data_file("gguf/" + name); }

GgufHeader header_of(const std::string& bytes) {
    GgufReadResult r = read_gguf_header(bytes);
    for (const auto& d : r.diagnostics) INFO(d.message);
    REQUIRE(r.header);
    return *r.header;
}

GgufModel model_of(const std::string& bytes) { return read_gguf_model({header_of(bytes)}); }

bool has_code(const Diagnostics& d, const std::string& code) {
    for (const auto& x : d)
        if (x.code == code) return true;
    return false;
}

/// The first error's code of reading `bytes`, "" when it reads.
std::string error_of(const std::string& bytes) {
    const GgufReadResult r = read_gguf_header(bytes);
    for (const auto& d : r.diagnostics)
        if (d.severity == Severity::error) return d.code;
    return "";
}

/// Growing KV bytes per token at f16 on one card, from the core (llama.cpp engine).
double kv_per_token(const ModelSpec& m, std::int64_t ctx) {
    Scenario s;
    s.model = m;
    s.engine = "llama.cpp";
    s.kv_cache_dtype = "f16";
    s.max_model_len = ctx;
    s.vram_gib = 80;
    const Report r = predict(s);
    for (const auto& d : r.diagnostics) INFO(d.message);
    REQUIRE(r.ok);
    return r.terms.kv_bytes_per_token;
}

/// The 291 tensor infos of OpenLLaMA-7B-v2 Q4_K_M as llama.cpp b1062 printed them (first run of the log).
std::vector<kvcalc::test::TensorSpec> open_llama_tensors() {
    const std::string log = gguf_file("open_llama_7b_v2-q4_k.ggml-ci-v100-b1062.log");
    const std::regex line(R"(- tensor\s+(\d+):\s+(\S+) (\w+)\s+\[\s*(\d+),\s*(\d+),\s*(\d+),\s*(\d+) \])");
    const std::map<std::string, std::uint32_t> ids = {{"f32", 0}, {"q4_K", 12}, {"q6_K", 14}};
    std::vector<kvcalc::test::TensorSpec> out;
    std::istringstream in(log);
    for (std::string l; std::getline(in, l) && out.size() < 291;) {
        std::smatch m;
        if (!std::regex_search(l, m, line)) continue;
        std::vector<std::int64_t> ne = {std::stoll(m[4]), std::stoll(m[5]), std::stoll(m[6]), std::stoll(m[7])};
        const std::uint32_t type = ids.at(m[3]);
        out.push_back({m[2], type, ne, *ggml_tensor_bytes(*find_ggml_type(type), ne)});
    }
    return out;
}

/// A GGUF header with the dump's tensor infos and the hparams b1062 printed (llm_load_print_meta: n_ctx_train 2048,
/// n_embd 4096, n_head 32, n_head_kv 32, n_layer 32, n_rot 128, n_ff 11008, n_vocab 32000).
std::string open_llama_header() {
    const auto tensors = open_llama_tensors();
    GgufWriter w;
    w.head(tensors.size(), 9)
        .kv_str("general.architecture", "llama")
        .kv_str("general.name", "open_llama_7b_v2")
        .kv_u32("llama.context_length", 2048)
        .kv_u32("llama.embedding_length", 4096)
        .kv_u32("llama.block_count", 32)
        .kv_u32("llama.feed_forward_length", 11008)
        .kv_u32("llama.rope.dimension_count", 128)
        .kv_u32("llama.attention.head_count", 32)
        .kv_u32("llama.attention.head_count_kv", 32);
    kvcalc::test::write_tensors(w, tensors);
    return w.bytes;
}

}  // namespace

TEST_CASE("gguf: the complete tiny llama — its tensors fill the file from the data offset to the end") {
    const std::string file = gguf_file("llama-2-tiny-random.gguf");
    REQUIRE(file.size() == 1750560);  // SOURCES: file_size_bytes
    const GgufHeader h = header_of(file);
    CHECK(h.version == 3);
    CHECK(h.metadata.size() == 18);
    REQUIRE(h.tensors.size() == 12);
    CHECK(h.alignment == 32);
    CHECK(h.data_offset % 32 == 0);
    CHECK(h.data_offset - h.header_bytes < 32);
    // The data section ends exactly at EOF; the last tensor (output.weight, f16 8 x 32000) ends the file unpadded.
    CHECK(static_cast<std::uint64_t>(h.tensor_bytes) == file.size() - h.data_offset);
    CHECK(h.tensors[0].name == "token_embd.weight");
    CHECK(h.tensors[0].ggml_type == 1);
    CHECK(h.tensors[0].ne == std::vector<std::int64_t>{8, 32000});
    CHECK(h.tensors[1].offset == 512000);  // after 8 x 32000 f16
    CHECK(h.find("general.architecture")->text == "llama");
    const GgufValue* tokens = h.find("tokenizer.ggml.tokens");
    REQUIRE(tokens);
    CHECK(tokens->type == GgufValueType::array);
    CHECK(tokens->count == 32000);
    CHECK(h.find("tokenizer.ggml.scores")->reals.size() == 32000);
    CHECK(h.find("llama.attention.layer_norm_rms_epsilon")->reals.front() == doctest::Approx(1e-5));

    const GgufModel g = read_gguf_model({h});
    CHECK_FALSE(has_error(g.diagnostics));
    CHECK(g.tensors_listed);
    CHECK(g.tensor_bytes == 1750560 - static_cast<std::int64_t>(h.data_offset));
    REQUIRE(g.spec.weights.size() == 1);
    CHECK(g.spec.weights[0].size_gb * 1e9 == doctest::Approx(static_cast<double>(g.tensor_bytes)));
    CHECK(g.spec.num_hidden_layers == 1);
    CHECK(g.spec.max_position_embeddings == 4096);
    // 1 layer × 2 KV heads × (4 + 4) (key_length = embedding_length 8 / head_count 2) × 2 B.
    CHECK(kv_per_token(g.spec, 4096) == 32.0);
}

TEST_CASE("gguf: vocab-only files — whole file is header; KV from their keys; weights unknown, said so") {
    struct Case {
        const char* file;
        std::size_t size, n_kv;
        double kv_per_token;  // n_layer × n_head_kv × (key_length + value_length) × 2 B, from the keys SOURCES lists
    };
    const Case cases[] = {
        {"ggml-vocab-llama-spm.gguf", 723869, 22, 32.0 * 32 * (128 + 128) * 2},
        {"ggml-vocab-deepseek-coder.gguf", 1156067, 25, 32.0 * 32 * (128 + 128) * 2},
        {"ggml-vocab-phi-3.gguf", 726019, 26, 32.0 * 32 * (96 + 96) * 2},      // 3072 / 32 heads
        {"ggml-vocab-falcon.gguf", 659, 15, 32.0 * 1 * (64 + 64) * 2},  // 4544 / 71 heads, 1 KV head; tokenizer arrays cut
    };
    for (const auto& c : cases) {
        CAPTURE(c.file);
        const std::string file = gguf_file(c.file);
        REQUIRE(file.size() == c.size);
        const GgufHeader h = header_of(file);
        CHECK(h.header_bytes == c.size);
        CHECK(h.tensors.empty());
        CHECK(h.metadata.size() == c.n_kv);
        const GgufModel g = read_gguf_model({h});
        CHECK_FALSE(g.tensors_listed);
        CHECK(has_code(g.diagnostics, "gguf_weights_unknown"));
        CHECK(kv_per_token(g.spec, 2048) == c.kv_per_token);
    }
    // deepseek-coder: llama.context_length 16384 is what llama.cpp trains to (n_ctx_train).
    CHECK(model_of(gguf_file("ggml-vocab-deepseek-coder.gguf")).spec.max_position_embeddings == 16384);
}

TEST_CASE("gguf: bge-small (bert) is an encoder: no KV cache") {
    const GgufModel g = model_of(gguf_file("ggml-vocab-bert-bge.gguf"));
    CHECK_FALSE(has_error(g.diagnostics));
    CHECK(g.encoder_only);
    REQUIRE(g.spec.layers.size() == 12);
    for (const auto& l : g.spec.layers) CHECK(std::holds_alternative<NoCache>(l));
    CHECK(kv_per_token(g.spec, 512) == 0.0);
    // llama.cpp b4893 still allocated one for it (LOGS.md §2: "CUDA0 KV buffer size = 9.00 MiB" at kv_size 512):
    // 512 × 12 layers × 12 heads × (32 + 32) × 2 B from the file's keys. Newer releases build no memory for bert.
    const GgufHeader h = header_of(gguf_file("ggml-vocab-bert-bge.gguf"));
    const std::int64_t embd = h.find("bert.embedding_length")->integers.front();
    const std::int64_t heads = h.find("bert.attention.head_count")->integers.front();
    const std::int64_t layers = h.find("bert.block_count")->integers.front();
    CHECK(512.0 * layers * heads * (embd / heads) * 2 * 2 / kMiB == 9.0);
}

TEST_CASE("gguf: OpenLLaMA-7B Q4_K_M header from its 291-tensor dump — tensor bytes and the VRAM / KV lines") {
    const auto tensors = open_llama_tensors();
    REQUIRE(tensors.size() == 291);
    std::map<std::uint32_t, int> per_type;
    for (const auto& t : tensors) ++per_type[t.type];
    // llama_model_loader: - type f32: 65 tensors, q4_K: 193, q6_K: 33
    CHECK(per_type[0] == 65);
    CHECK(per_type[12] == 193);
    CHECK(per_type[14] == 33);
    const GgufModel g = model_of(open_llama_header());
    CHECK_FALSE(has_error(g.diagnostics));
    REQUIRE(g.tensors_listed);
    // "VRAM used: 4077 MB" (n_ctx 512) and "4845 MB" (n_ctx 2048), MB = MiB: every tensor but token_embd (kept on
    // the CPU, "mem required = 70.40 MB") plus "kv self size = 256.00 MB" / "1024.00 MB".
    const double embd = static_cast<double>(tensors[0].bytes);
    const double kv512 = kv_per_token(g.spec, 512) * 512;
    const double kv2048 = kv_per_token(g.spec, 2048) * 2048;
    CHECK(kv512 / kMiB == 256.0);
    CHECK(kv2048 / kMiB == 1024.0);
    CHECK(std::llround((static_cast<double>(g.tensor_bytes) - embd + kv512) / kMiB) == 4077);
    CHECK(std::llround((static_cast<double>(g.tensor_bytes) - embd + kv2048) / kMiB) == 4845);
    CHECK(embd / kMiB == doctest::Approx(70.40).epsilon(0.002));
    CHECK(g.spec.num_parameters == doctest::Approx(6.74e9).epsilon(0.001));  // "model size = 6.74 B"
}

TEST_CASE("gguf: the same layer plan as the model's config.json (llama 3.1 8B GQA, Gemma 2 and Gemma 3 SWA)") {
    // Keys written as convert_hf_to_gguf.py writes them from these config.json files (tests/data/configs).
    struct Case {
        const char* config;
        const char* arch;
        std::uint32_t layers, embd, heads, kv_heads, head_dim, window, ctx;
    };
    const Case cases[] = {
        {"llama-3.1-8b.json", "llama", 32, 4096, 32, 8, 128, 0, 131072},
        {"gemma-2-9b.json", "gemma2", 42, 3584, 16, 8, 256, 4096, 8192},
        {"gemma-3-text.json", "gemma3", 26, 1152, 4, 1, 256, 512, 32768},
    };
    for (const auto& c : cases) {
        CAPTURE(c.config);
        const HfConfig cfg = read_hf_config(kvcalc::test::config_file(c.config));
        REQUIRE_FALSE(has_error(cfg.diagnostics));
        const std::string a = c.arch;
        GgufWriter w;
        w.head(0, c.window ? 9 : 8)
            .kv_str("general.architecture", a)
            .kv_u32(a + ".block_count", c.layers)
            .kv_u32(a + ".embedding_length", c.embd)
            .kv_u32(a + ".context_length", c.ctx)
            .kv_u32(a + ".attention.head_count", c.heads)
            .kv_u32(a + ".attention.head_count_kv", c.kv_heads)
            .kv_u32(a + ".attention.key_length", c.head_dim)
            .kv_u32(a + ".attention.value_length", c.head_dim);
        if (c.window) w.kv_u32(a + ".attention.sliding_window", c.window);
        const GgufModel g = model_of(w.bytes);
        CHECK_FALSE(has_error(g.diagnostics));
        CHECK(g.spec.layers == cfg.spec.layers);
        CHECK(g.spec.max_position_embeddings == cfg.spec.max_position_embeddings);
    }
}

TEST_CASE("gguf: per-layer arrays — head_count_kv 0 with ssm keys types recurrent layers; a bool SWA pattern") {
    GgufWriter w;
    w.head(0, 10)
        .kv_str("general.architecture", "jamba")
        .kv_u32("jamba.block_count", 4)
        .kv_u32("jamba.embedding_length", 4096)
        .kv_u32("jamba.context_length", 262144)
        .kv_u32("jamba.attention.head_count", 32)
        .kv_u32_array("jamba.attention.head_count_kv", {0, 0, 0, 8})
        .kv_u32("jamba.ssm.state_size", 16)
        .kv_u32("jamba.ssm.inner_size", 8192)
        .kv_u32("jamba.ssm.conv_kernel", 4)
        .kv_u32("jamba.ssm.time_step_rank", 256);
    const GgufModel g = model_of(w.bytes);
    REQUIRE_FALSE(has_error(g.diagnostics));
    REQUIRE(g.spec.layers.size() == 4);
    const auto* state = std::get_if<RecurrentState>(&g.spec.layers[0]);
    REQUIRE(state);
    CHECK(state->state_elements == 8192 * 16);   // Mamba-1: d_inner × d_state
    CHECK(state->conv_elements == 3 * 8192);     // (d_conv − 1) × d_inner
    CHECK(std::get<FullAttention>(g.spec.layers[3]).num_key_value_heads == 8);

    GgufWriter s;
    s.head(0, 8)
        .kv_str("general.architecture", "gemma4")
        .kv_u32("gemma4.block_count", 3)
        .kv_u32("gemma4.embedding_length", 1024)
        .kv_u32("gemma4.context_length", 131072)
        .kv_u32("gemma4.attention.head_count", 8)
        .kv_u32("gemma4.attention.head_count_kv", 2)
        .kv_u32("gemma4.attention.sliding_window", 512)
        .kv_bool_array("gemma4.attention.sliding_window_pattern", {true, true, false});
    const GgufModel p = model_of(s.bytes);
    REQUIRE_FALSE(has_error(p.diagnostics));
    CHECK(std::get<SlidingWindow>(p.spec.layers[0]).sliding_window == 512);
    CHECK(std::holds_alternative<SlidingWindow>(p.spec.layers[1]));
    CHECK(std::holds_alternative<FullAttention>(p.spec.layers[2]));
}

TEST_CASE("gguf: split files — the parts' tensors are summed; a missing part is an error") {
    const auto tensors = open_llama_tensors();
    const std::vector<kvcalc::test::TensorSpec> first(tensors.begin(), tensors.begin() + 100),
        second(tensors.begin() + 100, tensors.end());
    const auto part = [](std::uint16_t no, const std::vector<kvcalc::test::TensorSpec>& ts, bool with_arch) {
        GgufWriter w;
        w.head(ts.size(), with_arch ? 8 : 3)
            .kv_u16("split.no", no)
            .kv_u16("split.count", 2)
            .kv_i32("split.tensors.count", 291);
        if (with_arch)
            w.kv_str("general.architecture", "llama")
                .kv_u32("llama.block_count", 32)
                .kv_u32("llama.embedding_length", 4096)
                .kv_u32("llama.context_length", 2048)
                .kv_u32("llama.attention.head_count", 32);
        kvcalc::test::write_tensors(w, ts);
        return header_of(w.bytes);
    };
    const GgufHeader a = part(0, first, true), b = part(1, second, false);
    const GgufModel whole = model_of(open_llama_header());
    const GgufModel split = read_gguf_model({b, a});  // any order
    CHECK_FALSE(has_error(split.diagnostics));
    CHECK(split.tensor_bytes == whole.tensor_bytes);
    CHECK(split.spec.layers == whole.spec.layers);
    CHECK(has_code(read_gguf_model({a}).diagnostics, "gguf_split_incomplete"));
    CHECK(has_code(read_gguf_model({a, a}).diagnostics, "gguf_split_incomplete"));
}

TEST_CASE("gguf hostile: every cut of a real header is 'truncated', never a header or a crash") {
    const std::string file = gguf_file("ggml-vocab-llama-spm.gguf");
    for (std::size_t n = 0; n < file.size(); n += n < 4096 ? 1 : 7919) {
        const GgufReadResult r = read_gguf_header(std::string_view(file).substr(0, n));
        CAPTURE(n);
        CHECK_FALSE(r.header);
        CHECK(r.truncated);
        CHECK(has_error(r.diagnostics));
    }
}

TEST_CASE("gguf hostile: bad magic, version, counts, value types, strings, tensors") {
    CHECK(error_of("GGML\x03\0\0\0") == "gguf_bad_magic");
    CHECK(error_of(GgufWriter().head(0, 0, 1).bytes) == "gguf_bad_version");
    CHECK(error_of(GgufWriter().head(0, 0, 4).bytes) == "gguf_bad_version");
    CHECK(error_of(GgufWriter().head(std::uint64_t{1} << 62, 0).bytes) == "gguf_count_too_large");
    CHECK(error_of(GgufWriter().head(0, ~std::uint64_t{0}).bytes) == "gguf_count_too_large");
    // A key/value count the bytes cannot hold: the bytes run out.
    const GgufReadResult few = read_gguf_header(GgufWriter().head(0, 1000).bytes);
    CHECK(few.truncated);
    // Value type 13 does not exist; an array of arrays gguf.cpp refuses; an array count of 2^62.
    CHECK(error_of(GgufWriter().head(0, 1).str("k").raw<std::uint32_t>(13).bytes) == "gguf_bad_value_type");
    CHECK(error_of(GgufWriter().head(0, 1).str("k").raw<std::uint32_t>(9).raw<std::uint32_t>(9).raw<std::uint64_t>(1).bytes) ==
          "gguf_nested_array");
    CHECK(error_of(GgufWriter().head(0, 1).str("k").raw<std::uint32_t>(9).raw<std::uint32_t>(4).raw<std::uint64_t>(
              std::uint64_t{1} << 62).bytes) == "gguf_count_too_large");
    // A string length of 2^64 − 1, a key past the cap, a bool stored as 2, a duplicate key.
    CHECK(error_of(GgufWriter().head(0, 1).raw<std::uint64_t>(~std::uint64_t{0}).bytes) == "gguf_string_too_long");
    CHECK(error_of(GgufWriter().head(0, 1).str(std::string(kGgufMaxKeyBytes + 1, 'k')).bytes) == "gguf_string_too_long");
    CHECK(error_of(GgufWriter().head(0, 1).str("b").raw<std::uint32_t>(7).raw<std::uint8_t>(2).bytes) == "gguf_bad_value");
    CHECK(error_of(GgufWriter().head(0, 2).kv_u32("a", 1).kv_u32("a", 2).bytes) == "gguf_duplicate_key");
    CHECK(error_of(GgufWriter().head(0, 1).kv_u32("general.alignment", 24).bytes) == "gguf_bad_alignment");
    CHECK(error_of(GgufWriter().head(0, 1).kv_u32("general.alignment", 0).bytes) == "gguf_bad_alignment");
    // Tensors: a removed ggml type (4), GGML_TYPE_COUNT (40), 5 dimensions, a row not of whole blocks, a 64-byte
    // name (GGML_MAX_NAME counts the zero), an offset out of gguf.cpp's layout, a repeated name, a shape past 2^63.
    const auto one = [](const std::string& name, std::uint32_t type, std::vector<std::int64_t> ne, std::uint64_t off) {
        return error_of(GgufWriter().head(1, 0).tensor(name, type, ne, off).bytes);
    };
    CHECK(one("t", 4, {32}, 0) == "gguf_bad_ggml_type");
    CHECK(one("t", 40, {32}, 0) == "gguf_bad_ggml_type");
    CHECK(one("t", 0, {1, 1, 1, 1, 1}, 0) == "gguf_bad_tensor");
    CHECK(one("t", 0, {}, 0) == "gguf_bad_tensor");
    CHECK(one("t", 12, {100}, 0) == "gguf_bad_tensor");
    CHECK(one("t", 0, {-1}, 0) == "gguf_bad_tensor");
    CHECK(one("t", 0, {std::int64_t{1} << 62, 4}, 0) == "gguf_bad_tensor");
    CHECK(one(std::string(64, 'n'), 0, {1}, 0) == "gguf_string_too_long");
    CHECK(one("t", 0, {8}, 64) == "gguf_bad_offset");
    CHECK(error_of(GgufWriter().head(2, 0).tensor("t", 0, {8}, 0).tensor("t", 0, {8}, 32).bytes) ==
          "gguf_duplicate_tensor");
    CHECK(error_of(GgufWriter().head(1, 0).tensor("t", 0, {8}, 0).bytes).empty());
}

TEST_CASE("gguf hostile: model keys of the wrong type or out of range are errors naming the key") {
    const auto model = [](const std::function<void(GgufWriter&)>& extra, std::uint64_t n_kv) {
        GgufWriter w;
        w.head(0, n_kv).kv_str("general.architecture", "llama").kv_u32("llama.embedding_length", 4096)
            .kv_u32("llama.attention.head_count", 32);
        extra(w);
        return read_gguf_model({header_of(w.bytes)});
    };
    const auto first_error = [](const GgufModel& g) {
        for (const auto& d : g.diagnostics)
            if (d.severity == Severity::error) return d.field;
        return std::string();
    };
    CHECK(first_error(model([](GgufWriter&) {}, 3)) == "llama.block_count");
    CHECK(first_error(model([](GgufWriter& w) { w.kv_u32("llama.block_count", 0); }, 4)) == "llama.block_count");
    CHECK(first_error(model([](GgufWriter& w) { w.kv_str("llama.block_count", "32"); }, 4)) == "llama.block_count");
    CHECK(first_error(model([](GgufWriter& w) {
              w.kv_u32("llama.block_count", 2).kv_u32_array("llama.attention.head_count_kv", {8, 8, 8});
          }, 5)) == "llama.attention.head_count_kv");
    CHECK(first_error(model([](GgufWriter& w) {
              w.kv_u32("llama.block_count", 2).kv_u32("llama.ssm.state_size", 16).kv_u32("llama.ssm.inner_size", 64);
          }, 6)) == "llama.ssm.state_size");
    GgufWriter none;
    none.head(0, 0);
    CHECK(has_code(read_gguf_model({header_of(none.bytes)}).diagnostics, "gguf_missing_key"));
    CHECK(has_code(read_gguf_model({}).diagnostics, "gguf_no_file"));
}

TEST_CASE("gguf: a scalar sliding_window_pattern as llama-hparams.cpp set_swa_pattern reads it (0 = all slide)") {
    const auto layers_of = [](std::optional<std::uint32_t> pattern, const std::string& arch) {
        GgufWriter w;
        w.head(0, pattern ? 8 : 7)
            .kv_str("general.architecture", arch)
            .kv_u32(arch + ".block_count", 8)
            .kv_u32(arch + ".embedding_length", 1024)
            .kv_u32(arch + ".context_length", 8192)
            .kv_u32(arch + ".attention.head_count", 8)
            .kv_u32(arch + ".attention.head_count_kv", 4)
            .kv_u32(arch + ".attention.sliding_window", 1024);
        if (pattern) w.kv_u32(arch + ".attention.sliding_window_pattern", *pattern);
        const GgufModel g = model_of(w.bytes);
        std::string out;
        for (const auto& l : g.spec.layers) out += std::holds_alternative<SlidingWindow>(l) ? 'S' : 'F';
        return std::make_pair(out, g.diagnostics);
    };
    CHECK(layers_of(4, "cohere2").first == "SSSFSSSF");
    CHECK(layers_of(std::nullopt, "cohere2").first == "SSSFSSSF");  // cohere2's default period, 4
    CHECK(layers_of(0, "llama").first == "SSSSSSSS");
    CHECK(layers_of(1, "llama").first == "FFFFFFFF");
    const auto [plain, notes] = layers_of(std::nullopt, "llama");  // llama.cpp applies no window to llama
    CHECK(plain == "FFFFFFFF");
    CHECK(has_code(notes, "gguf_swa_ignored"));
}

TEST_CASE("gguf: LFM2 — head_count_kv 0 on its conv layers with shortconv.l_cache gives config.json's plan") {
    // tests/data/configs/lfm2.5-vl-1.6b.json text_config: 16 layers, conv except 2, 5, 8, 10, 12, 14; conv_L_cache 3.
    const HfConfig cfg = read_hf_config(kvcalc::test::config_file("lfm2.5-vl-1.6b.json"));
    REQUIRE_FALSE(has_error(cfg.diagnostics));
    std::vector<std::uint32_t> kv(16, 0);
    for (int i : {2, 5, 8, 10, 12, 14}) kv[static_cast<std::size_t>(i)] = 8;
    GgufWriter w;
    w.head(0, 8)
        .kv_str("general.architecture", "lfm2")
        .kv_u32("general.file_type", 32)  // LLAMA_FTYPE_MOSTLY_BF16, the config's dtype
        .kv_u32("lfm2.block_count", 16)
        .kv_u32("lfm2.embedding_length", 2048)
        .kv_u32("lfm2.context_length", 128000)
        .kv_u32("lfm2.attention.head_count", 32)
        .kv_u32_array("lfm2.attention.head_count_kv", kv)
        .kv_u32("lfm2.shortconv.l_cache", 3);
    const GgufModel g = model_of(w.bytes);
    REQUIRE_FALSE(has_error(g.diagnostics));
    CHECK(g.spec.layers == cfg.spec.layers);
}

TEST_CASE("gguf: RWKV state and ssm keys on layers that all have KV heads are refused, not priced as nothing") {
    GgufWriter w;
    w.head(0, 4).kv_str("general.architecture", "rwkv6").kv_u32("rwkv6.block_count", 2)
        .kv_u32("rwkv6.embedding_length", 2048).kv_u32("rwkv6.attention.head_count", 0);
    CHECK(has_code(model_of(w.bytes).diagnostics, "gguf_unsupported"));
}

TEST_CASE("gguf: Meta-Llama-3-8B-Instruct Q4_0 — 'model size = 4.33 GiB (4.64 BPW)', '8.03 B', 'kv self size = 512.00 MiB'") {
    // LOGS.md §4. The tensor list of Llama 3 8B (llama.cpp names; shapes from its config.json, the dims of
    // tests/data/configs/llama-3.1-8b.json: 4096 wide, 1024 KV wide, 14336 FFN, 128256 vocab, 32 layers) with the
    // types the log counts: f32 65 (the norms), q6_K 1 (output.weight), q4_0 225 (every other matrix).
    std::vector<kvcalc::test::TensorSpec> ts;
    const auto add = [&](const std::string& name, std::uint32_t type, std::vector<std::int64_t> ne) {
        ts.push_back({name, type, ne, *ggml_tensor_bytes(*find_ggml_type(type), ne)});
    };
    add("token_embd.weight", 2, {4096, 128256});
    for (int i = 0; i < 32; ++i) {
        const std::string b = "blk." + std::to_string(i) + ".";
        add(b + "attn_norm.weight", 0, {4096});
        add(b + "attn_q.weight", 2, {4096, 4096});
        add(b + "attn_k.weight", 2, {4096, 1024});
        add(b + "attn_v.weight", 2, {4096, 1024});
        add(b + "attn_output.weight", 2, {4096, 4096});
        add(b + "ffn_norm.weight", 0, {4096});
        add(b + "ffn_gate.weight", 2, {4096, 14336});
        add(b + "ffn_up.weight", 2, {4096, 14336});
        add(b + "ffn_down.weight", 2, {14336, 4096});
    }
    add("output_norm.weight", 0, {4096});
    add("output.weight", 14, {4096, 128256});
    REQUIRE(ts.size() == 291);  // "22 key-value pairs and 291 tensors"
    GgufWriter w;
    w.head(ts.size(), 8)
        .kv_str("general.architecture", "llama")
        .kv_u32("llama.block_count", 32)
        .kv_u32("llama.context_length", 8192)
        .kv_u32("llama.embedding_length", 4096)
        .kv_u32("llama.feed_forward_length", 14336)
        .kv_u32("llama.attention.head_count", 32)
        .kv_u32("llama.attention.head_count_kv", 8)
        .kv_u32("llama.rope.dimension_count", 128);
    kvcalc::test::write_tensors(w, ts);
    const GgufModel g = model_of(w.bytes);
    REQUIRE_FALSE(has_error(g.diagnostics));
    const double gib = static_cast<double>(g.tensor_bytes) / (1024.0 * kMiB);
    const double bpw = static_cast<double>(g.tensor_bytes) * 8.0 / static_cast<double>(g.spec.num_parameters);
    CHECK(std::round(gib * 100) / 100 == 4.33);
    CHECK(std::round(bpw * 100) / 100 == 4.64);
    CHECK(std::round(static_cast<double>(g.spec.num_parameters) / 1e7) / 100 == 8.03);
    CHECK(kv_per_token(g.spec, 4096) * 4096 / kMiB == 512.0);  // n_ctx 4096, f16
}

TEST_CASE("gguf: DeepSeek V3's MLA keys give config.json's MlaLatent layers") {
    const HfConfig cfg = read_hf_config(kvcalc::test::config_file("deepseek-v3.json"));
    REQUIRE_FALSE(has_error(cfg.diagnostics));
    GgufWriter w;
    w.head(0, 9)
        .kv_str("general.architecture", "deepseek2")
        .kv_u32("deepseek2.block_count", 61)
        .kv_u32("deepseek2.context_length", 163840)
        .kv_u32("deepseek2.embedding_length", 7168)
        .kv_u32("deepseek2.attention.head_count", 128)
        .kv_u32("deepseek2.attention.head_count_kv", 128)
        .kv_u32("deepseek2.attention.kv_lora_rank", 512)
        .kv_u32("deepseek2.rope.dimension_count", 64)
        .kv_u32("deepseek2.expert_count", 256);
    const GgufModel g = model_of(w.bytes);
    REQUIRE_FALSE(has_error(g.diagnostics));
    CHECK(g.spec.layers == cfg.spec.layers);
    CHECK(g.spec.num_experts == cfg.spec.num_experts);
}

TEST_CASE("llama.cpp buffers: OpenLLaMA-7B Q4_K_M, -ngl 999 — model buffer on the GPU, token_embd on the CPU") {
    const auto tensors = open_llama_tensors();
    const GgufHeader h = header_of(open_llama_header());
    const GgufModel g = read_gguf_model({h});
    REQUIRE_FALSE(has_error(g.diagnostics));
    LlamaCppSettings kv;
    kv.n_ctx = 512;
    LlamaCppPlacement pl;
    pl.n_gpu_layers = 999;
    const LlamaCppBuffers b = predict_llama_cpp_buffers({h}, g.spec, kv, pl);
    for (const auto& d : b.diagnostics) INFO(d.message);
    REQUIRE_FALSE(has_error(b.diagnostics));
    CHECK(b.offloaded_layers == 33);  // "offloaded 35/35 layers" in b1062 counted two extra non-repeating layers
    CHECK(b.total_layers == 33);
    // b1062: "mem required = 70.40 MB" (the CPU part: token_embd, 32000 × 4096 q4_K = 73,728,000 B = 70.31 MiB)
    // and "VRAM used: 4077 MB" = the GPU tensors + "kv self size = 256.00 MB".
    CHECK(b.cpu_model_bytes == tensors[0].bytes);
    CHECK(std::abs(static_cast<double>(b.cpu_model_bytes) / kMiB - 70.40) < 1.0);
    CHECK(b.gpu_kv_bytes / kMiB == 256.0);
    CHECK(b.cpu_kv_bytes == 0);
    CHECK(std::llround(static_cast<double>(b.gpu_model_bytes + b.gpu_kv_bytes) / kMiB) == 4077);
    // The CUDA allocation pads a quantized tensor whose rows are not whole 512-element blocks by one such row's
    // rest: here the ffn_down tensors (ne0 11008 = 21.5 × 512), 256 elements = one q4_K (144 B) / q6_K (210 B) block.
    // Each tensor then starts on a 128-byte boundary of the CUDA buffer.
    std::int64_t gpu = 0;
    for (std::size_t i = 1; i < tensors.size(); ++i) {
        const auto& t = tensors[i];
        const std::int64_t pad = t.ne[0] == 11008 ? (t.type == 12 ? 144 : t.type == 14 ? 210 : 0) : 0;
        gpu += (t.bytes + pad + 127) / 128 * 128;
    }
    CHECK(gpu - (g.tensor_bytes - tensors[0].bytes) > 32 * 144);
    CHECK(b.gpu_model_bytes == gpu);
    REQUIRE(b.lines.size() == 5);  // model ×2, KV, compute on CUDA0 and on CUDA_Host (every layer on the GPU)
    CHECK(b.lines[3].kind == "compute");
    CHECK(b.lines[4].device == "CUDA_Host");
    CHECK(b.lines[0].log_line.rfind("load_tensors:        CUDA0 model buffer size =  3820.9", 0) == 0);
    CHECK(b.lines[1].log_line == "load_tensors:   CPU_Mapped model buffer size =    70.31 MiB");
    CHECK(b.lines[2].log_line == "llama_kv_cache:      CUDA0 KV buffer size =   256.00 MiB");
}

TEST_CASE("llama.cpp buffers: -ngl 10 keeps layers 0–21 and the output on the CPU, with their KV") {
    const auto tensors = open_llama_tensors();
    const GgufHeader h = header_of(open_llama_header());
    const GgufModel g = read_gguf_model({h});
    LlamaCppSettings kv;
    kv.n_ctx = 2048;
    LlamaCppPlacement pl;
    pl.n_gpu_layers = 10;
    pl.gpu_pads_quantized_rows = false;
    pl.gpu_alignment = 1;
    const LlamaCppBuffers b = predict_llama_cpp_buffers({h}, g.spec, kv, pl);
    REQUIRE_FALSE(has_error(b.diagnostics));
    // The dump's own tensors: blk.22 … blk.31 on the GPU; everything else is mapped from the file on the CPU.
    std::int64_t gpu = 0;
    const std::regex gpu_layer(R"(blk\.(2[2-9]|3[01])\..*)");
    for (const auto& t : tensors)
        if (std::regex_match(t.name, gpu_layer)) gpu += t.bytes;
    CHECK(b.gpu_model_bytes == gpu);
    // With mmap the CPU_Mapped buffer is the file range from the first CPU tensor (token_embd) to the end of the
    // last (output.weight, the file's last tensor): it spans the GPU layers between, the whole data section here.
    CHECK(b.cpu_model_bytes == g.tensor_bytes);
    pl.mmap = false;  // --no-mmap: only the CPU tensors are read, into a "CPU" buffer
    const LlamaCppBuffers read = predict_llama_cpp_buffers({h}, g.spec, kv, pl);
    CHECK(read.cpu_model_bytes == g.tensor_bytes - gpu);
    CHECK(read.lines[1].device == "CPU");
    // 2048 cells × 4096 × 2 (K, V) × 2 B = 32 MiB a layer: 10 on the GPU, 22 on the CPU.
    CHECK(b.gpu_kv_bytes / kMiB == 320.0);
    CHECK(b.cpu_kv_bytes / kMiB == 704.0);
    CHECK(b.offloaded_layers == 10);
    pl.n_gpu_layers = -2;
    CHECK(has_error(predict_llama_cpp_buffers({h}, g.spec, kv, pl).diagnostics));
}

TEST_CASE("llama.cpp buffers: bge-small (bert) F16 on a V100, b4893 — CUDA0 40.73 MiB, CPU_Mapped 23.11 MiB") {
    // The 197 tensors llama.cpp's bert loader names (llama-arch.cpp LLM_ARCH_BERT), shaped by the hparams of
    // ggml-vocab-bert-bge.gguf (12 blocks, 384 wide, FFN 1536, 30522 tokens, context 512, 2 token types), typed as
    // convert_hf_to_gguf.py writes an F16 file (2-D weights and token_embd f16; biases, norms, position and
    // token-type embeddings f32). The log checks the list: "197 tensors", "type f32: 124", "type f16: 73",
    // "file size = 63.84 MiB" (LOGS.md §2, ggml-org/ci @ 11390df3, llama.cpp 70ef6530f).
    using kvcalc::test::TensorSpec;
    std::vector<TensorSpec> t;
    auto add = [&](const std::string& name, std::uint32_t type, std::vector<std::int64_t> ne) {
        while (ne.size() < 4) ne.push_back(1);
        t.push_back({name, type, ne, *ggml_tensor_bytes(*find_ggml_type(type), ne)});
    };
    constexpr std::uint32_t f32 = 0, f16 = 1;
    add("token_embd.weight", f16, {384, 30522});
    add("position_embd.weight", f32, {384, 512});
    add("token_types.weight", f32, {384, 2});
    add("token_embd_norm.weight", f32, {384});
    add("token_embd_norm.bias", f32, {384});
    for (int i = 0; i < 12; ++i) {
        const std::string b = "blk." + std::to_string(i) + ".";
        for (const char* x : {"attn_q", "attn_k", "attn_v", "attn_output"}) {
            add(b + x + ".weight", f16, {384, 384});
            add(b + x + ".bias", f32, {384});
        }
        add(b + "attn_output_norm.weight", f32, {384});
        add(b + "attn_output_norm.bias", f32, {384});
        add(b + "ffn_up.weight", f16, {384, 1536});
        add(b + "ffn_up.bias", f32, {1536});
        add(b + "ffn_down.weight", f16, {1536, 384});
        add(b + "ffn_down.bias", f32, {384});
        add(b + "layer_output_norm.weight", f32, {384});
        add(b + "layer_output_norm.bias", f32, {384});
    }
    REQUIRE(t.size() == 197);
    int n16 = 0;
    std::int64_t total = 0;
    for (const auto& x : t) n16 += x.type == f16, total += x.bytes;
    CHECK(n16 == 73);
    CHECK(static_cast<double>(total) / kMiB == doctest::Approx(63.84).epsilon(0.0001));
    GgufWriter w;
    w.head(t.size(), 7)
        .kv_str("general.architecture", "bert")
        .kv_u32("bert.block_count", 12)
        .kv_u32("bert.embedding_length", 384)
        .kv_u32("bert.feed_forward_length", 1536)
        .kv_u32("bert.attention.head_count", 12)
        .kv_u32("bert.context_length", 512)
        .kv_u32("bert.vocab_size", 30522);
    kvcalc::test::write_tensors(w, t);
    const GgufHeader h = header_of(w.bytes);
    const GgufModel g = read_gguf_model({h});
    REQUIRE_FALSE(has_error(g.diagnostics));
    LlamaCppSettings kv;
    kv.n_ctx = 512;
    kv.flash_attn = false;  // b4893 ran without -fa (common.h flash_attn default false then; 16.75 MiB has the scores)
    const LlamaCppBuffers b = predict_llama_cpp_buffers({h}, g.spec, kv, LlamaCppPlacement{});
    REQUIRE_FALSE(has_error(b.diagnostics));
    CHECK(b.offloaded_layers == 13);  // "offloaded 13/13 layers to GPU"
    CHECK(b.total_layers == 13);
    CHECK(std::abs(static_cast<double>(b.gpu_model_bytes) / kMiB - 40.73) < 0.005);
    CHECK(std::abs(static_cast<double>(b.cpu_model_bytes) / kMiB - 23.11) < 0.005);
    // b4893 still gave bert a 9.00 MiB KV cache; the current create_memory gives it none.
    CHECK(b.gpu_kv_bytes == 0);
    REQUIRE(b.lines.size() == 4);  // model, model, compute on CUDA0 and CUDA_Host (no KV)
    CHECK(b.lines[2].kind == "compute");
    // As the b4893 log prints it (tests/data/startup_logs/llama.cpp-b4893-bge-small-f16-v100.log).
    CHECK(b.lines[2].log_line == "llama_context:      CUDA0 compute buffer size =    16.75 MiB");
    CHECK(b.lines[3].log_line == "llama_context:  CUDA_Host compute buffer size =     2.51 MiB");
    CHECK(b.lines[0].log_line == "load_tensors:        CUDA0 model buffer size =    40.73 MiB");
    CHECK(b.lines[1].log_line == "load_tensors:   CPU_Mapped model buffer size =    23.11 MiB");
}

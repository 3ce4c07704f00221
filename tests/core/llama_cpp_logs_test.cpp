// llama.cpp start-up buffers against real logs: tests/data/gguf/logs (and the llama.cpp logs in
// tests/data/startup_logs). Each log's model is built from its own print_info lines (the hparams llama.cpp read from
// the GGUF, mapped back to the GGUF keys they come from); where the model's tensor list is known exactly (an F16,
// Q4_0 or Q8_0 file of a model whose tensor names llama-arch.cpp fixes) the model buffers are predicted too.
// Asserted: KV buffers exact (to the log's 2 decimals), model buffers within the print rounding (0.005 MiB), and
// the compute buffer inside kvcalc's band. The measured numbers are in docs/GGUF.md "Compute buffers".
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <optional>
#include <regex>
#include <sstream>
#include <string>
#include <variant>
#include <vector>

#include "doctest/doctest.h"
#include "kvcalc/config/gguf.h"
#include "kvcalc/engines/llama_cpp_buffers.h"
#include "test_data.h"

using namespace kvcalc;

namespace {

constexpr double kMiB = 1024.0 * 1024.0;

/// One run of a log: the lines from one "+ ./bin/…" command (or the whole file when there is none).
struct Run {
    std::map<std::string, std::string> info;  ///< print_info / llm_load_print_meta: key → value
    std::map<std::string, std::int64_t> ctx;  ///< llama_context: n_ctx, n_ubatch, n_seq_max, flash_attn
    int build = 0;
    int offloaded = -1, total = -1;           ///< "offloaded N/M layers to GPU"
    int ngl = -1;                             ///< the command's -ngl, for a run whose load lines are not quoted
    std::map<std::string, double> kv, model, compute;  ///< device → printed MiB
    std::optional<double> kv_self;            ///< "KV self size = X MiB"
};

std::vector<Run> read_runs(const std::string& text) {
    std::vector<Run> runs(1);
    std::istringstream in(text);
    std::string l;
    const std::regex info(R"((?:print_info|llm_load_print_meta): ([\w.]+)\s+= (.+?)\s*$)");
    const std::regex ctx(R"((?:llama_context|llama_new_context_with_model|llama_init_from_model): (n_ctx|n_ubatch|n_seq_max|flash_attn)\s+= (\d+))");
    const std::regex buf(R"((\S+) (model|KV|compute) buffer size =\s+([0-9.]+) MiB)");
    const std::regex off(R"(offloaded (\d+)/(\d+) layers)");
    const std::regex build(R"(build: (\d+) \()");
    const std::regex self(R"(KV self size\s+=\s+([0-9.]+) MiB)");
    const std::regex kv_size(R"(kv_size = (\d+))");
    // Before "model buffer size" lines (b1832): the GPU's tensors as "VRAM used = X MiB".
    const std::regex vram(R"(llm_load_tensors: VRAM used\s+=\s+([0-9.]+) MiB)");
    std::smatch m;
    const std::regex ngl(R"( -ngl (\d+))");
    bool first_command = true;
    while (std::getline(in, l)) {
        if (l.rfind("#", 0) == 0) continue;
        if (l.rfind("+ ./bin/", 0) == 0) {
            if (!first_command) {
                Run next;
                next.info = runs.back().info;  // one file, one model
                next.build = runs.back().build;
                runs.push_back(next);
            }
            first_command = false;
            if (std::regex_search(l, m, ngl)) runs.back().ngl = std::stoi(m[1]);
            continue;
        }
        Run& r = runs.back();
        if (std::regex_search(l, m, info)) r.info[m[1]] = m[2];
        if (std::regex_search(l, m, ctx)) r.ctx[m[1]] = std::stoll(m[2]);
        if (std::regex_search(l, m, build)) r.build = std::stoi(m[1]);
        if (std::regex_search(l, m, off)) r.offloaded = std::stoi(m[1]), r.total = std::stoi(m[2]);
        if (std::regex_search(l, m, self)) r.kv_self = std::stod(m[1]);
        if (std::regex_search(l, m, vram)) r.model["CUDA0"] = std::stod(m[1]);
        // A log cut to its buffer lines still names the cache size ("init: kv_size = 2048"): that is n_ctx.
        if (std::regex_search(l, m, kv_size) && !r.ctx.count("n_ctx")) r.ctx["n_ctx"] = std::stoll(m[1]);
        if (std::regex_search(l, m, buf)) {
            const std::string kind = m[2];
            auto& to = kind == "model" ? r.model : kind == "KV" ? r.kv : r.compute;
            to[m[1]] += std::stod(m[3]);  // an SWA model prints one KV line per cache
        }
    }
    return runs;
}

GgufKeyValue u32(const std::string& k, std::int64_t v) {
    GgufKeyValue kv;
    kv.key = k;
    kv.value.type = GgufValueType::uint32;
    kv.value.integers = {v};
    return kv;
}

/// The GGUF keys llama-model.cpp load_hparams read to print these print_info lines (llama-arch.cpp LLM_KV names).
GgufHeader header_of_info(const std::map<std::string, std::string>& info) {
    GgufHeader h;
    h.version = 3;
    const std::string arch = info.at("arch");
    GgufKeyValue a;
    a.key = "general.architecture";
    a.value.type = GgufValueType::string;
    a.value.text = arch;
    h.metadata.push_back(a);
    auto num = [&](const char* k) -> std::optional<std::int64_t> {
        const auto it = info.find(k);
        if (it == info.end()) return std::nullopt;
        return std::stoll(it->second);
    };
    const std::pair<const char*, const char*> keys[] = {
        {"n_layer", "block_count"},           {"n_ctx_train", "context_length"},
        {"n_embd", "embedding_length"},       {"n_head", "attention.head_count"},
        {"n_head_kv", "attention.head_count_kv"}, {"n_embd_head_k", "attention.key_length"},
        {"n_embd_head_v", "attention.value_length"}, {"n_ff", "feed_forward_length"},
        {"n_expert", "expert_count"},         {"n_expert_used", "expert_used_count"},
        {"n_ff_exp", "expert_feed_forward_length"}, {"n_vocab", "vocab_size"},
    };
    for (const auto& [from, to] : keys)
        if (const auto v = num(from); v && (*v > 0 || std::string(from) == "n_head_kv"))
            h.metadata.push_back(u32(arch + "." + to, *v));
    if (const auto w = num("n_swa"); w && *w > 0) h.metadata.push_back(u32(arch + ".attention.sliding_window", *w));
    return h;
}

/// Tensor infos in file order, each offset after the previous one padded to 32 bytes (gguf.cpp's layout).
struct Tensors {
    std::vector<GgufTensorInfo> list;
    std::uint64_t offset = 0;
    void add(const std::string& name, std::uint32_t type, std::vector<std::int64_t> ne) {
        GgufTensorInfo t;
        t.name = name;
        t.ggml_type = type;
        t.ne = ne;
        t.offset = offset;
        t.bytes = *ggml_tensor_bytes(*find_ggml_type(type), ne);
        offset += (static_cast<std::uint64_t>(t.bytes) + 31) / 32 * 32;
        list.push_back(t);
    }
};

constexpr std::uint32_t F32 = 0, F16 = 1, Q4_0 = 2, Q8_0 = 8, Q6_K = 14;

/// Pythia-2.8B (gptneox) as convert_hf_to_gguf.py names its tensors (llama-arch.cpp LLM_ARCH_GPTNEOX): 1-D tensors
/// f32, matrices `matrix`, output.weight `output` (llama-quantize keeps it at q6_K for Q4_0). The logs check the
/// list: 388 tensors, 258 f32, 129/130 of the matrix type.
std::vector<GgufTensorInfo> pythia_2_8b(std::uint32_t matrix, std::uint32_t output) {
    Tensors t;
    const std::int64_t e = 2560, ff = 10240, vocab = 50304;
    t.add("token_embd.weight", matrix, {e, vocab});
    for (int i = 0; i < 32; ++i) {
        const std::string b = "blk." + std::to_string(i) + ".";
        t.add(b + "attn_norm.weight", F32, {e});
        t.add(b + "attn_norm.bias", F32, {e});
        t.add(b + "attn_qkv.weight", matrix, {e, 3 * e});
        t.add(b + "attn_qkv.bias", F32, {3 * e});
        t.add(b + "attn_output.weight", matrix, {e, e});
        t.add(b + "attn_output.bias", F32, {e});
        t.add(b + "ffn_norm.weight", F32, {e});
        t.add(b + "ffn_norm.bias", F32, {e});
        t.add(b + "ffn_up.weight", matrix, {e, ff});
        t.add(b + "ffn_up.bias", F32, {ff});
        t.add(b + "ffn_down.weight", matrix, {ff, e});
        t.add(b + "ffn_down.bias", F32, {e});
    }
    t.add("output_norm.weight", F32, {e});
    t.add("output_norm.bias", F32, {e});
    t.add("output.weight", output, {e, vocab});
    return t.list;
}

/// bge-small (bert, llama-arch.cpp LLM_ARCH_BERT): 197 tensors, 124 f32, 73 of the matrix type (token_embd too).
std::vector<GgufTensorInfo> bge_small(std::uint32_t matrix) {
    Tensors t;
    t.add("token_embd.weight", matrix, {384, 30522});
    t.add("position_embd.weight", F32, {384, 512});
    t.add("token_types.weight", F32, {384, 2});
    t.add("token_embd_norm.weight", F32, {384});
    t.add("token_embd_norm.bias", F32, {384});
    for (int i = 0; i < 12; ++i) {
        const std::string b = "blk." + std::to_string(i) + ".";
        for (const char* x : {"attn_q", "attn_k", "attn_v", "attn_output"}) {
            t.add(b + x + ".weight", matrix, {384, 384});
            t.add(b + x + ".bias", F32, {384});
        }
        t.add(b + "attn_output_norm.weight", F32, {384});
        t.add(b + "attn_output_norm.bias", F32, {384});
        t.add(b + "ffn_up.weight", matrix, {384, 1536});
        t.add(b + "ffn_up.bias", F32, {1536});
        t.add(b + "ffn_down.weight", matrix, {1536, 384});
        t.add(b + "ffn_down.bias", F32, {384});
        t.add(b + "layer_output_norm.weight", F32, {384});
        t.add(b + "layer_output_norm.bias", F32, {384});
    }
    return t.list;
}

struct LogCase {
    const char* file;            ///< under tests/data
    const char* model_from;      ///< another fixture whose print_info lines are this model's ("" = its own)
    std::vector<GgufTensorInfo> (*tensors)() = nullptr;  ///< the exact tensor list, when known
    bool kv_comparable = true;   ///< false: the log's build allocated a cache the current rule does not (bert)
};

/// OpenLLaMA-7B (llama, llama-arch.cpp LLM_ARCH_LLAMA) as an F16 file: 291 tensors, 65 f32, 226 f16.
std::vector<GgufTensorInfo> open_llama_7b_f16() {
    Tensors t;
    const std::int64_t e = 4096, ff = 11008, vocab = 32000;
    t.add("token_embd.weight", F16, {e, vocab});
    for (int i = 0; i < 32; ++i) {
        const std::string b = "blk." + std::to_string(i) + ".";
        t.add(b + "attn_norm.weight", F32, {e});
        for (const char* x : {"attn_q", "attn_k", "attn_v", "attn_output"}) t.add(b + x + ".weight", F16, {e, e});
        t.add(b + "ffn_gate.weight", F16, {e, ff});
        t.add(b + "ffn_down.weight", F16, {ff, e});
        t.add(b + "ffn_up.weight", F16, {e, ff});
        t.add(b + "ffn_norm.weight", F32, {e});
    }
    t.add("output_norm.weight", F32, {e});
    t.add("output.weight", F16, {e, vocab});
    return t.list;
}

std::vector<GgufTensorInfo> pythia_f16() { return pythia_2_8b(F16, F16); }
std::vector<GgufTensorInfo> pythia_q4_0() { return pythia_2_8b(Q4_0, Q6_K); }
std::vector<GgufTensorInfo> bge_q8_0() { return bge_small(Q8_0); }
std::vector<GgufTensorInfo> bge_f16() { return bge_small(F16); }

const char* const kPythiaInfo = "gguf/logs/ci-b4897-pythia-2.8b-f16-v100-ngl99.log";

/// Tallies printed per check, for the counts docs/GGUF.md quotes.
struct Tally {
    int kv = 0, kv_exact = 0, model = 0, model_ok = 0, compute = 0, compute_in = 0;
};

bool same_2dp(double predicted_mib, double printed_mib) { return std::abs(predicted_mib - printed_mib) <= 0.005 + 1e-9; }

}  // namespace

TEST_CASE("llama.cpp logs: KV exact, model buffers within rounding, compute inside the band") {
    const std::vector<LogCase> cases = {
        {"gguf/logs/ci-b4897-pythia-2.8b-f16-v100-ngl99.log", "", pythia_f16},
        {"gguf/logs/ci-b4897-pythia-2.8b-q4_0-v100-save-load-state.log", "", pythia_q4_0},
        {"gguf/logs/ci-b4897-bge-small-q8_0-v100.log", "", bge_q8_0, false},
        {"startup_logs/llama.cpp-b4893-pythia-2.8b-q4km-v100.log", kPythiaInfo},
        {"gguf/logs/ci-b1832-open-llama-7b-v2-f16-v100.log", "", open_llama_7b_f16},
        {"startup_logs/llama.cpp-b4893-bge-small-f16-v100.log", "gguf/logs/ci-b4897-bge-small-q8_0-v100.log", bge_f16,
         false},
    };
    Tally n;
    for (const auto& c : cases) {
        const std::string text = kvcalc::test::data_file(c.file);
        REQUIRE_MESSAGE(!text.empty(), c.file);
        REQUIRE_MESSAGE(text.rfind("# SOURCE: https://", 0) == 0, c.file);  // every fixture names its source
        std::vector<Run> runs = read_runs(text);
        if (*c.model_from) {
            const auto info = read_runs(kvcalc::test::data_file(c.model_from)).front().info;
            for (auto& r : runs) r.info.insert(info.begin(), info.end());
        }
        int run_no = 0;
        for (Run& r : runs) {
            // A run whose load_tensors lines are not quoted is placed by its command's -ngl.
            if (r.offloaded < 0 && r.ngl >= 0 && r.info.count("n_layer")) {
                r.total = std::stoi(r.info.at("n_layer")) + 1;
                r.offloaded = std::min(r.ngl, r.total);
            }
            ++run_no;
            INFO(std::string(c.file) << " run " << run_no);
            REQUIRE(r.info.count("arch"));
            GgufHeader h = header_of_info(r.info);
            if (c.tensors) h.tensors = c.tensors();
            const GgufModel g = read_gguf_model({h});
            for (const auto& d : g.diagnostics) INFO(d.message);
            REQUIRE_FALSE(has_error(g.diagnostics));
            LlamaCppSettings s;
            s.n_ctx = r.ctx.at("n_ctx");
            // Unprinted settings are the build's defaults (common.h: n_ubatch 512, flash attention off before b6xxx).
            s.n_ubatch = static_cast<int>(r.ctx.count("n_ubatch") ? r.ctx.at("n_ubatch") : 512);
            s.n_seq_max = static_cast<int>(r.ctx.count("n_seq_max") ? r.ctx.at("n_seq_max") : 1);
            s.flash_attn = r.ctx.count("flash_attn") && r.ctx.at("flash_attn") == 1;
            s.build = r.build;
            const std::string gpu = "CUDA0";
            if (c.kv_comparable) {
                const LlamaCppKvPrediction kv = predict_llama_cpp_kv(g.spec, s);
                double printed = 0;
                for (const auto& [dev, mib] : r.kv) printed += mib;
                if (r.kv.empty() && r.kv_self) printed = *r.kv_self;
                ++n.kv;
                n.kv_exact += same_2dp(static_cast<double>(kv.total_bytes) / kMiB, printed);
                CHECK(same_2dp(static_cast<double>(kv.total_bytes) / kMiB, printed));
            }
            if (!c.tensors || r.offloaded < 0) {
                // No tensor list: the compute band from the shape alone, for a log that offloads everything.
                if (r.compute.count(gpu) && r.offloaded == r.total) {
                    const LlamaCppComputeBand band = llama_cpp_compute_band(llama_cpp_compute_shape(g.spec, s, true));
                    const double printed = r.compute.at(gpu);
                    ++n.compute;
                    const bool in = std::abs(band.bytes / kMiB - printed) <= 1.0;
                    n.compute_in += in;
                    std::printf("  compute %s: predicted %.2f, printed %.2f MiB (%+.2f)\n", c.file, band.bytes / kMiB,
                                printed, band.bytes / kMiB - printed);
                    CHECK(in);
                    if (r.compute.count("CUDA_Host")) {  // the host buffer: the graph's inputs
                        const double host = r.compute.at("CUDA_Host");
                        std::printf("  host compute %s: predicted %.2f, printed %.2f MiB\n", c.file,
                                    band.host_bytes / kMiB, host);
                        CHECK(std::abs(band.host_bytes / kMiB - host) < 0.01);
                    }
                }
                continue;
            }
            LlamaCppPlacement pl;
            pl.n_gpu_layers = r.offloaded == r.total ? -1 : r.offloaded;
            const LlamaCppBuffers b = predict_llama_cpp_buffers({h}, g.spec, s, pl);
            for (const auto& d : b.diagnostics) INFO(d.message);
            REQUIRE_FALSE(has_error(b.diagnostics));
            CHECK(b.offloaded_layers == r.offloaded);
            CHECK(b.total_layers == r.total);
            if (r.model.count(gpu)) {
                ++n.model;
                const bool ok = same_2dp(static_cast<double>(b.gpu_model_bytes) / kMiB, r.model.at(gpu));
                n.model_ok += ok;
                CHECK_MESSAGE(ok, (static_cast<double>(b.gpu_model_bytes) / kMiB) << " vs " << r.model.at(gpu));
            }
            // CPU_Mapped only where no CPU tensor was repacked into a CPU_AARCH64 buffer (not modelled).
            if (r.model.count("CPU_Mapped") && !r.model.count("CPU_AARCH64")) {
                ++n.model;
                const bool ok = same_2dp(static_cast<double>(b.cpu_model_bytes) / kMiB, r.model.at("CPU_Mapped"));
                n.model_ok += ok;
                CHECK_MESSAGE(ok, (static_cast<double>(b.cpu_model_bytes) / kMiB) << " vs " << r.model.at("CPU_Mapped"));
            }
            if (c.kv_comparable && r.kv.count(gpu)) CHECK(same_2dp(b.gpu_kv_bytes / kMiB, r.kv.at(gpu)));
            if (c.kv_comparable && r.kv.count("CPU")) CHECK(same_2dp(b.cpu_kv_bytes / kMiB, r.kv.at("CPU")));
            if (r.compute.count(gpu)) {
                const double printed = r.compute.at(gpu);
                ++n.compute;
                const bool in = std::abs(b.gpu_compute.bytes / kMiB - printed) <= 1.0;
                n.compute_in += in;
                std::printf("  compute %s run %d: predicted %.2f, printed %.2f MiB (%+.2f)\n", c.file, run_no,
                            b.gpu_compute.bytes / kMiB, printed, b.gpu_compute.bytes / kMiB - printed);
                CHECK(in);
                // The host buffer is predicted when every layer runs on the GPU (else CPU activations join it).
                const auto host_line = std::find_if(b.lines.begin(), b.lines.end(), [](const LlamaCppBufferLine& l) {
                    return l.kind == "compute" && l.device == "CUDA_Host";
                });
                if (r.offloaded == r.total && r.compute.count("CUDA_Host")) {
                    REQUIRE(host_line != b.lines.end());
                    std::printf("  host compute %s run %d: predicted %.2f, printed %.2f MiB\n", c.file, run_no,
                                host_line->bytes / kMiB, r.compute.at("CUDA_Host"));
                    CHECK(same_2dp(host_line->bytes / kMiB, r.compute.at("CUDA_Host")));
                } else {
                    CHECK(host_line == b.lines.end());
                }
            }
        }
    }
    std::printf("llama.cpp logs: KV exact %d/%d, model buffers %d/%d, compute within 1 MiB %d/%d\n", n.kv_exact, n.kv,
                n.model_ok, n.model, n.compute_in, n.compute);
    CHECK(n.kv >= 6);
    CHECK(n.model >= 6);
    CHECK(n.compute >= 7);
}

TEST_CASE("llama.cpp logs: gpt-oss-20b (MoE, every other layer a 128-token window) from its print_info lines") {
    std::map<std::string, std::string> info =
        read_runs(kvcalc::test::data_file("gguf/logs/issue-ik822-gpt-oss-20b-print-info.log")).front().info;
    REQUIRE(info.at("general.name") == "Gpt Oss 20b");
    info["arch"] = "gpt-oss";  // the excerpt starts below the arch line; gpt-oss-20b-mxfp4.gguf is general.architecture gpt-oss
    const GgufModel g = read_gguf_model({header_of_info(info)});
    for (const auto& d : g.diagnostics) INFO(d.message);
    REQUIRE_FALSE(has_error(g.diagnostics));
    // llama-model.cpp LLM_ARCH_OPENAI_MOE: set_swa_pattern(2) — layers 0, 2, … slide.
    int sliding = 0;
    for (const auto& c : g.spec.layers) sliding += std::holds_alternative<SlidingWindow>(c);
    CHECK(sliding == 12);
    CHECK(std::holds_alternative<SlidingWindow>(g.spec.layers[0]));

    SUBCASE("b6182 on Vulkan, -c 4096, no flash attention: 96.00 + 15.00 MiB") {
        const Run r = read_runs(kvcalc::test::data_file("startup_logs/llama.cpp-b6182-gpt-oss-20b-vulkan-swa.log")).front();
        LlamaCppSettings s;
        s.n_ctx = r.ctx.at("n_ctx");
        s.n_ubatch = static_cast<int>(r.ctx.at("n_ubatch"));
        s.flash_attn = r.ctx.at("flash_attn") == 1;
        s.build = r.build;
        const LlamaCppKvPrediction kv = predict_llama_cpp_kv(g.spec, s);
        CHECK(kv.swa_cells == 640);  // "creating SWA KV cache, size = 640 cells": 128 + 512, padded to 32
        CHECK(same_2dp(static_cast<double>(kv.full_bytes) / kMiB, 96.00));
        CHECK(same_2dp(static_cast<double>(kv.swa_bytes) / kMiB, 15.00));
        CHECK(same_2dp(static_cast<double>(kv.total_bytes) / kMiB, r.kv.at("Vulkan0")));
        // Compute: "offloaded 24/25 layers", so the output layer is on the CPU and, for the 512-token batch, the
        // scheduler copies its matrix to Vulkan0 and makes the logits there. The matrix is Q8_0: the printed file
        // size (11.27 GiB) leaves 8 bits, not 16, for the tensors outside the MXFP4 experts (24 × 3 × 32 × 2880² experts
        // at 4.25 bits are 9.45 GiB; the 1.8 G other weights at Q8_0's 34 B per 32 are 1.78 GiB, at BF16 3.34).
        // Q8_0 [2880, 201088] = 2880 × 201088 / 32 × 34 B = 586.82 MiB; logits 201088 × 512 × 4 B = 392.75 MiB;
        // the normed hidden state 2880 × 512 × 4 B = 5.63 MiB: 985.20 MiB.
        LlamaCppComputeShape shape = llama_cpp_compute_shape(g.spec, s, true);
        shape.output_copy_bytes = 2880LL * 201088 / 32 * 34;
        const LlamaCppComputeBand band = llama_cpp_compute_band(shape);
        const double printed = r.compute.at("Vulkan0");
        std::printf("  compute gpt-oss-20b Vulkan -ngl 24: predicted %.2f, printed %.2f MiB (%+.2f)\n", band.bytes / kMiB,
                    printed, band.bytes / kMiB - printed);
        CHECK(std::abs(band.bytes / kMiB - printed) <= 1.0);
    }
    SUBCASE("Metal, ctx 4096, flash attention on: SWA 768 cells, 18.00 MiB; compute 404.00 MiB = the point + one hidden state") {
        const Run r = read_runs(kvcalc::test::data_file("gguf/logs/pr17609-gpt-oss-20b-metal-fa-auto.log")).front();
        LlamaCppSettings s;
        s.n_ctx = 4096;  // "setting dry_penalty_last_n to ctx_size = 4096"
        s.flash_attn = true;  // "Flash Attention was auto, set to enabled"
        const LlamaCppKvPrediction kv = predict_llama_cpp_kv(g.spec, s);
        CHECK(kv.swa_cells == 768);  // 128 + 512, padded to 256
        CHECK(same_2dp(static_cast<double>(kv.swa_bytes) / kMiB, r.kv.at("Metal")));
        const LlamaCppComputeBand band = llama_cpp_compute_band(llama_cpp_compute_shape(g.spec, s, true));
        const double printed = r.compute.at("Metal");
        // The live set is the logits (201088 × 512 × 4 B = 392.75 MiB) and the normed hidden state (5.63 MiB);
        // the printed size is one hidden state more: ggml-alloc's placement left a hole below it (docs/GGUF.md).
        std::printf("  compute gpt-oss-20b Metal: predicted %.2f (upper %.2f), printed %.2f MiB (%+.2f)\n",
                    band.bytes / kMiB, band.upper_bytes / kMiB, printed, band.bytes / kMiB - printed);
        CHECK(std::abs(band.bytes / kMiB - (392.75 + 5.625)) < 0.01);
        CHECK(std::abs(band.upper_bytes / kMiB - printed) <= 1.0);
        // Metal shares memory: the host buffer is the CPU's. Its inputs: the rows (5.63 MiB) and the two f32 masks
        // (4096 and 768 cells × 512 × 4 B = 8 + 1.5 MiB): 15.13 of the printed 15.15.
        const double host = r.compute.at("CPU");
        std::printf("  host compute gpt-oss-20b Metal: predicted %.2f, printed %.2f MiB\n", band.host_bytes / kMiB, host);
        CHECK(std::abs(band.host_bytes / kMiB - host) <= 0.05);
    }
}

namespace {

/// A llama-arch model from its facts (no tensors): what the compute shape reads.
ModelSpec llama_arch(std::int64_t n_embd, std::int64_t n_layer, std::int64_t n_head, std::int64_t n_head_kv,
                     std::int64_t n_ff, std::int64_t n_vocab, std::int64_t n_ctx_train) {
    GgufHeader h;
    h.version = 3;
    GgufKeyValue a;
    a.key = "general.architecture";
    a.value.type = GgufValueType::string;
    a.value.text = "llama";
    h.metadata.push_back(a);
    for (const auto& [k, v] : std::vector<std::pair<std::string, std::int64_t>>{
             {"block_count", n_layer}, {"context_length", n_ctx_train}, {"embedding_length", n_embd},
             {"attention.head_count", n_head}, {"attention.head_count_kv", n_head_kv},
             {"feed_forward_length", n_ff}, {"vocab_size", n_vocab}})
        h.metadata.push_back(u32("llama." + k, v));
    const GgufModel g = read_gguf_model({h});
    REQUIRE_FALSE(has_error(g.diagnostics));
    return g.spec;
}

/// Every "<device> compute buffer size = X MiB" of a fixture, in order.
std::vector<double> compute_lines(const std::string& text, const std::string& device) {
    std::vector<double> out;
    const std::regex re(device + R"( compute buffer size =\s+([0-9.]+) MiB)");
    for (auto it = std::sregex_iterator(text.begin(), text.end(), re); it != std::sregex_iterator(); ++it)
        out.push_back(std::stod((*it)[1]));
    return out;
}

}  // namespace

TEST_CASE("llama.cpp compute buffer, llama arch without flash attention: the point is within 1 MiB of each log") {
    // The peak is the attention of a layer: the f32 mask (n_kv × 512 × 4 B), the residual, Q, K and V (4096 + 1024 +
    // 1024 wide) and their copies, and the score matrix n_kv × 512 × 32 heads × 4 B, soft_max in place.
    struct Case {
        const char* file;
        ModelSpec model;
        std::vector<std::int64_t> n_ctx;  ///< one per compute line, in the log's order
        bool unified;
        int n_seq;
    };
    const std::vector<Case> cases = {
        // Llama 3.1 8B (meta-llama/Llama-3.1-8B config.json), 10 slots in one unified cache of 81920 cells.
        {"gguf/logs/ollama-9352-llama31-8b-q4-np10-ctx81920.log", llama_arch(4096, 32, 32, 8, 14336, 128256, 131072),
         {81920}, true, 10},
        // The logdetective server before and after -c 32768 (the fixture's header says what the log fixes).
        {"gguf/logs/logdetective-pr106-llama-arch-7b-ctx2048-32768.log",
         llama_arch(4096, 32, 32, 8, 14336, 32000, 32768), {2048, 32768}, false, 1},
    };
    for (const Case& c : cases) {
        const std::string text = kvcalc::test::data_file(c.file);
        const std::vector<double> printed = compute_lines(text, "CUDA0");
        REQUIRE(printed.size() == c.n_ctx.size());
        std::vector<double> printed_kv;
        const std::regex kv_re(R"(CUDA0 KV buffer size =\s+([0-9.]+) MiB)");
        for (auto it = std::sregex_iterator(text.begin(), text.end(), kv_re); it != std::sregex_iterator(); ++it)
            printed_kv.push_back(std::stod((*it)[1]));
        REQUIRE(printed_kv.size() == c.n_ctx.size());
        for (std::size_t i = 0; i < printed.size(); ++i) {
            LlamaCppSettings s;
            s.n_ctx = c.n_ctx[i];
            s.n_seq_max = c.n_seq;
            s.kv_unified = c.unified;
            s.flash_attn = false;  // "flash_attn = 0"
            const LlamaCppKvPrediction kv = predict_llama_cpp_kv(c.model, s);
            const LlamaCppComputeBand b = llama_cpp_compute_band(llama_cpp_compute_shape(c.model, s, true));
            std::printf("  compute %s -c %lld: predicted %.2f, printed %.2f MiB (%+.2f); KV %.2f MiB\n", c.file,
                        static_cast<long long>(c.n_ctx[i]), b.bytes / kMiB, printed[i], b.bytes / kMiB - printed[i],
                        kv.total_bytes / kMiB);
            INFO(c.file << " -c " << c.n_ctx[i]);
            CHECK(std::abs(b.bytes / kMiB - printed[i]) <= 1.0);
            CHECK(same_2dp(kv.total_bytes / kMiB, printed_kv[i]));  // the model facts, checked by the KV line
            // CUDA_Host: the input rows (4096 × 512 × 4 B = 8 MiB), the f32 mask and the token inputs.
            const std::vector<double> host = compute_lines(text, "CUDA_Host");
            REQUIRE(host.size() == printed.size());
            CHECK(same_2dp(b.host_bytes / kMiB, host[i]));
        }
    }
}

TEST_CASE("llama.cpp fit: Pythia-2.8B Q4_0 on one GPU — nothing changes, then the context, then the layers") {
    std::map<std::string, std::string> info = read_runs(kvcalc::test::data_file(kPythiaInfo)).front().info;
    GgufHeader h = header_of_info(info);
    h.tensors = pythia_q4_0();
    const GgufModel g = read_gguf_model({h});
    REQUIRE_FALSE(has_error(g.diagnostics));
    LlamaCppSettings s;  // the ci runs: -ub 512, no flash attention
    s.flash_attn = false;
    const std::int64_t MiB = 1 << 20;
    auto used = [&](const ModelSpec& m, std::int64_t n_ctx, int ngl) {
        LlamaCppSettings x = s;
        x.n_ctx = n_ctx;
        LlamaCppPlacement p;
        p.n_gpu_layers = ngl;
        const LlamaCppBuffers b = predict_llama_cpp_buffers({h}, m, x, p);
        return b.gpu_model_bytes + b.gpu_kv_bytes + b.gpu_compute.upper_bytes;
    };
    SUBCASE("a 16 GiB V100 (15841 MiB free): the whole model at n_ctx_train 2048") {
        LlamaCppFitRequest r;
        r.free_bytes = 15841 * MiB;
        const LlamaCppFit f = fit_llama_cpp({h}, g.spec, s, LlamaCppPlacement{}, r);
        REQUIRE_FALSE(has_error(f.diagnostics));
        CHECK(f.fits);
        CHECK(f.arguments == "-c 2048 -ngl 33");
        // 1454.83 (model) + 640 (KV) + the compute buffer's upper bound, 162.00 + 5.00 MiB
        CHECK(f.used_bytes == used(g.spec, 2048, -1));
    }
    SUBCASE("2 GiB free: n_ctx_train (2048) is below --fit-ctx, so layers go to the CPU, filled from the back") {
        LlamaCppFitRequest r;
        r.free_bytes = 2048 * MiB;
        const LlamaCppFit f = fit_llama_cpp({h}, g.spec, s, LlamaCppPlacement{}, r);
        REQUIRE(f.fits);
        CHECK(f.n_ctx == 2048);
        REQUIRE(f.n_gpu_layers >= 0);
        REQUIRE(f.n_gpu_layers < 32);
        const std::int64_t target = r.free_bytes - r.margin_bytes;
        CHECK(used(g.spec, 2048, f.n_gpu_layers) <= target);
        CHECK(used(g.spec, 2048, f.n_gpu_layers + 1) > target);  // the largest -ngl that fits
        CHECK(f.arguments == "-c 2048 -ngl " + std::to_string(f.n_gpu_layers));
    }
    SUBCASE("a 32k-token model on 6 GiB free: the context is cut first, to a multiple of 256") {
        ModelSpec m = g.spec;
        m.max_position_embeddings = 32768;
        LlamaCppFitRequest r;
        r.free_bytes = 6144 * MiB;
        const LlamaCppFit f = fit_llama_cpp({h}, m, s, LlamaCppPlacement{}, r);
        REQUIRE(f.fits);
        CHECK(f.n_gpu_layers == -1);
        CHECK(f.n_ctx % 256 == 0);
        CHECK(f.n_ctx >= 4096);
        CHECK(f.n_ctx < 32768);
        CHECK(used(m, f.n_ctx, -1) <= r.free_bytes - r.margin_bytes);
        CHECK(used(m, 32768, -1) > r.free_bytes - r.margin_bytes);
    }
    SUBCASE("a 1M-token model over 256 sequences on 1e6 MiB free: the cut context is interpolated, not overflowed") {
        // Regression: (ctx_max - ctx_min) × (target - used at ctx_min) is 2^28 cells × ~2^40 bytes, past int64;
        // the wrapped product cut the context to --fit-ctx (4096 × 256 = 1048576) with 99.9% of the card free.
        ModelSpec m = g.spec;
        m.max_position_embeddings = 1 << 20;
        LlamaCppSettings x = s;
        x.n_seq_max = 256;
        LlamaCppFitRequest r;
        r.free_bytes = 1000000 * MiB;
        const LlamaCppFit f = fit_llama_cpp({h}, m, x, LlamaCppPlacement{}, r);
        REQUIRE_FALSE(has_error(f.diagnostics));
        REQUIRE(f.fits);
        CHECK(f.n_gpu_layers == -1);
        CHECK(f.n_ctx % (256 * 256) == 0);
        CHECK(f.n_ctx > 4096 * 256);
        auto used_at = [&](std::int64_t n_ctx) {
            LlamaCppSettings y = x;
            y.n_ctx = n_ctx;
            const LlamaCppBuffers b = predict_llama_cpp_buffers({h}, m, y, LlamaCppPlacement{});
            return b.gpu_model_bytes + b.gpu_kv_bytes + b.gpu_compute.upper_bytes;
        };
        const std::int64_t target = r.free_bytes - r.margin_bytes;
        CHECK(f.used_bytes == used_at(f.n_ctx));
        CHECK(f.used_bytes <= target);
        CHECK(used_at(f.n_ctx + 256 * 256) > target);  // the largest 256-aligned context per sequence that fits
        CHECK(f.n_ctx == 3145728);  // 48 × 65536: (1e6 MiB - 1 GiB margin - model - compute) / 327680 B per cell = 3.19M
    }
    SUBCASE("-c set by the user: the context stays, layers move") {
        ModelSpec m = g.spec;
        m.max_position_embeddings = 32768;
        LlamaCppSettings x = s;
        x.n_ctx = 16384;
        LlamaCppFitRequest r;
        r.free_bytes = 4096 * MiB;
        r.n_ctx_auto = false;
        const LlamaCppFit f = fit_llama_cpp({h}, m, x, LlamaCppPlacement{}, r);
        REQUIRE(f.fits);
        CHECK(f.n_ctx == 16384);
        CHECK(f.n_gpu_layers >= 0);
    }
}

TEST_CASE("llama.cpp fit: a MoE model keeps the first layers' experts on the CPU before it moves any layer") {
    // A small qwen3moe-shaped header (the tensor names of llama-arch.cpp LLM_ARCH_QWEN3MOE); the sizes are the
    // test's own, chosen so that the experts dominate the weights.
    GgufHeader h;
    h.version = 3;
    GgufKeyValue a;
    a.key = "general.architecture";
    a.value.type = GgufValueType::string;
    a.value.text = "qwen3moe";
    h.metadata.push_back(a);
    for (const auto& [k, v] : std::vector<std::pair<std::string, std::int64_t>>{
             {"block_count", 8}, {"context_length", 4096}, {"embedding_length", 1024}, {"attention.head_count", 8},
             {"attention.head_count_kv", 2}, {"attention.key_length", 128}, {"attention.value_length", 128},
             {"expert_count", 32}, {"expert_used_count", 4}, {"expert_feed_forward_length", 1024}, {"vocab_size", 32000}})
        h.metadata.push_back(u32("qwen3moe." + k, v));
    Tensors t;
    t.add("token_embd.weight", F16, {1024, 32000});
    for (int i = 0; i < 8; ++i) {
        const std::string b = "blk." + std::to_string(i) + ".";
        t.add(b + "attn_norm.weight", F32, {1024});
        t.add(b + "attn_q.weight", F16, {1024, 1024});
        t.add(b + "attn_k.weight", F16, {1024, 256});
        t.add(b + "attn_v.weight", F16, {1024, 256});
        t.add(b + "attn_output.weight", F16, {1024, 1024});
        t.add(b + "ffn_norm.weight", F32, {1024});
        t.add(b + "ffn_gate_inp.weight", F32, {1024, 32});
        t.add(b + "ffn_gate_exps.weight", F16, {1024, 1024, 32});
        t.add(b + "ffn_up_exps.weight", F16, {1024, 1024, 32});
        t.add(b + "ffn_down_exps.weight", F16, {1024, 1024, 32});
    }
    t.add("output_norm.weight", F32, {1024});
    t.add("output.weight", F16, {1024, 32000});
    h.tensors = t.list;
    const GgufModel g = read_gguf_model({h});
    for (const auto& d : g.diagnostics) INFO(d.message);
    REQUIRE_FALSE(has_error(g.diagnostics));
    LlamaCppSettings s;
    auto used = [&](int n_cpu_moe) {
        LlamaCppSettings x = s;
        x.n_ctx = 4096;
        LlamaCppPlacement p;
        p.n_gpu_layers = 8;  // the output layer on the CPU, as llama.cpp's fit leaves it for a MoE model
        p.n_cpu_moe = n_cpu_moe;
        const LlamaCppBuffers b = predict_llama_cpp_buffers({h}, g.spec, x, p);
        return b.gpu_model_bytes + b.gpu_kv_bytes + b.gpu_compute.upper_bytes;
    };
    // Each layer's experts are 3 × 32 × 1024 × 1024 × 2 B = 192 MiB; everything on the GPU needs about 1.8 GiB.
    LlamaCppFitRequest r;
    r.free_bytes = used(0) + r.margin_bytes - (400LL << 20);  // 400 MiB short
    const LlamaCppFit f = fit_llama_cpp({h}, g.spec, s, LlamaCppPlacement{}, r);
    REQUIRE(f.fits);
    CHECK(f.n_ctx == 4096);
    CHECK(f.n_gpu_layers == 8);
    REQUIRE(f.n_cpu_moe > 0);
    CHECK(used(f.n_cpu_moe) <= r.free_bytes - r.margin_bytes);
    CHECK(used(f.n_cpu_moe - 1) > r.free_bytes - r.margin_bytes);  // the fewest layers' experts
    CHECK(f.arguments == "-c 4096 -ngl 8 --n-cpu-moe " + std::to_string(f.n_cpu_moe));
}

TEST_CASE("llama.cpp fit, real log: Qwen3-30B-A3B F16 on an RTX 4090 — -c 4096, all 48 layers, 34 layers' experts on the CPU") {
    // tests/data/gguf/logs/fit-params-readme-qwen3-30b-a3b-f16-rtx4090.log (llama.cpp's tools/fit-params/README.md,
    // build 6895): llama-fit-params cut the context from 40960 to 4096 and kept all 48 layers on the GPU with 34
    // layers' experts on the CPU (-ngl 48 -ot blk.14 … blk.47 experts =CPU); the server then printed CUDA0
    // 17904 (model) + 384 (context) + 898 (compute) MiB and Host 58259 MiB.
    // The tensor list: tests/data/configs/qwen3-30b-a3b.json (hidden_size 2048, 48 layers, 32 heads of 128, 4 KV
    // heads, 128 experts of moe_intermediate_size 768, 8 per token, vocab 151936, untied output,
    // max_position_embeddings 40960) in llama-arch.cpp's LLM_ARCH_QWEN3MOE names, at F16 as convert_hf_to_gguf.py
    // writes it (1-D tensors and ffn_gate_inp f32). The log checks it twice: the Host buffer, the whole mmapped file
    // from token_embd on, is 58259 MiB, and CUDA0's 17904 MiB is 48 dense layers plus 14 layers' experts (-ngl 48
    // keeps the output layer on the CPU).
    const std::string log = kvcalc::test::data_file("gguf/logs/fit-params-readme-qwen3-30b-a3b-f16-rtx4090.log");
    auto mib_in = [&](const char* pattern) {
        std::smatch m;
        REQUIRE(std::regex_search(log, m, std::regex(pattern)));
        return std::stoll(m[1]);
    };
    const std::int64_t projected = mib_in(R"(projected to use (\d+) MiB of device memory vs\. \d+ MiB)");
    const std::int64_t cut = mib_in(R"(need to reduce device memory by (\d+) MiB)");
    const std::int64_t margin = mib_in(R"(cannot fulfill margin of (\d+) MiB)");
    const std::int64_t overflowing = mib_in(R"(48 layers \((\d+) overflowing\))");
    const std::int64_t printed_model = mib_in(R"(CUDA0 \(RTX 4090\)\s+\|\s+\d+ =\s+\d+ \+ \(\d+ = (\d+) \+)");
    const std::int64_t printed_compute = mib_in(R"(\+\s+\d+ \+\s+(\d+)\) \+)");
    const std::int64_t printed_host = mib_in(R"(Host\s+\|\s+(\d+) =)");
    REQUIRE(overflowing == 34);
    constexpr std::int64_t n_embd = 2048, n_layer = 48, n_head = 32, n_head_kv = 4, head = 128, n_exp = 128,
                           n_ff_exp = 768, n_vocab = 151936;
    GgufHeader h;
    h.version = 3;
    GgufKeyValue a;
    a.key = "general.architecture";
    a.value.type = GgufValueType::string;
    a.value.text = "qwen3moe";
    h.metadata.push_back(a);
    for (const auto& [k, v] : std::vector<std::pair<std::string, std::int64_t>>{
             {"block_count", n_layer}, {"context_length", 40960}, {"embedding_length", n_embd},
             {"attention.head_count", n_head}, {"attention.head_count_kv", n_head_kv}, {"attention.key_length", head},
             {"attention.value_length", head}, {"expert_count", n_exp}, {"expert_used_count", 8},
             {"expert_feed_forward_length", n_ff_exp}, {"feed_forward_length", 6144}, {"vocab_size", n_vocab}})
        h.metadata.push_back(u32("qwen3moe." + k, v));
    Tensors t;
    t.add("token_embd.weight", F16, {n_embd, n_vocab});
    for (int i = 0; i < n_layer; ++i) {
        const std::string b = "blk." + std::to_string(i) + ".";
        t.add(b + "attn_norm.weight", F32, {n_embd});
        t.add(b + "attn_q.weight", F16, {n_embd, n_head * head});
        t.add(b + "attn_k.weight", F16, {n_embd, n_head_kv * head});
        t.add(b + "attn_v.weight", F16, {n_embd, n_head_kv * head});
        t.add(b + "attn_output.weight", F16, {n_head * head, n_embd});
        t.add(b + "attn_q_norm.weight", F32, {head});
        t.add(b + "attn_k_norm.weight", F32, {head});
        t.add(b + "ffn_norm.weight", F32, {n_embd});
        t.add(b + "ffn_gate_inp.weight", F32, {n_embd, n_exp});
        t.add(b + "ffn_gate_exps.weight", F16, {n_embd, n_ff_exp, n_exp});
        t.add(b + "ffn_down_exps.weight", F16, {n_ff_exp, n_embd, n_exp});
        t.add(b + "ffn_up_exps.weight", F16, {n_embd, n_ff_exp, n_exp});
    }
    t.add("output_norm.weight", F32, {n_embd});
    t.add("output.weight", F16, {n_embd, n_vocab});
    h.tensors = t.list;
    const GgufModel g = read_gguf_model({h});
    for (const auto& d : g.diagnostics) INFO(d.message);
    REQUIRE_FALSE(has_error(g.diagnostics));
    const std::int64_t MiB = 1 << 20;

    // The placement the fit chose, priced: model and KV as the server printed them.
    LlamaCppSettings at;
    at.n_ctx = 4096;
    LlamaCppPlacement chosen;
    chosen.n_gpu_layers = 48;
    chosen.n_cpu_moe = static_cast<int>(overflowing);  // kvcalc keeps the first layers' experts; llama.cpp's -ot moved blk.14..47's (same bytes)
    const LlamaCppBuffers b = predict_llama_cpp_buffers({h}, g.spec, at, chosen);
    REQUIRE_FALSE(has_error(b.diagnostics));
    // The breakdown prints whole MiB: within 1 MiB of the printed figure (kvcalc: 17904.8 and 58259.8 MiB).
    INFO("CUDA0 model " << static_cast<double>(b.gpu_model_bytes) / MiB << " MiB, Host "
                        << static_cast<double>(b.cpu_model_bytes) / MiB << " MiB");
    CHECK(std::abs(static_cast<double>(b.gpu_model_bytes) / MiB - static_cast<double>(printed_model)) < 1.0);
    CHECK(b.gpu_kv_bytes == 384 * MiB);  // 48 layers × 4 KV heads × 128 × (K + V) × 2 B × 4096 cells
    CHECK(std::abs(static_cast<double>(b.cpu_model_bytes) / MiB - static_cast<double>(printed_host)) < 1.0);  // Host: the mapped file
    // Compute, output layer on the CPU: the scheduler copies the F16 output matrix (151936 × 2048 × 2 B = 593.5 MiB)
    // to the GPU and makes the logits there (296.75 MiB) from the normed hidden state (4 MiB): 894.25 MiB live.
    // The breakdown prints 898: 3.75 MiB of ggml-alloc placement, inside the upper bound (+ one hidden state).
    INFO("compute " << static_cast<double>(b.gpu_compute.bytes) / MiB << " … " << static_cast<double>(b.gpu_compute.upper_bytes) / MiB << " MiB");
    CHECK(std::abs(static_cast<double>(b.gpu_compute.bytes) / MiB - 894.25) < 0.01);
    CHECK(b.gpu_compute.bytes <= printed_compute * MiB);
    CHECK(printed_compute * MiB <= b.gpu_compute.upper_bytes);

    // The fit itself. The free memory it worked against is the log's own: 61807 projected − 42444 to cut + 1024
    // margin = 20387 MiB (the 24077 it prints minus what the probe found in use, the breakdown's "unaccounted").
    LlamaCppSettings s;  // -c not given: n_ctx_train 40960, cut down to --fit-ctx 4096 at the least
    s.n_ctx = 40960;
    LlamaCppFitRequest r;
    r.free_bytes = (projected - cut + margin) * MiB;
    const LlamaCppFit f = fit_llama_cpp({h}, g.spec, s, LlamaCppPlacement{}, r);
    REQUIRE_FALSE(has_error(f.diagnostics));
    REQUIRE(f.fits);
    CHECK(f.n_ctx == 4096);  // the context llama.cpp chose
    INFO("kvcalc: " << f.arguments << ", used " << f.used_bytes / MiB << " MiB");
    // The layers: llama.cpp chose -ngl 48 (the output layer on the CPU) with 34 layers' experts on the CPU. kvcalc
    // makes the same choice (its --n-cpu-moe keeps the first layers' experts where llama.cpp's -ot kept the last
    // ones'; the layers are alike, so the bytes are the same): 33 on the CPU would need one layer's experts
    // (3 × 128 × 768 × 2048 × 2 B = 1152 MiB) more than the 19363 MiB target leaves.
    CHECK(f.n_gpu_layers == n_layer);
    CHECK(f.n_cpu_moe == overflowing);
    CHECK(f.arguments == "-c 4096 -ngl 48 --n-cpu-moe 34");
    CHECK(f.used_bytes <= r.free_bytes - r.margin_bytes);
}

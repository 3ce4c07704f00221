// The start-up log reader on the real logs in tests/data/startup_logs (each file names its source): every number
// below was read off the log text by hand, with the line it is printed on.
#include <doctest/doctest.h>

#include <cmath>
#include <filesystem>
#include <string>
#include <vector>

#include "kvcalc/io/startup_log.h"
#include "kvcalc/io/startup_log_json.h"
#include "test_data.h"

namespace {

using kvcalc::LogEngine;
using kvcalc::StartupLog;

struct Expected {
    const char* name;
    double value;
    std::size_t line;
    const char* detail = "";
};

struct Fixture {
    const char* file;
    LogEngine engine;
    const char* version;
    std::size_t known_lines;  ///< lines of the log that carry a number in a wording the reader knows (counted by hand)
    std::vector<Expected> facts;
};

std::string log_file(const std::string& name) { return kvcalc::test::data_file("startup_logs/" + name); }

bool has_code(const StartupLog& log, const char* code) {
    for (const auto& d : log.diagnostics)
        if (d.code == code) return true;
    return false;
}

const kvcalc::LogFact* fact_at(const StartupLog& log, const std::string& name, std::size_t line,
                               const std::string& detail = "") {
    for (const auto& f : log.facts)
        if (f.name == name && f.line == line && (detail.empty() || f.detail == detail)) return &f;
    return nullptr;
}

const std::vector<Fixture>& fixtures() {
    static const std::vector<Fixture> all = {
        {"vllm-0.6.4-v0-llama31-8b-3090-20k.log", LogEngine::vllm, "", 4,
         {{"model_loading_gib", 14.9888, 4}, {"total_gpu_memory_gib", 23.58, 5}, {"peak_torch_memory_gib", 17.06, 5},
          {"non_torch_memory_gib", 0.35, 5}, {"available_kv_cache_gib", 3.81, 5}, {"gpu_memory_utilization", 0.90, 5},
          {"num_gpu_blocks", 1952, 6}, {"num_cpu_blocks", 2048, 6}, {"max_concurrency_tokens_per_request", 20000, 7},
          {"max_concurrency", 1.56, 7}}},
        {"vllm-0.6.4-v0-llama31-8b-3090-29k-refusal.log", LogEngine::vllm, "", 5,
         {{"peak_torch_memory_gib", 17.98, 4}, {"available_kv_cache_gib", 2.89, 4}, {"num_gpu_blocks", 1478, 5},
          {"max_concurrency", 0.82, 6}, {"max_model_len", 29000, 7}, {"max_kv_cache_tokens", 23648, 7}}},
        {"vllm-0.6.5-v0-table-llama3-8b-h100.log", LogEngine::vllm, "", 7,
         {{"total_gpu_memory_gib", 79.22, 5}, {"gpu_memory_utilization", 0.90, 6}, {"requested_memory_gib", 71.29, 7},
          {"model_weights_gib", 14.96, 8}, {"non_torch_memory_gib", 1.79, 9}, {"torch_peak_memory_gib", 1.26, 10},
          {"available_kv_cache_gib", 53.29, 11}}},
        {"vllm-0.7-v0-llama32-11b-vision-h100.log", LogEngine::vllm, "", 3,
         {{"total_gpu_memory_gib", 79.22, 3}, {"gpu_memory_utilization", 0.90, 3}, {"requested_memory_gib", 71.29, 3},
          {"model_weights_gib", 19.86, 4}, {"non_torch_memory_gib", 0.16, 4}, {"torch_peak_memory_gib", 36.63, 4},
          {"available_kv_cache_gib", 14.65, 4}, {"num_gpu_blocks", 6001, 5}, {"num_cpu_blocks", 1638, 5}}},
        {"vllm-0.8-v0-interleaved-workers-3090.log", LogEngine::vllm, "", 5,
         {{"model_weights_gib", 21.21, 3}, {"available_kv_cache_gib", 1.57, 3}, {"total_gpu_memory_gib", 23.58, 5},
          {"gpu_memory_utilization", 0.99, 5}, {"requested_memory_gib", 23.35, 5}, {"available_kv_cache_gib", 1.57, 9}}},
        {"vllm-0.6.6-v0-truncated-issue11550.log", LogEngine::vllm, "", 2,
         {{"model_loading_gib", 7.9692, 2}, {"total_gpu_memory_gib", 23.55, 4}, {"requested_memory_gib", 21.19, 4}}},
        {"vllm-0.7-v1-llama31-70b-w8a8-2048.log", LogEngine::vllm, "", 3,
         {{"model_loading_gib", 67.7229, 4}, {"num_gpu_blocks", 1381, 10},
          {"max_concurrency_tokens_per_request", 2048, 11}, {"max_concurrency", 10.79, 11}}},
        {"vllm-0.8.5-v1-llama31-8b-l40s.log", LogEngine::vllm, "", 3,
         {{"model_loading_gib", 14.9889, 4}, {"gpu_kv_cache_tokens", 158656, 9},
          {"max_concurrency_tokens_per_request", 32768, 10}, {"max_concurrency", 4.84, 10}}},
        {"vllm-v1-qwen3-235b-fp8-tp4-issue21348.log", LogEngine::vllm, "", 2,
         {{"available_kv_cache_gib", 8.11, 3}, {"gpu_kv_cache_tokens", 178880, 4}}},
        {"vllm-v1-fp8kv-two-runs-issue25350.log", LogEngine::vllm, "", 4,
         {{"available_kv_cache_gib", 10.55, 5}, {"gpu_kv_cache_tokens", 230528, 6},
          {"max_concurrency_tokens_per_request", 100000, 7}, {"max_concurrency", 2.31, 7}, {"max_model_len", 221000, 11},
          {"kv_cache_needed_gib", 10.12, 11}, {"available_kv_cache_gib", 5.59, 11},
          {"estimated_max_model_len", 122080, 11}}},
        {"vllm-v1-xpu-kv-cache-memory-bytes-wrapped.log", LogEngine::vllm, "", 3,
         {{"free_memory_on_startup_gib", 31.16, 6}, {"available_kv_cache_gib", 4.25, 6}, {"max_model_len", 100000, 10},
          {"kv_cache_needed_gib", 4.26, 10}, {"available_kv_cache_gib", 4.25, 11}}},
        {"vllm-0.10.2-v1-llava-mistral-7b-h100.log", LogEngine::vllm, "0.10.2", 9,
         {{"max_model_len", 4096, 7}, {"max_num_batched_tokens", 16384, 8}, {"max_model_len", 4096, 14},
          {"tensor_parallel_size", 1, 14}, {"model_loading_gib", 14.0786, 39}, {"available_kv_cache_gib", 55.15, 45},
          {"gpu_kv_cache_tokens", 451744, 46}, {"max_concurrency_tokens_per_request", 4096, 47},
          {"max_concurrency", 110.29, 47}, {"graph_capture_gib", 0.67, 49}, {"free_memory_on_startup_gib", 78.66, 50},
          {"total_gpu_memory_gib", 79.19, 50}, {"gpu_memory_utilization", 0.9, 50}, {"requested_memory_gib", 71.27, 50},
          {"model_weights_gib", 14.08, 50}, {"torch_peak_memory_gib", 1.97, 50}, {"non_torch_memory_gib", 0.07, 50},
          {"cudagraph_memory_gib", 0.67, 50}, {"kv_cache_memory_fit_bytes", 58333988249.0, 50},
          {"kv_cache_memory_full_bytes", 66273897472.0, 50}, {"kv_cache_memory_in_use_bytes", 59212694937.0, 50}}},
        {"vllm-0.21-v1-cudagraph-estimate-mtp.log", LogEngine::vllm, "", 9,
         {{"model_loading_gib", 21.42, 4}, {"cudagraph_estimated_gib", 0.61, 14}, {"available_kv_cache_gib", 71.15, 15},
          {"cudagraph_piecewise_graphs", 9, 13}, {"cudagraph_full_graphs", 5, 13},
          {"gpu_memory_utilization", 0.85, 16}, {"gpu_memory_utilization_without_cudagraph", 0.8449, 16},
          {"gpu_memory_utilization_same_kv", 0.8551, 16},
          {"gpu_kv_cache_tokens", 3131683, 18}, {"max_concurrency_tokens_per_request", 200000, 19},
          {"max_concurrency", 15.66, 19}, {"graph_capture_gib", 0.38, 22}, {"cudagraph_actual_gib", 0.38, 23},
          {"cudagraph_estimated_gib", 0.61, 23}}},
        {"vllm-0.21-v1-tp2-workers-dsv4.log", LogEngine::vllm, "", 9,
         {{"cudagraph_piecewise_graphs", 42, 3}, {"cudagraph_full_graphs", 26, 4},
          {"cudagraph_estimated_gib", 1.58, 14}, {"cudagraph_estimated_gib", 1.58, 15},
          {"available_kv_cache_gib", 10.29, 16}, {"gpu_memory_utilization", 0.95, 17},
          {"gpu_memory_utilization_without_cudagraph", 0.9334, 17}, {"gpu_memory_utilization_same_kv", 0.9666, 18},
          {"gpu_kv_cache_tokens", 1993100, 19}, {"max_concurrency_tokens_per_request", 1048576, 20},
          {"max_concurrency", 1.90, 20}}},
        {"llama.cpp-b4893-bge-small-f16-v100.log", LogEngine::llama_cpp, "", 13,
         {{"tensors_of_type", 124, 4, "f32"}, {"tensors_of_type", 73, 5, "f16"}, {"file_size_mib", 63.84, 7},
          {"bits_per_weight", 16.12, 7}, {"model_params_m", 33.21, 8}, {"n_layers_offloaded", 13, 9},
          {"n_layers", 13, 9}, {"model_buffer_size_mib", 40.73, 10, "CUDA0"},
          {"model_buffer_size_mib", 23.11, 11, "CPU_Mapped"}, {"kv_size", 512, 12}, {"kv_n_layer", 12, 12},
          {"kv_buffer_size_mib", 9.00, 13, "CUDA0"}, {"kv_self_size_mib", 9.00, 14}, {"k_size_mib", 4.50, 14, "f16"},
          {"v_size_mib", 4.50, 14, "f16"}, {"compute_buffer_size_mib", 16.75, 15, "CUDA0"},
          {"compute_buffer_size_mib", 2.51, 16, "CUDA_Host"}}},
        {"llama.cpp-b4893-pythia-2.8b-q4km-v100.log", LogEngine::llama_cpp, "", 15,
         {{"tensors_of_type", 81, 5, "q4_K"}, {"tensors_of_type", 32, 6, "q5_K"}, {"file_size_gib", 1.66, 9},
          {"bits_per_weight", 5.14, 9}, {"model_params_b", 2.78, 10}, {"model_buffer_size_mib", 1632.95, 12, "CUDA0"},
          {"kv_size", 2048, 14}, {"kv_buffer_size_mib", 640.00, 15, "CUDA0"}, {"k_size_mib", 320.00, 16, "f16"},
          {"compute_buffer_size_mib", 162.00, 17, "CUDA0"}, {"compute_buffer_size_mib", 9.01, 18, "CUDA_Host"}}},
        {"llama.cpp-b4343-pythia-2.8b-q4km-v100.log", LogEngine::llama_cpp, "", 6,
         {{"file_size_gib", 1.66, 3}, {"model_buffer_size_mib", 69.08, 5, "CPU_Mapped"},
          {"kv_buffer_size_mib", 640.00, 6, "CUDA0"}, {"kv_self_size_mib", 640.00, 7}, {"v_size_mib", 320.00, 7, "f16"},
          {"compute_buffer_size_mib", 162.00, 8, "CUDA0"}}},
        {"llama.cpp-metal-llama3-8b-q4_0-homestar.log", LogEngine::llama_cpp, "", 10,
         {{"tensors_of_type", 225, 5, "q4_0"}, {"model_params_b", 8.03, 8}, {"file_size_gib", 4.33, 9},
          {"mem_required_mib", 4437.91, 10}, {"n_ctx", 4096, 11}, {"kv_self_size_mib", 512.00, 12},
          {"compute_buffer_size_mib", 2307.09, 13, "total"}}},
        // Build 1062 in ggml-org/ci: two runs (main at n_ctx 512, then perplexity at -c 2048); the second is read.
        {"llama.cpp-b1062-open-llama-7b-q4k-v100.log", LogEngine::llama_cpp, "b1062", 31,
         {{"n_ctx", 2048, 700}, {"model_params_b", 6.74, 714}, {"kv_per_state_mib", 1024.00, 722},
          {"n_layers_offloaded", 35, 727}, {"vram_used_mib", 4845, 728}, {"kv_self_size_mib", 1024.00, 730},
          {"compute_buffer_size_mib", 153.41, 731, "total"}, {"vram_scratch_buffer_mib", 152.00, 732}}},
        // iSWA: two KV caches (non-SWA 4096 cells, SWA 640 cells), each with its buffer and size lines.
        {"llama.cpp-b6182-gpt-oss-20b-vulkan-swa.log", LogEngine::llama_cpp, "b6182", 28,
         {{"device_free_mib", 7789, 9, "Vulkan0"}, {"file_size_gib", 11.27, 14}, {"bits_per_weight", 4.63, 14},
          {"n_swa", 128, 17}, {"n_expert_used", 4, 22}, {"n_layers_offloaded", 24, 26}, {"n_layers", 25, 26},
          {"model_buffer_size_mib", 4699.90, 27, "Vulkan0"}, {"model_buffer_size_mib", 7218.45, 28, "CPU_Mapped"},
          {"n_seq_max", 1, 31}, {"n_ctx", 4096, 32}, {"n_ubatch", 512, 35}, {"output_buffer_size_mib", 0.77, 42, "CPU"},
          {"kv_cells_non_swa", 4096, 43}, {"kv_buffer_size_mib", 96.00, 44, "Vulkan0"}, {"kv_self_size_mib", 96.00, 45},
          {"kv_cells", 4096, 45}, {"kv_layers", 12, 45}, {"k_size_mib", 48.00, 45, "f16"}, {"kv_cells_swa", 640, 46},
          {"kv_buffer_size_mib", 15.00, 47, "Vulkan0"}, {"kv_cells", 640, 48}, {"v_size_mib", 7.50, 48, "f16"},
          {"compute_buffer_size_mib", 985.20, 49, "Vulkan0"}, {"compute_buffer_size_mib", 58.33, 50, "Vulkan_Host"}}},
        {"sglang-qwen3-235b-fp8-tp4-issue21348.log", LogEngine::sglang, "", 1,
         {{"kv_tokens", 367404, 3}, {"k_size_gib", 8.23, 3}, {"v_size_gib", 8.23, 3}}},
        {"sglang-qwen3-30b-a3b-mi-pr18263.log", LogEngine::sglang, "", 3,
         {{"load_weight_end_avail_mem_gib", 230.20, 3}, {"weight_mem_usage_gib", 56.98, 3}, {"kv_tokens", 1669816, 7},
          {"k_size_gib", 76.44, 7}, {"v_size_gib", 76.44, 7}, {"memory_pool_end_avail_mem_gib", 74.01, 8}}},
        {"sglang-tp8-interleaved-pr11716.log", LogEngine::sglang, "", 16,
         {{"init_torch_distributed_mem_usage_gib", 1.77, 3}, {"init_torch_distributed_mem_usage_gib", 1.96, 5},
          {"load_weight_begin_avail_mem_gib", 137.34, 16}, {"load_weight_begin_avail_mem_gib", 137.52, 17}}},
        {"sglang-max-total-num-tokens-issue29575.log", LogEngine::sglang, "", 1,
         {{"max_total_num_tokens", 2086558, 3}, {"chunked_prefill_size", 8192, 3}, {"max_prefill_tokens", 16384, 3},
          {"max_running_requests", 33, 3}, {"context_len", 256000, 3}, {"available_gpu_mem_gib", 17.22, 3}}},
    };
    return all;
}

}  // namespace

TEST_SUITE("startup log") {
    TEST_CASE("every stored log is in the table, and every number in the table is read from its line") {
        std::size_t files = 0;
        for (const auto& e : std::filesystem::directory_iterator(std::string(KVCALC_TEST_DATA_DIR) + "/startup_logs"))
            files += e.path().extension() == ".log" ? 1 : 0;
        CHECK(files == fixtures().size());

        std::size_t known = 0, read = 0;
        for (const Fixture& fx : fixtures()) {
            INFO("fixture ", fx.file);
            const std::string text = log_file(fx.file);
            REQUIRE_FALSE(text.empty());
            const StartupLog log = kvcalc::read_startup_log(text);
            CHECK(log.ok);
            CHECK(log.engine == fx.engine);
            if (*fx.version) CHECK(log.engine_version == fx.version);
            CHECK(log.known_lines == fx.known_lines);
            CHECK(log.read_lines == log.known_lines);
            known += fx.known_lines;
            read += log.read_lines;
            for (const Expected& x : fx.facts) {
                INFO(x.name, " at line ", x.line);
                const kvcalc::LogFact* f = fact_at(log, x.name, x.line, x.detail);
                REQUIRE(f != nullptr);
                CHECK(f->value == doctest::Approx(x.value).epsilon(1e-12));
            }
        }
        MESSAGE("known start-up lines with numbers: ", known, ", read: ", read);
        CHECK(read == known);
    }

    TEST_CASE("process prefixes become ranks; V0's workers are told apart by their pid") {
        const StartupLog log = kvcalc::read_startup_log(log_file("vllm-0.8-v0-interleaved-workers-3090.log"));
        REQUIRE(fact_at(log, "available_kv_cache_gib", 3));
        CHECK(fact_at(log, "available_kv_cache_gib", 3)->rank == "VllmWorkerProcess pid=521");
        CHECK(fact_at(log, "available_kv_cache_gib", 6)->rank == "VllmWorkerProcess pid=507");
        const StartupLog sg = kvcalc::read_startup_log(log_file("sglang-tp8-interleaved-pr11716.log"));
        CHECK(fact_at(sg, "load_weight_begin_avail_mem_gib", 16)->rank == "TP0");
        CHECK(sg.ok);
        CHECK(has_code(sg, "log_truncated"));  // the excerpt stops before the KV cache line
    }

    TEST_CASE("words: version banner, attention backend, sampler fallback, KV cache types") {
        const StartupLog v = kvcalc::read_startup_log(log_file("vllm-0.10.2-v1-llava-mistral-7b-h100.log"));
        REQUIRE(kvcalc::find_fact(v, "attention_backend"));
        CHECK(kvcalc::find_fact(v, "attention_backend")->detail == "Flash Attention");
        CHECK(kvcalc::find_fact(v, "attention_backend")->line == 29);
        REQUIRE(kvcalc::find_fact(v, "sampler_fallback"));
        CHECK(kvcalc::find_fact(v, "sampler_fallback")->line == 25);
        CHECK(kvcalc::find_fact(v, "kv_cache_dtype")->detail == "auto");
        const StartupLog l = kvcalc::read_startup_log(log_file("llama.cpp-b4893-pythia-2.8b-q4km-v100.log"));
        CHECK(kvcalc::find_fact(l, "type_k")->detail == "f16");
        CHECK(kvcalc::find_fact(l, "type_v")->detail == "f16");
    }

    TEST_CASE("a word line before any number does not decide the engine") {
        const StartupLog log = kvcalc::read_startup_log(
            "Using FLASHINFER backend for something\n[2026-07-15 13:14:54] KV Cache is allocated. #tokens: 1669816, "
            "K size: 76.44 GB, V size: 76.44 GB\n");
        CHECK(log.engine == LogEngine::sglang);
        REQUIRE(fact_at(log, "kv_tokens", 2) != nullptr);
        CHECK(fact_at(log, "kv_tokens", 2)->value == 1669816);
    }

    TEST_CASE("two runs in one file: the last is read and a warning names where it starts") {
        const StartupLog log = kvcalc::read_startup_log(log_file("llama.cpp-b1062-open-llama-7b-q4k-v100.log"));
        CHECK(log.runs == 2);
        CHECK(log.run_first_line == 383);  // "llama_model_loader: loaded meta data" of ./bin/perplexity
        CHECK(has_code(log, "log_two_runs"));
        CHECK(fact_at(log, "kv_self_size_mib", 355) == nullptr);  // run 1's 256.00 MB is dropped
        // Two boots pasted without banners (vLLM issue 25350): the contradiction is named, with both lines.
        const StartupLog two = kvcalc::read_startup_log(log_file("vllm-v1-fp8kv-two-runs-issue25350.log"));
        bool named = false;
        for (const auto& d : two.diagnostics)
            named = named || (d.code == "log_contradiction" && d.field == "log:11" &&
                              d.message.find("line 5") != std::string::npos);
        CHECK(named);
    }

    TEST_CASE("wrapped lines: CRLF, ANSI colours, '#' comments, container prefixes, thousands separators") {
        const std::string text =
            "# vllm-1  | \x1b[1;36m(EngineCore_DP0 pid=88)\x1b[0;0m INFO 10-01 12:00:00 [gpu_worker.py:298] Available "
            "KV cache memory: 21.35 GiB\r\n"
            "vllm-1  | (EngineCore_DP0 pid=88) INFO 10-01 12:00:00 [kv_cache_utils.py:864] GPU KV cache size: "
            "349,584 tokens\r\n";
        const StartupLog log = kvcalc::read_startup_log(text);
        REQUIRE(log.ok);
        REQUIRE(fact_at(log, "available_kv_cache_gib", 1));
        CHECK(fact_at(log, "available_kv_cache_gib", 1)->value == 21.35);
        CHECK(fact_at(log, "available_kv_cache_gib", 1)->rank == "EngineCore_DP0 pid=88");
        CHECK(fact_at(log, "gpu_kv_cache_tokens", 2)->value == 349584);
    }

    TEST_CASE("bad logs: a clear message naming the line, never a crash, nothing to price") {
        SUBCASE("empty and blank") {
            CHECK(has_code(kvcalc::read_startup_log(""), "log_empty"));
            CHECK_FALSE(kvcalc::read_startup_log(" \r\n\n").ok);
        }
        SUBCASE("binary") {
            const StartupLog log = kvcalc::read_startup_log(std::string("Available KV cache memory: 1 GiB\n\x7f""ELF\0\0", 40));
            CHECK_FALSE(log.ok);
            REQUIRE(has_code(log, "log_binary"));
            CHECK(log.diagnostics[0].field == "log:2");
        }
        SUBCASE("too large") {
            const StartupLog log = kvcalc::read_startup_log(std::string(kvcalc::kMaxStartupLogBytes + 1, 'a'));
            CHECK(has_code(log, "log_too_large"));
        }
        SUBCASE("10 MB of real log is read in one pass") {
            const std::string one = log_file("vllm-0.10.2-v1-llava-mistral-7b-h100.log");
            std::string big;
            while (big.size() < 10'000'000) big += one;
            const StartupLog log = kvcalc::read_startup_log(big);
            CHECK(log.ok);
            CHECK(log.runs == big.size() / one.size());
            CHECK(has_code(log, "log_two_runs"));
            CHECK(kvcalc::find_fact(log, "available_kv_cache_gib")->value == 55.15);
        }
        SUBCASE("not a start-up log") {
            const StartupLog log = kvcalc::read_startup_log("hello\nworld 42\n");
            CHECK_FALSE(log.ok);
            CHECK(has_code(log, "log_unrecognised"));
        }
        SUBCASE("truncated before the KV cache line") {
            const StartupLog log = kvcalc::read_startup_log(log_file("vllm-0.6.6-v0-truncated-issue11550.log"));
            CHECK(log.ok);
            CHECK(has_code(log, "log_truncated"));
        }
        SUBCASE("a known line whose number is garbled") {
            const StartupLog log =
                kvcalc::read_startup_log("Model loading took 14.9889 GiB\nAvailable KV cache memory: ?? GiB\n");
            CHECK(log.known_lines == 2);
            CHECK(log.read_lines == 1);
            REQUIRE(has_code(log, "log_line_unread"));
        }
        SUBCASE("one process printing two values") {
            const std::string line = "(Worker_TP0 pid=5) INFO [gpu_worker.py:298] Available KV cache memory: ";
            const StartupLog log = kvcalc::read_startup_log(line + "10.00 GiB\n" + line + "12.00 GiB\n");
            CHECK_FALSE(log.ok);
            REQUIRE(has_code(log, "log_contradiction"));
        }
        SUBCASE("V0's terms that do not add up (the PR 12126 log with its KV term edited)") {
            std::string text = log_file("vllm-0.7-v0-llama32-11b-vision-h100.log");
            const auto at = text.find("KV Cache is 14.65GiB");
            REQUIRE(at != std::string::npos);
            text.replace(at, 20, "KV Cache is 24.65GiB");
            const StartupLog log = kvcalc::read_startup_log(text);
            CHECK_FALSE(log.ok);
            bool named = false;
            for (const auto& d : log.diagnostics) named = named || (d.code == "log_contradiction" && d.field == "log:4");
            CHECK(named);
        }
        SUBCASE("a negative size") {
            CHECK_FALSE(kvcalc::read_startup_log("Available KV cache memory: -3.20 GiB\n").ok);
        }
        SUBCASE("a line longer than the cap is skipped with a warning") {
            const StartupLog log = kvcalc::read_startup_log(std::string(kvcalc::kMaxStartupLogLineBytes + 10, 'x') +
                                                            "\nGPU KV cache size: 1,024 tokens\n");
            CHECK(has_code(log, "log_long_lines"));
            CHECK(fact_at(log, "gpu_kv_cache_tokens", 2)->value == 1024);
        }
    }

    TEST_CASE("the JSON document: schema, ok, and a bad log's error naming its line") {
        const nlohmann::json j = nlohmann::json::parse(kvcalc::startup_log_document("x\n\x01\x02\x03\x04\x05\x06\x07\x0e\x0f\n"));
        CHECK(j["schema"] == 1);
        CHECK(j["ok"] == false);
        REQUIRE(j["log"]["diagnostics"].size() == 1);
        CHECK(j["log"]["diagnostics"][0]["code"] == "log_binary");
        CHECK(j["log"]["diagnostics"][0]["field"] == "log:2");
    }

    TEST_CASE("JSON: the facts with their lines") {
        const StartupLog log = kvcalc::read_startup_log(log_file("vllm-0.8.5-v1-llama31-8b-l40s.log"));
        const nlohmann::json j = log;
        CHECK(j["ok"] == true);
        CHECK(j["engine"] == "vllm");
        CHECK(j["read_lines"] == 3);
        bool found = false;
        for (const auto& f : j["facts"])
            found = found || (f["name"] == "gpu_kv_cache_tokens" && f["value"] == 158656 && f["line"] == 9 &&
                              f["unit"] == "tokens");
        CHECK(found);
    }
}

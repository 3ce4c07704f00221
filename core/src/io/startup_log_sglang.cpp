// SGLang's start-up lines (python/sglang/srt/model_executor/model_runner.py, mem_cache/memory_pool.py,
// managers/scheduler.py). SGLang prints GB but divides by 2^30, so the names end in _gib.
#include <string>

#include "io/startup_log_internal.h"

namespace kvcalc::startup_log {
namespace {

bool has(std::string_view s, std::string_view key) { return s.find(key) != std::string_view::npos; }

bool take(std::string_view s, std::string_view key, const char* name, Sink& sink) {
    double v = 0;
    std::string unit;
    if (!number_after(s, key, v, &unit)) return false;
    sink.number(name, v, unit);
    return true;
}

}  // namespace

LineResult read_sglang_line(std::string_view s, Sink& sink) {
    LineResult r;
    const auto known = [&] {
        r.matched = true;
        r.known = true;
        return r;
    };
    // "server_args=ServerArgs(model_path='...', ..., mem_fraction_static=0.851, ..., tp_size=1, ...)"
    if (has(s, "server_args=ServerArgs(")) {
        sink.run_start();
        take(s, "mem_fraction_static=", "mem_fraction_static", sink);
        take(s, " tp_size=", "tp_size", sink);
        take(s, " dp_size=", "dp_size", sink);
        take(s, "context_length=", "context_length", sink);
        take(s, "chunked_prefill_size=", "chunked_prefill_size", sink);
        take(s, "max_running_requests=", "max_running_requests", sink);
        return known();
    }
    if (has(s, "Init torch distributed ends.")) {
        take(s, "mem usage=", "init_torch_distributed_mem_usage_gib", sink);
        return known();
    }
    if (has(s, "Load weight begin.")) {
        take(s, "avail mem=", "load_weight_begin_avail_mem_gib", sink);
        return known();
    }
    // "Load weight end. type=Qwen2ForCausalLM, dtype=torch.bfloat16, avail mem=6.09 GB, mem usage=15.54 GB."
    if (has(s, "Load weight end.")) {
        take(s, "avail mem=", "load_weight_end_avail_mem_gib", sink);
        take(s, "mem usage=", "weight_mem_usage_gib", sink);
        return known();
    }
    // "KV Cache is allocated. dtype: torch.bfloat16, #tokens: 1669816, K size: 76.44 GB, V size: 76.44 GB"
    // (older: "KV Cache is allocated. K size: 1.42 GB, V size: 1.42 GB")
    if (has(s, "KV Cache is allocated.")) {
        take(s, "#tokens:", "kv_tokens", sink);
        take(s, "K size:", "k_size_gib", sink);
        take(s, "V size:", "v_size_gib", sink);
        const std::size_t d = s.find("dtype: ");
        if (d != std::string_view::npos) {
            std::string_view rest = s.substr(d + 7);
            sink.word("kv_cache_dtype", std::string(rest.substr(0, rest.find(','))));
        }
        return known();
    }
    if (has(s, "Memory pool end.")) {
        take(s, "avail mem=", "memory_pool_end_avail_mem_gib", sink);
        return known();
    }
    if (has(s, "Capture cuda graph end.") || has(s, "Capture piecewise CUDA graph end.")) {
        take(s, "mem usage=", "cuda_graph_mem_usage_gib", sink);
        take(s, "avail mem=", "cuda_graph_end_avail_mem_gib", sink);
        return known();
    }
    // "max_total_num_tokens=2086558, chunked_prefill_size=8192, max_prefill_tokens=16384, max_running_requests=33,
    // context_len=256000, available_gpu_mem=17.22 GB"
    if (has(s, "max_total_num_tokens=")) {
        take(s, "max_total_num_tokens=", "max_total_num_tokens", sink);
        take(s, "chunked_prefill_size=", "chunked_prefill_size", sink);
        take(s, "max_prefill_tokens=", "max_prefill_tokens", sink);
        take(s, "max_running_requests=", "max_running_requests", sink);
        take(s, "context_len=", "context_len", sink);
        take(s, "available_gpu_mem=", "available_gpu_mem_gib", sink);
        return known();
    }
    if (has(s, "mem_fraction_static=")) {
        take(s, "mem_fraction_static=", "mem_fraction_static", sink);
        return known();
    }
    return r;
}

}  // namespace kvcalc::startup_log

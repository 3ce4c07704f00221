// vLLM's start-up lines, V0 (0.5–0.10) and V1 (0.8 on): the logger.info calls of vllm/worker/worker.py,
// vllm/v1/worker/gpu_worker.py, gpu_model_runner.py and vllm/v1/core/kv_cache_utils.py. docs/STARTUP_LOGS.md
// lists each line with its release.
#include <string>

#include "io/startup_log_internal.h"

namespace kvcalc::startup_log {
namespace {

bool has(std::string_view s, std::string_view key) { return s.find(key) != std::string_view::npos; }

/// Takes the number after `key` as fact `name`; true when one was there.
bool take(std::string_view s, std::string_view key, const char* name, Sink& sink) {
    double v = 0;
    std::string unit;
    if (!number_after(s, key, v, &unit)) return false;
    sink.number(name, v, unit);
    return true;
}

/// The version in "vLLM API server version 0.11.0", "Initializing a V1 LLM engine (v0.8.5) with config".
std::string version_after(std::string_view s, std::string_view key) {
    std::size_t pos = s.find(key);
    if (pos == std::string_view::npos) return {};
    pos += key.size();
    while (pos < s.size() && (s[pos] == ' ' || s[pos] == '(' || s[pos] == 'v')) ++pos;
    std::size_t end = pos;
    while (end < s.size() && s[end] != ' ' && s[end] != ')' && s[end] != ',') ++end;
    if (end == pos || !(s[pos] >= '0' && s[pos] <= '9')) return {};
    return std::string(s.substr(pos, end - pos));
}

/// The quoted value after `key` ("model='meta-llama/Llama-3.1-8B'" or "'model': 'x'"); "" when there is none.
std::string quoted_after(std::string_view s, std::string_view key) {
    const std::size_t at = s.find(key);
    if (at == std::string_view::npos) return {};
    std::size_t pos = at + key.size();
    while (pos < s.size() && (s[pos] == ' ' || s[pos] == ':' || s[pos] == '=')) ++pos;
    if (pos >= s.size() || (s[pos] != '\'' && s[pos] != '"')) return {};
    const char quote = s[pos++];
    const std::size_t end = s.find(quote, pos);
    if (end == std::string_view::npos || end == pos || end - pos > 200) return {};
    return std::string(s.substr(pos, end - pos));
}

/// The engine-config dump's keys that describe the scenario ("max_seq_len=131072, ... tensor_parallel_size=2").
void read_config_dump(std::string_view s, Sink& sink) {
    // The served model as given (a Hugging Face repo or a path): kvcalc's calibration looks it up in its catalog.
    if (std::string model = quoted_after(s, "model="); !model.empty()) sink.word("model", std::move(model));
    take(s, "max_seq_len=", "max_model_len", sink);
    take(s, "tensor_parallel_size=", "tensor_parallel_size", sink);
    take(s, "pipeline_parallel_size=", "pipeline_parallel_size", sink);
    for (const char* key : {"kv_cache_dtype=", "quantization=", "dtype="}) {
        const std::size_t at = s.find(key);
        if (at == std::string_view::npos) continue;
        if (std::string_view(key) == "dtype=" && at > 0 && s[at - 1] == '_') continue;  // kv_cache_dtype
        std::size_t end = at + std::string_view(key).size();
        const std::size_t first = end;
        while (end < s.size() && s[end] != ',' && s[end] != ' ') ++end;
        std::string name(key);
        name.pop_back();
        sink.word(name, std::string(s.substr(first, end - first)));
    }
}

}  // namespace

LineResult read_vllm_line(std::string_view s, Sink& sink) {
    LineResult r;
    const auto known = [&](bool read_any) {
        r.matched = true;
        r.known = true;
        (void)read_any;
        return r;
    };

    // Banners: each opens a boot.
    for (const char* key : {"vLLM API server version", "Initializing a V1 LLM engine", "Initializing an LLM engine"}) {
        if (!has(s, key)) continue;
        const std::string v = version_after(s, key);
        if (!v.empty()) sink.version(v);
        sink.run_start();
        if (has(s, "max_seq_len=")) {
            read_config_dump(s, sink);
            return known(true);
        }
        r.matched = true;
        return r;
    }
    if (has(s, "Using max model len")) {
        take(s, "Using max model len", "max_model_len", sink);
        return known(true);
    }
    // Weights: V1 "Model loading took 14.9889 GiB and 3.65 seconds" (later "... GiB memory and ..."),
    // V0 "Loading model weights took 14.9888 GB" (vLLM divides by 2^30 there too).
    if (has(s, "Model loading took") || has(s, "Loading model weights took")) {
        take(s, has(s, "Model loading took") ? "Model loading took" : "Loading model weights took", "model_loading_gib",
             sink);
        return known(true);
    }
    // V0 (0.6.5–0.10): one line with the product, then one with the four terms.
    if (has(s, "total_gpu_memory (")) {
        take(s, "total_gpu_memory (", "total_gpu_memory_gib", sink);
        take(s, "gpu_memory_utilization (", "gpu_memory_utilization", sink);
        double v = 0;
        std::string unit;
        const std::size_t eq = s.rfind(") = ");
        if (eq != std::string_view::npos && number_after(s.substr(eq), ") = ", v, &unit))
            sink.number("requested_memory_gib", v, unit);
        return known(true);
    }
    if (has(s, "model weights take") && has(s, "non_torch_memory takes")) {
        take(s, "model weights take", "model_weights_gib", sink);
        take(s, "non_torch_memory takes", "non_torch_memory_gib", sink);
        take(s, "PyTorch activation peak memory takes", "torch_peak_memory_gib", sink);
        take(s, "reserved for KV Cache is", "available_kv_cache_gib", sink);
        return known(true);
    }
    // V0 0.6.5's table form (one term per line) and 0.6.4's "Memory profiling results: key=value ..." line.
    if (has(s, "Memory profiling results:") && has(s, "=")) {
        take(s, "total_gpu_memory=", "total_gpu_memory_gib", sink);
        take(s, "initial_memory_usage=", "initial_memory_usage_gib", sink);
        take(s, "peak_torch_memory=", "peak_torch_memory_gib", sink);
        take(s, "memory_usage_post_profile=", "memory_usage_post_profile_gib", sink);
        take(s, "non_torch_memory=", "non_torch_memory_gib", sink);
        take(s, "kv_cache_size=", "available_kv_cache_gib", sink);
        take(s, "gpu_memory_utilization=", "gpu_memory_utilization", sink);
        return known(true);
    }
    static constexpr struct {
        const char* key;
        const char* name;
    } kTable[] = {
        {"] total_gpu_memory ", "total_gpu_memory_gib"},
        {"] gpu_memory_utilization ", "gpu_memory_utilization"},
        {"the current vLLM instance can use ", "requested_memory_gib"},
        {"] model weights take ", "model_weights_gib"},
        {"] non_torch_memory ", "non_torch_memory_gib"},
        {"] PyTorch activation peak memory ", "torch_peak_memory_gib"},
        {"] available_kv_cache_memory ", "available_kv_cache_gib"},
    };
    for (const auto& row : kTable) {
        if (!has(s, row.key)) continue;
        take(s, row.key, row.name, sink);
        return known(true);
    }
    // Block counts: V0 "# GPU blocks: 1952, # CPU blocks: 2048", "# CUDA blocks: 6001, # CPU blocks: 1638",
    // V1 0.7 "# GPU blocks: 1381".
    if (has(s, "GPU blocks:") || has(s, "CUDA blocks:")) {
        take(s, has(s, "GPU blocks:") ? "GPU blocks:" : "CUDA blocks:", "num_gpu_blocks", sink);
        take(s, "CPU blocks:", "num_cpu_blocks", sink);
        return known(true);
    }
    if (has(s, "Available KV cache memory:")) {
        take(s, "Available KV cache memory:", "available_kv_cache_gib", sink);
        return known(true);
    }
    // V1: "GPU KV cache size: 349,584 tokens" (0.22+ adds ", Maximum concurrency ..." on the same line).
    if (has(s, "GPU KV cache size:") || has(s, "Maximum concurrency for")) {
        take(s, "GPU KV cache size:", "gpu_kv_cache_tokens", sink);
        double tokens = 0;
        std::size_t end = 0;
        std::string unit;
        if (number_after(s, "Maximum concurrency for", tokens, &unit, &end)) {
            sink.number("max_concurrency_tokens_per_request", tokens, unit);
            double x = 0;
            std::string xunit;
            if (number_after(s.substr(end), "per request:", x, &xunit)) sink.number("max_concurrency", x, xunit);
        }
        return known(true);
    }
    // V0 before 0.6.5 and V1 before 0.9: the refusal without the estimate.
    if (has(s, "is larger than the maximum number of tokens that can be stored in KV cache")) {
        take(s, "max seq len (", "max_model_len", sink);
        take(s, "stored in KV cache (", "max_kv_cache_tokens", sink);
        return known(true);
    }
    // V1: "ValueError: To serve at least one request with the model's max seq len (221000), (10.12 GiB KV cache is
    // needed, which is larger than the available KV cache memory (5.59 GiB). Based on the available memory, the
    // estimated maximum model length is 122080." (0.8.x says "models's").
    if (has(s, "To serve at least one request with the model")) {
        take(s, "max seq len (", "max_model_len", sink);
        double needed = 0;
        std::string unit;
        std::size_t end = 0;
        if (number_after(s, "), (", needed, &unit, &end) || number_after(s, "), ", needed, &unit, &end))
            sink.number("kv_cache_needed_gib", needed, unit);
        take(s, "available KV cache memory (", "available_kv_cache_gib", sink);
        take(s, "estimated maximum model length is", "estimated_max_model_len", sink);
        sink.word("refusal", "max_model_len does not fit the KV cache");
        return known(true);
    }
    // The refusal wraps in terminals: its second half arrives on lines of its own.
    if (has(s, "larger than the available KV cache memory (")) {
        take(s, "larger than the available KV cache memory (", "available_kv_cache_gib", sink);
        take(s, "estimated maximum model length is", "estimated_max_model_len", sink);
        return known(true);
    }
    // The line wraps in terminals: the estimate can arrive on the next line.
    if (has(s, "estimated maximum model length is")) {
        take(s, "estimated maximum model length is", "estimated_max_model_len", sink);
        return known(true);
    }
    // --kv-cache-memory given: "Initial free memory 31.16 GiB, reserved 4.25 GiB memory for KV Cache as specified
    // by kv_cache_memory_bytes config and skipped memory profiling."
    if (has(s, "Initial free memory") && has(s, "memory for KV Cache")) {
        take(s, "Initial free memory", "free_memory_on_startup_gib", sink);
        take(s, "reserved", "available_kv_cache_gib", sink);
        sink.word("kv_cache_memory_bytes_given", "true");  // the pool is the flag's, not the profile's
        return known(true);
    }
    // 0.18+: CUDA-graph memory estimated in the profile, then measured at capture.
    // "Profiling CUDA graph memory: PIECEWISE=42 (largest=384), FULL=26 (largest=192)"
    if (has(s, "Profiling CUDA graph memory:")) {
        take(s, "PIECEWISE=", "cudagraph_piecewise_graphs", sink);
        take(s, "FULL=", "cudagraph_full_graphs", sink);
        return known(true);
    }
    if (has(s, "Estimated CUDA graph memory:")) {
        take(s, "Estimated CUDA graph memory:", "cudagraph_estimated_gib", sink);
        return known(true);
    }
    if (has(s, "CUDA graph pool memory:")) {
        take(s, "CUDA graph pool memory:", "cudagraph_actual_gib", sink);
        take(s, "(actual),", "cudagraph_estimated_gib", sink);
        return known(true);
    }
    if (has(s, "Graph capturing finished in")) {
        take(s, "Graph capturing finished in", "graph_capture_seconds", sink);
        take(s, ", took", "graph_capture_gib", sink);
        return known(true);
    }
    if (has(s, "is equivalent to --gpu-memory-utilization=")) {
        take(s, "The current --gpu-memory-utilization=", "gpu_memory_utilization", sink);
        take(s, "is equivalent to --gpu-memory-utilization=", "gpu_memory_utilization_without_cudagraph", sink);
        take(s, "increase --gpu-memory-utilization to", "gpu_memory_utilization_same_kv", sink);
        return known(true);
    }
    // 0.10.2+: "Free memory on device (78.66/79.19 GiB) on startup. Desired GPU memory utilization is (0.9, 71.27
    // GiB). Actual usage is 14.08 GiB for weight, 1.97 GiB for peak activation, 0.07 GiB for non-torch memory, and
    // 0.67 GiB for CUDAGraph memory. Replace ... `--kv-cache-memory=N` ... Current kv cache memory in use is ...";
    // later releases fold weights and non-torch into "for consumed memory (weights + non-torch)".
    if (has(s, "Free memory on device (")) {
        double free_gib = 0, total_gib = 0;
        std::size_t pos = s.find("Free memory on device (") + 23;
        if (scan_number(s, pos, free_gib) && pos < s.size() && s[pos] == '/') {
            ++pos;
            if (scan_number(s, pos, total_gib)) {
                const std::string unit = scan_unit(s, pos);
                sink.number("free_memory_on_startup_gib", free_gib, unit);
                sink.number("total_gpu_memory_gib", total_gib, unit);
            }
        }
        double u = 0, req = 0;
        pos = s.find("Desired GPU memory utilization is (");
        if (pos != std::string_view::npos) {
            pos += 35;
            if (scan_number(s, pos, u)) {
                sink.number("gpu_memory_utilization", u, "");
                if (pos < s.size() && s[pos] == ',') ++pos;
                if (scan_number(s, pos, req)) sink.number("requested_memory_gib", req, scan_unit(s, pos));
            }
        }
        static constexpr struct {
            const char* suffix;
            const char* name;
        } kUsage[] = {
            {"for weight", "model_weights_gib"},
            {"for consumed memory", "consumed_memory_gib"},
            {"for peak activation", "torch_peak_memory_gib"},
            {"for non-torch memory", "non_torch_memory_gib"},
            {"for CUDAGraph memory", "cudagraph_memory_gib"},
        };
        for (const auto& row : kUsage) {
            const std::size_t at = s.find(row.suffix);
            if (at == std::string_view::npos) continue;
            // the number sits right before " GiB for ...": walk back over the unit and the number
            std::size_t start = s.rfind(' ', at >= 2 ? at - 2 : 0);  // space before the unit
            if (start == std::string_view::npos) continue;
            std::size_t nstart = s.rfind(' ', start >= 1 ? start - 1 : 0);
            nstart = nstart == std::string_view::npos ? 0 : nstart + 1;
            double v = 0;
            std::size_t p = nstart;
            if (scan_number(s, p, v)) sink.number(row.name, v, scan_unit(s, p));
        }
        double fit = 0, full = 0;
        std::size_t end = 0;
        if (number_after(s, "--kv-cache-memory=", fit, nullptr, &end)) {
            sink.number("kv_cache_memory_fit_bytes", fit, "bytes");
            if (number_after(s.substr(end), "--kv-cache-memory=", full)) sink.number("kv_cache_memory_full_bytes", full, "bytes");
        }
        double in_use = 0;
        std::string unit;
        if (number_after(s, "Current kv cache memory in use is", in_use, &unit))
            sink.number(unit == "bytes" ? "kv_cache_memory_in_use_bytes" : "kv_cache_memory_in_use_gib", in_use, unit);
        return known(true);
    }
    // The scheduler's token budget: "Chunked prefill is enabled with max_num_batched_tokens=2048." and config dumps.
    if (has(s, "max_num_batched_tokens=")) {
        take(s, "max_num_batched_tokens=", "max_num_batched_tokens", sink);
        return known(true);
    }
    // Attention backend and sampler choices (words, no numbers).
    if (has(s, "Using ") && has(s, " backend") && !has(s, "Using cache directory")) {
        std::size_t at = s.find("Using ") + 6;
        const std::size_t end = s.find(" backend", at);
        if (end != std::string_view::npos && end > at && end - at < 48) {
            sink.word("attention_backend", std::string(s.substr(at, end - at)));
            r.matched = true;
            return r;
        }
    }
    if (has(s, "FlashInfer is not available") || has(s, "Falling back to the PyTorch-native implementation") ||
        has(s, "Falling back to PyTorch-native implementation")) {
        sink.word("sampler_fallback", "PyTorch-native top-p/top-k sampling (FlashInfer sampler not used)");
        r.matched = true;
        return r;
    }
    return r;
}

}  // namespace kvcalc::startup_log

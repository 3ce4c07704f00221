// llama.cpp's start-up lines: llama_model_loader, print_info / llm_load_print_meta, load_tensors /
// llm_load_tensors, llama_context / llama_new_context_with_model and the KV cache's init lines
// (src/llama-model-loader.cpp, src/llama-model.cpp, src/llama-context.cpp, src/llama-kv-cache*.cpp).
#include <string>

#include "io/startup_log_internal.h"

namespace kvcalc::startup_log {
namespace {

bool has(std::string_view s, std::string_view key) { return s.find(key) != std::string_view::npos; }

/// The word before `key`: the buffer's device in "CUDA0 model buffer size =", "CPU_Mapped model buffer size".
std::string word_before(std::string_view s, std::size_t at) {
    std::size_t end = at;
    while (end > 0 && s[end - 1] == ' ') --end;
    std::size_t start = end;
    while (start > 0 && s[start - 1] != ' ' && s[start - 1] != ':') --start;
    return std::string(s.substr(start, end - start));
}

/// "name (f16): 4.50 MiB" -> the type in parentheses after `key`.
std::string paren_after(std::string_view s, std::size_t at) {
    const std::size_t open = s.find('(', at);
    const std::size_t close = s.find(')', at);
    if (open == std::string_view::npos || close == std::string_view::npos || close < open || close - open > 16)
        return {};
    return std::string(s.substr(open + 1, close - open - 1));
}

/// The quoted value of `key` in "type_k = 'f16'".
std::string quoted_after(std::string_view s, std::string_view key) {
    std::size_t at = s.find(key);
    if (at == std::string_view::npos) return {};
    const std::size_t open = s.find('\'', at);
    const std::size_t close = open == std::string_view::npos ? open : s.find('\'', open + 1);
    if (close == std::string_view::npos || close - open > 16) return {};
    return std::string(s.substr(open + 1, close - open - 1));
}

bool take(std::string_view s, std::string_view key, const char* name, Sink& sink, std::string detail = {}) {
    double v = 0;
    std::string unit;
    if (!number_after(s, key, v, &unit)) return false;
    sink.number(name, v, unit, std::move(detail));
    return true;
}

/// Name suffix for a size printed in `unit` ("MiB" -> "_mib", old builds' "MB" meant MiB too).
std::string sized(const char* base, const std::string& unit) {
    std::string name(base);
    if (unit == "GiB") return name + "_gib";
    if (unit == "KiB") return name + "_kib";
    return name + "_mib";
}

bool take_size(std::string_view s, std::string_view key, const char* base, Sink& sink, std::string detail = {}) {
    double v = 0;
    std::string unit;
    if (!number_after(s, key, v, &unit)) return false;
    sink.number(sized(base, unit), v, unit, std::move(detail));
    return true;
}

}  // namespace

LineResult read_llama_cpp_line(std::string_view s, Sink& sink) {
    LineResult r;
    const auto known = [&] {
        r.matched = true;
        r.known = true;
        return r;
    };
    if (has(s, "llama_model_loader: loaded meta data with")) {
        sink.run_start();
        take(s, "loaded meta data with", "gguf_kv_pairs", sink);
        take(s, "pairs and", "n_tensors", sink);
        return known();
    }
    // "build: 4893 (70ef6530f) with cc ... for x86_64-linux-gnu", build 1062's "main: build = 1062 (5439a0a)"
    const std::size_t build_at = has(s, "build: ") ? s.find("build: ") : s.find("build = ");
    if (build_at != std::string_view::npos && build_at < 40 && has(s, "(")) {
        const std::size_t at = build_at + 7 + (s[build_at + 5] == ' ' ? 1 : 0);
        std::size_t end = at;
        while (end < s.size() && s[end] >= '0' && s[end] <= '9') ++end;
        if (end > at) {
            sink.version("b" + std::string(s.substr(at, end - at)));
            r.matched = true;
        }
        return r;
    }
    // "llama_model_loader: - type q4_K:  193 tensors"
    if (has(s, "llama_model_loader: - type ")) {
        const std::size_t at = s.find("- type ") + 7;
        std::size_t colon = s.find(':', at);
        if (colon == std::string_view::npos) return known();
        std::string type(s.substr(at, colon - at));
        while (!type.empty() && type.front() == ' ') type.erase(0, 1);
        take(s.substr(colon), ":", "tensors_of_type", sink, type);
        return known();
    }
    // "print_info: file size   = 1.66 GiB (5.14 BPW)", older "llm_load_print_meta: model size = 4.33 GiB (4.64 BPW)";
    // build 1062's "model size = 6.74 B" is the parameter count.
    if ((has(s, "print_info: file size") || has(s, "llm_load_print_meta: model size")) && has(s, "=")) {
        double v = 0;
        std::string unit;
        std::size_t end = 0;
        if (number_after(s, "=", v, &unit, &end)) {
            if (unit == "B" || unit == "M" || unit == "K") {
                sink.number(unit == "B" ? "model_params_b" : "model_params_m", v, unit);
            } else {
                sink.number(sized("file_size", unit), v, unit);
                take(s.substr(end), "(", "bits_per_weight", sink);
            }
        }
        return known();
    }
    if (has(s, "model params") && has(s, "=")) {
        double v = 0;
        std::string unit;
        if (number_after(s, "=", v, &unit)) sink.number(unit == "M" ? "model_params_m" : "model_params_b", v, unit);
        return known();
    }
    // "load_tensors: offloaded 33/33 layers to GPU"
    if (has(s, "offloaded ") && has(s, " layers to GPU")) {
        double n = 0, m = 0;
        std::size_t pos = s.find("offloaded ") + 10;
        if (scan_number(s, pos, n)) {
            sink.number("n_layers_offloaded", n, "layers");
            if (pos < s.size() && s[pos] == '/') {
                ++pos;
                if (scan_number(s, pos, m)) sink.number("n_layers", m, "layers");
            }
        }
        return known();
    }
    // "llama_model_load_from_file_impl: using device Vulkan0 (Apple M2 Pro) - 7789 MiB free"
    if (has(s, "using device ") && has(s, " MiB free")) {
        const std::size_t at = s.find("using device ") + 13;
        const std::size_t dash = s.rfind(" - ");
        if (dash != std::string_view::npos && dash > at) {
            double v = 0;
            std::size_t pos = dash + 3;
            if (scan_number(s, pos, v)) sink.number("device_free_mib", v, scan_unit(s, pos),
                                                    std::string(s.substr(at, s.find(' ', at) - at)));
        }
        return known();
    }
    // iSWA models: "llama_kv_cache_unified_iswa: creating non-SWA KV cache, size = 4096 cells", then "... SWA ..."
    if (has(s, "SWA KV cache, size =")) {
        take(s, "size =", has(s, "non-SWA") ? "kv_cells_non_swa" : "kv_cells_swa", sink);
        return known();
    }
    if (has(s, "output buffer size")) {
        take_size(s, "output buffer size", "output_buffer_size", sink, word_before(s, s.find("output buffer size")));
        return known();
    }
    if (has(s, "model buffer size")) {
        take_size(s, "model buffer size", "model_buffer_size", sink, word_before(s, s.find("model buffer size")));
        return known();
    }
    if (has(s, "KV buffer size")) {
        take_size(s, "KV buffer size", "kv_buffer_size", sink, word_before(s, s.find("KV buffer size")));
        return known();
    }
    if (has(s, "compute buffer size") || has(s, "compute buffer total size")) {
        const char* key = has(s, "compute buffer size") ? "compute buffer size" : "compute buffer total size";
        take_size(s, key, "compute_buffer_size", sink, has(s, "total size") ? "total" : word_before(s, s.find(key)));
        return known();
    }
    // "llama_context: KV self size  =  640.00 MiB, K (f16):  320.00 MiB, V (f16):  320.00 MiB";
    // 2025 builds: "llama_kv_cache: size = 96.00 MiB (4096 cells, 12 layers, 1/1 seqs), K (f16): 48.00 MiB, ...".
    if (has(s, "KV self size") || has(s, "kv self size") || (has(s, "llama_kv_cache") && has(s, ": size = "))) {
        const char* key = has(s, "KV self size") ? "KV self size" : has(s, "kv self size") ? "kv self size" : ": size = ";
        take_size(s, key, "kv_self_size", sink);
        take(s, "MiB (", "kv_cells", sink);
        take(s, "cells,", "kv_layers", sink);
        const std::size_t k = s.find(", K (");
        if (k != std::string_view::npos) take_size(s.substr(k), "):", "k_size", sink, paren_after(s, k));
        const std::size_t v = s.find(", V (");
        if (v != std::string_view::npos) take_size(s.substr(v), "):", "v_size", sink, paren_after(s, v));
        return known();
    }
    // "init: kv_size = 2048, offload = 1, type_k = 'f16', type_v = 'f16', n_layer = 32, can_shift = 1" and the
    // unified / iswa cache's "kv_size = ..." lines.
    if (has(s, "kv_size = ") || (has(s, "type_k = '") && has(s, "n_layer"))) {
        take(s, "kv_size =", "kv_size", sink);
        take(s, "n_layer =", "kv_n_layer", sink);
        take(s, "n_seq_max =", "n_seq_max", sink);
        take(s, "n_pad =", "n_pad", sink);
        const std::string tk = quoted_after(s, "type_k");
        const std::string tv = quoted_after(s, "type_v");
        if (!tk.empty()) sink.word("type_k", tk);
        if (!tv.empty()) sink.word("type_v", tv);
        return known();
    }
    // "llama_context: n_ctx = 4096", "n_seq_max = 2", "n_ubatch = 512", "llm_load_print_meta: n_ctx = 2048", ...
    for (const char* key : {"n_ctx_per_seq", "n_ctx_seq", "n_ctx_train", "n_ctx", "n_seq_max", "n_batch", "n_ubatch",
                            "n_swa", "n_layer", "n_head_kv", "n_embd_head_k", "n_embd_k_gqa", "n_embd_v_gqa", "n_expert_used",
                            "n_expert", "causal_attn", "flash_attn", "kv_unified", "offload_kqv"}) {
        const std::size_t at = s.find(std::string(": ") + key);
        if (at == std::string_view::npos) continue;
        const std::size_t after = at + 2 + std::string_view(key).size();
        if (after < s.size() && s[after] != ' ' && s[after] != '=') continue;  // a longer key
        const std::size_t eq = s.find_first_not_of(' ', after);
        if (eq == std::string_view::npos || s[eq] != '=') continue;  // "n_ctx_per_seq (4096) < n_ctx_train ..."
        double v = 0;
        if (number_after(s.substr(after), "=", v)) {
            sink.number(key, v, key[0] == 'n' && (key[2] == 'c') ? "tokens" : "");
        } else if (has(s.substr(after), "=")) {
            std::string_view rest = s.substr(s.find('=', after) + 1);
            while (!rest.empty() && rest.front() == ' ') rest.remove_prefix(1);
            sink.word(key, std::string(rest.substr(0, rest.find(' '))));
            r.matched = true;
            return r;
        }
        return known();
    }
    // Builds of 2023: "mem required  =   70.40 MB (+  256.00 MB per state)", "VRAM used: 4077 MB",
    // "VRAM scratch buffer: 70.50 MB".
    if (has(s, "mem required")) {
        take_size(s, "mem required", "mem_required", sink);
        take_size(s, "(+", "kv_per_state", sink);
        return known();
    }
    if (has(s, "VRAM used:")) {
        take_size(s, "VRAM used:", "vram_used", sink);
        return known();
    }
    if (has(s, "VRAM scratch buffer:")) {
        take_size(s, "VRAM scratch buffer:", "vram_scratch_buffer", sink);
        return known();
    }
    return r;
}

}  // namespace kvcalc::startup_log

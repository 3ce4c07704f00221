// llama.cpp's model and KV buffers per device (llama-model.cpp load_tensors, llama-model-loader.cpp, the KV cache
// constructors), from the GGUF tensor infos.
#include "kvcalc/engines/llama_cpp_buffers.h"

#include <algorithm>
#include <cstdio>
#include <limits>

#include "kvcalc/base/checked_math.h"

namespace kvcalc {

namespace {

constexpr double kMiB = 1024.0 * 1024.0;

/// Which part of the model a tensor belongs to, by its GGUF name (llama-arch.cpp LLM_TENSOR_NAMES).
struct Role {
    enum Kind { input, layer, output } kind = output;
    int layer_index = -1;
    bool expert = false;  ///< ffn_{up,down,gate,gate_up}_exps: what --n-cpu-moe moves
};

Role role_of(const std::string& name) {
    Role r;
    for (const char* in : {"token_embd.", "token_types.", "position_embd.", "token_embd_norm."})
        if (name.rfind(in, 0) == 0) {
            r.kind = Role::input;
            return r;
        }
    if (name.rfind("blk.", 0) == 0) {
        const std::size_t dot = name.find('.', 4);
        if (dot != std::string::npos && dot > 4 && dot - 4 <= 6) {
            int i = 0;
            bool digits = true;
            for (std::size_t k = 4; k < dot; ++k) {
                if (name[k] < '0' || name[k] > '9') digits = false;
                else i = i * 10 + (name[k] - '0');
            }
            if (digits) {
                r.kind = Role::layer;
                r.layer_index = i;
                for (const char* e : {"ffn_up_exps", "ffn_down_exps", "ffn_gate_exps", "ffn_gate_up_exps"})
                    if (name.compare(dot + 1, std::string(e).size(), e) == 0) r.expert = true;
                return r;
            }
        }
    }
    return r;  // output, output_norm, rope_freqs, cls.*: the output layer's device
}

std::int64_t align_up(std::int64_t x, std::int64_t a) { return a <= 1 ? x : sat_add(x, a - 1) / a * a; }

/// A GPU tensor's allocation: its bytes, plus one padding row for a quantized tensor whose rows do not fill whole
/// 512-element blocks on CUDA/ROCm, aligned to the buffer's alignment.
std::int64_t gpu_alloc_bytes(const GgufTensorInfo& t, const LlamaCppPlacement& p) {
    std::int64_t bytes = t.bytes;
    const GgmlType* type = find_ggml_type(t.ggml_type);
    if (p.gpu_pads_quantized_rows && type && type->block_size > 1 && !t.ne.empty() && t.ne[0] % 512 != 0) {
        const std::int64_t pad_elems = 512 - t.ne[0] % 512;
        bytes = sat_add(bytes, pad_elems / type->block_size * type->type_size);
    }
    return align_up(bytes, p.gpu_alignment);
}

/// The host buffer type's name beside a GPU backend (ggml-cuda.cu "CUDA_Host", ggml-vulkan.cpp "Vulkan_Host"; Metal
/// shares memory and uses the CPU's, "CPU").
std::string host_device(const std::string& gpu) {
    std::string base = gpu;
    while (!base.empty() && base.back() >= '0' && base.back() <= '9') base.pop_back();
    if (base == "Metal" || base.empty()) return "CPU";
    return base + "_Host";
}

std::string line(const char* prefix, const std::string& device, int width, const char* what, std::int64_t bytes) {
    char buf[160];
    std::snprintf(buf, sizeof buf, "%s: %*s %s buffer size = %8.2f MiB", prefix, width, device.c_str(), what,
                  static_cast<double>(bytes) / kMiB);
    return buf;
}

/// The KV cache of the layers in [from, to) of the model, as predict_llama_cpp_kv prices it.
std::int64_t kv_of_layers(const ModelSpec& m, const LlamaCppSettings& kv, int from, int to, Diagnostics& d) {
    if (from >= to) return 0;
    ModelSpec part = m;
    part.layers.assign(m.layers.begin() + from, m.layers.begin() + to);
    part.parallel_caches.clear();
    if (!m.parallel_caches.empty())
        part.parallel_caches.assign(m.parallel_caches.begin() + std::min<std::size_t>(from, m.parallel_caches.size()),
                                    m.parallel_caches.begin() + std::min<std::size_t>(to, m.parallel_caches.size()));
    const LlamaCppKvPrediction p = predict_llama_cpp_kv(part, kv);
    for (const auto& x : p.diagnostics)
        if (x.severity == Severity::error) d.push_back(x);
    return p.total_bytes;
}

}  // namespace

LlamaCppBuffers predict_llama_cpp_buffers(const std::vector<GgufHeader>& parts, const ModelSpec& m,
                                          const LlamaCppSettings& kv, const LlamaCppPlacement& pl) {
    LlamaCppBuffers b;
    std::size_t tensors = 0;
    for (const auto& h : parts) tensors += h.tensors.size();
    if (tensors == 0) {
        b.diagnostics.push_back({Severity::error, "gguf_no_tensors", "gguf",
                                 "the GGUF lists no tensors (a vocab-only file): llama.cpp's model buffers cannot be "
                                 "predicted without them"});
        return b;
    }
    if (pl.n_gpu_layers < -1 || pl.n_cpu_moe < 0) {
        b.diagnostics.push_back({Severity::error, "bad_setting", pl.n_cpu_moe < 0 ? "n_cpu_moe" : "n_gpu_layers",
                                 "n_gpu_layers must be -1 (all) or a layer count ≥ 0, n_cpu_moe a layer count ≥ 0"});
        return b;
    }
    const int n_layer = static_cast<int>(m.layers.size());
    const int ngl = pl.n_gpu_layers < 0 ? n_layer + 1 : std::min(pl.n_gpu_layers, n_layer + 1);
    const int i_gpu_start = std::max(n_layer - ngl, 0);
    const bool output_on_gpu = ngl > n_layer;
    b.total_layers = n_layer + 1;
    b.offloaded_layers = ngl;

    auto on_gpu = [&](const Role& r) {
        if (r.kind == Role::input) return false;
        if (r.kind == Role::output) return output_on_gpu;
        if (r.expert && r.layer_index < pl.n_cpu_moe) return false;
        return r.layer_index >= i_gpu_start;
    };

    bool has_output_weight = false;
    bool has_fused_qkv = false;  ///< blk.N.attn_qkv.weight: Q, K, V are views of one product
    bool has_position_embd = false;  ///< learned absolute positions: a second get_rows on the CPU
    const GgufTensorInfo* token_embd = nullptr;
    // The CPU-held output matrix: what the scheduler copies to the GPU for a large batch (its norm weights are not
    // copied: the Pythia -ngl 10 logs print 203.99 MiB = the q6_K matrix 100.74 + logits 98.25 + 5.00).
    std::int64_t cpu_output_matrix_bytes = 0;
    for (const auto& h : parts) {
        // With mmap the CPU tensors of this part are one mapped range: first CPU tensor to the end of the last.
        std::uint64_t first = std::numeric_limits<std::uint64_t>::max(), last = 0;
        std::int64_t cpu_sum = 0;
        for (const auto& t : h.tensors) {
            if (t.name == "output.weight") has_output_weight = true;
            if (t.name.size() > 16 && t.name.compare(t.name.size() - 16, 16, ".attn_qkv.weight") == 0) has_fused_qkv = true;
            if (t.name == "token_embd.weight") token_embd = &t;
            if (t.name == "position_embd.weight") has_position_embd = true;
            const Role r = role_of(t.name);
            if (on_gpu(r)) {
                b.gpu_model_bytes = sat_add(b.gpu_model_bytes, gpu_alloc_bytes(t, pl));
            } else {
                if (t.name == "output.weight") cpu_output_matrix_bytes = sat_add(cpu_output_matrix_bytes, t.bytes);
                first = std::min<std::uint64_t>(first, t.offset);
                last = std::max<std::uint64_t>(last, t.offset + static_cast<std::uint64_t>(t.bytes));
                cpu_sum = sat_add(cpu_sum, t.bytes);
            }
        }
        if (cpu_sum > 0)
            b.cpu_model_bytes = sat_add(b.cpu_model_bytes, pl.mmap ? static_cast<std::int64_t>(last - first) : cpu_sum);
    }
    // Tied embeddings: llama.cpp loads token_embd a second time as the output matrix, on the output's device.
    if (!has_output_weight && token_embd && !gguf_arch_is_encoder(m.model_type)) {
        if (output_on_gpu) b.gpu_model_bytes = sat_add(b.gpu_model_bytes, gpu_alloc_bytes(*token_embd, pl));
        else cpu_output_matrix_bytes = sat_add(cpu_output_matrix_bytes, token_embd->bytes);  // the CPU output matrix
        b.notes.push_back("no output.weight: the output layer reuses token_embd, loaded again on the output "
                          "layer's device (llama-model.cpp TENSOR_DUPLICATED)");
    }

    b.gpu_kv_bytes = kv_of_layers(m, kv, i_gpu_start, n_layer, b.diagnostics);
    b.cpu_kv_bytes = kv_of_layers(m, kv, 0, std::min(i_gpu_start, n_layer), b.diagnostics);
    if (has_error(b.diagnostics)) return b;

    const std::string cpu_model = pl.mmap ? "CPU_Mapped" : "CPU";
    if (b.gpu_model_bytes > 0)
        b.lines.push_back({pl.gpu_name, "model", b.gpu_model_bytes,
                           line("load_tensors", pl.gpu_name, 12, "model", b.gpu_model_bytes)});
    if (b.cpu_model_bytes > 0)
        b.lines.push_back({cpu_model, "model", b.cpu_model_bytes,
                           line("load_tensors", cpu_model, 12, "model", b.cpu_model_bytes)});
    if (b.gpu_kv_bytes > 0)
        b.lines.push_back({pl.gpu_name, "KV", b.gpu_kv_bytes, line("llama_kv_cache", pl.gpu_name, 10, "KV", b.gpu_kv_bytes)});
    if (b.cpu_kv_bytes > 0)
        b.lines.push_back({"CPU", "KV", b.cpu_kv_bytes, line("llama_kv_cache", "CPU", 10, "KV", b.cpu_kv_bytes)});
    // ggml-backend.cpp offloads a product of CPU-held weights to the GPU for a batch of 32 tokens or more, so a GPU
    // build reserves a compute buffer there even at -ngl 0.
    const bool op_offload = llama_cpp_effective_ubatch(kv) >= 32;
    if (b.gpu_model_bytes > 0 || op_offload) {
        LlamaCppComputeShape& g = b.gpu_compute_shape;
        g = llama_cpp_compute_shape(m, kv, output_on_gpu || op_offload);
        g.fused_qkv = has_fused_qkv;
        g.input_row_tensors = has_position_embd ? 2 : 1;
        // With no repeating layer on the GPU the attention (its KV cache on the CPU) is not offloaded.
        if (i_gpu_start >= n_layer) g.n_head = 0;
        if (op_offload && !output_on_gpu) g.output_copy_bytes = cpu_output_matrix_bytes;
        b.gpu_compute = llama_cpp_compute_band(g);
        b.lines.push_back({pl.gpu_name, "compute", b.gpu_compute.upper_bytes,
                           line("llama_context", pl.gpu_name, 10, "compute", b.gpu_compute.bytes),
                           b.gpu_compute.bytes});
        // The host buffer holds only the graph's inputs when nothing else runs on the CPU (the logs with CPU layers or
        // experts print more: their activations, not modelled).
        if (i_gpu_start == 0 && output_on_gpu && pl.n_cpu_moe == 0) {
            const std::string host = host_device(pl.gpu_name);
            b.lines.push_back({host, "compute", b.gpu_compute.host_bytes,
                               line("llama_context", host, 10, "compute", b.gpu_compute.host_bytes),
                               b.gpu_compute.host_bytes});
        }
        b.notes.push_back("the compute buffer is the peak of live tensors in the graph llama.cpp reserves for "
                          "min(n_ctx, -b 2048, n_ubatch) tokens; ggml-alloc's placement can add up to one hidden "
                          "state (n_embd x n_ubatch x 4 B) of fragmentation, which the fit counts");
    }
    return b;
}

std::string llama_cpp_command_with_placement(std::string command, const LlamaCppPlacement& pl) {
    const std::string all = "-ngl 999";
    const std::size_t at = command.find(all);
    if (at == std::string::npos) return command;
    std::string flags = pl.n_gpu_layers >= 0 ? "-ngl " + std::to_string(pl.n_gpu_layers) : all;
    if (pl.n_cpu_moe > 0) flags += " \\\n  --n-cpu-moe " + std::to_string(pl.n_cpu_moe);
    return command.replace(at, all.size(), flags);
}

}  // namespace kvcalc

// llama.cpp's start-up buffers per device, predicted from a GGUF header: where load_tensors puts each tensor
// (-ngl, --n-cpu-moe) and the model / KV buffer lines it prints. docs/GGUF.md "Start-up buffers" has the rules.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "kvcalc/base/diagnostic.h"
#include "kvcalc/base/model_spec.h"
#include "kvcalc/config/gguf.h"
#include "kvcalc/engines/engine_rules.h"

namespace kvcalc {

/// How the run places the model (llama.cpp common/arg.cpp flags).
struct LlamaCppPlacement {
    /// -ngl: repeating layers on the GPU, counted from the last; n_layer + 1 or more also offloads the output
    /// layer. -1 = all (llama.cpp's default when the flag is not given, common.h n_gpu_layers -1 → all).
    int n_gpu_layers = -1;
    /// --n-cpu-moe N: the expert tensors (ffn_{up,down,gate,gate_up}_exps) of layers 0..N−1 stay on the CPU.
    int n_cpu_moe = 0;
    std::string gpu_name = "CUDA0";  ///< the backend's device name as the log prints it (CUDA0, ROCm0, Vulkan0, Metal)
    /// Bytes each GPU tensor is aligned to in its buffer (ggml_backend_buft_get_alignment: CUDA 128).
    std::int64_t gpu_alignment = 128;
    /// CUDA and ROCm pad a quantized tensor by one row of MATRIX_ROW_PADDING (512) elements when its rows are not
    /// a multiple of it (ggml-cuda.cu ggml_backend_cuda_buffer_type_get_alloc_size). false for Vulkan / Metal.
    bool gpu_pads_quantized_rows = true;
    bool mmap = true;                ///< --no-mmap: the CPU tensors are read into a "CPU" buffer, not mapped
};

/// One start-up line: "<device> model buffer size = X MiB", "<device> KV buffer size = X MiB".
struct LlamaCppBufferLine {
    std::string device;   ///< "CUDA0", "CPU_Mapped", "CPU"
    std::string kind;     ///< "model", "KV"
    std::int64_t bytes = 0;
    std::string log_line; ///< the line as llama.cpp prints it ("load_tensors:        CUDA0 model buffer size = …")
};

/// What load_tensors and the KV cache allocate, per device.
struct LlamaCppBuffers {
    int offloaded_layers = 0;   ///< "offloaded N/M layers to GPU": N
    int total_layers = 0;       ///< M = n_layer + 1 (the output layer counts)
    std::int64_t gpu_model_bytes = 0, cpu_model_bytes = 0;
    std::int64_t gpu_kv_bytes = 0, cpu_kv_bytes = 0;
    std::vector<LlamaCppBufferLine> lines;  ///< in the log's order
    std::vector<std::string> notes;
    Diagnostics diagnostics;                ///< errors: nothing above is usable
};

/// Predicts llama.cpp's model and KV buffers per device for a GGUF model (every part of a split file, in order of
/// split.no) and its ModelSpec (read_gguf_model). Placement (src/llama-model.cpp load_tensors): the input layer
/// (token_embd, position_embd, token_types, token_embd_norm) always stays on the CPU; repeating layer i is on the
/// GPU when i ≥ n_layer − n_gpu_layers; the output layer (output, output_norm) when n_gpu_layers > n_layer, and a
/// model without output.weight then puts a copy of token_embd there (TENSOR_DUPLICATED). --n-cpu-moe moves the
/// first layers' experts to the CPU. A GPU buffer is the sum of its tensors' allocation sizes; with mmap the
/// CPU_Mapped buffer is the file range from the first to the end of the last CPU tensor of each part
/// (llama-model-loader.cpp get_mapping_range). KV (llama-kv-cache.cpp): each layer's cache lives with its layer.
/// Errors: a header with no tensors, n_gpu_layers below −1, n_cpu_moe negative.
LlamaCppBuffers predict_llama_cpp_buffers(const std::vector<GgufHeader>& parts, const ModelSpec& model,
                                          const LlamaCppSettings& kv, const LlamaCppPlacement& placement);

}  // namespace kvcalc

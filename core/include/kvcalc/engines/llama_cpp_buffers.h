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

/// What the compute buffer of one device is sized from: the worst-case graph llama.cpp reserves at start
/// (src/llama-context.cpp, the constructor's "reserve worst-case graph": graph_reserve(n_tokens, n_seqs, n_tokens)
/// with n_tokens = min(n_ctx, -b 2048, n_ubatch), every token an output, over a full KV cache, memory->init_full()), whose
/// tensors ggml-alloc places in one buffer per backend (ggml/src/ggml-alloc.c ggml_gallocr_reserve_n, reached
/// through ggml-backend.cpp ggml_backend_sched_reserve).
struct LlamaCppComputeShape {
    std::int64_t n_tokens = 0;   ///< min(n_ctx, -b 2048, n_ubatch): the ubatch of the reserved graph
    std::int64_t n_kv = 0;       ///< cells the widest attention reads: the non-SWA cache's (else the SWA cache's) per stream
    std::int64_t n_kv_swa = 0;   ///< the SWA cache's cells per stream when the model has both caches (a second mask), else 0
    std::int64_t n_embd = 0;     ///< hidden width (print_info n_embd)
    std::int64_t n_head = 0;     ///< query heads (print_info n_head); 0 when no attention layer runs on this device
    std::int64_t n_embd_q = 0;   ///< n_head × n_embd_head_k: the Q projection's width
    std::int64_t n_embd_k = 0;   ///< n_embd_k_gqa: the K projection's width
    std::int64_t n_embd_v = 0;   ///< n_embd_v_gqa: the V projection's width
    std::int64_t n_vocab = 0;    ///< output rows (print_info n_vocab); 0 when the device computes no logits
    std::int64_t n_ff = 0;       ///< widest feed-forward activation per token (dense n_ff, or n_ff_exp × n_expert_used)
    bool encoder = false;        ///< BERT-like: no rope, no KV cache (V is transposed in the graph, ggml_cont)
    /// Q, K and V come from one attn_qkv matrix (gptneox, falcon, phi2, bloom, mpt, gpt2, …) as views of one
    /// tensor, not three attn_q / attn_k / attn_v products.
    bool fused_qkv = false;
    /// Rows the input layer gathers per token on the CPU (get_rows of token_embd, plus position_embd for an
    /// architecture with learned absolute positions, BERT): each an n_embd × n_tokens f32 tensor in the host buffer.
    int input_row_tensors = 1;
    bool flash_attn = true;      ///< -fa: no n_kv × n_tokens × n_head score matrix is materialized
    /// The output matrix the scheduler copies to this device when the output layer stays on the CPU and the batch
    /// has 32 tokens or more (ggml-backend.cpp ggml_backend_sched_split_graph with op_offload; the logits are then
    /// made on this device too). Repeating layers' CPU-held weights are not copied: three real logs with layers or
    /// experts on the CPU (Pythia -ngl 10, gpt-oss --n-cpu-moe 14, Qwen3 -ot …exps=CPU) print none of them.
    std::int64_t output_copy_bytes = 0;
};

/// "<device> compute buffer size" as a point and the fragmentation two real logs show above it.
struct LlamaCppComputeBand {
    std::int64_t bytes = 0;        ///< the peak of live tensors: the prediction (llama_cpp_compute_band has the rule)
    std::int64_t lower_bytes = 0;  ///< = bytes
    /// bytes + one hidden state (n_embd × n_tokens × 4): ggml-alloc's best-fit placement can leave a hole below the
    /// last hidden state that the logits do not fit in (Qwen3-30B-A3B, b6895: +3.75 MiB; gpt-oss-20b Metal: +5.63).
    std::int64_t upper_bytes = 0;
    /// The host compute buffer ("CUDA_Host compute buffer size") when every layer runs on the GPU: the graph's
    /// inputs, made on the CPU and copied over — the input layer's rows (input_row_tensors × h), each mask as f32
    /// (the input is f32; flash attention casts a copy to f16 on the GPU) and the token / position / output-id
    /// vectors (3 × n_tokens × 4 B). 9.01 MiB for Pythia, 2.51 for bge-small, 168.01 for Llama 3.1 8B at 81920 cells.
    std::int64_t host_bytes = 0;
};

/// The shape of the graph llama.cpp reserves for `model` at `settings` (-c, -np, -ub, -fa): n_tokens =
/// min(n_ctx, -b 2048, n_ubatch); n_kv = the non-SWA cache's cells per stream (predict_llama_cpp_kv), else the SWA
/// cache's, else n_tokens (an encoder attends over its own batch); n_vocab only when `logits_here` (the output layer,
/// or its op-offloaded product, runs on this device) and the model is not an encoder; fused_qkv from the architecture
/// (llama-arch.cpp's LLM_TENSOR_ATTN_QKV-only archs; predict_llama_cpp_buffers reads it from the tensors). output_copy_bytes is left 0.
LlamaCppComputeShape llama_cpp_compute_shape(const ModelSpec& model, const LlamaCppSettings& settings,
                                             bool logits_here);

/// The compute buffer of one device: the largest set of tensors alive at once in the reserved graph, the way
/// ggml-alloc frees a tensor after its last consumer ran and lets an op write over its parent (ggml-alloc.c
/// ggml_gallocr_allocate_node / ggml_op_can_inplace). Every activation is f32 (4 B); a mask is
/// n_kv × n_tokens padded to 64 (GGML_KQ_MASK_PAD), f16 with flash attention and f32 without, one per cache type, an
/// input alive through every layer. h = n_embd × n_tokens × 4. bytes = the largest of:
///   attention  masks + h (the residual) + Q + K + V (n_embd_q + n_embd_k + n_embd_v) × n_tokens × 4, plus their
///              copies: the roped Q and K for fused_qkv (views of one matrix: rope cannot write over them), Q + K + V
///              for three separate products, the transposed V for an encoder; plus the scores n_kv × n_tokens ×
///              n_head × 4 without flash attention (soft_max runs in place on them) or the attention output
///              n_embd_q × n_tokens × 4 with it;
///   feed-forward  masks + 2 h + 3 × n_ff × n_tokens × 4 (gate, up, their product);
///   output     output_copy + the logits n_vocab × n_tokens × 4 + h (the normed hidden state the logits come from).
/// upper_bytes adds h; host_bytes is the host buffer's inputs (LlamaCppComputeBand). Checked against every real log in tests/data/gguf/logs
/// (docs/GGUF.md "Compute buffers").
LlamaCppComputeBand llama_cpp_compute_band(const LlamaCppComputeShape& shape);

/// One start-up line: "<device> model buffer size = X MiB", "<device> KV buffer size = X MiB".
struct LlamaCppBufferLine {
    std::string device;   ///< "CUDA0", "CPU_Mapped", "CPU"
    std::string kind;     ///< "model", "KV", "compute"
    std::int64_t bytes = 0;          ///< for "compute": the upper bound (the point + the fragmentation allowance)
    std::string log_line; ///< the line as llama.cpp prints it ("load_tensors:        CUDA0 model buffer size = …")
    std::int64_t lower_bytes = 0;  ///< for "compute": the point prediction, the size the log_line prints
};

/// What load_tensors and the KV cache allocate, per device.
struct LlamaCppBuffers {
    int offloaded_layers = 0;   ///< "offloaded N/M layers to GPU": N
    int total_layers = 0;       ///< M = n_layer + 1 (the output layer counts)
    std::int64_t gpu_model_bytes = 0, cpu_model_bytes = 0;
    std::int64_t gpu_kv_bytes = 0, cpu_kv_bytes = 0;
    LlamaCppComputeShape gpu_compute_shape;  ///< what the GPU's compute buffer is sized from
    LlamaCppComputeBand gpu_compute;         ///< "<gpu> compute buffer size" (0 when the device computes nothing)
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
/// Compute: the GPU's from llama_cpp_compute_band (logits there when the output layer is, or when it stays on the
/// CPU and a batch of 32+ tokens makes the scheduler offload its product, with a copy of the output matrix); with
/// every layer and expert on the GPU also the host's ("CUDA_Host", "Vulkan_Host", "CPU" beside Metal).
/// Errors: a header with no tensors, n_gpu_layers below −1, n_cpu_moe negative.
LlamaCppBuffers predict_llama_cpp_buffers(const std::vector<GgufHeader>& parts, const ModelSpec& model,
                                          const LlamaCppSettings& kv, const LlamaCppPlacement& placement);

/// The llama-server command (Report::command, engines/llama_cpp/deploy.cpp) with the run's placement: its
/// "-ngl 999" (every layer, kvcalc's default) becomes "-ngl N" when n_gpu_layers ≥ 0, followed by "--n-cpu-moe K"
/// when n_cpu_moe > 0 (common/arg.cpp spellings). A command without "-ngl 999" is returned unchanged.
std::string llama_cpp_command_with_placement(std::string command, const LlamaCppPlacement& placement);

}  // namespace kvcalc

namespace kvcalc {

/// What llama.cpp's own fit (common/fit.cpp common_params_fit_impl, `--fit on`) is given for one GPU.
struct LlamaCppFitRequest {
    std::int64_t free_bytes = 0;            ///< the device's free memory (ggml_backend_dev_memory)
    std::int64_t margin_bytes = 1024LL << 20;  ///< --fit-target: memory to leave free (default 1024 MiB)
    std::int64_t n_ctx_min = 4096;          ///< --fit-ctx: the smallest context per stream it may reduce to
    bool n_ctx_auto = true;                 ///< -c not given (0): the fit may pick the context
};

/// The fit's choice and the buffers it leads to.
struct LlamaCppFit {
    bool fits = false;          ///< false: not even 0 layers at the smallest context leave the margin free
    std::int64_t n_ctx = 0;     ///< -c chosen (all streams)
    int n_gpu_layers = -1;      ///< -ngl chosen (-1 = all)
    int n_cpu_moe = 0;          ///< --n-cpu-moe chosen (experts of the first layers kept on the CPU)
    std::int64_t used_bytes = 0;  ///< GPU model + KV + the compute band's upper bound at that choice
    LlamaCppBuffers buffers;    ///< predict_llama_cpp_buffers at that choice
    std::string arguments;      ///< "-c N -ngl M [--n-cpu-moe K]", the flags that reproduce the choice
    std::vector<std::string> notes;
    Diagnostics diagnostics;
};

/// Emulates llama.cpp's fit for one GPU (common/fit.cpp): a device's use is its model, KV and compute buffers
/// (the compute buffer's upper bound: the point plus one hidden state of ggml-alloc fragmentation);
/// the target is free − margin. 1. If everything fits at the requested context, nothing changes. 2. With the context
/// not set (-c 0 → n_ctx_train per stream), the context is cut: interpolated linearly between n_ctx_min and
/// n_ctx_train by memory, rounded down to a multiple of 256 × streams; if that fits, done. 3. Otherwise, at the
/// smallest context, layers are filled from the back: for a dense model the largest -ngl that fits; for a MoE model
/// (experts present) all n_layer repeating layers on the GPU, the output layer on the CPU (-ngl n_layer, as build
/// 6895's fit chose on the Qwen3-30B-A3B log), with the fewest first layers' experts on the CPU (--n-cpu-moe) that
/// fit, else the largest -ngl with every expert on the CPU. `settings.n_ctx` is the context to start from when
/// !n_ctx_auto. Errors: those of predict_llama_cpp_buffers, free_bytes ≤ 0.
LlamaCppFit fit_llama_cpp(const std::vector<GgufHeader>& parts, const ModelSpec& model, const LlamaCppSettings& settings,
                          const LlamaCppPlacement& placement, const LlamaCppFitRequest& request);

}  // namespace kvcalc

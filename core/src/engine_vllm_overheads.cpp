// Non-KV vLLM terms for uncalibrated models, from published start-up logs (docs/ENGINE_RULES.md §Overheads).
#include <cmath>

#include "kvcalc/engine_rules.h"

namespace kvcalc {

namespace {
constexpr double kGiB = 1073741824.0;
std::int64_t gib(double x) { return static_cast<std::int64_t>(std::llround(x * kGiB)); }
}  // namespace

UncalibratedOverheads estimate_vllm_overheads(const ModelSpec& model, const VllmSettings& s) {
    UncalibratedOverheads o;
    // Activation peak of the profiling run, vLLM v0.11 on H100 at max_num_batched_tokens 8192: Llama 3.1 8B
    // 4.76, Llama 3.3 70B 4.84, Qwen3-0.6B 5.56, Qwen3-32B 5.64, gpt-oss 7.38 GiB (real-cases.json
    // vllm-h100-*). The median 5.56 is scaled linearly with max_num_batched_tokens; MoE models add 1.8 GiB
    // (gpt-oss − median).
    const double tokens_scale = static_cast<double>(s.max_num_batched_tokens) / 8192.0;
    double act = 5.56 * tokens_scale + (model.num_experts > 0 ? 1.8 : 0.0);
    o.activation_peak_bytes = gib(act);
    // Non-torch memory: 0.13-0.14 GiB at TP=1 (H100 logs), 0.55 GiB at TP=2 (Llama 3.3 70B FP8, NCCL buffers).
    o.non_torch_bytes = gib(s.tensor_parallel_size > 1 ? 0.55 : 0.14);
    // CUDA graphs: measured −0.88 … +1.03 GiB in the same logs; 0.5 GiB (Qwen2-7B A100 log) as the estimate.
    o.cuda_graph_bytes = gib(0.5);
    o.error_band_bytes = gib(2.0);
    o.sources = {"real-cases.json vllm-h100-* (vLLM v0.11, H100): activation, non-torch, CUDA graph lines",
                 "real-cases.json vllm-qwen2-7b-a100-u025 (vLLM 0.10.1.1): CUDA graph 0.5 GiB"};
    return o;
}

}  // namespace kvcalc

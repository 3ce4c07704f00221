// Parameter count from the architecture, and weight bytes for a chosen dtype. Formula: docs/CONFIG_JSON.md.
#pragma once
#include <array>
#include <cstdint>
#include <string>
#include <string_view>

#include "kvcalc/base/diagnostic.h"
#include "kvcalc/config/hf_config.h"
#include "kvcalc/base/model_spec.h"

namespace kvcalc {

/// Parameters by part of the network (counts, not bytes). Routed experts are kept apart because quantization
/// schemes such as gpt-oss's mxfp4 apply to them only; embeddings and lm_head stay 16-bit in most checkpoints.
struct ParamBreakdown {
    /// vocab_size × hidden_size, plus a Gemma 3n / Gemma 4 E-model's per-layer inputs (per_layer_embedding)
    std::int64_t embedding = 0;
    std::int64_t lm_head = 0;         ///< vocab_size × hidden_size, 0 when tied to the embedding
    std::int64_t attention = 0;       ///< q/k/v/o (or MLA / indexer) projections, biases, q/k norms
    std::int64_t recurrent = 0;       ///< Gated DeltaNet / Mamba mixers
    std::int64_t dense_mlp = 0;       ///< gated MLPs of dense layers (3 × hidden × intermediate)
    std::int64_t routed_experts = 0;  ///< every routed expert of every MoE layer
    std::int64_t shared_experts = 0;  ///< shared experts and their gates
    std::int64_t router = 0;          ///< expert routers (hidden × experts, + bias)
    std::int64_t norms = 0;           ///< RMSNorm / LayerNorm weights
    /// Sum of all parts.
    std::int64_t total() const;
    /// Parameters touched per token: total minus the routed experts not selected (num_experts_per_tok of
    /// num_experts). Equals total() for dense models.
    std::int64_t active(const ModelSpec& spec) const;
};

/// Counts parameters of the language model described by `spec` (layer kinds) and `arch` (widths). Multimodal
/// encoders and MTP / next-token-prediction heads are not counted (published totals such as DeepSeek V3's
/// 671B exclude them too). Assumes gated (SwiGLU/GeGLU) MLPs and RMSNorm. Returns zeros for missing widths.
ParamBreakdown count_parameters(const ModelSpec& spec, const HfArchitecture& arch);

/// Parameters of a Gemma 3n / Gemma 4 E-model's per-layer inputs, 0 without `hidden_size_per_layer_input`:
/// embed_tokens_per_layer (vocab_size_per_layer_input × layers × hidden_size_per_layer_input),
/// per_layer_model_projection (hidden × layers × per-layer width) and its norm, and per layer the input gate,
/// projection and post-norm (vllm/model_executor/models/gemma3n.py Gemma3nTextModel / Gemma3nDecoderLayer, whose
/// embed_tokens_per_layer is a VocabParallelEmbedding on the GPU). Saturates instead of overflowing.
std::int64_t per_layer_embedding_params(const HfArchitecture& arch, std::int64_t hidden, std::int64_t layers);

/// The weights dtypes estimate_weights prices, "auto" first (the list the scenario field and the errors show).
inline constexpr std::array<std::string_view, 9> kWeightsDtypes = {"auto", "bf16", "fp16", "fp32", "fp8",
                                                                   "int8", "int4", "nvfp4", "mxfp4"};

/// True when `dtype` is one of kWeightsDtypes.
bool is_weights_dtype(std::string_view dtype);

/// kWeightsDtypes as "auto, bf16, …" for messages.
std::string weights_dtype_list();

/// Weight bytes for `weights_dtype` in {"bf16", "fp16", "fp32", "fp8", "int8", "int4", "nvfp4", "mxfp4",
/// "auto"}. Quantized formats apply to linear layers (attention, MLP, experts); embeddings, lm_head and norms
/// stay bf16. Group scales: int4 adds one fp16 scale per 128 weights (GPTQ/AWQ, group 128 unless
/// `arch.quant_group_size` says otherwise; bitsandbytes 4-bit: one fp32 absmax per 64, `arch.quant_scale_bytes` 4),
/// nvfp4 one fp8 scale per 16, mxfp4 one e8m0 scale per 32 (applied to
/// routed experts only, as gpt-oss ships), fp8/int8 one fp32 scale per output channel (negligible, ignored).
/// "auto" reads `arch.quant_method`/`quant_bits` (quantization_config) and falls back to `arch.torch_dtype` — with a
/// warning naming the method when quantization_config names one kvcalc has no layout for (gguf, hqq, …).
/// An unknown dtype returns 0 and an error diagnostic listing the valid names.
struct WeightsEstimate {
    double bytes = 0.0;       ///< total across all GPUs
    std::string dtype;        ///< the dtype actually priced ("auto" resolved)
    std::string basis;        ///< how it was priced, for the UI ("quantization_config: mxfp4 experts")
    Diagnostics diagnostics;
};
WeightsEstimate estimate_weights(const ParamBreakdown& params, const HfArchitecture& arch,
                                 std::string_view weights_dtype);

}  // namespace kvcalc

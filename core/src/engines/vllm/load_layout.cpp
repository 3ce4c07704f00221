// One rank's parameter tensors as vLLM allocates them, and what they cost beyond bytes / TP (vllm/accounting.h
// vllm_load_layout).
#include <algorithm>
#include <cmath>

#include "kvcalc/engines/vllm/accounting.h"
#include "kvcalc/model/layer_kinds.h"

namespace kvcalc {

namespace {

constexpr double kMiB = 1048576.0;

// The bytes PyTorch's caching allocator counts as allocated for one tensor of `bytes`
// (c10/cuda/CUDACachingAllocator.cpp): requests round up to 512 B; up to 1 MiB they share 2 MiB small-pool segments,
// 1-10 MiB ones are cut from 20 MiB segments (split, so no more than the request is held); from 10 MiB a new segment
// is the request rounded up to 2 MiB (kRoundLarge), and the rest is split off only when it exceeds 1 MiB (kSmallSize).
// vLLM allocates every parameter when it builds the model, before any weight is read, so each one takes a fresh
// segment (the freed blocks of load-time temporaries are smaller than the next large parameter, or are reused whole).
double allocated_block(double bytes) {
    if (bytes <= 0) return 0;
    const double request = std::ceil(bytes / 512.0) * 512.0;
    if (request < 10 * kMiB) return request;
    const double segment = std::ceil(request / (2 * kMiB)) * (2 * kMiB);
    return segment - request <= kMiB ? segment : request;
}
double rounding(double bytes) { return allocated_block(bytes) - bytes; }

}  // namespace

int vllm_linear_weight_bytes(std::string_view dtype) {
    if (dtype == "bf16" || dtype == "fp16" || dtype == "fp32" || dtype == "mxfp4") return 2;
    if (dtype == "fp8" || dtype == "int8") return 1;
    return 0;
}

VllmLoadLayout vllm_load_layout(const ModelSpec& m, int tensor_parallel_size) {
    VllmLoadLayout out;
    const int tp = std::clamp(tensor_parallel_size, 1, kMaxTensorParallel);
    if (m.hidden_size <= 0) return out;
    const double H = m.hidden_size, T = tp;
    const double b = m.linear_weight_bytes >= 1 && m.linear_weight_bytes <= 4 ? m.linear_weight_bytes : 0;
    double round = 0, replicated = 0;
    // Attention: QKVParallelLinear holds q heads / TP and max(1, kv / TP) K and V heads per rank in one tensor;
    // RowParallelLinear o_proj holds q heads / TP on its input side.
    if (b > 0 && m.num_attention_heads > 0) {
        for (const LayerCache& l : m.layers) {
            if (layer_mixer_weights(l) != MixerWeights::gqa_attention) continue;
            const auto kv = layer_kv_heads(l);
            if (!kv || kv->num_key_value_heads <= 0) continue;
            const int kv_tensors = layer_kv_proj_tensors(l);
            const double kv_rank = std::max(1, kv->num_key_value_heads / tp);
            const double kv_dims = kv->head_dim_k + (kv_tensors >= 2 ? kv->head_dim_v : 0);
            const double q_rank = static_cast<double>(m.num_attention_heads) / T;
            round += rounding((q_rank * kv->head_dim_k + kv_rank * kv_dims) * H * b);
            round += rounding(H * q_rank * kv->head_dim_v * b);
            replicated += std::max(0.0, kv_rank - kv->num_key_value_heads / T) * kv_dims * H * b;
        }
    }
    // MLPs: MergedColumnParallelLinear gate_up (2 × I / TP rows) and RowParallelLinear down (I / TP columns); routed
    // experts as FusedMoE's w13 [E, 2 × I_e / TP, H] and w2 [E, H, I_e / TP], one tensor each per layer.
    const double layers = m.num_hidden_layers;
    const double up_rows = m.gated_mlp ? 2.0 : 1.0;
    if (b > 0 && m.num_experts > 0) {
        const double ie = std::floor((m.moe_intermediate_size > 0 ? m.moe_intermediate_size : m.intermediate_size) / T);
        if (!m.mxfp4_experts && ie > 0)
            round += layers * (rounding(m.num_experts * up_rows * ie * H * b) + rounding(m.num_experts * H * ie * b));
    } else if (b > 0 && m.intermediate_size > 0) {
        const double i = std::floor(m.intermediate_size / T);
        round += layers * (rounding(up_rows * i * H * b) + rounding(H * i * b));
    }
    // The router (ReplicatedLinear, experts × hidden in the model dtype) is whole on every rank.
    if (m.num_experts > 0) replicated += layers * m.num_experts * H * 2.0 * (1.0 - 1.0 / T);
    // Embedding and lm_head: VocabParallelEmbedding pads the vocabulary to a multiple of 64, then splits its rows.
    if (m.vocab_size > 0) {
        const double padded = std::ceil(m.vocab_size / 64.0) * 64.0;
        const double tensors = m.tie_word_embeddings ? 1.0 : 2.0;
        round += tensors * rounding(padded / T * H * 2.0);
        out.vocab_padding_bytes = static_cast<std::int64_t>(tensors * (padded - m.vocab_size) / T * H * 2.0);
    }
    out.allocator_rounding_bytes = static_cast<std::int64_t>(std::min(round, 1e15));
    out.replicated_extra_bytes = static_cast<std::int64_t>(std::min(replicated, 1e15));
    return out;
}

}  // namespace kvcalc

// vLLM's start-up split of one worker (vllm/accounting.h): budget, weights, torch peak, non-torch, CUDA graphs.
#include "kvcalc/engines/vllm/accounting.h"
#include "kvcalc/engines/vllm/sampler.h"

#include <algorithm>
#include <cmath>
#include <variant>

#include "kvcalc/base/units.h"
#include "kvcalc/config/param_count.h"
#include "kvcalc/model/layer_kinds.h"
#include "engines/deploy_internal.h"

namespace kvcalc {

namespace {

std::int64_t gib(double x) { return static_cast<std::int64_t>(std::llround(x * static_cast<double>(kBytesPerGib))); }

// Byte counts from products of user-sized widths are formed in double and saturated far below int64's limit, so
// absurd configs price as "enormous" instead of overflowing.
std::int64_t bytes(double x) {
    constexpr double kCap = 1e17;  // 93 million GiB
    return x <= 0 ? 0 : static_cast<std::int64_t>(std::llround(std::min(x, kCap)));
}

bool at_least(VllmEra e, VllmEra from) { return static_cast<int>(e) >= static_cast<int>(from); }

// Non-torch increase during load + profile (gpu_worker.py: memory_profiling non_torch_increase, measured from the
// start-up snapshot), per rank. Values from the published logs (docs/SOURCES.md "vLLM start-up accounting", "Non-torch
// memory at TP >= 2"):
//   0.17+ at TP 1: 0.24-0.27 GiB (v0.19 H100 logs).
//   0.17+ at TP >= 2 on NVLink Hopper / Blackwell: a step of ≈ 1.8 GiB plus a slope in the ranks. Fitted on 15 v0.19
//          H100 SXM boots of jgchn/llm-d-planner d3121e0 (TP 2: 2.06-2.11 GiB, mean 2.08, 10 boots; TP 4: 2.13-2.21,
//          mean 2.17, 5 boots): kNvlinkStep + kNvlinkPerPeer × (TP − 1) = 2.08 / 2.17 / 2.35 GiB at TP 2 / 4 / 8
//          (TP 8 extrapolated: no log). The step is set up inside the profile on the parts where vLLM turns on the
//          FlashInfer all-reduce + RMSNorm fusion (config/vllm.py enable_allreduce_rms_fusion: TP > 1 on sm 90 /
//          sm 100-family); the fusion's own workspace is small (max_token_num × hidden × 2 B under
//          FI_ALLREDUCE_FUSION_MAX_SIZE_MB: 64 MiB at TP 2, 2 MiB at TP 4 on sm 90), and custom_all_reduce.py's buffers
//          are 8 MiB + meta, 8 MiB and 8 MiB of rank_data, so most of the step is NCCL's (its NVLink channel buffers,
//          NVLS on NVSwitch boards): a likely cause, not a proven one.
//   0.11-0.16: 0.13-0.14 GiB at TP 1, 0.54-0.55 GiB at TP 2 on H100 (NCCL init is outside the budget since #25359;
//          the lazily connected NVLink channel buffers stay inside).
//   V0 and 0.9-0.10: the snapshot is taken before NCCL init, so each rank's P2P buffers to its peers count. They
//          grow with the ranks and the channels the link opens: on PCIe 0.25 GiB on 2 × RTX 4090 (vllm #13061),
//          0.30 on 2 × L40S (#15815), 0.29 on two 47.5 GiB cards (#12663): 0.15 at TP 1 + 0.13 per extra rank;
//          2.10 GiB on 8 × A100 40 GB over NVLink (0.15 + 0.28 per extra rank).
//   PCIe cards from 0.11 keep the TP 1 value plus the PCIe per-rank term (guess: no PCIe log from 0.11 on).
constexpr double kV0Base = 0.15;          // GiB at TP 1 in V0 logs (0.01-0.20; vllm PRs #10511, #12126)
constexpr double kP2pPerPeerPcie = 0.13;  // GiB per extra rank, V0 PCIe TP 2 logs (#13061, #15815, #12663)
constexpr double kP2pPerPeerNvlink = 0.28;// GiB per extra rank, the V0 8 × A100 40 GB TP 8 log (2.10 GiB)
constexpr double kNvlinkStep = 2.035;     // GiB, 0.17+ NVLink Hopper/Blackwell intercept (v0.19 H100 TP 2 / 4 logs)
constexpr double kNvlinkPerPeer = 0.045;  // GiB per extra rank, same logs: (2.17 − 2.08) / 2
std::int64_t non_torch(VllmEra era, int tp, const VllmDevice& d) {
    const double peers = static_cast<double>(std::max(tp, 1) - 1);
    const double per_peer = d.nvlink ? kP2pPerPeerNvlink : kP2pPerPeerPcie;
    switch (era) {
        case VllmEra::v0: return gib(kV0Base + per_peer * peers);
        case VllmEra::v0_9: return gib(0.05 + per_peer * peers);
        case VllmEra::v0_11:
            if (tp <= 1) return gib(0.135);
            return gib(d.nvlink ? 0.55 : 0.135 + kP2pPerPeerPcie * peers);
        case VllmEra::v0_17:
        case VllmEra::v0_21: {
            if (tp <= 1) return gib(0.25);
            const bool fusion = d.nvlink && (d.sm_x10 == 90 || (d.sm_x10 >= 100 && d.sm_x10 < 110));
            if (fusion) return gib(kNvlinkStep + kNvlinkPerPeer * peers);
            return gib(d.nvlink ? 0.55 : 0.25 + kP2pPerPeerPcie * peers);
        }
    }
    return 0;
}

// CUDA-graph memory as profile_cudagraph_memory (gpu_model_runner.py) estimates it: the largest capture of each
// mode plus (graphs − 1) × the second capture. Fitted on the v0.19 H100 "Estimated CUDA graph memory" lines at
// 51 + 51 graphs: 0.235 GiB + 0.0152 GiB per layer (Llama-8B 0.72 vs 0.84 logged, Qwen2.5-7B 0.66 vs 0.61,
// granite-8B 0.84 vs 0.74). Tensor parallelism leaves it about where TP 1 has it: v0.19 H100 TP 2 / 4 print
// Qwen2.5-7B 0.61 / 0.69, phi-4 0.84 (TP 2), Mixtral 0.82 / 0.96, Llama-8B 1.69 / 0.57, Qwen3-30B-A3B 1.26
// (TP 4); the same formula at every TP. The 80-layer, hidden-8192 boots at TP 2 / 4 print more (Qwen2.5-72B 1.63,
// Kimi-Dev-72B 1.63 / 1.51, Llama-3.3-70B fp8 1.82 / 1.70, w8a8 1.92 vs 1.45 here; pools 1.54-1.85 actual): a
// width term fitted on them moves Gemma-3-27B, Qwen3-30B-A3B and gpt-oss the wrong way, so the line stays and
// the fixtures record the gap (0.21+ subtracts the estimate: up to 0.47 GiB optimistic there, inside the TP ≥ 2 band).
// MLA's FULL capture is ≈ 520 MiB instead of ≈ 200 (guess: +0.3 GiB).
// Fused-MoE layers add ≈ 0.24 GiB to the first captures (v0.19 H100: Qwen3-30B-A3B 1.24 / 1.26 at TP 1 / 4 vs
// 0.96 for its 48 dense-formula layers, Mixtral 0.82 / 0.96 at TP 2 / 4 vs 0.72).
std::int64_t cudagraph_estimate(const VllmProfileDims& m, const VllmAccounting& a) {
    const int graphs = a.cudagraph_capture_sizes + a.full_cudagraphs;
    if (graphs <= 0) return 0;
    const double per_graph_gib = 0.0152 / 100.0 * static_cast<double>(std::max(m.num_hidden_layers, 1));
    const double first = (m.mla ? 0.535 : 0.235) + (m.num_experts > 0 ? 0.24 : 0.0);
    return gib(first + per_graph_gib * static_cast<double>(std::max(graphs - 2, 0)));
}

std::int64_t round_up(std::int64_t x, std::int64_t to) { return (x + to - 1) / to * to; }

}  // namespace

VllmProfileDims vllm_profile_dims(const ModelSpec& model, std::string_view weights_dtype) {
    const bool override = !weights_dtype.empty() && weights_dtype != "auto";
    ModelSpec changed;
    if (override) {  // the scenario's weights_dtype decides the linear layers' bytes, so the layout is the changed spec's
        changed = model;
        changed.linear_weight_bytes = vllm_linear_weight_bytes(weights_dtype);
    }
    const ModelSpec& m = override ? changed : model;
    VllmProfileDims d;
    d.hidden_size = m.hidden_size;
    d.intermediate_size = m.intermediate_size;
    d.vocab_size = m.vocab_size;
    d.num_experts = m.num_experts;
    d.num_experts_per_tok = m.num_experts_per_tok;
    d.moe_intermediate_size = m.moe_intermediate_size;
    d.moe_workspace = m.num_experts > 0 && m.model_type != "gpt_oss";
    d.multimodal = m.multimodal;
    d.num_hidden_layers = m.num_hidden_layers;
    int head_dim = 0;
    for (const auto& l : m.layers) {
        head_dim = std::max(head_dim, layer_rotary_head_dim(l));
        d.mla = d.mla || layer_mixer_weights(l) == MixerWeights::mla_attention;
    }
    // Rotary cos/sin cache (model_executor/layers/rotary_embedding: RotaryEmbedding registers cos_sin_cache of
    // max_position_embeddings × rotary_dim in the model dtype, shared by every layer through get_rope's cache).
    // Counted in vLLM's "weights memory" because it is allocated during load: Llama-3.1-8B 131072 × 128 × 2 B
    // = 32 MiB is the gap between 8.03 B params × 2 B = 14.96 GiB and the logged 14.99 GiB.
    // Scaled ropes (linear, dynamic, yarn) and Gemma 3's second rope make more rows (vllm_rope_cache_positions).
    const int rotary = m.rotary_dim > 0 ? m.rotary_dim : head_dim;
    const std::int64_t rows = m.rope_cache_positions > 0 ? m.rope_cache_positions : m.max_position_embeddings;
    d.rope_cache_bytes = bytes(static_cast<double>(rows) * rotary * d.activation_bytes);
    d.encoder_weights_bytes = bytes(static_cast<double>(m.encoder_parameters) * d.activation_bytes);
    d.mxfp4_experts = m.mxfp4_experts && m.num_experts > 0;
    for (int tp = 1; tp <= kMaxTensorParallel; ++tp) {
        const VllmLoadLayout layout = vllm_load_layout(m, tp);
        d.load_rounding_bytes_by_tp[static_cast<std::size_t>(tp - 1)] = layout.allocator_rounding_bytes;
        d.load_even_split_extra_bytes_by_tp[static_cast<std::size_t>(tp - 1)] =
            layout.vocab_padding_bytes + layout.replicated_extra_bytes;
    }
    return d;
}

std::int64_t vllm_mxfp4_padding_bytes(const VllmProfileDims& m, const VllmDevice& device, int tensor_parallel_size) {
    if (!m.mxfp4_experts || m.num_experts <= 0 || m.hidden_size <= 0) return 0;
    const std::int64_t width = m.moe_intermediate_size > 0 ? m.moe_intermediate_size : m.intermediate_size;
    if (width <= 0) return 0;
    const std::int64_t ie = width / std::max(tensor_parallel_size, 1);  // intermediate_size_per_partition
    // Mxfp4MoEMethod.create_weights: FlashInfer (sm_100 family) 256, Triton (sm_90+) 64, Marlin (older) 128; ROCm
    // pads like FlashInfer. The Triton path's logged weights also carry hidden_size to a multiple of 256.
    const bool sm100 = device.sm_x10 >= 100 && device.sm_x10 < 110;
    const std::int64_t align = device.rocm || sm100 ? 256 : device.sm_x10 >= 90 ? 64 : 128;
    const std::int64_t hp = round_up(m.hidden_size, 256), ip = round_up(ie, align);
    // w13 (2 i × h) + w2 (h × i) at 4 bits plus one e8m0 scale per 32 weights, and bf16 biases (2 i + h).
    auto expert = [](double h, double i) { return 3.0 * h * i * (17.0 / 32.0) + (2.0 * i + h) * 2.0; };
    const double per_layer = static_cast<double>(m.num_experts) *
                             (expert(static_cast<double>(hp), static_cast<double>(ip)) -
                              expert(static_cast<double>(m.hidden_size), static_cast<double>(ie)));
    return bytes(per_layer * static_cast<double>(std::max(m.num_hidden_layers, 0)));
}

void copy_profile_widths(const HfArchitecture& a, std::string_view config_json, ModelSpec& m) {
    m.encoder_parameters = encoder_parameters(config_json);
    m.vocab_size = a.vocab_size;
    m.intermediate_size = a.intermediate_size;
    m.moe_intermediate_size = a.moe_intermediate_size;
    m.rotary_dim = a.kv_lora_rank > 0 ? a.qk_rope_head_dim : 0;
    m.mxfp4_experts = a.quant_method == "mxfp4";
    m.rope_cache_positions = vllm_rope_cache_positions(config_json, m.max_position_embeddings);
    m.tie_word_embeddings = a.tie_word_embeddings;
    m.gated_mlp = a.gated_mlp;
    // The linear layers' bytes as estimate_weights resolves the checkpoint's dtype (quantization_config, torch_dtype).
    m.linear_weight_bytes = vllm_linear_weight_bytes(estimate_weights(ParamBreakdown{}, a, "auto").dtype);
    m.multimodal = false;
    for (const auto& name : a.architectures) {
        if (name.find("ConditionalGeneration") != std::string::npos || name.find("VL") != std::string::npos ||
            name.rfind("Llava", 0) == 0 || name.rfind("Mllama", 0) == 0)
            m.multimodal = true;
    }
    if (m.encoder_parameters > 0) m.multimodal = true;
}

VllmDevice vllm_device(const GpuSpec& g) {
    VllmDevice d;
    d.cuda_total_bytes = g.cuda_total_bytes > 0 ? g.cuda_total_bytes : g.vram_bytes;
    d.cuda_total_estimated = g.cuda_total_estimated || g.cuda_total_bytes <= 0;
    d.name = g.display_name;
    d.sm_x10 = g.sm_x10;
    d.rocm = g.architecture.rfind("cdna", 0) == 0 || g.architecture.rfind("rdna", 0) == 0;
    d.nvlink = g.nvlink;
    return d;
}

VllmDevice vllm_device_from_total(std::int64_t total_bytes) {
    VllmDevice d;
    d.cuda_total_bytes = total_bytes;
    d.cuda_total_estimated = false;
    d.name = "custom";
    return d;
}

VllmAccounting vllm_account(const VllmProfileDims& m, const VllmDevice& device, const VllmServeFlags& f,
                            VllmEra era, std::int64_t weights_bytes_per_rank, bool explain) {
    return detail::vllm_account_worded(m, device, f, era, weights_bytes_per_rank, explain, explain);
}

VllmAccounting detail::vllm_account_worded(const VllmProfileDims& m, const VllmDevice& device,
                                           const VllmServeFlags& f, VllmEra era, std::int64_t weights_bytes_per_rank,
                                           bool explain, bool sources) {
    VllmAccounting a = vllm_resolve_defaults(device, f, era, explain);
    const VllmEraRules& rules = vllm_era_rules(era);
    const std::int64_t tp = std::max(f.tensor_parallel_size, 1);
    const std::int64_t d = m.activation_bytes;
    const std::int64_t T = a.max_num_batched_tokens;
    const std::int64_t H = m.hidden_size;

    // Budget: request_memory (v1/worker/utils.py) = ceil(total × gpu_memory_utilization); V0 and V1 before #30868
    // multiplied without the ceil (at most one byte apart).
    a.cuda_total_bytes = device.cuda_total_bytes;
    a.requested_bytes = static_cast<std::int64_t>(
        std::ceil(a.gpu_memory_utilization * static_cast<double>(device.cuda_total_bytes)));
    // Weights: DeviceMemoryProfiler around load_model = torch-allocated bytes after load, buffers included.
    // mxfp4 experts load padded (vllm_mxfp4_padding_bytes); every tensor is an allocator block, and an even share
    // misses the vocab padding and the replicated tensors (vllm_load_layout).
    const auto layout_at = static_cast<std::size_t>(std::min<std::int64_t>(tp, kMaxTensorParallel) - 1);
    a.weights_bytes = bytes(static_cast<double>(weights_bytes_per_rank) + static_cast<double>(m.rope_cache_bytes) +
                            static_cast<double>(m.encoder_weights_bytes) / static_cast<double>(tp) +
                            static_cast<double>(vllm_mxfp4_padding_bytes(m, device, static_cast<int>(tp))) +
                            static_cast<double>(m.load_rounding_bytes_by_tp[layout_at]) +
                            static_cast<double>(m.load_even_split_extra_bytes_by_tp[layout_at]));

    // Sampler: _dummy_sampler_run computes logits for one row per dummy request, R = min(max_num_seqs, T)
    // (_dummy_run splits T tokens into min(T, max_num_seqs) requests), all-gathered to the full vocabulary on every
    // TP rank, then samples with top-k V − 1 and top-p 0.9 on every row. V0 runs max_num_seqs sequences.
    // The T-row hidden states stay alive meanwhile (2 × T × H × d, fitted).
    const std::int64_t R = rules.v1_engine ? std::min(a.max_num_seqs, T) : a.max_num_seqs;
    const double c = vllm_sampler_bytes_per_row_vocab(era, f.sampler, R);
    const double Td = static_cast<double>(T), Hd = static_cast<double>(H), dd = static_cast<double>(d);
    a.sampler_bytes = bytes(c * static_cast<double>(R) * static_cast<double>(m.vocab_size) + 2.0 * Td * Hd * dd);
    // Forward: the eager profile forward of T tokens peaks in the MLP (gate_up T × 2I/TP + act T × I/TP) over a
    // few T × H residual tensors. Attention kernels do not run without metadata.
    a.forward_bytes = bytes(Td * dd * (3.0 * static_cast<double>(m.intermediate_size / tp) + 4.0 * Hd));
    // Fused-MoE modular kernels take their buffers from the WorkspaceManager (v1/worker/workspace.py), which keeps
    // its largest allocation: it adds to the sampler peak instead of hiding under max(). Since ≈ v0.13 (guess:
    // applied from the 0.11-0.16 era). Mixtral-8x7B TP 2 1.28 vs 1.21 GiB, Qwen3-30B-A3B 2.50 vs 2.68.
    if (m.num_experts > 0 && m.moe_workspace && at_least(era, VllmEra::v0_11)) {
        const std::int64_t ie = m.moe_intermediate_size > 0 ? m.moe_intermediate_size / tp : m.intermediate_size / tp;
        a.moe_workspace_bytes = bytes(Td * static_cast<double>(m.num_experts_per_tok) *
                                          static_cast<double>(std::max<std::int64_t>(2 * ie, H) + ie) * dd +
                                      Td * Hd * dd);
    }
    // Multimodal encoders: profile_run keeps max_mm_items_per_batch dummy encoder outputs alive through the LM pass.
    // The v0.19 logs show +0.1 (Mistral-3) to +0.26 GiB (Gemma-3) over the text formula: allowance 0.2 GiB.
    if (m.multimodal) a.multimodal_bytes = gib(0.2);
    a.torch_peak_bytes = std::max(a.forward_bytes, a.sampler_bytes) + a.moe_workspace_bytes + a.multimodal_bytes;

    a.non_torch_bytes = non_torch(era, static_cast<int>(tp), device);
    // determine_available_memory profiles CUDA graphs on CUDA only ("Skip on ROCm/HIP/XPU"): 0 on AMD cards.
    a.cudagraph_bytes = rules.v1_engine && !device.rocm ? cudagraph_estimate(m, a) : 0;
    a.cudagraph_subtracted = rules.cudagraph_estimate_subtracted && a.cudagraph_bytes > 0;
    a.available_kv_bytes = a.requested_bytes - a.weights_bytes - a.torch_peak_bytes - a.non_torch_bytes -
                           (a.cudagraph_subtracted ? a.cudagraph_bytes : 0);

    // Error band on available_kv_bytes: what the logs support for this path (docs/ACCURACY.md).
    double band = 0.25;
    const char* basis = "v0.19 H100 logs, dense text models, TP 1: |error| ≤ 0.25 GiB";
    switch (era) {
        case VllmEra::v0:
            band = 0.75;
            basis = "V0: logs on an RTX 3090 (vllm #10517), 2 x RTX 4090 (#13061), 2 x L40S (#15815) and H100 "
                    "(PRs #10511, #12126), ±0.75 GiB";
            break;
        case VllmEra::v0_9: band = 0.6; basis = "0.9-0.10: one 24 GB log, ±0.6 GiB"; break;
        case VllmEra::v0_11: band = 0.35; basis = "0.11-0.16 H100 logs, dense text models: ±0.35 GiB"; break;
        case VllmEra::v0_17: break;
        case VllmEra::v0_21:
            band = 0.45;
            basis = "0.21+: one published log (LMCache issue #3430: vLLM 0.21.0, Qwen3-8B, RTX A5000, -0.39 GiB); "
                    "v0.19 rules plus the CUDA-graph estimate (±0.15 GiB at TP 1), ±0.45 GiB";
            break;
    }
    const bool moe = m.num_experts > 0, multi = tp > 1, est = device.cuda_total_estimated;
    // Above TP 4 from 0.9 on the non-torch term is extrapolated (the logs stop at TP 4; non_torch above): +0.2.
    const bool beyond_logs = tp > 4 && at_least(era, VllmEra::v0_9);
    band += (moe ? 0.4 : 0.0) + (m.multimodal ? 0.3 : 0.0) + (multi ? 0.3 : 0.0) + (beyond_logs ? 0.2 : 0.0) +
            (est ? 0.2 : 0.0);
    a.error_band_bytes = gib(band);
    if (!explain) return a;
    a.band_basis = std::string(basis) + (moe ? "; MoE +0.4" : "") + (m.multimodal ? "; multimodal +0.3" : "") +
                   (multi ? "; TP ≥ 2 +0.3 (non-torch varies by interconnect)" : "") +
                   (beyond_logs ? "; TP above 4 +0.2 (no log past TP 4 since 0.9: non-torch extrapolated)" : "") +
                   (est ? "; CUDA total estimated +0.2" : "");
    if (!sources) return a;
    a.sources = {
        "vllm/v1/worker/gpu_worker.py determine_available_memory; vllm/v1/worker/utils.py request_memory",
        "vllm/utils/mem_utils.py memory_profiling (weights, torch peak increase, non-torch increase)",
        "vllm/v1/worker/gpu_model_runner.py profile_run, _dummy_run, _dummy_sampler_run, profile_cudagraph_memory",
        "vllm/engine/arg_utils.py get_batch_defaults; vllm/config/vllm.py _set_cudagraph_sizes",
        "sampler: " + vllm_sampler_label(era, f.sampler) + " (" + rules.id + ")",
    };
    return a;
}

std::int64_t vllm_printed_kv_tokens(VllmEra era, std::int64_t num_blocks, int num_groups, int block_size,
                                    double max_concurrency, std::int64_t max_model_len) {
    if (num_blocks <= 0 || block_size <= 0) return 0;
    const VllmEraRules& rules = vllm_era_rules(era);
    if (!rules.v1_engine) return num_blocks * block_size;
    if (rules.kv_size_from_concurrency)  // int(): the product is ≥ 0, where truncation is the floor
        return static_cast<std::int64_t>(std::max(0.0, max_concurrency * static_cast<double>(max_model_len)));
    return num_blocks / std::max(num_groups, 1) * block_size;
}

}  // namespace kvcalc

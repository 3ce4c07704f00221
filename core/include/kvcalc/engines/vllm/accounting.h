// vLLM's start-up memory accounting: how a worker turns gpu_memory_utilization × the CUDA total into the
// "Available KV cache memory" it prints, release by release. Pure functions of the model's dimensions, the card
// and the `vllm serve` flags; no I/O. Formulas, their vLLM sources and the logs that check them:
// docs/ENGINE_RULES.md "Start-up accounting".
#pragma once
#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "kvcalc/base/gpu_catalog.h"
#include "kvcalc/config/hf_config.h"
#include "kvcalc/base/model_spec.h"
#include "kvcalc/model/layer_cache.h"

namespace kvcalc {

/// vLLM releases grouped by how their start-up worker sizes the KV cache. Boundaries come from commit dates
/// against release dates (firm for 0.17, 0.18-0.19 and 0.21; elsewhere ± one minor release).
enum class VllmEra {
    v0,        ///< V0 engine (≤ 0.10 with VLLM_USE_V1=0): vllm/worker/worker.py determine_num_available_blocks
    v0_9,      ///< V1 0.9.1-0.11.0: requested = util × total (#19312); FlashInfer sampler where installed
    v0_11,     ///< V1 0.11.1-0.16: snapshot after NCCL init (#25359); PyTorch sort sampler (#26859)
    v0_17,     ///< V1 0.17-0.20: Triton top-k/top-p sampler (#33538); CUDA-graph estimate logged, not subtracted
    v0_21,     ///< V1 0.21+: CUDA-graph estimate subtracted (#38284), gpu_memory_utilization 0.92, new KV-size line
};
inline constexpr VllmEra kNewestVllmEra = VllmEra::v0_21;

/// What differs between eras. Sources per field in vllm_accounting_eras.cpp.
struct VllmEraRules {
    VllmEra era;
    const char* id;                       ///< "V0", "0.9-0.11.0", "0.11.1-0.16", "0.17-0.20", "0.21+"
    const char* first_release;            ///< e.g. "0.17.0"
    double default_gpu_memory_utilization;///< vllm/config/cache.py CacheConfig.gpu_memory_utilization
    bool v1_engine;                       ///< V1 gpu_model_runner profile_run (else V0 worker profile)
    bool cudagraph_estimate_subtracted;   ///< gpu_worker determine_available_memory subtracts the estimate
    bool kv_size_from_concurrency;        ///< "GPU KV cache size" = ⌊concurrency × max_model_len⌋ (#41069)
    int capture_stride_above_256;         ///< cudagraph_capture_sizes step above 256 (8, then 16 from #26016)
    bool full_and_piecewise;              ///< default cudagraph_mode FULL_AND_PIECEWISE (FULL decode graphs too)
    bool snapshot_after_nccl;             ///< NCCL / custom all-reduce init outside the budget (#25359)
};

/// Every era, oldest first.
std::span<const VllmEraRules> vllm_eras();
/// The rules of one era.
const VllmEraRules& vllm_era_rules(VllmEra era);
/// Reads a vLLM version: a release ("0.19", "v0.19.1", "0.8.5"), an era id ("0.17-0.20", "0.21+", "V0"),
/// or "" / "latest" / "newest" (= kNewestVllmEra). nullopt when it names none (callers list vllm_era_ids()).
std::optional<VllmEra> parse_vllm_version(std::string_view text);
/// "V0, 0.9-0.11.0, 0.11.1-0.16, 0.17-0.20, 0.21+" for error messages.
std::string vllm_era_ids();
/// A warning for a release newer than any kvcalc has checked against a measured boot (0.25, the newest engine pin
/// in docs/SOURCES.md "Calibration rows"): it is priced with the newest era's rules, which it may not follow. nullopt
/// for known releases, era ids and "".
std::optional<std::string> vllm_version_note(std::string_view text);

/// The model dimensions vLLM's profile run depends on (Hugging Face config names). 0 = unknown.
struct VllmProfileDims {
    std::int64_t hidden_size = 0;
    std::int64_t intermediate_size = 0;      ///< dense MLP width (shared / first dense layers for MoE models)
    std::int64_t vocab_size = 0;
    std::int64_t num_experts = 0;
    std::int64_t num_experts_per_tok = 0;
    std::int64_t moe_intermediate_size = 0;  ///< one routed expert's width
    /// Experts run through fused-MoE modular kernels whose workspace stays allocated (Triton / CUTLASS path);
    /// false for gpt-oss's mxfp4 kernels, which show no such term in the v0.19 logs.
    bool moe_workspace = false;
    bool multimodal = false;                 ///< a vision / audio encoder runs first in profile_run
    bool mla = false;                        ///< MLA attention (larger first CUDA-graph capture)
    int num_hidden_layers = 0;               ///< CUDA-graph memory grows with the piecewise splits (one per layer)
    std::int64_t rope_cache_bytes = 0;       ///< cos/sin buffer built at load (counted in vLLM's weights)
    std::int64_t encoder_weights_bytes = 0;  ///< vision tower + projector in the model dtype, sharded by TP
    /// Routed experts stored as mxfp4 (gpt-oss): vLLM pads their shapes at load (vllm_mxfp4_padding_bytes).
    bool mxfp4_experts = false;
    int activation_bytes = 2;                ///< model dtype bytes (bf16 / fp16)
    /// vllm_load_layout of the model at tensor_parallel_size 1..kMaxTensorParallel (index tp − 1): the caching
    /// allocator's rounding of each rank's parameter tensors, added to the weights at every TP.
    std::array<std::int64_t, kMaxTensorParallel> load_rounding_bytes_by_tp{};
    /// The same layout's vocab padding and replicated tensors beyond an even share of the checkpoint: added when the
    /// weights per rank are total / TP, 0 when they come from the checkpoint's own tensor placement (which holds them).
    std::array<std::int64_t, kMaxTensorParallel> load_even_split_extra_bytes_by_tp{};
};

/// Bytes per linear-layer weight vLLM holds for a weights dtype of kWeightsDtypes (param_count.h): 2 for bf16 /
/// fp16 / fp32 (run as 16-bit) and mxfp4 (only the routed experts are mxfp4; vllm_mxfp4_padding_bytes prices them),
/// 1 for fp8 / int8, 0 for packed layouts (int4, nvfp4) and "auto" (resolve it first).
int vllm_linear_weight_bytes(std::string_view weights_dtype);

/// Dimensions from a ModelSpec (ModelSpec::vocab_size and friends; zeros when the spec lacks them). `weights_dtype`
/// other than "auto" (a scenario's weights_dtype) replaces ModelSpec::linear_weight_bytes in the load layout.
VllmProfileDims vllm_profile_dims(const ModelSpec& model, std::string_view weights_dtype = "auto");

/// What one rank's weights take in vLLM beyond the checkpoint's bytes / TP, from the parameter tensors vLLM
/// creates (model_executor/layers/linear.py QKVParallelLinear, MergedColumnParallelLinear, RowParallelLinear,
/// ReplicatedLinear; vocab_parallel_embedding.py; fused_moe/layer.py FusedMoE w13 / w2) and how PyTorch's caching
/// allocator places them. vLLM's "Model loading took X GiB" is torch.cuda.max_memory_allocated after
/// reset_peak_memory_stats, before and after load_model (vllm/platforms/cuda.py get_current_memory_usage,
/// vllm/utils/mem_utils.py DeviceMemoryProfiler): allocated *blocks*, not tensor bytes. c10/cuda/
/// CUDACachingAllocator.cpp gives a request of 10 MiB or more a segment rounded up to 2 MiB (get_allocation_size)
/// and splits off the rest only when more than 1 MiB remains (should_split), so a tensor within 1 MiB below a 2 MiB
/// multiple holds the whole segment. Checked on the v0.19 H100 logs: Qwen2.5-72B / Kimi-Dev-72B down_proj of
/// 231 MiB at TP 2 holds 232 (+80 MiB over 80 layers: 67.80 / 67.82 GiB logged vs 67.72 even share), at TP 4
/// gate_up 231 and down 115.5 MiB (+0.12 GiB: 34.01 logged vs 33.89), Phi-4 +0.08 / +0.11 GiB at TP 1 / 2,
/// Qwen2.5-7B +0.06 GiB at TP 1, Qwen2.5-32B +0.19 GiB at TP 2 (vLLM 0.7.1 on 2 × L40S).
struct VllmLoadLayout {
    std::int64_t allocator_rounding_bytes = 0;  ///< Σ over the rank's tensors of (allocated block − tensor bytes)
    /// Rows VocabParallelEmbedding / ParallelLMHead add by padding the vocabulary to a multiple of 64
    /// (pad_vocab_size, DEFAULT_VOCAB_PADDING_SIZE) before splitting it over the ranks.
    std::int64_t vocab_padding_bytes = 0;
    /// Tensors every rank holds whole, beyond their 1 / TP share: MoE routers (ReplicatedLinear gate, bf16) and
    /// K/V heads replicated when TP exceeds num_key_value_heads (QKVParallelLinear num_kv_head_replicas).
    std::int64_t replicated_extra_bytes = 0;
};
/// The layout of `model` on one of `tensor_parallel_size` ranks (1..kMaxTensorParallel). Counts attention
/// (grouped-query layers), dense or routed MLPs in every layer, the embedding and an untied lm_head; MLA and
/// recurrent mixers, shared experts and tensors under 10 MiB (served from 2 or 20 MiB segments that are split) add no
/// rounding; mxfp4 experts are priced by vllm_mxfp4_padding_bytes; linear layers with linear_weight_bytes 0 are
/// skipped. Zeros for a spec without hidden_size.
VllmLoadLayout vllm_load_layout(const ModelSpec& model, int tensor_parallel_size);

/// Copies the widths the profile run needs from a read config.json into its ModelSpec: vocab_size,
/// intermediate_size, moe_intermediate_size, rotary_dim (qk_rope_head_dim for MLA), `multimodal`
/// (an architecture named *ForConditionalGeneration, *VL*, Llava* or Mllama*, or a `vision_config`: an encoder
/// runs in profile_run) and encoder_parameters (from `config_json`'s vision_config).
void copy_profile_widths(const HfArchitecture& arch, std::string_view config_json, ModelSpec& spec);

/// Parameters of the vision tower and its projector described by a config.json's `vision_config` (0 when
/// absent or unreadable): layers × (4 h² + m × h × i) + patch embedding (channels × patch² × h) + position
/// embedding ((image_size / patch)² × h) + projector (h × H + H², H = the text hidden size), m = 3 for gated
/// MLPs (hidden_act silu, Pixtral, Qwen2.5-VL), else 2 (CLIP, SigLIP). Key aliases: num_hidden_layers / depth,
/// hidden_size / embed_dim, intermediate_size / mlp_ratio × hidden. Checked on Mistral-Small-3.2's Pixtral tower
/// (0.82 GiB: the gap between its text weights and vLLM's logged 44.76 GiB). Gemma 3 (model_type gemma3) projects with
/// one matrix (gemma3_mm.py Gemma3MultiModalProjector mm_input_projection_weight h × H and an RMSNorm of h). DeepSeek-VL2's SigLIP spells them
/// `layers` / `width`. Without a vision_config, Phi-3-vision's `img_processor` naming
/// openai/clip-vit-large-patch14-336 counts the 23 CLIP layers vLLM phi3v.py keeps. An `audio_config` of model_type
/// voxtral_encoder / whisper adds the Whisper encoder (conv stems, positions, layers × (4 h² + 2 h × i)) and
/// Voxtral's adapter (4 h × H + H², vLLM voxtral.py).
std::int64_t encoder_parameters(std::string_view config_json);

/// Rows of the cos/sin caches vLLM builds at load for a config.json (model_executor/layers/rotary_embedding
/// get_rope, one cache per distinct rope): max_position_embeddings for plain, llama3, mrope and longrope ropes;
/// max_position_embeddings × factor for rope_scaling "linear" (LinearScalingRotaryEmbedding) and "dynamic"
/// (DynamicNTKScalingRotaryEmbedding); original_max_position_embeddings × factor for "yarn" (YaRNScalingRotaryEmbedding,
/// DeepseekScalingRotaryEmbedding). Gemma 3 adds its sliding layers' unscaled rope (rope_local_base_freq, vLLM
/// gemma3.py). Checked on Gemma-3-27B-it's v0.19 H100 log: 131072 × 8 + 131072 rows × 128 × 2 B = 288 MiB, which
/// with the tower takes its weights from 51.24 to 51.46 GiB (51.45 logged). `max_position_embeddings` is the spec's
/// (the config's key or its class default); 0 for unreadable JSON.
std::int64_t vllm_rope_cache_positions(std::string_view config_json, std::int64_t max_position_embeddings);

/// The entry point decides some defaults (arg_utils.py get_batch_defaults: UsageContext).
enum class VllmEntryPoint { api_server, llm_class };
/// Reads vLLM's UsageContext name (vllm/usage/usage_lib.py): "openai_api_server" (or "serve", "api_server", "",
/// "auto": what `vllm serve` runs) or "llm_class" (or "llm", "offline": Python's `LLM(...)`), any case.
/// nullopt for anything else (callers list vllm_usage_context_ids()).
std::optional<VllmEntryPoint> parse_vllm_usage_context(std::string_view text);
/// "openai_api_server, llm_class" for error messages.
std::string vllm_usage_context_ids();

/// The `vllm serve` flags that change start-up memory. nullopt / 0 = not given: vLLM's default applies and is
/// listed in VllmAccounting::assumed_defaults.
/// The top-k/top-p sampler a vLLM install runs (vllm/v1/sample/ops/topk_topp_sampler.py TopKTopPSampler);
/// its peak and per-era default are in vllm_sampler.h.
enum class VllmSampler {
    pip_default,  ///< what a plain `pip install vllm` of the era gets (vllm_default_sampler)
    flashinfer,   ///< FlashInfer's kernels (FlashInfer importable and VLLM_USE_FLASHINFER_SAMPLER on)
    pytorch,      ///< forward_native: the sort path, or the Triton kernels from 0.17 (#33538)
};

struct VllmServeFlags {
    std::int64_t max_model_len = 0;                       ///< required (> 0)
    int tensor_parallel_size = 1;
    std::optional<std::int64_t> max_num_batched_tokens;
    std::optional<std::int64_t> max_num_seqs;
    std::optional<double> gpu_memory_utilization;
    std::optional<int> block_size;
    bool enforce_eager = false;                           ///< no CUDA graphs
    bool enable_chunked_prefill = true;                   ///< V1 default; V0 turns it on above 32K tokens
    int num_speculative_tokens = 0;                       ///< widens the capture sizes (decode_query_len)
    VllmEntryPoint entry_point = VllmEntryPoint::api_server;
    VllmSampler sampler = VllmSampler::pip_default;       ///< which sampler the profile's dummy run exercises
};

/// The card as vLLM sees it.
struct VllmDevice {
    std::int64_t cuda_total_bytes = 0;    ///< torch.cuda.mem_get_info()[1]
    bool cuda_total_estimated = false;    ///< no log gave it: gpu_catalog's estimate rule
    std::string name;                     ///< for the "a100" test in get_batch_defaults
    int sm_x10 = 0;                       ///< compute capability × 10 (allreduce fusion on 90 / 100-family)
    bool rocm = false;                    ///< AMD card: vLLM skips the CUDA-graph memory profile there
    /// The card's parts join by NVLink (GpuSpec::nvlink): NCCL opens many P2P channels and vLLM's custom
    /// all-reduce registers its buffers in every CUDA graph; PCIe cards run few channels and no custom all-reduce
    /// past two ranks (custom_all_reduce.py).
    bool nvlink = false;
};
/// A catalog card → VllmDevice (cuda_total from GpuSpec::cuda_total_bytes).
VllmDevice vllm_device(const GpuSpec& gpu);
/// A card known only by its total (VRAM given as a number): treated as the CUDA total, sm unknown.
VllmDevice vllm_device_from_total(std::int64_t total_bytes);

/// One worker's start-up split, every term in bytes per rank. available_kv_bytes may be negative: vLLM prints
/// a negative "Available KV cache memory" and refuses to start.
struct VllmAccounting {
    VllmEra era = kNewestVllmEra;
    // Settings in force (the user's or vLLM's defaults).
    std::int64_t max_num_batched_tokens = 0;
    std::int64_t max_num_seqs = 0;
    double gpu_memory_utilization = 0.0;
    int block_size = 16;
    int cudagraph_capture_sizes = 0;     ///< PIECEWISE graphs (0 with enforce_eager)
    int full_cudagraphs = 0;             ///< FULL decode graphs (sizes ≤ max_num_seqs)
    std::vector<std::string> assumed_defaults;  ///< "max_num_seqs 256 (vLLM default: …)"
    // The budget.
    std::int64_t cuda_total_bytes = 0;
    std::int64_t requested_bytes = 0;    ///< ceil(gpu_memory_utilization × cuda_total)
    std::int64_t weights_bytes = 0;      ///< weights per rank + buffers built at load
    std::int64_t sampler_bytes = 0;      ///< dummy sampler run over R rows × full vocabulary (+ live hidden)
    std::int64_t forward_bytes = 0;      ///< dense MLP + residual stream over max_num_batched_tokens
    std::int64_t moe_workspace_bytes = 0;///< persistent fused-MoE workspace
    std::int64_t multimodal_bytes = 0;   ///< encoder dummy outputs kept through the LM pass (allowance)
    std::int64_t torch_peak_bytes = 0;   ///< max(forward, sampler) + moe + multimodal: "torch peak memory increase"
    std::int64_t non_torch_bytes = 0;    ///< "non-torch forward increase memory"
    std::int64_t cudagraph_bytes = 0;    ///< "Estimated CUDA graph memory" (0 with enforce_eager)
    bool cudagraph_subtracted = false;   ///< the era subtracts it from the budget
    std::int64_t available_kv_bytes = 0; ///< "Available KV cache memory"
    std::int64_t error_band_bytes = 0;   ///< ± on available_kv_bytes the published logs support for this path
    std::string band_basis;              ///< which logs set the band
    std::vector<std::string> sources;
};

/// vLLM's defaults for the flags left unset (arg_utils.py get_batch_defaults and
/// _set_default_max_num_seqs_and_batched_tokens_args, config/cache.py, config/vllm.py _set_cudagraph_sizes).
/// Fills the settings of the result, and assumed_defaults when `explain` (false: no allocation, for sweeps).
VllmAccounting vllm_resolve_defaults(const VllmDevice& device, const VllmServeFlags& flags, VllmEra era,
                                     bool explain = true);
/// The same flag defaults written into `a` in place: its era and settings fields (max_num_batched_tokens,
/// max_num_seqs, gpu_memory_utilization, block_size) and assumed_defaults (cleared, then filled when `explain`);
/// the CUDA-graph counts are 0 (a seed fit prices its own graphs) and the start-up split fields are left as they
/// are. For a deployment re-bound to a new load: no accounting is built and destroyed per call.
void vllm_resolve_defaults_into(const VllmDevice& device, const VllmServeFlags& flags, VllmEra era, bool explain,
                                VllmAccounting& a);

/// The whole start-up split (gpu_worker.py determine_available_memory):
///   available = ceil(util × total) − weights − torch_peak − non_torch − (era subtracts it ? cudagraph : 0).
/// `weights_bytes_per_rank` is the language model's share on one rank; the rope buffer and the encoder share of
/// `dims` are added to it.
/// `explain` = false skips the text (assumed_defaults, band_basis, sources) so solvers can call it per step.
VllmAccounting vllm_account(const VllmProfileDims& dims, const VllmDevice& device, const VllmServeFlags& flags,
                            VllmEra era, std::int64_t weights_bytes_per_rank, bool explain = true);

/// The extra bytes per rank vLLM's mxfp4 MoE method allocates over the checkpoint's own expert shapes
/// (vllm/model_executor/layers/quantization/mxfp4.py Mxfp4MoEMethod.create_weights and the Triton swizzle):
/// hidden_size padded to a multiple of 256 and each rank's expert width (intermediate_size / TP) to 64 (Triton,
/// sm_90+), 128 (Marlin, older cards) or 256 (FlashInfer, sm_100 family); 4.25 bits per weight plus bf16 biases.
/// Checked on gpt-oss-20b / 120b H100 logs (13.47 / 64.38 GiB at TP 1, 3.63 GiB at TP 4) and the A100 TP 4
/// Marlin boot (17.22 GiB). 0 when `dims.mxfp4_experts` is false.
std::int64_t vllm_mxfp4_padding_bytes(const VllmProfileDims& dims, const VllmDevice& device, int tensor_parallel_size);

/// The "GPU KV cache size: N tokens" line (kv_cache_utils.py _report_kv_cache_config): before #41069
/// num_blocks // num_groups × block_size; from 0.21 ⌊max_concurrency × max_model_len⌋. V0 prints no such line:
/// its blocks × block_size is returned.
std::int64_t vllm_printed_kv_tokens(VllmEra era, std::int64_t num_blocks, int num_groups, int block_size,
                                    double max_concurrency, std::int64_t max_model_len);

}  // namespace kvcalc

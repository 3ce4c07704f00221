// Model facts as data: what every layer keeps in memory, plus weights and drafters.
// A new model is a new ModelSpec value, never a new code branch (see docs/ARCHITECTURE.md).
#pragma once
#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "kvcalc/base/engine_id.h"

namespace kvcalc {

/// Full (global) attention: K and V for every token of the context, growing with max_model_len.
/// Per token per layer it stores num_key_value_heads × (head_dim_k + head_dim_v) elements, also when the
/// weights hold no v_proj (`attention_k_eq_v`): vLLM loads k_proj into both the K and the V slot and caches both
/// (vllm/model_executor/models/gemma4.py Gemma4Attention), llama.cpp sets Vcur = Kcur and build_attn stores both
/// (src/models/gemma4-iswa.cpp). Source: docs/SOURCES.md "The KV formula".
struct FullAttention {
    int num_key_value_heads = 0;
    int head_dim_k = 0;
    int head_dim_v = 0;      ///< equals head_dim_k for every seed model
    /// 1 = the weights hold no v_proj, K is reused as V (Gemma 4 full layers with config.json
    /// `attention_k_eq_v`; vLLM gemma4.py Gemma4DecoderLayer use_k_eq_v); 0 = k_proj and v_proj. Weights only:
    /// the cache stores K and V either way.
    int attention_k_eq_v = 0;
    bool operator==(const FullAttention&) const = default;
};

/// Sliding-window attention: like FullAttention but keeps at most `sliding_window` tokens per sequence,
/// so its size does not grow with context. Source: docs/SOURCES.md "The KV formula"; vLLM SlidingWindowSpec.
struct SlidingWindow {
    int num_key_value_heads = 0;
    int head_dim_k = 0;
    int head_dim_v = 0;
    int attention_k_eq_v = 0;  ///< as FullAttention::attention_k_eq_v (weights only; 0 for Gemma 4's sliding layers)
    std::int64_t sliding_window = 0;  ///< tokens
    bool operator==(const SlidingWindow&) const = default;
};

/// Chunked local attention (Llama 4's `attention_chunk_size`): a token attends only to earlier tokens of its own
/// chunk of `attention_chunk_size` positions, so a sequence never needs more than one chunk (plus the tokens being
/// prefilled) cached. vLLM ChunkedLocalAttentionSpec keeps min(chunk + max_num_batched_tokens, max_model_len)
/// tokens (vllm/v1/kv_cache_interface.py); llama.cpp builds it as an SWA cache of type LLAMA_SWA_TYPE_CHUNKED
/// (src/llama-hparams.cpp is_masked_swa, sized like any SWA cache in llama-kv-cache-iswa.cpp).
struct ChunkedLocalAttention {
    int num_key_value_heads = 0;
    int head_dim_k = 0;
    int head_dim_v = 0;
    int attention_k_eq_v = 0;  ///< as FullAttention::attention_k_eq_v (weights only)
    std::int64_t attention_chunk_size = 0;  ///< tokens
    bool operator==(const ChunkedLocalAttention&) const = default;
};

/// Multi-head latent attention (DeepSeek V2/V3, Kimi K2): one compressed latent of
/// kv_lora_rank + qk_rope_head_dim elements per token per layer. No ×2 for K/V and not split by TP.
struct MlaLatent {
    int kv_lora_rank = 0;
    int qk_rope_head_dim = 0;
    /// DeepSeek V3.2 sparse-attention indexer: one extra key of index_head_dim elements per token per layer
    /// (stored fp8 with a 4-byte scale per 128 values in vLLM/SGLang, whatever the cache dtype). 0 = no indexer.
    int index_head_dim = 0;
    bool operator==(const MlaLatent&) const = default;
};

/// Bytes per token per layer of a DeepSeek V3.2 indexer key: index_head_dim fp8 values and one fp32 scale per 128
/// (132 B for index_head_dim 128), in vLLM (vllm/model_executor/models/deepseek_v2.py DeepseekV32IndexerCache) and
/// SGLang (NSATokenToKVPool) alike; 0 without an indexer.
constexpr std::int64_t mla_indexer_key_bytes(const MlaLatent& l) {
    return l.index_head_dim <= 0 ? 0 : l.index_head_dim + (std::int64_t{l.index_head_dim} + 127) / 128 * 4;
}

/// Bytes per token per layer of a DeepSeek V3.2 latent in a 1-byte cache: the latent in fp8 with one fp32 scale per
/// 128 values, the rope part kept bf16 (512 + 16 + 128 = 656 B; vllm/v1/kv_cache_interface.py MLAAttentionSpec
/// fp8_ds_mla, SGLang NSATokenToKVPool).
constexpr std::int64_t mla_fp8_latent_bytes(const MlaLatent& l) {
    return std::int64_t{l.kv_lora_rank} + l.kv_lora_rank / 128 * 4 + 2LL * l.qk_rope_head_dim;
}

/// Recurrent state of a linear-attention / SSM layer (Gated DeltaNet, Mamba): a fixed number of
/// elements per sequence, independent of context length. `state_elements` and `conv_elements` are per
/// sequence per layer at TP=1; `num_heads` is the head count that TP splits (the state is sharded by heads).
struct RecurrentState {
    std::int64_t state_elements = 0;   ///< SSM / delta-rule state elements per sequence
    std::int64_t conv_elements = 0;    ///< short-convolution state elements per sequence
    int num_heads = 1;                 ///< heads the state is split over under TP
    int state_dtype_bytes = 4;         ///< mamba_ssm_dtype (fp32 = 4 on the seed stack)
    int conv_dtype_bytes = 2;          ///< conv state is kept in the model dtype (bf16 = 2) in vLLM
    bool operator==(const RecurrentState&) const = default;
};

/// A layer that keeps nothing between steps (for example a dense MLP-only block).
struct NoCache {
    bool operator==(const NoCache&) const = default;
};

/// What one layer keeps. One value per layer in ModelSpec::layers.
using LayerCache =
    std::variant<NoCache, FullAttention, SlidingWindow, ChunkedLocalAttention, MlaLatent, RecurrentState>;

/// A visitor made of one lambda per alternative: std::visit(overloaded{[](const FullAttention&) {…}, …}, cache).
/// Every dispatch over LayerCache is such a visit without a generic (auto) lambda: the facts in
/// model/layer_kinds.h, which every other file asks instead of testing the variant, and each engine's per-kind
/// spec. A new alternative therefore fails to compile at every site that does not say what it means there
/// (the ctest compile_fail_layer_visit checks the compiler refuses a missed case).
template <class... F>
struct overloaded : F... {
    using F::operator()...;
};
template <class... F>
overloaded(F...) -> overloaded<F...>;

/// Where a fact came from: a catalog entry with its source, a config.json key path, or a user override.
struct Provenance {
    std::string fact;    ///< e.g. "num_key_value_heads"
    std::string source;  ///< e.g. "config.json: text_config.num_key_value_heads" or a catalog source such as "Google model card: Gemma 4 31B"
    bool operator==(const Provenance&) const = default;
};

/// The WeightsVariant id of a model whose weights nobody knows (a vocab-only GGUF lists no tensors): size_gb is 0,
/// the deployment prices 0 B of weights and says so (ResolvedSettings::weights_known false, warning
/// "weights_unknown"); weights_gb replaces it.
inline constexpr const char* kUnknownWeightsId = "unknown";

/// One quantization variant of the checkpoint and its on-disk size in decimal GB.
struct WeightsVariant {
    std::string id;          ///< e.g. "autoround-int4"
    double size_gb = 0.0;    ///< total checkpoint size, 1 GB = 1e9 bytes
    std::string hf_repo;     ///< may be empty
    std::vector<std::string> aliases;  ///< other accepted names (seed CLI spellings such as "int4")
    std::string source;      ///< where the size comes from
    /// vLLM's --quantization for serving the checkpoint at this size when it stores wider weights: "fp8" for a
    /// bf16/fp16/fp32 checkpoint priced as fp8 (vLLM quantizes it to FP8 as it loads, Fp8Config with
    /// is_checkpoint_fp8_serialized false). Empty when the checkpoint holds the weights as priced.
    std::string vllm_quantization;
    /// Bytes on the busiest card at tensor_parallel_size 1..8 (index tp − 1) when the size comes from the checkpoint's
    /// own tensor list (config/checkpoint_weights.h price_checkpoint); such a size holds the vision tower too. Empty
    /// = size_gb split evenly over the cards.
    std::vector<std::int64_t> bytes_per_rank_by_tp;
    bool operator==(const WeightsVariant&) const = default;
};

/// A speculative-decoding drafter the model can use.
struct Drafter {
    std::string id;             ///< e.g. "qwen-mtp-builtin", "zlab-qwen-dflash", "gemma-it-assistant"
    std::string method;         ///< "mtp", "dflash", "mtp_assistant"
    double weights_gb = 0.0;    ///< drafter weights, total across cards (sharded by TP)
    int num_speculative_tokens = 0;
    /// Extra KV positions cached per speculative token (docs/SOURCES.md "The KV formula": 32 for Qwen built-in MTP,
    /// 0 for separate drafter models whose KV is their own).
    int kv_extra_tokens_per_speculative_token = 0;
    std::string source;
    bool operator==(const Drafter&) const = default;
};

/// The longest max_model_len one engine derives from a config.json, and what it serves when none is given
/// (context_limit.h says whose rule each is). Filled by read_hf_config only.
struct EngineContextLimit {
    std::int64_t max_model_len = 0;          ///< tokens; 0 = not derived (max_position_embeddings stands)
    std::int64_t default_max_model_len = 0;  ///< tokens the engine serves when max_model_len is not set
    std::string source;                      ///< how it was derived, in config.json keys
    bool operator==(const EngineContextLimit&) const = default;
};

/// Everything kvcalc knows about one model. Flat facts plus one LayerCache per layer.
struct ModelSpec {
    std::string id;            ///< catalog id, e.g. "qwen3.6-27b"
    std::string display_name;
    std::string family;        ///< activation/overhead family, e.g. "qwen3-next-hybrid", "gemma4-swa-dense", "generic"
    int hidden_size = 0;
    int num_hidden_layers = 0;
    int num_attention_heads = 0;
    std::vector<LayerCache> layers;      ///< size == num_hidden_layers
    // Linear-attention (Gated DeltaNet) dims, 0 when absent; used by the activation terms.
    int linear_num_key_heads = 0, linear_num_value_heads = 0;
    int linear_key_head_dim = 0, linear_value_head_dim = 0, linear_conv_kernel_dim = 0;
    // MoE, 0 when dense.
    int num_experts = 0, num_experts_per_tok = 0;
    std::int64_t max_position_embeddings = 0;   ///< config.json max_position_embeddings (or its alias), tokens
    /// Each engine's own maximum from the config's length keys and rope scaling, indexed by engine_index()
    /// (context_limit.h reads them; the JSON key of each is its engines-table row's context_key). Unset for
    /// catalog and inline models, where max_position_embeddings is the limit for every engine.
    std::array<EngineContextLimit, kNumEngines> engine_context{};
    std::vector<WeightsVariant> weights;        ///< first entry is the default
    std::vector<Drafter> drafters;
    bool calibrated = false;                    ///< has measured anchors (seed families)
    /// Measured growing-KV bytes per token at TP=1 for bf16, replacing the per-layer sum of the full-attention
    /// layers when set (scaled by bytes-per-element / 2 for other formats). Only for models whose boot log
    /// disagrees with their config (gemma-4-12b: 45,632 B, docs/SOURCES.md "Model facts" measured_overrides).
    std::optional<std::int64_t> measured_kv_growing_bytes_per_token_tp1_bf16;
    std::string source;                         ///< where the catalog entry comes from
    std::vector<Provenance> provenance;

    // ---- Facts a config.json states (hf_config.h); all default to "absent". ----
    std::string model_type;                   ///< config.json `model_type`, e.g. "llama", "gpt_oss"; empty for seeds
    /// config.json `torch_dtype` (or `dtype`): "bfloat16", "float16", "float32"; empty when not stated (the seed
    /// catalog's bf16 checkpoints). kv_cache_dtype "auto" resolves from it (the engines table's resolve_auto_kv, deployment.h).
    std::string torch_dtype;
    /// The cache dtype vLLM's kv_cache_dtype auto stores because the checkpoint quantizes the KV cache
    /// ("fp8_e4m3" for a ModelOpt kv_cache_quant_algo FP8 or a compressed-tensors kv_cache_scheme); empty = the
    /// model dtype (the engines table's resolve_auto_kv, deployment.h). Read by read_hf_config from quantization_config.
    std::string checkpoint_kv_cache_dtype;
    /// Parallel hybrids (Falcon-H1) keep a second cache beside each attention layer: entry i is layer i's
    /// Mamba state. Empty for every other model. The KV/state budget must sum `layers` and `parallel_caches`.
    std::vector<LayerCache> parallel_caches;
    int num_kv_shared_layers = 0;             ///< trailing layers reusing earlier layers' KV (their entry is NoCache)
    std::int64_t num_parameters = 0;          ///< total parameters (param_count.h); 0 = unknown

    // Widths vLLM's profile run depends on (vllm/accounting.h); 0 = unknown (seed catalog entries).
    int vocab_size = 0;                       ///< config.json `vocab_size` (logits are full-vocab on every rank)
    int intermediate_size = 0;                ///< dense MLP width
    int moe_intermediate_size = 0;            ///< one routed expert's width
    int rotary_dim = 0;                       ///< rope dims per head (head_dim × partial_rotary_factor)
    bool multimodal = false;                  ///< a vision / audio encoder runs in vLLM's profile run
    /// Vision tower + projector parameters (config.json `vision_config`), outside num_parameters and the
    /// language model's weights estimate; vLLM loads them too (vllm/accounting.h encoder_parameters).
    std::int64_t encoder_parameters = 0;
    /// The routed experts ship as mxfp4 (quantization_config.quant_method "mxfp4", gpt-oss).
    bool mxfp4_experts = false;
    /// config.json `tie_word_embeddings`: the lm_head is the embedding tensor (vLLM allocates one).
    bool tie_word_embeddings = false;
    /// The MLP has gate + up + down projections (vLLM's fused gate_up_proj); false for up + down MLPs.
    bool gated_mlp = true;
    /// Bytes per linear-layer weight as vLLM holds it: 2 for bf16 / fp16 (also float32 checkpoints, run as
    /// 16-bit), 1 for fp8 / int8 checkpoints; 0 = a packed layout (int4, nvfp4) whose tensor shapes kvcalc does not
    /// model (vllm/accounting.h vllm_load_layout then prices no rounding for the linear layers).
    int linear_weight_bytes = 0;
    /// Rows of vLLM's rotary cos/sin caches, summed over the model's distinct ropes (vllm/accounting.h
    /// vllm_rope_cache_positions); 0 = one cache of max_position_embeddings rows.
    std::int64_t rope_cache_positions = 0;

    /// Field-wise equality (resolve()'s cache compares inline models with it).
    bool operator==(const ModelSpec&) const = default;
};

}  // namespace kvcalc

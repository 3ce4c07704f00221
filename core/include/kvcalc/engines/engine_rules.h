// How each serving engine allocates the KV cache for a ModelSpec: vLLM (V1 engine), llama.cpp, SGLang.
// Rules, formulas and their upstream sources: docs/ENGINE_RULES.md. Sizes are bytes; *_gib = bytes / 2^30.
#pragma once
#include <algorithm>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "kvcalc/base/diagnostic.h"
#include "kvcalc/model/layer_cache.h"
#include "kvcalc/base/model_spec.h"

namespace kvcalc {

// ---------------------------------------------------------------- vLLM

/// vLLM serving settings that change the KV cache (vLLM CLI names).
struct VllmSettings {
    int tensor_parallel_size = 1;
    std::int64_t max_model_len = 0;             ///< 0 = the model's max_position_embeddings
    std::int64_t max_num_batched_tokens = 8192; ///< sliding layers keep window − 1 + this many tokens
    int block_size = 16;                        ///< tokens per KV block (vLLM default 16)
    /// auto, bfloat16, float16, fp8, fp8_e4m3, fp8_e5m2, fp8_inc, int8_per_token_head, nvfp4, turboquant_k8v4,
    /// turboquant_3bit_nc (vllm/config/cache.py CacheDType). "auto" = model dtype.
    std::string kv_cache_dtype = "auto";
    int model_dtype_bytes = 2;                  ///< what "auto" means (bf16 checkpoints: 2)
    bool disable_hybrid_kv_cache_manager = false; ///< true: sliding layers are allocated like full ones
    bool mamba_prefix_caching_align = false;    ///< prefix caching "align" mode: 2 state pages per sequence
    /// config.json model_type ("" = take the ModelSpec's). Gemma 4 (gemma4, gemma4_text) pads its 512-wide heads'
    /// int8/fp8_per_token_head pages (vllm/model_executor/models/gemma4.py Gemma4Attention).
    std::string model_type;
};

/// What vLLM prints at start-up, predicted from the model, the settings and the KV memory per rank.
/// The rules vLLM's V1 engine sizes its KV pool by (the files kvcalc's vLLM rules follow).
inline constexpr const char* kVllmV1KvRules = "vLLM V1 (kv_cache_interface.py, kv_cache_utils.py)";

struct VllmKvPrediction {
    const char* engine_rules = kVllmV1KvRules;  ///< static text
    std::int64_t available_kv_bytes = 0;        ///< the input, minimum over ranks
    double available_kv_gib = 0.0;              ///< "Available KV cache memory: X GiB"
    std::int64_t kv_bytes_per_token = 0;        ///< growing (full / MLA) layers, per rank
    std::int64_t sliding_bytes_per_sequence = 0;///< sliding layers at their per-request cap, per rank
    std::int64_t state_bytes_per_sequence = 0;  ///< recurrent (Mamba / DeltaNet) state pages, per rank
    std::int64_t page_size_bytes = 0;           ///< one block of one layer (after page-size unification)
    int num_kv_cache_groups = 0;
    std::int64_t num_blocks = 0;
    std::int64_t gpu_kv_cache_tokens = 0;       ///< "GPU KV cache size: N tokens" as vLLM prints it
    double max_concurrency = 0.0;               ///< "Maximum concurrency for max_model_len tokens per request"
    std::int64_t kv_needed_bytes = 0;           ///< KV one max_model_len request needs (start-up check)
    bool refuses_to_start = false;              ///< vLLM raises at start-up
    std::int64_t estimated_max_model_len = 0;   ///< printed with the refusal (0 when none fits)
    std::vector<std::string> notes;             ///< e.g. why the token count is misleading for hybrids
    Diagnostics diagnostics;                    ///< errors (bad TP, unknown dtype) make the prediction unusable
};

/// One distinct layer cache on one rank as vLLM allocates it (vllm/v1/kv_cache_interface.py KVCacheSpec), after
/// page-size unification (kv_cache_utils.py unify_kv_cache_spec_page_size and the hybrid Mamba block alignment).
struct VllmLayerType {
    enum class Kind { full, sliding, mamba, chunked };
    Kind kind = Kind::full;       ///< FullAttentionSpec (incl. MLA) / SlidingWindowSpec / MambaSpec /
                                  ///< ChunkedLocalAttentionSpec
    std::int64_t bytes = 0;       ///< per token (full, sliding) or per sequence (mamba, unpadded state)
    std::int64_t window = 0;      ///< sliding_window or attention_chunk_size in tokens
    int layers = 0;               ///< layers with this spec
    int block = 16;               ///< tokens per block after unification
    std::int64_t page = 0;        ///< bytes of one block of one layer after unification
    int groups = 0;               ///< KV cache groups of this type (_get_kv_cache_groups_uniform_page_size)
};

/// vLLM's per-rank KV plan for one model, dtype and tensor parallel size: built once, then asked for any
/// max_model_len. Every vLLM number kvcalc shows (verdict, solvers, shopping, start-up lines) comes from it.
struct VllmPlan {
    std::vector<VllmLayerType> types;        ///< distinct specs, sorted as vLLM groups them
    int group_size = 0;                      ///< layers per KV cache group: groups share one set of tensors
    int num_groups = 0;                      ///< KV cache groups (> 1 for hybrid models)
    int min_block = 16;                      ///< smallest block size over the types (printed token count)
    std::int64_t page_size_bytes = 0;        ///< one block of one layer after unification
    std::int64_t max_num_batched_tokens = 8192;
    bool mamba_align = false;                ///< prefix caching "align" mode: 2 state pages per request
    /// Extra positions every request keeps in the full-attention layers (MTP draft tokens, docs/SOURCES.md "The KV formula"); 0 in vLLM's
    /// own accounting of a model without a drafter.
    std::int64_t extra_tokens = 0;
    std::int64_t kv_bytes_per_token = 0;     ///< growing (full / MLA) layers, per rank, unpadded
    /// Per layer group the plan was built from (group_layers order): the index of its type in `types`, -1 for a
    /// group that keeps nothing (the buckets table reads each group's page and blocks from it).
    std::vector<int> group_type;
    std::vector<std::string> notes;          ///< rounding, page alignment
    Diagnostics diagnostics;                 ///< errors (bad TP, unknown dtype, no cache layers) make it unusable
};

/// Builds the plan from grouped layers (group_layers) and the settings; settings.max_model_len is not used.
VllmPlan make_vllm_plan(const std::vector<LayerGroup>& groups, const VllmSettings& settings);

/// Blocks one request of `max_model_len` tokens holds over all KV cache groups: full attention
/// cdiv(len, block); sliding cdiv(min(window − 1 + max_num_batched_tokens, len), block) + 1; Mamba 1 (2 in
/// align mode). Source: kv_cache_interface.py max_memory_usage_bytes of each spec.
/// `max_num_batched_tokens` > 0 replaces the plan's value (it may depend on the card, see below).
std::int64_t vllm_blocks_per_request(const VllmPlan& plan, std::int64_t max_model_len,
                                     std::int64_t max_num_batched_tokens = 0);

/// Blocks one request of `max_model_len` tokens holds in one layer of type `type` (one of plan.types): full
/// cdiv(len + extra_tokens, block); sliding cdiv(min(window − 1 + max_num_batched_tokens, len), block) + 1; chunked
/// cdiv(min(chunk + max_num_batched_tokens, len), block); Mamba 1 (2 in align mode). `max_num_batched_tokens` > 0
/// replaces the plan's value.
std::int64_t vllm_type_blocks(const VllmPlan& plan, const VllmLayerType& type, std::int64_t max_model_len,
                              std::int64_t max_num_batched_tokens = 0);

/// Pool bytes one request of `max_model_len` tokens needs on one rank: blocks × page × group_size
/// (kv_cache_utils.py estimate_max_model_len_from_groups / get_max_concurrency_for_kv_cache_config). vLLM
/// refuses to start when this exceeds the available KV memory.
std::int64_t vllm_request_bytes(const VllmPlan& plan, std::int64_t max_model_len,
                                std::int64_t max_num_batched_tokens = 0);

/// vllm_request_bytes split by layer kind (the three sum to it).
struct VllmRequestSplit {
    std::int64_t full_bytes = 0, sliding_bytes = 0, mamba_bytes = 0;
    std::int64_t blocks = 0;  ///< blocks of one request over all groups (vllm_blocks_per_request)
};
VllmRequestSplit vllm_request_split(const VllmPlan& plan, std::int64_t max_model_len,
                                    std::int64_t max_num_batched_tokens = 0);


/// Blocks in a pool of `available_kv_bytes` (num_blocks = available // (page × group_size)); 0 when ≤ 0.
std::int64_t vllm_num_blocks(const VllmPlan& plan, std::int64_t available_kv_bytes);

/// Largest max_model_len in [1, limit] whose request fits in `available_kv_bytes` (vLLM's binary search in
/// estimate_max_model_len); 0 when not even one token fits. `max_num_batched_tokens` as in vllm_request_bytes.
std::int64_t vllm_estimate_max_model_len(const VllmPlan& plan, std::int64_t available_kv_bytes, std::int64_t limit,
                                         std::int64_t max_num_batched_tokens = 0);

/// The start-up lines for a plan at one max_model_len, with the memory left for KV on each rank.
VllmKvPrediction vllm_kv_lines(const VllmPlan& plan, std::int64_t max_model_len,
                               const std::vector<std::int64_t>& available_kv_bytes_per_rank);

/// Predicts vLLM's KV start-up lines. `available_kv_bytes_per_rank` holds the memory left for KV on each
/// tensor-parallel rank (the core's budget computes it; tests take it from the log); the pool is the minimum.
VllmKvPrediction predict_vllm_kv(const ModelSpec& model, const VllmSettings& settings,
                                 const std::vector<std::int64_t>& available_kv_bytes_per_rank);
/// Same, from groups already made by group_layers(model) (predict() reuses its cached groups).
VllmKvPrediction predict_vllm_kv(const ModelSpec& model, const std::vector<LayerGroup>& groups,
                                 const VllmSettings& settings,
                                 const std::vector<std::int64_t>& available_kv_bytes_per_rank);

/// Non-KV memory of a vLLM worker (weights, torch peak, non-torch, CUDA graphs) and the budget: vllm/accounting.h.

// ---------------------------------------------------------------- llama.cpp

/// llama.cpp context settings that change the KV cache (llama-server flag names).
struct LlamaCppSettings {
    std::int64_t n_ctx = 4096;        ///< total context (-c); split over sequences unless kv_unified
    int n_seq_max = 1;                ///< parallel sequences (-np)
    bool kv_unified = false;          ///< one shared cache for all sequences (--kv-unified)
    int n_ubatch = 512;               ///< physical batch (-ub); sliding cache keeps window + n_ubatch cells
    bool swa_full = false;            ///< --swa-full: sliding layers get the full context
    /// Cell padding before b7000 (the non-SWA cache and the SWA cache): 256 with flash attention, 32 without.
    /// From llama.cpp PR #17046 (merged 2025-11-06; b7045 of 2025-11-13 has it) every cache pads to 256.
    bool flash_attn = true;
    /// llama.cpp build number (the N of "build: N (commit)" / release bN); 0 = the newest rules. It picks the
    /// padding rule above and whether the SWA cache is quantized: from PR #21277 (merged 2026-04-01, first in the
    /// releases of 2026-04-02, b8628) the SWA layers keep f16 whatever -ctk/-ctv say.
    int build = 0;
    std::string cache_type_k = "f16"; ///< f32, f16, bf16, q8_0, q5_1, q5_0, q4_1, q4_0, iq4_nl
    std::string cache_type_v = "f16";
};

/// The largest -c llama.cpp takes: common/arg.cpp reads it with std::stoi (an int), and llama_context_params.n_ctx
/// is 32 bits; -c is max_model_len × max_num_seqs.
inline constexpr std::int64_t kLlamaCppMaxCtx = 2147483647;

/// The most -np sequences llama.cpp takes (llama-cparams.h LLAMA_MAX_SEQ; llama_context throws
/// "n_seq_max must be <= 256" above it).
inline constexpr std::int64_t kLlamaCppMaxSeqs = 256;

/// -b, the logical batch, as llama.cpp's common.h sets it (kvcalc has no -b flag).
inline constexpr std::int64_t kLlamaCppBatch = 2048;

/// The physical batch llama.cpp runs with (llama-context.cpp: n_batch = min(n_ctx, -b) with causal attention,
/// n_ubatch = min(n_batch, -ub)): an -ub above -b 2048 is not what the sliding cache and the compute graph get.
inline std::int64_t llama_cpp_effective_ubatch(const LlamaCppSettings& s) {
    return std::min({s.n_ctx, kLlamaCppBatch, static_cast<std::int64_t>(s.n_ubatch)});
}

/// The KV buffers llama.cpp reports ("llama_kv_cache: size = X MiB"), all layers on all devices.
struct LlamaCppKvPrediction {
    const char* engine_rules = "llama.cpp (llama-kv-cache.cpp, llama-kv-cache-iswa.cpp)";  ///< static text
    std::int64_t full_cells = 0;      ///< cells per stream of the non-SWA cache (as llama.cpp prints them)
    std::int64_t swa_cells = 0;       ///< cells per stream of the SWA cache
    int streams = 1;                  ///< n_seq_max without --kv-unified, else 1; bytes cover all streams
    int full_layers = 0, swa_layers = 0, recurrent_layers = 0;
    std::int64_t full_bytes = 0, swa_bytes = 0, recurrent_bytes = 0;
    std::int64_t k_bytes = 0, v_bytes = 0;  ///< split of full_bytes + swa_bytes
    std::int64_t total_bytes = 0;
    std::int64_t kv_bytes_per_token = 0;    ///< full layers, K + V, per cell
    std::vector<std::string> notes;
    Diagnostics diagnostics;
};
LlamaCppKvPrediction predict_llama_cpp_kv(const ModelSpec& model, const LlamaCppSettings& settings);

/// One layer cache of `model` as predict_llama_cpp_kv allocates it: the bytes of one cell (K + V of one token of
/// one stream) and the cells of one stream, from the non-SWA cache or (swa) the SWA cache; for a recurrent layer
/// the bytes of one sequence's f32 state and conv (llama-memory-recurrent.cpp), cells_per_stream 1. All 0 for a
/// layer that keeps nothing or unknown cache types.
struct LlamaCppLayerCells {
    std::int64_t cell_bytes = 0;
    std::int64_t cells_per_stream = 0;
    bool swa = false;
    bool recurrent = false;
};
LlamaCppLayerCells llama_cpp_layer_cells(const ModelSpec& model, const LlamaCppSettings& settings,
                                         const LayerCache& layer);

// ---------------------------------------------------------------- SGLang

/// SGLang settings that change the KV pool.
struct SglangSettings {
    int tp_size = 1;
    std::string kv_cache_dtype = "auto";  ///< auto, bf16, fp8_e4m3, fp8_e5m2
    int model_dtype_bytes = 2;
};

/// SGLang's token pool: "KV Cache is allocated. #tokens: N, K size: X GB, V size: Y GB" ("GB" = GiB).
struct SglangKvPrediction {
    const char* engine_rules = "SGLang (mem_cache/memory_pool.py)";  ///< static text
    std::int64_t cell_size_bytes = 0;      ///< bytes per token per rank, all layers (incl. indexer)
    std::int64_t max_total_num_tokens = 0;
    std::int64_t k_bytes = 0, v_bytes = 0; ///< MHA: K and V buffers; MLA: latent in k_bytes, v_bytes 0
    std::vector<std::string> notes;
    Diagnostics diagnostics;
};
/// One layer cache in SGLang's pools on one rank: bytes per token in the token pool (K + V, MLA latent and
/// indexer), or for a recurrent layer the bytes of one request's state (kept outside the token pool). 0 for a
/// layer that keeps nothing, an unknown dtype or heads TP cannot split.
struct SglangLayerCell {
    std::int64_t token_bytes = 0;
    std::int64_t state_bytes_per_request = 0;
};
SglangLayerCell sglang_layer_cell(const LayerCache& layer, const SglangSettings& settings);

/// Bytes one MLA layer keeps per token in SGLang's pool at `kv_bytes` per element (1 = fp8, 2 = bf16). Plain MLA:
/// (kv_lora_rank + qk_rope_head_dim) × kv_bytes (MLATokenToKVPool). With a sparse-attention indexer (DeepSeek
/// V3.2, NSATokenToKVPool in python/sglang/srt/mem_cache/memory_pool.py) the fp8 store keeps the latent in fp8
/// with one fp32 scale per 128 values and the rope part in bf16 (656 B), and every layer adds its indexer key in
/// fp8 with one fp32 scale per 128 (132 B): 61 × 788 = 48,068 B per token, as a DeepSeek-V3.2 TP8 start-up
/// log shows.
std::int64_t sglang_mla_cell_bytes(const MlaLatent& layer, int kv_bytes);

SglangKvPrediction predict_sglang_kv(const ModelSpec& model, const SglangSettings& settings,
                                     std::int64_t available_kv_bytes_per_rank);

/// SGLang's pool budget from its start-up numbers: memory free after loading weights minus what
/// mem_fraction_static leaves aside, (avail_after_load − total_gpu × (1 − mem_fraction_static)). Bytes; never
/// negative (0 means no pool).
std::int64_t sglang_kv_pool_bytes(std::int64_t total_gpu_bytes, std::int64_t avail_after_load_bytes,
                                  double mem_fraction_static);

}  // namespace kvcalc

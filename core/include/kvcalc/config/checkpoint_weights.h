// Weight bytes per card from a checkpoint's own tensor list, placed the way vLLM shards them under tensor parallelism.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "kvcalc/base/diagnostic.h"
#include "kvcalc/base/model_spec.h"
#include "kvcalc/config/hf_config.h"
#include "kvcalc/config/safetensors.h"

namespace kvcalc {

/// Where vLLM puts one checkpoint tensor under tensor parallelism (vllm/model_executor/layers/linear.py,
/// vocab_parallel_embedding.py, fused_moe/layer.py at v0.11).
enum class TensorPlacement {
    column,        ///< ColumnParallelLinear / QKVParallelLinear / MergedColumnParallelLinear: output dim split, bias too
    row,           ///< RowParallelLinear: input dim split; its bias is kept whole on every rank
    replicated,    ///< norms, routers (ReplicatedLinear), per-tensor scales, row-parallel biases, unknown modules
    vocab,         ///< VocabParallelEmbedding / ParallelLMHead: rows padded to a multiple of 64, then split
    not_loaded,    ///< skipped by the model's load_weights (see TensorRole::skip_reason)
};

/// One tensor's placement and, for skipped ones, why vLLM does not load it.
struct TensorRole {
    TensorPlacement placement = TensorPlacement::replicated;
    /// Column-parallel K or V (separate k_proj / v_proj, or the fused qkv): heads are replicated once TP
    /// exceeds num_key_value_heads (QKVParallelLinear num_kv_head_replicas).
    bool kv_heads = false;
    bool fused_qkv = false;       ///< qkv_proj / query_key_value / Wqkv: q rows then k and v rows
    std::string skip_reason;      ///< for not_loaded: the vLLM file and rule
};

/// What loading the checkpoint asks of vLLM.
struct CheckpointLoadOptions {
    /// Speculative decoding with the checkpoint's MTP layers (--speculative-config method mtp): those layers load
    /// in the drafter; without it the target model's load_weights skips them.
    bool load_mtp_layers = false;
};

/// The role of the tensor `name` in a model described by `arch` / `spec`.
TensorRole tensor_role(std::string_view name, const HfArchitecture& arch, const ModelSpec& spec,
                       const CheckpointLoadOptions& options);

/// Tensors vLLM does not load, grouped by reason.
struct SkippedTensors {
    std::string reason;          ///< e.g. "MTP layer: loaded only with speculative decoding (vllm/.../mimo.py …)"
    int count = 0;
    std::string first_name;      ///< one example
    std::int64_t bytes = 0;      ///< checkpoint bytes they hold (estimated from config.json widths without headers)
    bool bytes_estimated = false;
};

/// The checkpoint priced as vLLM loads it.
struct CheckpointWeights {
    std::int64_t checkpoint_bytes = 0;   ///< index total_size, or the headers' sum
    std::int64_t loaded_bytes = 0;       ///< all ranks at TP 1, in the dtype vLLM holds them
    /// Bytes on the busiest rank at tensor_parallel_size 1..8 (index tp − 1).
    std::vector<std::int64_t> bytes_per_rank_by_tp;
    bool from_headers = false;           ///< per-tensor shapes were read; else the index's names and total_size
    std::vector<SkippedTensors> skipped;
    std::string basis;                   ///< one line for the report: where the bytes come from
    Diagnostics diagnostics;
};

/// Largest tensor_parallel_size bytes_per_rank_by_tp covers (kvcalc's GPU count limit).
inline constexpr int kMaxCheckpointTp = 8;

/// Prices the checkpoint. With `headers` (all shards' tensors), each tensor's bytes are placed by tensor_role;
/// vocab rows are padded to 64 (vocab_parallel_embedding.py pad_vocab_size, DEFAULT_VOCAB_PADDING_SIZE).
/// Without them, total_size minus the skipped tensors (their size estimated from config.json widths) is split by
/// the config's parameter shares: norms and routers whole on every rank, the rest by TP, K/V widened when TP
/// exceeds the KV heads. Float32 weights are held as 16-bit (vllm/config/model.py _get_and_verify_dtype: dtype
/// auto gives a float32 checkpoint float16, bfloat16 from v0.10.1), so they count half. An index with neither
/// total_size nor headers gives loaded_bytes 0 and an error.
CheckpointWeights price_checkpoint(const SafetensorsIndex& index, const std::vector<SafetensorsTensor>& headers,
                                   const HfArchitecture& arch, const ModelSpec& spec,
                                   const CheckpointLoadOptions& options);

}  // namespace kvcalc

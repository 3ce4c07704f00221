// Internal helpers shared by the engine rules: per-rank head counts and element-size arithmetic.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>

#include "kvcalc/base/diagnostic.h"
#include "kvcalc/base/model_spec.h"

namespace kvcalc::engine {

/// Storage of one KV element: bytes = ceil(elements × num / den) plus `scale_bytes` per head vector.
struct ElemFormat {
    int num = 2, den = 1;
    int scale_bytes_per_head = 0;
};

/// Bytes of one head vector of `elements` values.
inline std::int64_t head_vector_bytes(std::int64_t elements, const ElemFormat& f) {
    return (elements * f.num + f.den - 1) / f.den + f.scale_bytes_per_head;
}

/// KV heads one tensor-parallel rank holds: heads / tp when tp divides heads, 1 (replicated) when heads
/// divides tp, otherwise 0 with an error naming the valid TP sizes. Source: vLLM
/// model_executor/layers/linear.py QKVParallelLinear (num_kv_head_replicas).
int kv_heads_per_rank(int kv_heads, int tp, Diagnostics& diags);

/// Integer ceiling division for non-negative values.
inline std::int64_t cdiv(std::int64_t a, std::int64_t b) { return b > 0 ? (a + b - 1) / b : 0; }

/// Bytes per sequence of a recurrent layer on one rank (state and conv sharded by heads).
std::int64_t recurrent_bytes_per_rank(const RecurrentState& r, int tp);

/// "bfloat16" / "float16" / "float32" for the spellings a config.json's torch_dtype uses; empty when it is not a
/// float dtype (or not stated). The engines' kv_cache_dtype auto rules start from it.
std::string_view config_float_dtype(std::string_view torch_dtype);

}  // namespace kvcalc::engine

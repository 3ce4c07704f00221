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

/// KV heads one tensor-parallel rank holds (kvcalc::kv_heads_per_rank in layer_cache.h, the one split rule),
/// with an error naming the valid TP sizes when the split is impossible (0 returned).
int kv_heads_per_rank(int kv_heads, int tp, Diagnostics& diags);

/// "bfloat16" / "float16" / "float32" for the spellings a config.json's torch_dtype uses; empty when it is not a
/// float dtype (or not stated). The engines' kv_cache_dtype auto rules start from it.
std::string_view config_float_dtype(std::string_view torch_dtype);

}  // namespace kvcalc::engine

// Internal helpers shared by the engine rules: per-rank head counts and element-size arithmetic.
#pragma once
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "kvcalc/base/diagnostic.h"
#include "kvcalc/base/kv_format.h"
#include "kvcalc/base/model_spec.h"
#include "kvcalc/base/units.h"
#include "kvcalc/engines/deployment.h"

namespace kvcalc::engine {

/// Storage of one KV element: bytes = ceil(elements × num / den) plus `scale_bytes_per_head` per head vector
/// (kv_format.h kv_element_storage, from the one table of KV formats).
using ElemFormat = KvElementStorage;

/// A cache dtype name an engine accepts beside its own spelling of each format (vLLM's "fp8" for fp8_e4m3).
struct KvSpellingAlias {
    std::string_view name;
    KvFormatId format;
};

/// The format an engine's cache dtype `name` stores: the format whose exact spelling (K and V alike) is `name`
/// under `spelling` (the engine's kv_dtype.cpp table), else an alias; nullptr when the engine has no such dtype.
const KvFormat* format_spelled(EngineKvSpelling (*spelling)(KvFormatId), std::string_view name,
                               std::span<const KvSpellingAlias> aliases = {});

/// Bytes of one head vector of `elements` values.
inline std::int64_t head_vector_bytes(std::int64_t elements, const ElemFormat& f) {
    return ceil_div(elements * f.num, f.den) + f.scale_bytes_per_head;
}

/// KV heads one tensor-parallel rank holds (kvcalc::kv_heads_per_rank in layer_cache.h, the one split rule),
/// with an error naming the valid TP sizes when the split is impossible (0 returned).
int kv_heads_per_rank(int kv_heads, int tp, Diagnostics& diags);

/// "bfloat16" / "float16" / "float32" for the spellings a config.json's torch_dtype uses; empty when it is not a
/// float dtype (or not stated). The engines' kv_cache_dtype auto rules start from it.
std::string_view config_float_dtype(std::string_view torch_dtype);

}  // namespace kvcalc::engine

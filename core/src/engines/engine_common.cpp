#include "engines/engine_common.h"

#include "kvcalc/model/layer_cache.h"

namespace kvcalc::engine {

int kv_heads_per_rank(int kv_heads, int tp, Diagnostics& diags) {
    if (kv_heads <= 0 || tp <= 0) {
        diags.push_back({Severity::error, "bad_tp", "tensor_parallel_size",
                         "tensor_parallel_size " + std::to_string(tp) + " and KV heads " + std::to_string(kv_heads) +
                             " must both be at least 1"});
        return 0;
    }
    if (const int h = kvcalc::kv_heads_per_rank(kv_heads, tp); h > 0) return h;
    std::string valid;
    for (int t = 1; t <= 2 * kv_heads && t <= 64; ++t) {
        if (kv_heads % t == 0 || t % kv_heads == 0) valid += (valid.empty() ? "" : ", ") + std::to_string(t);
    }
    diags.push_back({Severity::error, "tp_not_divisor", "tensor_parallel_size",
                     "tensor_parallel_size " + std::to_string(tp) + " neither divides nor is a multiple of the " +
                         std::to_string(kv_heads) + " KV heads; valid sizes include " + valid});
    return 0;
}

const KvFormat* format_spelled(EngineKvSpelling (*spelling)(KvFormatId), std::string_view name,
                               std::span<const KvSpellingAlias> aliases) {
    for (const KvFormat& f : kv_formats()) {
        const EngineKvSpelling s = spelling(f.id);
        if (s.exact && s.k == name && s.v == name) return &f;
    }
    for (const KvSpellingAlias& a : aliases)
        if (a.name == name) return &kv_formats()[static_cast<std::size_t>(a.format)];  // KvFormatId order
    return nullptr;
}

std::string_view config_float_dtype(std::string_view d) {
    if (d == "bfloat16" || d == "bf16") return "bfloat16";
    if (d == "float16" || d == "fp16" || d == "half") return "float16";
    if (d == "float32" || d == "fp32" || d == "float") return "float32";
    return {};
}

}  // namespace kvcalc::engine

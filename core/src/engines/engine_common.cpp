#include "engines/engine_common.h"

namespace kvcalc::engine {

int kv_heads_per_rank(int kv_heads, int tp, Diagnostics& diags) {
    if (kv_heads <= 0 || tp <= 0) {
        diags.push_back({Severity::error, "bad_tp", "tensor_parallel_size",
                         "tensor_parallel_size " + std::to_string(tp) + " and KV heads " + std::to_string(kv_heads) +
                             " must both be at least 1"});
        return 0;
    }
    if (kv_heads % tp == 0) return kv_heads / tp;
    if (tp % kv_heads == 0) return 1;  // each rank keeps a replica of one KV head
    std::string valid;
    for (int t = 1; t <= 2 * kv_heads && t <= 64; ++t) {
        if (kv_heads % t == 0 || t % kv_heads == 0) valid += (valid.empty() ? "" : ", ") + std::to_string(t);
    }
    diags.push_back({Severity::error, "tp_not_divisor", "tensor_parallel_size",
                     "tensor_parallel_size " + std::to_string(tp) + " neither divides nor is a multiple of the " +
                         std::to_string(kv_heads) + " KV heads; valid sizes include " + valid});
    return 0;
}

std::int64_t recurrent_bytes_per_rank(const RecurrentState& r, int tp) {
    const std::int64_t t = tp > 0 ? tp : 1;
    return cdiv(r.state_elements, t) * r.state_dtype_bytes + cdiv(r.conv_elements, t) * r.conv_dtype_bytes;
}

std::string_view config_float_dtype(std::string_view d) {
    if (d == "bfloat16" || d == "bf16") return "bfloat16";
    if (d == "float16" || d == "fp16" || d == "half") return "float16";
    if (d == "float32" || d == "fp32" || d == "float") return "float32";
    return {};
}

}  // namespace kvcalc::engine

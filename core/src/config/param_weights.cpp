// Weight bytes from a parameter breakdown and a dtype (see param_count.h for the rules).
#include "kvcalc/config/param_count.h"
#include "util/text.h"

namespace kvcalc {

namespace {

/// Bytes per weight of a linear layer, including group scales (and AWQ zero points).
double linear_bytes_per_weight(const std::string& dtype, int group_size, int scale_bytes, bool zero_points) {
    if (dtype == "fp8" || dtype == "int8") return 1.0;
    if (dtype == "int4") {
        if (group_size < 0) return 0.5;  // per-channel scales (group_size -1): a few bytes per row, negligible
        const double g = group_size > 0 ? group_size : 128.0;
        const double scale = scale_bytes > 0 ? scale_bytes : 2.0;  // fp16 (GPTQ/AWQ); bitsandbytes absmax is fp32
        return 0.5 + scale / g + (zero_points ? 0.5 / g : 0.0);   // scale (+ 4-bit zero) per group
    }
    if (dtype == "nvfp4") return 0.5 + 1.0 / 16.0;  // fp8 e4m3 scale per 16 weights
    if (dtype == "mxfp4") return 0.5 + 1.0 / 32.0;  // e8m0 scale per 32 weights
    if (dtype == "fp32") return 4.0;
    return 2.0;
}

/// Resolves "auto" from quantization_config, then torch_dtype.
std::string resolve_auto(const HfArchitecture& a, std::string& basis) {
    const std::string& m = a.quant_method;
    if (!m.empty()) {
        basis = "quantization_config: " + m;
        if (a.quant_bits > 0) basis.append(", ").append(std::to_string(a.quant_bits)).append("-bit");
    }
    if (m == "mxfp4") return "mxfp4";
    if (m == "fp8" || m == "fbgemm_fp8") return "fp8";
    if (m.rfind("modelopt", 0) == 0 || m == "nvfp4") return a.quant_bits == 8 ? "fp8" : "nvfp4";  // modelopt_fp4 too
    // 2- and 3-bit schemes (GPTQ, AQLM, HQQ) have no layout of their own here: the next wider one is an upper bound.
    if (!m.empty() && a.quant_bits >= 2 && a.quant_bits <= 4) return "int4";
    if (!m.empty() && a.quant_bits >= 5 && a.quant_bits <= 8) return "int8";
    basis = "torch_dtype: " + (a.torch_dtype.empty() ? std::string("not stated, bf16 assumed") : a.torch_dtype);
    // float32 checkpoints run as 16-bit: vLLM's dtype auto downcasts them (vllm/config/model.py
    // _get_and_verify_dtype: bfloat16 where supported), SGLang too; weights_dtype fp32 prices them at 4 bytes.
    if (a.torch_dtype == "float32") {
        basis += " (vLLM runs float32 checkpoints as bfloat16)";
        return "bf16";
    }
    if (a.torch_dtype == "float16") return "fp16";
    return "bf16";
}

}  // namespace

bool is_weights_dtype(std::string_view dtype) {
    for (const auto d : kWeightsDtypes)
        if (d == dtype) return true;
    return false;
}

std::string weights_dtype_list() {
    std::string out;
    for (const auto d : kWeightsDtypes) out.append(out.empty() ? "" : ", ").append(d);
    return out;
}

WeightsEstimate estimate_weights(const ParamBreakdown& p, const HfArchitecture& arch, std::string_view weights_dtype) {
    WeightsEstimate out;
    std::string dtype(weights_dtype);
    if (!is_weights_dtype(dtype)) {
        out.diagnostics.push_back({Severity::error, "unknown_weights_dtype", "weights_dtype",
                                   "weights dtype " + text::quoted(dtype) + " is not known; valid: " + weights_dtype_list()});
        return out;
    }
    out.basis = "chosen dtype " + dtype;
    if (dtype == "auto") {
        dtype = resolve_auto(arch, out.basis);
        const int bits = arch.quant_bits;
        if (!arch.quant_method.empty() && out.basis.rfind("torch_dtype", 0) == 0 && bits != 16) {
            // gguf, hqq, quanto, a sparsity-only compressed-tensors block, a typo: never priced as bf16 in silence.
            out.diagnostics.push_back(
                {Severity::warning, "weights_layout_unknown", "quantization_config.quant_method",
                 "quantization_config.quant_method " + text::quoted(arch.quant_method) +
                     (bits > 0 ? " (" + std::to_string(bits) + "-bit)" : std::string()) +
                     " has no weights layout in kvcalc: the weights are priced from " + out.basis + " as " + dtype +
                     "; set weights_dtype to the format the checkpoint holds (int4, int8, fp8, nvfp4, mxfp4) or "
                     "give weights_gb"});
        }
        if (!arch.quant_method.empty() && bits > 0 && bits != 4 && bits != 8 && bits < 16 &&
            (dtype == "int4" || dtype == "int8")) {
            out.diagnostics.push_back({Severity::warning, "weights_rounded_up", "quantization_config.bits",
                                       std::to_string(bits) + "-bit weights are priced as " + dtype +
                                           " (kvcalc has no " + std::to_string(bits) +
                                           "-bit layout; the next wider one is an upper bound)"});
        }
    }
    out.dtype = dtype;
    // Summed in double: each part saturates at INT64_MAX on its own, so their int64 sum could wrap.
    const auto d = [](std::int64_t x) { return static_cast<double>(x); };
    const double linear = d(p.attention) + d(p.recurrent) + d(p.dense_mlp) + d(p.shared_experts);
    const double experts = d(p.routed_experts);
    const double rest = d(p.embedding) + d(p.lm_head) + d(p.router) + d(p.norms);
    const bool awq = arch.quant_method == "awq";
    const double per_linear = linear_bytes_per_weight(dtype, arch.quant_group_size, arch.quant_scale_bytes, awq);
    if (dtype == "mxfp4") {  // gpt-oss: only the routed experts are mxfp4, attention stays bf16
        out.bytes = experts * per_linear + (linear + rest) * 2.0;
    } else if (dtype == "fp32") {
        out.bytes = (linear + experts + rest) * 4.0;
    } else {
        out.bytes = (linear + experts) * per_linear + rest * 2.0;
    }
    return out;
}

}  // namespace kvcalc

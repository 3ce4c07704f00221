// SGLang's KV cache dtypes: its --kv-cache-dtype spellings and its kv_cache_dtype auto rule.
#include <algorithm>
#include <array>
#include <string_view>
#include <vector>

#include "engines/deploy_internal.h"
#include "engines/engine_common.h"

namespace kvcalc::detail {

EngineKvSpelling sglang_spelling(KvFormatId id) {
    // SGLang --kv-cache-dtype (server_args.py): auto, bf16, fp8_e5m2, fp8_e4m3. Other formats are priced at the
    // nearest pool dtype that is not smaller than one byte.
    switch (id) {
        case KvFormatId::bf16: return {"bf16", "bf16", true};
        case KvFormatId::fp8_e5m2: return {"fp8_e5m2", "fp8_e5m2", true};
        case KvFormatId::fp8_e4m3: return {"fp8_e4m3", "fp8_e4m3", true};
        case KvFormatId::fp16: return {"bf16", "bf16", false, KvFormatId::bf16};
        case KvFormatId::int8_per_token_head:
        case KvFormatId::q8_0: return {"bf16", "bf16", false, KvFormatId::bf16};  // ggml q8_0 is 1.0625 B: nearest pool dtype at least as big
        case KvFormatId::q4_1:
        case KvFormatId::q5_0:
        case KvFormatId::q5_1:
        case KvFormatId::iq4_nl:
        case KvFormatId::q4_0:
        case KvFormatId::k8v4:
        case KvFormatId::turboquant_3bit_nc:
        case KvFormatId::nvfp4: return {"fp8_e5m2", "fp8_e5m2", false, KvFormatId::fp8_e5m2};
    }
    return {};
}

/// SGLang's kv_cache_dtype auto: the model dtype, a float32 or unstated config downcast to float16 (bfloat16 for
/// Gemma; sglang/srt/configs/model_config.py _get_and_verify_dtype).
AutoKvResolution sglang_auto_kv(std::string_view torch_dtype, std::string_view model_type, int, std::string_view) {
    AutoKvResolution out;
    const std::string_view cfg = engine::config_float_dtype(torch_dtype);
    std::string_view run = cfg;
    if (cfg.empty() || cfg == "float32") {
        run = model_type.substr(0, 5) == "gemma" ? "bfloat16" : "float16";
        if (cfg == "float32") out.note = "config dtype float32: SGLang runs the model in " + std::string(run);
    }
    out.model_dtype = std::string(run);
    out.format = find_kv_format(run == "bfloat16" ? "bf16" : "fp16");
    return out;
}

}  // namespace kvcalc::detail

// llama.cpp's KV cache types: its -ctk / -ctv spellings and its default.
#include <algorithm>
#include <array>
#include <string_view>
#include <vector>

#include "engines/deploy_internal.h"
#include "engines/engine_common.h"

namespace kvcalc::detail {

EngineKvSpelling llama_cpp_spelling(KvFormatId id) {
    // ggml cache types (-ctk / -ctv). Formats llama.cpp lacks get the nearest type of at least their size;
    // nvfp4 and q4_0 are both 9/16 B per element.
    switch (id) {
        case KvFormatId::fp16: return {"f16", "f16", true};
        case KvFormatId::bf16: return {"bf16", "bf16", true};
        case KvFormatId::q4_0: return {"q4_0", "q4_0", true};
        case KvFormatId::q8_0: return {"q8_0", "q8_0", true};
        case KvFormatId::q4_1: return {"q4_1", "q4_1", true};
        case KvFormatId::q5_0: return {"q5_0", "q5_0", true};
        case KvFormatId::q5_1: return {"q5_1", "q5_1", true};
        case KvFormatId::iq4_nl: return {"iq4_nl", "iq4_nl", true};
        case KvFormatId::k8v4: return {"q8_0", "q4_0", true};
        case KvFormatId::fp8_e5m2:
        case KvFormatId::fp8_e4m3:
        case KvFormatId::int8_per_token_head: return {"q8_0", "q8_0", false, KvFormatId::q8_0};
        case KvFormatId::nvfp4:
        case KvFormatId::turboquant_3bit_nc: return {"q4_0", "q4_0", false, KvFormatId::q4_0};
    }
    return {};
}

/// llama.cpp's kv_cache_dtype default: always f16 (common/arg.cpp --cache-type-k / --cache-type-v default), whatever
/// the model runs in.
AutoKvResolution llama_cpp_auto_kv(std::string_view torch_dtype, std::string_view, int, std::string_view) {
    AutoKvResolution out;
    const std::string_view cfg = engine::config_float_dtype(torch_dtype);
    out.format = find_kv_format("fp16");
    out.model_dtype = std::string(cfg.empty() ? "bfloat16" : cfg);
    return out;
}

}  // namespace kvcalc::detail

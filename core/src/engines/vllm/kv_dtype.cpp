// vLLM's KV cache dtypes: its --kv-cache-dtype spellings and its kv_cache_dtype auto rule.
#include <algorithm>
#include <array>
#include <string_view>
#include <vector>

#include "engines/deploy_internal.h"
#include "engines/engine_common.h"

namespace kvcalc::detail {

namespace {

/// vLLM refuses float16 for these model types (vllm/config/model.py _FLOAT16_NOT_SUPPORTED_MODELS).
bool refuses_float16(std::string_view model_type) {
    static constexpr std::array<std::string_view, 5> types{"gemma2", "gemma3", "gemma3_text", "plamo2", "glm4"};
    return std::find(types.begin(), types.end(), model_type) != types.end();
}

}  // namespace

VllmDtype vllm_dtype(KvFormatId id) {
    // vllm/config/cache.py CacheDType. q4_0 is llama.cpp's; nvfp4 has the same 9/16 B per element.
    switch (id) {
        case KvFormatId::fp16: return {"float16", true};
        case KvFormatId::bf16: return {"bfloat16", true};
        case KvFormatId::fp8_e5m2: return {"fp8_e5m2", true};
        case KvFormatId::fp8_e4m3: return {"fp8_e4m3", true};
        case KvFormatId::int8_per_token_head: return {"int8_per_token_head", true};
        case KvFormatId::k8v4: return {"turboquant_k8v4", true};
        case KvFormatId::turboquant_3bit_nc: return {"turboquant_3bit_nc", true};
        case KvFormatId::nvfp4: return {"nvfp4", true};
        case KvFormatId::q4_0:
        case KvFormatId::iq4_nl: return {"nvfp4", false, KvFormatId::nvfp4};
        case KvFormatId::q4_1:
        case KvFormatId::q5_0:  // ggml types: nearest vLLM dtype of at least their size ("fp8" is e4m3 on CUDA)
        case KvFormatId::q5_1: return {"fp8", false, KvFormatId::fp8_e4m3};
        case KvFormatId::q8_0: return {"bfloat16", false, KvFormatId::bf16};
    }
    return {"", false, id};
}

EngineKvSpelling vllm_spelling(KvFormatId id) {
    const VllmDtype t = vllm_dtype(id);
    return {t.name, t.name, t.exact, t.exact ? id : t.stand_in};
}

/// vLLM's kv_cache_dtype auto: the cache takes the model dtype (vllm/utils/torch_utils.py
/// kv_cache_dtype_str_to_dtype), which vllm/config/model.py _resolve_auto_dtype picks from the platform's supported
/// dtypes (CUDA: bfloat16, float16, float32 from sm_80; float16, float32 below, vllm/platforms/cuda.py
/// supported_dtypes), dropping float16 for the model types that refuse it; a float32 or unstated config takes the
/// first supported dtype, an unsupported one falls back to it. A checkpoint that quantizes its KV cache (ModelOpt
/// kv_cache_quant_algo FP8, compressed-tensors kv_cache_scheme) makes auto store that format instead, with a note.
AutoKvResolution vllm_auto_kv(std::string_view torch_dtype, std::string_view model_type, int sm_x10,
                              std::string_view checkpoint_kv) {
    AutoKvResolution out;
    const std::string_view cfg = engine::config_float_dtype(torch_dtype);
    // vLLM on CUDA.
    const bool bf16_card = sm_x10 == 0 || sm_x10 >= 80;
    std::vector<std::string_view> supported;
    if (bf16_card) supported.push_back("bfloat16");
    if (!refuses_float16(model_type)) supported.push_back("float16");
    supported.push_back("float32");
    const std::string_view preferred = supported.front();
    std::string_view run = cfg.empty() || cfg == "float32" ? preferred : cfg;
    if (std::find(supported.begin(), supported.end(), run) == supported.end()) {
        out.note = "vLLM runs this model in " + std::string(preferred) + ": the card has no " + std::string(run) +
                   (bf16_card ? "" : " (bfloat16 needs compute capability 8.0)");
        run = preferred;
    } else if (cfg == "float32") {
        out.note = "config dtype float32: vLLM runs the model in " + std::string(run);
    }
    out.model_dtype = std::string(run);
    if (run == "float32") {
        out.error = "vLLM runs " + std::string(model_type) +
                    " in float32 on this card (no bfloat16 below compute capability 8.0, and vLLM refuses float16 "
                    "for this model type), so kv_cache_dtype auto stores a 4-byte float32 cache and the weights "
                    "double; kvcalc prices 16-bit and smaller models only — choose a card with compute capability "
                    "8.0 or newer";
        return out;
    }
    out.format = find_kv_format(run == "bfloat16" ? "bf16" : "fp16");
    if (const KvFormat* ckpt = checkpoint_kv.empty() ? nullptr : find_kv_format(checkpoint_kv)) {
        // vllm/utils/torch_utils.py resolve_kv_cache_dtype_string; compressed-tensors: Attention.__init__.
        out.format = ckpt;
        out.note = "the checkpoint quantizes its KV cache (quantization_config): vLLM's kv_cache_dtype auto stores " +
                   std::string(ckpt->name) + " (" + ckpt->bpe_exact + " B per element), not " + std::string(run) +
                   (out.note.empty() ? "" : "; " + out.note);
    }
    return out;
}

}  // namespace kvcalc::detail

// Hub repos that hold a popular model in another weights format (catalog_popular.h popular_format_repos).
#include "kvcalc/catalog/catalog_popular.h"

namespace kvcalc {

std::vector<PopularFormatRepo> popular_format_repos() {
    // Each repo is a published checkpoint of the model in that format: the vendor's own (Qwen's -FP8 / -AWQ /
    // -GPTQ-Int4 uploads), Red Hat AI's llm-compressor uploads (huggingface.co/collections/neuralmagic/
    // llama-31-quantization, huggingface.co/RedHatAI), Hugging Face's hugging-quants AWQ uploads.
    return {
        {"qwen3-0.6b", "fp8", "Qwen/Qwen3-0.6B-FP8"},
        {"qwen3-1.7b", "fp8", "Qwen/Qwen3-1.7B-FP8"},
        {"qwen3-4b", "fp8", "Qwen/Qwen3-4B-FP8"},
        {"qwen3-4b", "int4", "Qwen/Qwen3-4B-AWQ"},
        {"qwen3-8b", "fp8", "Qwen/Qwen3-8B-FP8"},
        {"qwen3-8b", "int4", "Qwen/Qwen3-8B-AWQ"},
        {"qwen3-14b", "fp8", "Qwen/Qwen3-14B-FP8"},
        {"qwen3-14b", "int4", "Qwen/Qwen3-14B-AWQ"},
        {"qwen3-32b", "fp8", "Qwen/Qwen3-32B-FP8"},
        {"qwen3-32b", "int4", "Qwen/Qwen3-32B-AWQ"},
        {"qwen3-30b-a3b", "fp8", "Qwen/Qwen3-30B-A3B-FP8"},
        {"qwen3-30b-a3b", "int4", "Qwen/Qwen3-30B-A3B-GPTQ-Int4"},
        {"qwen3-235b-a22b", "fp8", "Qwen/Qwen3-235B-A22B-FP8"},
        {"qwen3-235b-a22b", "int4", "Qwen/Qwen3-235B-A22B-GPTQ-Int4"},
        {"qwen3-coder-480b-a35b", "fp8", "Qwen/Qwen3-Coder-480B-A35B-Instruct-FP8"},
        {"qwen3-next-80b-a3b", "fp8", "Qwen/Qwen3-Next-80B-A3B-Instruct-FP8"},
        {"qwen2.5-7b", "fp8", "RedHatAI/Qwen2.5-7B-Instruct-FP8-dynamic"},
        {"qwen2.5-7b", "int8", "RedHatAI/Qwen2.5-7B-Instruct-quantized.w8a8"},
        {"qwen2.5-7b", "int4", "Qwen/Qwen2.5-7B-Instruct-AWQ"},
        {"qwen2.5-32b", "int4", "Qwen/Qwen2.5-32B-Instruct-AWQ"},
        {"llama-3.1-8b", "fp8", "RedHatAI/Meta-Llama-3.1-8B-Instruct-FP8-dynamic"},
        {"llama-3.1-8b", "int8", "RedHatAI/Meta-Llama-3.1-8B-Instruct-quantized.w8a8"},
        {"llama-3.1-8b", "int4", "RedHatAI/Meta-Llama-3.1-8B-Instruct-quantized.w4a16"},
        {"llama-3.1-70b", "fp8", "RedHatAI/Meta-Llama-3.1-70B-Instruct-FP8-dynamic"},
        {"llama-3.1-70b", "int8", "RedHatAI/Meta-Llama-3.1-70B-Instruct-quantized.w8a8"},
        {"llama-3.1-70b", "int4", "RedHatAI/Meta-Llama-3.1-70B-Instruct-quantized.w4a16"},
        {"llama-3.3-70b", "fp8", "RedHatAI/Llama-3.3-70B-Instruct-FP8-dynamic"},
        {"llama-3.3-70b", "int4", "RedHatAI/Llama-3.3-70B-Instruct-quantized.w4a16"},
        {"phi-4", "fp8", "RedHatAI/phi-4-FP8-dynamic"},
    };
}

std::string popular_format_repo(std::string_view model_id, std::string_view weights_dtype) {
    for (const PopularFormatRepo& r : popular_format_repos())
        if (r.model_id == model_id && r.weights_dtype == weights_dtype) return r.hf_repo;
    return "";
}

}  // namespace kvcalc

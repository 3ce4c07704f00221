// The worst inputs the input limits admit (docs/SCHEMA.md "Limits"), generated rather than stored: a config.json
// with n NaN tokens in one array (1M of them is 4 MB, the case that froze the page), with n NaN-valued keys, and
// with n typed layers. Shared by the budget test (linear work) and the worst-input benchmark (time and memory).
#pragma once
#include <cstddef>
#include <string>

namespace kvcalc::worst {

/// A Llama 3.1 8B-shaped head of keys every generated config starts with (meta-llama/Llama-3.1-8B config.json).
inline const char* kHead = R"({"architectures":["LlamaForCausalLM"],"model_type":"llama","hidden_size":4096,)"
                           R"("num_attention_heads":32,"num_key_value_heads":8,"head_dim":128,"intermediate_size":14336,)"
                           R"("vocab_size":128256,"max_position_embeddings":8192,"torch_dtype":"bfloat16",)";

/// n NaN tokens in one array member.
inline std::string nan_config(std::size_t n) {
    std::string t = std::string(kHead) + R"("num_hidden_layers":32,"x":[)";
    t.reserve(t.size() + 4 * n + 2);
    for (std::size_t i = 0; i < n; ++i) t += i ? ",NaN" : "NaN";
    return t + "]}";
}

/// n members, each NaN.
inline std::string many_keys_config(std::size_t n) {
    std::string t = std::string(kHead) + R"("num_hidden_layers":32)";
    for (std::size_t i = 0; i < n; ++i) t += ",\"k" + std::to_string(i) + "\":NaN";
    return t + "}";
}

/// n layers, five sliding-window layers per full one (Gemma 3's pattern).
inline std::string layers_config(std::size_t n) {
    std::string t = std::string(kHead) + R"("sliding_window":4096,"num_hidden_layers":)" + std::to_string(n) +
                    R"(,"layer_types":[)";
    for (std::size_t i = 0; i < n; ++i)
        t += std::string(i ? "," : "") + (i % 6 == 5 ? "\"full_attention\"" : "\"sliding_attention\"");
    return t + "]}";
}

}  // namespace kvcalc::worst

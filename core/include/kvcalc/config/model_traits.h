// What kvcalc knows about each Hugging Face `model_type` beyond the keys a config.json spells out.
#pragma once
#include <string_view>
#include <vector>

namespace kvcalc {

/// How the layers of a model_type are typed when its config has no explicit per-layer list (`layer_types`,
/// `hybrid_override_pattern`, `block_configs`). docs/CONFIG_JSON.md lists the rules in the order they apply.
enum class LayerRule {
    from_keys,           ///< the generic key rules (sliding_window_pattern, use_sliding_window, full_attention_interval…)
    alternating_sliding, ///< even layers slide, odd layers are global (Gemma 2, gpt-oss `layer_types` default)
    llama4_chunked,      ///< chunked local attention where no_rope_layers[i] is 1, else global (Llama4TextConfig)
    falcon_h1_parallel,  ///< attention and a Mamba-2 mixer side by side in every layer (FalconH1Config)
    encoder_only,        ///< bidirectional encoder (BERT family): no KV cache at all
};

/// One model_type. `defaults_json` holds the transformers config class's `__init__` defaults that change memory
/// (layer counts, heads, head_dim, windows, sliding patterns, MoE widths, tie_word_embeddings), spelled as the
/// config.json keys, so a sparse published config (Gemma 3 27B's ten-key text_config) reads as transformers reads
/// it. Only keys a config may omit are listed; a default of None in transformers is left out.
struct ModelTypeTraits {
    std::string_view model_type;     ///< e.g. "gemma3_text"
    std::string_view config_class;   ///< transformers class, e.g. "Gemma3TextConfig"
    std::string_view source;         ///< file defining it, under transformers src/transformers/models/ unless it says otherwise
    std::string_view defaults_json;  ///< JSON object of defaults; "{}" when none apply
    LayerRule layer_rule = LayerRule::from_keys;
    /// llama.cpp builds a separate SWA (or chunked) KV cache for this architecture (llama-model.cpp sets
    /// hparams.swa_type / n_swa and builds llama_kv_cache_iswa); elsewhere its sliding layers get the full context.
    bool llama_cpp_swa = false;
    /// For multimodal wrappers (`text_config`, `llm_config`, `language_config`): the inner text model_type used
    /// when the nested object does not name one (LlavaConfig's text_config defaults to LlamaConfig). Empty otherwise.
    std::string_view inner_model_type = {};
};

/// The whole table, one row per model_type kvcalc knows (docs/CONFIG_JSON.md reproduces it).
const std::vector<ModelTypeTraits>& model_traits_table();

/// The row for `model_type`, nullptr when kvcalc has none (the config is then read from its keys alone).
const ModelTypeTraits* find_model_traits(std::string_view model_type);

/// True when `model_type` or one of `architectures` names a bidirectional encoder (BERT, RoBERTa, XLM-R,
/// ModernBERT, NomicBERT…; "…ForMaskedLM", "…ForSequenceClassification" on such a model): vLLM gives these
/// EncoderOnlyAttentionSpec, whose max_memory_usage_bytes is 0 (vllm/v1/kv_cache_interface.py).
bool is_encoder_only(std::string_view model_type, const std::vector<std::string_view>& architectures);

}  // namespace kvcalc

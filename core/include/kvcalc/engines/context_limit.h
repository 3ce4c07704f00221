// The longest max_model_len each engine accepts for a model, as the engine derives it from config.json.
#pragma once
#include <cstdint>
#include <string>

#include "kvcalc/engines/deployment.h"
#include "kvcalc/base/model_spec.h"

namespace kvcalc {

/// `engine`'s derived maximum for `model` (tokens, 0 = unknown) with its default and the keys it came from.
/// Models read from a config.json carry each engine's own rule (read_hf_config, hf_config_context.cpp):
///  - vLLM: vllm/config/model.py _get_and_verify_max_len (+ ModelArchConfigConvertorBase
///    .derive_max_model_len_and_key): the smallest of its length keys, model_max_length winning; then rope
///    scaling multiplies by `factor` unless rope_type is su / longrope / llama3 (or the model is Gemma 3),
///    YaRN from original_max_position_embeddings; LongRoPE serves original_max_position_embeddings by default.
///  - SGLang: sglang/srt/utils/hf_transformers/common.py get_context_length: the first of its keys, times
///    rope_scaling.factor unless rope_scaling names original_max_position_embeddings or rope_type llama3.
///  - llama.cpp: n_ctx_train is the GGUF context_length convert_hf_to_gguf.py writes (the first of
///    max_position_embeddings, n_ctx, n_positions, max_length, max_sequence_length, model_max_length); rope
///    scaling does not change it, and llama.cpp only warns past it.
/// Other models (catalog, inline JSON) have max_position_embeddings for every engine.
EngineContextLimit context_limit(const ModelSpec& model, EngineId engine);

}  // namespace kvcalc

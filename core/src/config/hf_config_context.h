// Internal: each engine's longest max_model_len from config.json's length keys and rope scaling.
#pragma once
#include "config/hf_config_keys.h"
#include "kvcalc/config/hf_config.h"

namespace kvcalc::hf {

/// Reads the length keys (max_position_embeddings and the other spellings engines accept), rope_scaling /
/// rope_parameters and original_max_position_embeddings once each, and fills spec.max_position_embeddings and
/// spec.engine_context (one per engine) by each engine's rule (context_limit.h cites them).
/// Errors name the key: a length or factor that is not a number, a scaled length past 10^9 tokens, a rope type
/// given twice with two values.
void read_context_limits(KeyReader& keys, HfConfig& out);

}  // namespace kvcalc::hf

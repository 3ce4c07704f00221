// vLLM's own value of a flag the user left unset, as the core prices it (for front ends that offer the flag).
#pragma once
#include <cstdint>

#include "kvcalc/engines/deployment.h"
#include "kvcalc/base/load.h"

namespace kvcalc {

/// vLLM's max_num_batched_tokens for `deployment` at `load` (tokens): the scenario's flag when set, else vLLM's
/// default for the card and release (vllm_resolve_defaults: arg_utils.py get_batch_defaults, capped at
/// max_num_seqs × max_model_len); 0 for other engines.
std::int64_t vllm_max_num_batched_tokens(const Deployment& deployment, const Load& load);

}  // namespace kvcalc

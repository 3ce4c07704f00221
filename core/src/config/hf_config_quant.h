// Internal: quantization_config → the weights format the engine loads and the KV cache dtype the checkpoint fixes.
#pragma once
#include "config/hf_config_keys.h"
#include "kvcalc/config/hf_config.h"

namespace kvcalc::hf {

/// Reads `quantization_config` (or `compression_config`) into h.quant_method / quant_bits / quant_group_size /
/// quant_scale_bytes and h.kv_cache_quant (quant_group_size -1 = one scale per output channel). Follows what vLLM's quantization configs read from the dict
/// (vllm/model_executor/layers/quantization/*.py from_config): GPTQ `bits`, AWQ `w_bit` / `bits`, compressed-tensors
/// `config_groups.*.weights.num_bits`, bitsandbytes `load_in_4bit` / `load_in_8bit`, ModelOpt `quant_algo`.
/// Errors name the key, the value and what is valid: a non-object quantization_config, a `bits` that is not a whole
/// number or not a width the method stores, GPTQ without `bits`, bitsandbytes with both load_in flags or an unknown
/// bnb_4bit_quant_type. AWQ without `bits` is read as transformers' AwqConfig default (4) with a warning, since vLLM
/// refuses such a file. Methods kvcalc has no layout for are left for estimate_weights to warn about.
void read_quantization(KeyReader& keys, HfArchitecture& h);

}  // namespace kvcalc::hf

// Real config.json texts the browser flows paste, each with its source.

// Qwen/Qwen3-32B-AWQ's config.json (huggingface.co/Qwen/Qwen3-32B-AWQ/blob/main/config.json): Qwen3-32B's shape
// with 4-bit AWQ weights.
export const qwen3_32b_awq = JSON.stringify({
  architectures: ['Qwen3ForCausalLM'], model_type: 'qwen3', _name_or_path: 'Qwen/Qwen3-32B-AWQ',
  hidden_size: 5120, intermediate_size: 25600, num_hidden_layers: 64, num_attention_heads: 64,
  num_key_value_heads: 8, head_dim: 128, max_position_embeddings: 40960, vocab_size: 151936,
  rms_norm_eps: 1e-6, rope_theta: 1000000, tie_word_embeddings: false, torch_dtype: 'float16',
  hidden_act: 'silu', attention_bias: false, use_sliding_window: false, sliding_window: null, max_window_layers: 64,
  quantization_config: { bits: 4, group_size: 128, quant_method: 'awq', version: 'gemm', zero_point: true },
});

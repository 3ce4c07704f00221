// llama.cpp's compute buffer per device as a band: the worst-case graph llama-context.cpp reserves at start
// (graph_reserve over a full cache, min(n_ctx, -b 2048, n_ubatch) tokens, all of them outputs) and what ggml-alloc keeps
// alive of it. The band's constants are checked against the real logs in tests/data/gguf/logs.
#include <algorithm>

#include "kvcalc/base/checked_math.h"
#include "kvcalc/engines/llama_cpp_buffers.h"

namespace kvcalc {

namespace {

constexpr std::int64_t kF32 = 4, kF16 = 2;
/// GGML_KQ_MASK_PAD (ggml.h): the mask's query rows are padded to a multiple of it.
constexpr std::int64_t kMaskPad = 64;

std::int64_t nonneg(std::int64_t x) { return std::max<std::int64_t>(x, 0); }
std::int64_t round_up(std::int64_t x, std::int64_t n) { return sat_add(x, n - 1) / n * n; }

}  // namespace

LlamaCppComputeShape llama_cpp_compute_shape(const ModelSpec& m, const LlamaCppSettings& s, bool logits_here) {
    LlamaCppComputeShape g;
    g.n_tokens = std::max<std::int64_t>(llama_cpp_effective_ubatch(s), 0);
    const LlamaCppKvPrediction kv = predict_llama_cpp_kv(m, s);
    g.n_kv = kv.full_layers > 0 ? kv.full_cells : kv.swa_layers > 0 ? kv.swa_cells : g.n_tokens;
    g.n_embd = m.hidden_size;
    g.n_head = m.num_attention_heads;
    g.n_vocab = logits_here && !gguf_arch_is_encoder(m.model_type) ? m.vocab_size : 0;
    g.n_ff = std::max<std::int64_t>(m.intermediate_size,
                                    static_cast<std::int64_t>(m.moe_intermediate_size) * m.num_experts_per_tok);
    g.flash_attn = s.flash_attn;
    return g;
}

LlamaCppComputeBand llama_cpp_compute_band(const LlamaCppComputeShape& g) {
    LlamaCppComputeBand b;
    const std::int64_t t = nonneg(g.n_tokens);
    if (t == 0) return b;
    const std::int64_t hidden = sat_mul(sat_mul(nonneg(g.n_embd), t), kF32);
    // Without flash attention each layer's KQ = K·Q is an f32 [n_kv, n_tokens, n_head] tensor, and soft_max
    // overwrites it in place (ggml-alloc hands an op its parent's memory when the op may write over it).
    const std::int64_t scores =
        g.flash_attn ? 0 : sat_mul(sat_mul(sat_mul(nonneg(g.n_kv), t), nonneg(g.n_head)), kF32);
    const std::int64_t mask = sat_mul(sat_mul(nonneg(g.n_kv), round_up(t, kMaskPad)), g.flash_attn ? kF16 : kF32);
    const std::int64_t logits = sat_mul(sat_mul(nonneg(g.n_vocab), t), kF32);
    const std::int64_t ffn = sat_mul(sat_mul(nonneg(g.n_ff), t), kF32);
    const std::int64_t head = sat_add(logits, nonneg(g.output_copy_bytes));
    b.lower_bytes = std::max(scores, head);
    b.upper_bytes = sat_add(sat_add(sat_add(scores, head), sat_add(mask, sat_mul(ffn, 3))),
                            sat_add(sat_mul(hidden, 8), nonneg(g.layer_copy_bytes)));
    return b;
}

}  // namespace kvcalc

// llama.cpp's compute buffer per device: the peak of live tensors in the worst-case graph llama-context.cpp reserves
// at start (graph_reserve over a full cache, min(n_ctx, -b 2048, n_ubatch) tokens, all of them outputs), the way
// ggml-alloc.c frees and reuses them. The rule is in llama_cpp_buffers.h; docs/GGUF.md has it against real logs.
#include <algorithm>
#include <string>
#include <variant>

#include "kvcalc/base/checked_math.h"
#include "kvcalc/engines/llama_cpp_buffers.h"

namespace kvcalc {

namespace {

constexpr std::int64_t kF32 = 4, kF16 = 2;
/// GGML_KQ_MASK_PAD (ggml.h): the mask's query rows are padded to a multiple of it.
constexpr std::int64_t kMaskPad = 64;

std::int64_t nonneg(std::int64_t x) { return std::max<std::int64_t>(x, 0); }
std::int64_t round_up(std::int64_t x, std::int64_t n) { return sat_add(x, n - 1) / n * n; }

struct Heads {
    std::int64_t kv_heads = 0, head_k = 0, head_v = 0;
};

/// The first attention layer's K/V heads and head sizes (llama.cpp builds every attention layer with them).
Heads first_attention(const ModelSpec& m) {
    for (const LayerCache& l : m.layers) {
        const Heads h = std::visit(
            overloaded{[](const FullAttention& a) { return Heads{a.num_key_value_heads, a.head_dim_k, a.head_dim_v}; },
                       [](const SlidingWindow& a) { return Heads{a.num_key_value_heads, a.head_dim_k, a.head_dim_v}; },
                       [](const ChunkedLocalAttention& a) {
                           return Heads{a.num_key_value_heads, a.head_dim_k, a.head_dim_v};
                       },
                       [](const MlaLatent&) { return Heads{}; }, [](const RecurrentState&) { return Heads{}; },
                       [](const NoCache&) { return Heads{}; }},
            l);
        if (h.kv_heads > 0) return h;
    }
    return {};
}

/// Architectures whose attention reads Q, K and V from one attn_qkv product (src/models/*.cpp build a view of it).
bool fuses_qkv(const std::string& arch) {
    static const char* const names[] = {"gptneox", "falcon", "bloom", "mpt", "gpt2", "phi2", "phi3", "codeshell",
                                        "chatglm", "starcoder"};
    for (const char* n : names)
        if (arch == n) return true;
    return false;
}

}  // namespace

LlamaCppComputeShape llama_cpp_compute_shape(const ModelSpec& m, const LlamaCppSettings& s, bool logits_here) {
    LlamaCppComputeShape g;
    g.n_tokens = std::max<std::int64_t>(llama_cpp_effective_ubatch(s), 0);
    const LlamaCppKvPrediction kv = predict_llama_cpp_kv(m, s);
    g.encoder = gguf_arch_is_encoder(m.model_type);
    g.fused_qkv = fuses_qkv(m.model_type);
    // Learned absolute positions (LLM_TENSOR_POS_EMBD): a second row gather on the CPU.
    g.input_row_tensors = m.model_type == "bert" || m.model_type == "gpt2" || m.model_type == "starcoder" ? 2 : 1;
    g.n_kv = kv.full_layers > 0 ? kv.full_cells : kv.swa_layers > 0 ? kv.swa_cells : g.n_tokens;
    g.n_kv_swa = kv.full_layers > 0 && kv.swa_layers > 0 ? kv.swa_cells : 0;
    g.n_embd = m.hidden_size;
    g.n_head = m.num_attention_heads;
    const Heads h = first_attention(m);
    // An encoder has no cache, so its layers read as NoCache: its heads are all query heads, of n_embd / n_head.
    const std::int64_t head_k = h.head_k > 0 ? h.head_k : (g.n_head > 0 ? g.n_embd / g.n_head : 0);
    const std::int64_t head_v = h.head_v > 0 ? h.head_v : head_k;
    const std::int64_t kv_heads = h.kv_heads > 0 ? h.kv_heads : g.n_head;
    g.n_embd_q = sat_mul(g.n_head, head_k);
    g.n_embd_k = sat_mul(kv_heads, head_k);
    g.n_embd_v = sat_mul(kv_heads, head_v);
    g.n_vocab = logits_here && !g.encoder ? m.vocab_size : 0;
    g.n_ff = std::max<std::int64_t>(m.intermediate_size,
                                    static_cast<std::int64_t>(m.moe_intermediate_size) * m.num_experts_per_tok);
    g.flash_attn = s.flash_attn;
    return g;
}

LlamaCppComputeBand llama_cpp_compute_band(const LlamaCppComputeShape& g) {
    LlamaCppComputeBand b;
    const std::int64_t t = nonneg(g.n_tokens);
    if (t == 0) return b;
    auto act = [&](std::int64_t width) { return sat_mul(sat_mul(nonneg(width), t), kF32); };  // [width, t] f32
    const std::int64_t h = act(g.n_embd);
    const std::int64_t mask_elt = g.flash_attn ? kF16 : kF32;
    const std::int64_t masks = sat_add(sat_mul(sat_mul(nonneg(g.n_kv), round_up(t, kMaskPad)), mask_elt),
                                       sat_mul(sat_mul(nonneg(g.n_kv_swa), round_up(t, kMaskPad)), mask_elt));

    std::int64_t attention = 0;
    if (g.n_head > 0) {
        const std::int64_t qkv = act(sat_add(sat_add(g.n_embd_q, g.n_embd_k), g.n_embd_v));
        const std::int64_t extra = g.encoder     ? act(g.n_embd_v)
                                   : g.fused_qkv ? act(sat_add(g.n_embd_q, g.n_embd_k))
                                                 : qkv;
        const std::int64_t scores = g.flash_attn ? act(g.n_embd_q)
                                                 : sat_mul(sat_mul(sat_mul(nonneg(g.n_kv), t), nonneg(g.n_head)), kF32);
        attention = sat_add(sat_add(sat_add(masks, h), sat_add(qkv, extra)), scores);
    }
    const std::int64_t ffn = sat_add(sat_add(masks, sat_mul(h, 2)), sat_mul(act(g.n_ff), 3));
    const std::int64_t output = g.n_vocab > 0 ? sat_add(sat_add(nonneg(g.output_copy_bytes), act(g.n_vocab)), h) : 0;
    b.bytes = std::max({attention, ffn, output});
    b.lower_bytes = b.bytes;
    b.upper_bytes = sat_add(b.bytes, h);
    const std::int64_t masks_f32 = sat_add(sat_mul(sat_mul(nonneg(g.n_kv), round_up(t, kMaskPad)), kF32),
                                           sat_mul(sat_mul(nonneg(g.n_kv_swa), round_up(t, kMaskPad)), kF32));
    b.host_bytes = sat_add(sat_add(sat_mul(h, std::max(g.input_row_tensors, 1)), masks_f32), sat_mul(t, 3 * 4));
    return b;
}

}  // namespace kvcalc

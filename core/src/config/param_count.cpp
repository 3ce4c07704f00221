// Parameter count from the architecture. The per-part formulas are written out in docs/CONFIG_JSON.md.
#include "kvcalc/config/param_count.h"

#include "kvcalc/base/checked_math.h"
#include "kvcalc/model/layer_kinds.h"

namespace kvcalc {

namespace {

// Saturating: dims inside the reader's limits (10^6 wide, 10^4 layers, 10^6 experts) overflow int64 in plain
// arithmetic; a saturated count prices weights far above any GPU, which the weights check then rejects.
using i64 = SatInt;

struct Counter {
    const ModelSpec& s;
    const HfArchitecture& h;
    ParamBreakdown p;

    i64 hidden() const { return s.hidden_size; }

    /// kv_proj_tensors: 2 (k_proj, v_proj) or 1 (attention_k_eq_v: no v_proj), layer_kv_proj_tensors.
    void gqa(int kv_heads, int head_dim, int kv_proj_tensors) {
        const i64 q = static_cast<i64>(s.num_attention_heads) * head_dim;
        const i64 kv = static_cast<i64>(kv_heads) * head_dim;
        p.attention += hidden() * q + hidden() * kv * kv_proj_tensors + q * hidden();
        if (h.attention_bias) p.attention += q + kv * kv_proj_tensors;
        if (h.model_type == "gpt_oss") p.attention += hidden() + s.num_attention_heads;  // o bias + sinks
        if (h.qk_norm) p.attention += 2LL * head_dim;
    }

    void mla() {
        const i64 heads = s.num_attention_heads;
        const i64 qk = static_cast<i64>(h.qk_nope_head_dim) + h.qk_rope_head_dim;
        if (h.q_lora_rank > 0) {
            p.attention += hidden() * h.q_lora_rank + h.q_lora_rank + static_cast<i64>(h.q_lora_rank) * heads * qk;
        } else {
            p.attention += hidden() * heads * qk;
        }
        p.attention += hidden() * (static_cast<i64>(h.kv_lora_rank) + h.qk_rope_head_dim) + h.kv_lora_rank;
        p.attention += static_cast<i64>(h.kv_lora_rank) * heads * (static_cast<i64>(h.qk_nope_head_dim) + h.v_head_dim);
        p.attention += heads * h.v_head_dim * hidden();
        if (h.index_head_dim > 0) {  // DeepSeek V3.2 indexer: wq_b, wk, k_norm (weight + bias), weights_proj
            const i64 q_in = h.q_lora_rank > 0 ? h.q_lora_rank : hidden();
            p.attention += q_in * h.index_n_heads * h.index_head_dim + hidden() * h.index_head_dim +
                           2LL * h.index_head_dim + hidden() * h.index_n_heads;
        }
    }

    void gdn() {
        const i64 key_dim = static_cast<i64>(s.linear_num_key_heads) * s.linear_key_head_dim;
        const i64 value_dim = static_cast<i64>(s.linear_num_value_heads) * s.linear_value_head_dim;
        const i64 conv_dim = 2 * key_dim + value_dim;
        p.recurrent += hidden() * (2 * key_dim + 2 * value_dim) + hidden() * 2 * s.linear_num_value_heads;
        p.recurrent += conv_dim * s.linear_conv_kernel_dim + 2LL * s.linear_num_value_heads + s.linear_value_head_dim;
        p.recurrent += value_dim * hidden();
    }

    void mamba() {
        const i64 d_inner = h.mamba_d_inner;
        const i64 ds = h.mamba_d_state;
        if (h.mamba_num_heads > 0) {  // Mamba-2
            const i64 nh = h.mamba_num_heads;
            const i64 conv_dim = d_inner + 2LL * h.mamba_n_groups * ds;
            p.recurrent += hidden() * (2 * d_inner + 2LL * h.mamba_n_groups * ds + nh);
            p.recurrent += conv_dim * (h.mamba_d_conv + 1) + 3 * nh + d_inner + d_inner * hidden();
        } else {  // Mamba-1: dt_rank = ceil(hidden / 16)
            const i64 dt_rank = (hidden() + 15) / 16;
            p.recurrent += hidden() * 2 * d_inner + d_inner * (h.mamba_d_conv + 1) + d_inner * (dt_rank + 2 * ds);
            p.recurrent += dt_rank * d_inner + d_inner + d_inner * ds + d_inner + d_inner * hidden();
        }
    }

    void mixer(const LayerCache& c) {
        switch (layer_mixer_weights(c)) {
            case MixerWeights::none: break;
            case MixerWeights::gqa_attention: {
                // MiniCPM3 caches plain K/V but its projections keep the MLA shapes (minicpm3.py
                // MiniCPM3Attention: q_a/q_b, kv_a_proj_with_mqa, kv_b, o_proj).
                if (h.kv_lora_rank > 0) {
                    mla();
                    break;
                }
                const KvHeads k = layer_kv_heads(c).value_or(KvHeads{});
                gqa(k.num_key_value_heads, k.head_dim_k, layer_kv_proj_tensors(c));
                break;
            }
            case MixerWeights::mla_attention: mla(); break;
            case MixerWeights::recurrent:
                if (s.linear_num_value_heads > 0) gdn();
                else mamba();
                break;
        }
    }

    /// Nemotron-H: one block per layer. '-' is a non-gated squared-ReLU MLP (up + down); 'E' a MoE block of
    /// n_routed_experts such MLPs of moe_intermediate_size, one shared MLP of moe_shared_expert_intermediate_size
    /// and a sigmoid router with a correction bias (transformers/vLLM NemotronHMLP, NemotronHMoE).
    void nemotron_h_block(int layer) {
        const char c = static_cast<std::size_t>(layer) < h.layer_blocks.size() ? h.layer_blocks[layer] : '-';
        if (c == '-') {
            p.dense_mlp += 2 * hidden() * h.intermediate_size;
        } else if (c == 'E') {
            const i64 e = s.num_experts;
            // Latent MoE (Nemotron 3 Super, moe_latent_size): experts map latent → inter → latent, with one
            // hidden → latent and one latent → hidden projection per block.
            const i64 d = h.moe_latent_size > 0 ? h.moe_latent_size : hidden();
            p.routed_experts += e * 2 * d * h.moe_intermediate_size;
            if (h.moe_latent_size > 0) p.shared_experts += 2 * hidden() * h.moe_latent_size;
            p.shared_experts += 2 * hidden() * h.shared_expert_intermediate_size;
            p.router += hidden() * e + e;
        }
    }

    /// Whether `layer` carries routed experts: DeepSeek first_k_dense_replace, a moe_layer_freq list, or Llama 4's
    /// interleave_moe_layer_step (moe_layers = range(step − 1, n, step), Llama4TextConfig).
    bool is_moe_layer(int layer) const {
        if (s.num_experts <= 0 || layer < h.first_k_dense_replace) return false;
        if (static_cast<std::size_t>(layer) < h.moe_layer_freq.size()) return h.moe_layer_freq[layer] != 0;
        if (h.interleave_moe_layer_step > 1) return (layer + 1) % h.interleave_moe_layer_step == 0;
        return true;
    }

    void mlp(int layer) {
        if (h.model_type == "nemotron_h") {
            nemotron_h_block(layer);
            return;
        }
        if (!h.layer_mlp_widths.empty()) {  // DeciLM block_configs: a per-layer width, none, or a linear
            const int w = static_cast<std::size_t>(layer) < h.layer_mlp_widths.size() ? h.layer_mlp_widths[layer] : 0;
            p.dense_mlp += w > 0 ? 3 * hidden() * w : (w < 0 ? hidden() * hidden() : 0);
            return;
        }
        if (!is_moe_layer(layer)) {
            // gate + up + down, or up + down for the non-gated families (HfArchitecture::gated_mlp).
            const i64 matrices = h.gated_mlp ? 3 : 2;
            p.dense_mlp += matrices * hidden() *
                           (h.dense_intermediate_size > 0 ? h.dense_intermediate_size : h.intermediate_size);
            return;
        }
        const i64 e = s.num_experts;
        p.routed_experts += e * 3 * hidden() * h.moe_intermediate_size;
        if (h.model_type == "gpt_oss") p.routed_experts += e * (2LL * h.moe_intermediate_size + hidden());
        p.router += hidden() * e + (h.model_type == "gpt_oss" || h.model_type.rfind("deepseek", 0) == 0 ? e : 0);
        p.shared_experts += static_cast<i64>(h.n_shared_experts) * 3 * hidden() * h.moe_intermediate_size;
        if (h.shared_expert_intermediate_size > 0) {
            p.shared_experts += 3 * hidden() * h.shared_expert_intermediate_size + hidden();
        }
        // Llama 4: every MoE layer also runs one shared expert as wide as a routed one (modeling_llama4.py
        // Llama4TextMoe.shared_expert); the config has no key for it.
        if (h.model_type.rfind("llama4", 0) == 0) p.shared_experts += 3 * hidden() * h.moe_intermediate_size;
    }
};

}  // namespace

std::int64_t per_layer_embedding_params(const HfArchitecture& arch, std::int64_t hidden, std::int64_t layers) {
    const std::int64_t p = arch.hidden_size_per_layer_input;
    if (p <= 0 || layers <= 0) return 0;
    const std::int64_t v = arch.vocab_size_per_layer_input > 0 ? arch.vocab_size_per_layer_input : arch.vocab_size;
    SatInt n = SatInt{v} * (layers * p);  // embed_tokens_per_layer
    n += SatInt{hidden} * (layers * p);   // per_layer_model_projection
    n += SatInt{p};                       // per_layer_projection_norm
    n += SatInt{layers} * (2 * hidden * p + hidden);  // per_layer_input_gate + per_layer_projection + its norm
    return n.v;
}

std::int64_t ParamBreakdown::total() const {
    SatInt t = embedding;
    for (std::int64_t x : {lm_head, attention, recurrent, dense_mlp, routed_experts, shared_experts, router, norms}) t += x;
    return t.v;
}

std::int64_t ParamBreakdown::active(const ModelSpec& spec) const {
    if (spec.num_experts <= 0 || spec.num_experts_per_tok <= 0) return total();
    const std::int64_t unused = routed_experts / spec.num_experts * (spec.num_experts - spec.num_experts_per_tok);
    return total() - unused;
}

ParamBreakdown count_parameters(const ModelSpec& spec, const HfArchitecture& arch) {
    Counter c{spec, arch, {}};
    const std::int64_t hidden = spec.hidden_size;
    c.p.embedding = static_cast<std::int64_t>(arch.vocab_size) * hidden;
    c.p.lm_head = arch.tie_word_embeddings ? 0 : c.p.embedding;
    c.p.embedding += static_cast<std::int64_t>(arch.learned_positions) * hidden;  // GPT-2 / GPTBigCode wpe
    const bool gemma = arch.model_type.rfind("gemma", 0) == 0;
    for (std::size_t i = 0; i < spec.layers.size(); ++i) {
        c.mixer(spec.layers[i]);
        if (i < arch.layer_linear_attention.size() && arch.layer_linear_attention[i]) c.p.attention += hidden * hidden;
        if (i < spec.parallel_caches.size()) c.mixer(spec.parallel_caches[i]);
        c.mlp(static_cast<int>(i));
        c.p.norms += (gemma ? 4 : 2) * hidden;
    }
    // Gemma 3n/4 KV-shared layers still own their projections: count them as the attention they reuse.
    // The reader keeps num_kv_shared_layers < num_hidden_layers; an inline model is not re-checked here.
    if (spec.num_kv_shared_layers > 0 && static_cast<std::size_t>(spec.num_kv_shared_layers) < spec.layers.size()) {
        for (int k = 0; k < spec.num_kv_shared_layers; ++k) {
            const std::size_t src = spec.layers.size() - 1 - static_cast<std::size_t>(spec.num_kv_shared_layers);
            c.mixer(spec.layers[src]);
        }
    }
    c.p.norms += hidden;  // final norm
    c.p.embedding += per_layer_embedding_params(arch, hidden, static_cast<std::int64_t>(spec.layers.size()));
    return c.p;
}

}  // namespace kvcalc
